//! The atomics lower to the PTX the CUDA toolchain emits for the same code.
//!
//! * Pinned, per SM: each `probe_atomic_*` kernel of `cg_kernels::atomics`
//!   (one operation each) contains exactly the expected memory-model
//!   instructions — the forms libcu++ writes for `cuda::atomic_ref`
//!   (`atom.acq_rel.gpu.cas.b32`, `ld.acquire.gpu.b32`, `fence.sc.cta;
//!   ld.acquire.cta.b32`, …) and nvcc for the classic calls (`membar.gl` for
//!   `__threadfence`, `red.global.add` for an unused `atomicAdd`).
//! * Against nvcc: `tests/fixtures/atomics_nvcc_sm{80,90}.ptx` are
//!   `nvcc -ptx -arch=sm_XX` of `reference/cuda/atomics.cu`, run on the
//!   GPU machine (an H200, CUDA 13.0, commit 21a43fb; the command in
//!   `tests/fixtures/README.md`). For every probe, nvcc's twin
//!   `cpp_probe_…` has the same instructions, up to the state space (nvcc writes `.global` where it
//!   proves it; the library's addresses are generic) and the order of the
//!   qualifiers (libcu++ writes `atom.cas.acq_rel.gpu`, the ISA
//!   `atom.acq_rel.gpu.cas`), the ISA's defaults made explicit (nvcc's
//!   classic `atom.global.cas.b32` is `.relaxed.gpu`), and the `atom` nvcc
//!   writes for an unused `atomicAdd` (ptxas makes it a `RED`; the library
//!   writes `red.global.add` itself).
//!
//! That every embedded PTX assembles for sm_70/80/90 is `ptxas.rs`'s test.

mod common;

use std::collections::BTreeMap;

include!(concat!(env!("OUT_DIR"), "/lab_ptx.rs"));

/// Every probe and the instructions it must contain, in order. `CLUSTER`
/// stands for the cluster scope's spelling on the SM.
const PROBES: &[(&str, &[&str])] = &[
    (
        "probe_atomic_cas_acq_rel_device",
        &["atom.acq_rel.gpu.cas.b32"],
    ),
    ("probe_atomic_load_acquire_device", &["ld.acquire.gpu.b32"]),
    ("probe_atomic_store_release_device", &["st.release.gpu.b32"]),
    (
        "probe_atomic_load_seq_cst_block",
        &["fence.sc.cta", "ld.acquire.cta.b32"],
    ),
    (
        "probe_atomic_add_seq_cst_system_u64",
        &["fence.sc.sys", "atom.acquire.sys.add.u64"],
    ),
    (
        "probe_atomic_min_relaxed_block_i32",
        &["atom.relaxed.cta.min.s32"],
    ),
    (
        "probe_atomic_add_release_device_f32",
        &["atom.release.gpu.add.f32"],
    ),
    ("probe_atomic_inc", &["atom.relaxed.gpu.inc.u32"]),
    ("probe_atomic_cas", &["atom.relaxed.gpu.cas.b32"]),
    ("probe_red_add", &["red.global.add.u32"]),
    ("probe_red_add_relaxed_device", &["red.relaxed.gpu.add.u32"]),
    (
        "probe_red_add_release_block_f32",
        &["red.release.cta.add.f32"],
    ),
    (
        "probe_red_add_release_device_f64",
        &["red.release.gpu.add.f64"],
    ),
    (
        "probe_red_min_relaxed_system_i64",
        &["red.relaxed.sys.min.s64"],
    ),
    (
        "probe_red_max_release_device_u32",
        &["red.release.gpu.max.u32"],
    ),
    (
        "probe_red_bitwise_block",
        &[
            "red.relaxed.cta.and.b32",
            "red.release.cta.or.b32",
            "red.relaxed.cta.xor.b64",
        ],
    ),
    (
        "probe_red_inc_dec_device",
        &["red.relaxed.gpu.inc.u32", "red.relaxed.gpu.dec.u32"],
    ),
    (
        "probe_fences",
        &[
            "membar.gl",
            "membar.cta",
            "fence.acq_rel.gpu",
            "nanosleep.u32",
        ],
    ),
];

