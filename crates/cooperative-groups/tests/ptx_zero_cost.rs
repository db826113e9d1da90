//! Static zero-cost checks on the PTX of `cg-kernels`' probe kernels
//! (`cg_kernels::collectives::probes`), per SM:
//!
//! * `reduce(&tile32, u32, Plus)` is one `redux.sync.add` on sm_80/sm_90 and
//!   the five-step `shfl.sync.bfly` tree on sm_70;
//! * `reduce(&tile32, f32, Plus)` contains exactly the hand-written
//!   `__shfl_xor_sync` tree (same shuffles, same operands, once), plus the
//!   out-of-line path for blocks with a partial warp;
//! * no collective is duplicated: each probe has exactly the collectives
//!   its algorithm needs;
//! * a 64-thread tile syncs with a named barrier (`bar.sync %r, %r`) or, if
//!   it is the whole block, `bar.sync 0`.
//!
//! The PTX comes from `$CG_KERNELS_PTX_DIR/sm_{70,80,90}.ptx` when set
//! (e.g. the files `cg-runtime`'s build script writes), else this test
//! builds it with the recipe of DESIGN.md into `target/nvptx/sm_XX/`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const SMS: [u32; 3] = [70, 80, 90];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// Builds (or finds) the PTX of `cg-kernels` for every SM.
fn ptx_files() -> Vec<(u32, String)> {
    if let Ok(dir) = std::env::var("CG_KERNELS_PTX_DIR") {
        return SMS
            .iter()
            .map(|sm| {
                let p = Path::new(&dir).join(format!("sm_{sm}.ptx"));
                (
                    *sm,
                    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
                )
            })
            .collect();
    }
    let root = root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let children: Vec<_> = SMS
        .iter()
        .map(|&sm| {
            let dir = root.join("target/nvptx").join(format!("sm_{sm}"));
            let out = dir.join("zero-cost-test.ptx");
            let mut cmd = Command::new(&cargo);
            // A clean environment: the test harness's cargo variables must not leak in.
            for (k, _) in std::env::vars_os() {
                let k = k.to_string_lossy().into_owned();
                if (k.starts_with("CARGO") && k != "CARGO_HOME")
                    || k.starts_with("RUSTC")
                    || k.starts_with("RUSTFLAGS")
                    || k.starts_with("__CARGO")
                {
                    cmd.env_remove(&k);
                }
            }
            let features = if sm >= 90 {
                " -Ctarget-feature=+ptx80"
            } else {
                ""
            };
            cmd.current_dir(&root)
                .env("RUSTFLAGS", format!("-Ctarget-cpu=sm_{sm}{features}"))
                .args([
                    "rustc",
                    "-p",
                    "cg-kernels",
                    "--profile",
                    "ptx",
                    "-Zbuild-std=core",
                ])
                .args([
                    "--target",
                    "nvptx64-nvidia-cuda",
                    "--crate-type",
                    "staticlib",
                    "--target-dir",
                ])
                .arg(&dir)
                .arg("--")
                .arg(format!("--emit=asm={}", out.display()))
                .stdout(Stdio::null())
                .stderr(Stdio::piped());
            (
                sm,
                out,
                cmd.spawn().expect("running cargo for the nvptx build"),
            )
        })
        .collect();
    children
        .into_iter()
        .map(|(sm, out, child)| {
            let o = child.wait_with_output().unwrap();
            assert!(
                o.status.success(),
                "nvptx build for sm_{sm} failed:\n{}",
                String::from_utf8_lossy(&o.stderr)
            );
            (sm, std::fs::read_to_string(&out).unwrap())
        })
        .collect()
}

/// The instructions of kernel `name` (comments and blank lines dropped).
fn entry(ptx: &str, name: &str) -> Vec<String> {
    let start = ptx
        .find(&format!(".entry {name}("))
        .unwrap_or_else(|| panic!("no kernel {name}"));
    let body = &ptx[start..];
    let open = body.find("\n{").unwrap();
    let close = body[open..].find("\n}").unwrap() + open;
    body[open + 2..close]
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with(".reg"))
        .map(String::from)
        .collect()
}

