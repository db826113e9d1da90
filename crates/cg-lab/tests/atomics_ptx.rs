//! The atomics lower to the PTX the CUDA toolchain emits for the same code.
//!
//! * Pinned, per SM: each `probe_atomic_*` kernel of `cg_kernels::atomics`
//!   (one operation each) contains exactly the expected memory-model
//!   instructions — the forms libcu++ writes for `cuda::atomic_ref`
//!   (`atom.acq_rel.gpu.cas.b32`, `ld.acquire.gpu.b32`, `fence.sc.cta;
//!   ld.acquire.cta.b32`, …) and nvcc for the classic calls (`membar.gl` for
//!   `__threadfence`, `red.global.add` for an unused `atomicAdd`).
//! * Against nvcc: `docs/results/h200/runs/2026-11-30-atomics-b31cd69/atomics_nvcc_sm90.ptx` is
//!   `nvcc -ptx -arch=sm_90` of `reference/cuda/atomics.cu`, run on the GPU
//!   machine. For every probe, nvcc's twin `cpp_probe_…` has the same
//!   instructions, up to the state space (nvcc writes `.global` where it
//!   proves it; the library's addresses are generic) and the order of the
//!   qualifiers (libcu++ writes `atom.cas.acq_rel.gpu`, the ISA
//!   `atom.acq_rel.gpu.cas`), the ISA's defaults made explicit (nvcc's
//!   classic `atom.global.cas.b32` is `.relaxed.gpu`), and the `atom` nvcc
//!   writes for an unused `atomicAdd` (ptxas makes it a `RED`; the library
//!   writes `red.global.add` itself).
//!
//! That every embedded PTX assembles for sm_70/80/90 is `ptxas.rs`'s test.

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

fn nvcc_ptx() -> Option<String> {
    let p = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/results/h200/runs/2026-11-30-atomics-b31cd69/atomics_nvcc_sm90.ptx"
    );
    std::fs::read_to_string(p).ok()
}

/// nvcc's PTX for an `atomicAdd` whose result is unused is an `atom`;
/// ptxas turns it into `REDG.E.ADD` (the library writes the `red` itself).
const NVCC_ATOM_FOR_RED: &str = "probe_red_add";

#[test]
fn probes_match_nvcc() {
    let Some(nvcc) = nvcc_ptx() else {
        panic!(
            "docs/results/h200/runs/2026-11-30-atomics-b31cd69/atomics_nvcc_sm90.ptx is missing (nvcc -ptx of reference/cuda/atomics.cu)"
        );
    };
    let ours = LAB_PTX
        .ptx()
        .iter()
        .find(|p| p.sm == 90)
        .expect("sm_90 PTX");
    let mut diffs = BTreeMap::new();
    for (name, _) in PROBES {
        let a: Vec<String> = memory_ops(ours.ptx, name)
            .iter()
            .map(|o| canonical(o))
            .collect();
        let b: Vec<String> = memory_ops(&nvcc, &format!("cpp_{name}"))
            .iter()
            .map(|o| canonical(o))
            .map(|o| {
                if *name == NVCC_ATOM_FOR_RED {
                    o.replacen("atom[", "red[", 1)
                } else {
                    o
                }
            })
            .collect();
        assert!(!a.is_empty(), "{name}: no memory-model instruction");
        if a != b {
            diffs.insert(*name, (a, b));
        }
    }
    assert!(diffs.is_empty(), "Rust vs nvcc: {diffs:#?}");
}