/// The text of kernel `name`, from `.entry` to its closing brace.
fn entry_text<'a>(ptx: &'a str, name: &str) -> &'a str {
    let start = ptx
        .find(&format!(".entry {name}("))
        .unwrap_or_else(|| panic!("no kernel {name}"));
    let body = &ptx[start..];
    let close = body.find("\n}").expect("closing brace");
    &body[..close]
}

/// The memory-model instructions of kernel `name`, in order, opcode and
/// qualifiers only (several may share a line in inline asm).
fn memory_ops(ptx: &str, name: &str) -> Vec<String> {
    let ordered = |q: &str| {
        ["atom.", "red.", "fence.", "membar.", "nanosleep."]
            .iter()
            .any(|p| q.starts_with(p))
            || [".acquire", ".release", ".relaxed", ".volatile"]
                .iter()
                .any(|s| (q.starts_with("ld.") || q.starts_with("st.")) && q.contains(s))
    };
    entry_text(ptx, name)
        .split([';', '\n', '{', '}'])
        .map(str::trim)
        .filter_map(|s| s.split_whitespace().next())
        .filter(|op| ordered(op))
        .map(String::from)
        .collect()
}

#[test]
fn probes_lower_to_the_pinned_instructions() {
    for p in LAB_PTX.ptx() {
        for (name, want) in PROBES {
            let got = memory_ops(p.ptx, name);
            assert_eq!(got, *want, "sm_{}: {name}", p.sm);
        }
    }
}

/// The cluster scope is `.cluster` on sm_90 and the device scope before
/// (no clusters, no `.cluster` in older PTX).
#[test]
fn cluster_scope_by_sm() {
    for p in LAB_PTX.ptx() {
        let red = if p.sm >= 90 {
            "red.relaxed.cluster.add.u32"
        } else {
            "red.relaxed.gpu.add.u32"
        };
        assert_eq!(
            memory_ops(p.ptx, "probe_red_add_relaxed_cluster"),
            [red],
            "sm_{}",
            p.sm
        );
        let ops = memory_ops(p.ptx, "atomic_private");
        let cluster = ops.iter().any(|o| o.contains(".cluster"));
        assert_eq!(cluster, p.sm >= 90, "sm_{}: {ops:?}", p.sm);
        // The f32 scratch word of `atomic_private` is cluster-scoped.
        let add = if p.sm >= 90 {
            "atom.relaxed.cluster.add.f32"
        } else {
            "atom.relaxed.gpu.add.f32"
        };
        assert!(ops.iter().any(|o| o == add), "sm_{}: {ops:?}", p.sm);
    }
}

/// An instruction as a set: its opcode, then its qualifiers sorted, without
/// the state space, with the ISA's defaults made explicit (an `atom` or
/// `red` without `.sem` is `.relaxed`, without `.scope` `.gpu`):
/// `atom.cas.acq_rel.gpu.b32` (libcu++'s order) is `atom.acq_rel.gpu.cas.b32`
/// (the ISA's), and nvcc's `atom.global.inc.u32` for `atomicInc` is
/// `atom.relaxed.gpu.inc.u32`.
fn canonical(op: &str) -> String {
    let mut parts = op.split('.');
    let head = parts.next().unwrap_or_default().to_string();
    let mut q: Vec<&str> = parts
        .filter(|q| !matches!(*q, "global" | "shared"))
        .collect();
    if head == "atom" || head == "red" {
        if !q
            .iter()
            .any(|x| ["relaxed", "acquire", "release", "acq_rel"].contains(x))
        {
            q.push("relaxed");
        }
        if !q
            .iter()
            .any(|x| ["cta", "cluster", "gpu", "sys"].contains(x))
        {
            q.push("gpu");
        }
    }
    q.sort_unstable();
    format!("{head}[{}]", q.join("."))
}

/// The SMs nvcc's PTX is committed for: CUDA 13's nvcc no longer builds
/// for sm_70 (that SM's probes are pinned by `PROBES` alone).
const NVCC_SMS: [u32; 2] = [80, 90];