fn count(ins: &[String], op: &str) -> usize {
    ins.iter().filter(|l| l.starts_with(op)).count()
}

/// `shfl.sync.bfly.b32 %d, %v, B, C, MASK;` → `(B, C, MASK)`, in order.
fn bfly_operands(ins: &[String]) -> Vec<String> {
    ins.iter()
        .filter(|l| l.starts_with("shfl.sync.bfly.b32"))
        .map(|l| {
            l.split(',')
                .skip(2)
                .map(str::trim)
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect()
}

#[test]
fn probes_lower_to_the_expected_instructions() {
    for (sm, ptx) in ptx_files() {
        // Integer tile reduce: redux.sync on sm_80+, the shuffle tree before.
        let r = entry(&ptx, "probe_tile32_reduce_u32");
        if sm >= 80 {
            assert_eq!(count(&r, "redux.sync.add"), 1, "sm_{sm}: {r:#?}");
            assert_eq!(count(&r, "shfl.sync"), 0, "sm_{sm}: {r:#?}");
        } else {
            assert!(
                !ptx.contains("redux.sync"),
                "sm_{sm} PTX must not use redux.sync"
            );
            assert_eq!(
                bfly_operands(&r),
                ["16,31,-1;", "8,31,-1;", "4,31,-1;", "2,31,-1;", "1,31,-1;"],
                "sm_{sm}"
            );
        }
        if sm < 90 {
            assert!(
                !ptx.contains("elect.sync"),
                "sm_{sm} PTX must not use elect.sync"
            );
        }

        // Float tile reduce: the hand-written tree, exactly once, plus the
        // partial-warp path (5 × shfl.up + 1 × shfl.idx), nothing else.
        let lib = entry(&ptx, "probe_tile32_reduce_f32");
        let hand = entry(&ptx, "probe_handwritten_reduce_f32");
        assert_eq!(
            bfly_operands(&lib),
            bfly_operands(&hand),
            "sm_{sm}: library tree != hand-written tree"
        );
        assert_eq!(count(&hand, "shfl.sync.bfly"), 5);
        assert_eq!(count(&lib, "shfl.sync.up"), 5, "sm_{sm}: {lib:#?}");
        assert_eq!(count(&lib, "shfl.sync.idx"), 1, "sm_{sm}: {lib:#?}");
        assert_eq!(
            count(&lib, "shfl.sync"),
            11,
            "sm_{sm}: a collective was duplicated: {lib:#?}"
        );
        assert_eq!(
            count(&lib, "add.rn.f32"),
            count(&hand, "add.rn.f32") + 5,
            "sm_{sm}"
        );

        // Scan: 5 × shfl.up, nothing else.
        let scan = entry(&ptx, "probe_tile32_scan_u32");
        assert_eq!(count(&scan, "shfl.sync.up"), 5, "sm_{sm}: {scan:#?}");
        assert_eq!(count(&scan, "shfl.sync"), 5, "sm_{sm}: {scan:#?}");

        // 64-thread tile: named barrier (register id and count), or bar.sync 0
        // when the tile is the block; two of each per collective, no more.
        let t64 = entry(&ptx, "probe_tile64_reduce_f32");
        let named = t64
            .iter()
            .filter(|l| l.starts_with("bar.sync") && l.contains("%r") && l.contains(','))
            .count();
        assert_eq!(named, 2, "sm_{sm}: {t64:#?}");
        assert!(count(&t64, "bar.sync") >= 4, "sm_{sm}: {t64:#?}");

        // 128-thread tile sync: one named barrier, one block barrier, no shared memory.
        let t128 = entry(&ptx, "probe_tile128_sync");
        assert_eq!(count(&t128, "bar.sync"), 2, "sm_{sm}: {t128:#?}");
        assert!(
            !t128.iter().any(|l| l.contains(".shared")),
            "sm_{sm}: {t128:#?}"
        );
    }
}