/// `nvcc -ptx -arch=sm_{sm}` of `reference/cuda/atomics.cu`, run on the GPU
/// machine.
fn nvcc_ptx(sm: u32) -> String {
    let p = format!(
        "{}/tests/fixtures/atomics_nvcc_sm{sm}.ptx",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&p).unwrap_or_else(|e| {
        panic!("{p}: {e} (nvcc -ptx -arch=sm_{sm} of reference/cuda/atomics.cu)")
    })
}

/// nvcc's PTX for an atomic whose result is unused is an `atom`; the
/// library writes the `red` itself, and ptxas makes the same SASS of both
/// (`REDG.E.ADD` for the global `red.global.add`, the generic forms
/// `ATOM… PT, RZ` with the result dropped: `red_probes_assemble_like_nvcc`).
fn nvcc_atom_is_red(name: &str) -> bool {
    name.starts_with("probe_red_")
}

/// The `red` probes, and the cluster-scope one (not in `PROBES`: its scope
/// depends on the SM).
fn red_probes() -> impl Iterator<Item = &'static str> + Clone {
    PROBES
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| n.starts_with("probe_red_"))
        .chain(["probe_red_add_relaxed_cluster"])
}

/// Every probe, and the cluster-scope `red` (whose scope depends on the
/// SM), against nvcc's twin on each SM the library builds for.
#[test]
fn probes_match_nvcc() {
    let names = PROBES
        .iter()
        .map(|(n, _)| *n)
        .chain(["probe_red_add_relaxed_cluster"]);
    let mut diffs = BTreeMap::new();
    for ours in LAB_PTX.ptx().iter().filter(|p| NVCC_SMS.contains(&p.sm)) {
        let nvcc = nvcc_ptx(ours.sm);
        for name in names.clone() {
            let a: Vec<String> = memory_ops(ours.ptx, name)
                .iter()
                .map(|o| canonical(o))
                .collect();
            let b: Vec<String> = memory_ops(&nvcc, &format!("cpp_{name}"))
                .iter()
                .map(|o| canonical(o))
                .map(|o| {
                    if nvcc_atom_is_red(name) {
                        o.replacen("atom[", "red[", 1)
                    } else {
                        o
                    }
                })
                .collect();
            assert!(!a.is_empty(), "{name}: no memory-model instruction");
            if a != b {
                diffs.insert(format!("sm_{}: {name}", ours.sm), (a, b));
            }
        }
    }
    assert!(diffs.is_empty(), "Rust vs nvcc: {diffs:#?}");
}

/// The SASS of every `red` probe and of its nvcc twin, both assembled by
/// this machine's ptxas: the same instructions (opcodes with their
/// modifiers, in order) on each SM nvcc's PTX is committed for.
#[test]
fn red_probes_assemble_like_nvcc() {
    use cg_runtime::{sass, tools};
    let (Some(ptxas), Some(nvdisasm)) = (
        tools::require_tool_in_ci("ptxas"),
        tools::require_tool_in_ci("nvdisasm"),
    ) else {
        return;
    };
    let listing = |ptx: &str, sm: u32| common::sass(&ptxas, &nvdisasm, ptx, sm).unwrap();
    for ours in LAB_PTX.ptx().iter().filter(|p| NVCC_SMS.contains(&p.sm)) {
        // nvcc 13 writes PTX ISA 9.0; this ptxas (12.9) reads up to 8.8,
        // and the twins use nothing newer.
        let nvcc = nvcc_ptx(ours.sm).replacen(".version 9.0", ".version 8.8", 1);
        let a = listing(ours.ptx, ours.sm);
        let b = listing(&nvcc, ours.sm);
        // nvcc proves `atomicInc`'s pointer global (`atom.global.inc`, SASS
        // `RED`); the library's `AtomicRef` is generic (`ATOM … RZ`), as
        // nvcc's own generic twins above.
        for name in red_probes().filter(|n| *n != "probe_red_inc_dec_device") {
            let mine = sass::opcodes(&a[name]);
            let theirs = sass::opcodes(&b[&format!("cpp_{name}")]);
            assert_eq!(mine, theirs, "sm_{}: {name}", ours.sm);
            assert!(
                mine.iter()
                    .any(|o| o.starts_with("RED") || o.starts_with("ATOM")),
                "sm_{}: {name}: {mine:?}",
                ours.sm
            );
        }
    }
}
