//! The warpgroup MMA (`cg_kernels::wgmma`) on the simulator and, where a
//! GPU is found, on the GPU (the `sm_90a` PTX that cg-build's
//! `arch_specific` adds to the lab's module):
//!
//! * the probe: every element of a 64 × 64 × 64 product (bf16 and f16)
//!   against the host's, bit for bit (small integers: exact sums) — the
//!   check that the descriptors and the accumulator layout are the
//!   hardware's;
//! * the GEMM: `c = a · bᵀ` at a small shape on the simulator, and on the
//!   GPU at 1024³ (every element checked) and 4096³ / 8192³ (a sample of
//!   4096 elements checked), each timed (`WGMMA_GEMM` lines: TFLOP/s).
//!
//! Without a GPU the simulator half runs and the GPU half says it was
//! skipped.

use cg_kernels::wgmma::{GEMM_BM, GEMM_BN, GEMM_SMEM, GEMM_THREADS, PROBE_N};
use cg_kernels::wgmma::{GEMM_WGMMA_BF16, PROBE_WGMMA_BF16, PROBE_WGMMA_F16};
use cg_kernels::wgmma::{exact_small as small, gemm_a, gemm_b, gemm_check};
use cg_runtime::{Backend, LaunchConfig, Timed, Timing};
use cooperative_groups::tma::Swizzle128B;
use cooperative_groups::{bf16, f16};

include!(concat!(env!("OUT_DIR"), "/lab_ptx.rs"));

/// `a` (m × k) times `b`ᵀ (`b` n × k), row-major, exact for small
/// integers.
fn product_t(a: &[f32], b: &[f32], m: usize, n: usize, k: usize) -> Vec<f32> {
    let mut c = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            c[i * n + j] = (0..k).map(|kk| a[i * k + kk] * b[j * k + kk]).sum();
        }
    }
    c
}

/// The probe's mismatches on `backend`.
fn probe(backend: &Backend, name: &str) -> Vec<String> {
    let mut bad = Vec::new();
    let a: Vec<f32> = (0..64 * 64).map(|i| small(i, 1)).collect();
    let b: Vec<f32> = (0..PROBE_N * 64).map(|i| small(i, 3)).collect();
    let want = product_t(&a, &b, 64, PROBE_N, 64);
    macro_rules! run {
        ($kernel:expr, $t:ty, $what:literal) => {{
            let ab = backend
                .upload(&a.iter().map(|&v| <$t>::from_f32(v)).collect::<Vec<_>>())
                .unwrap();
            let bb = backend
                .upload(&b.iter().map(|&v| <$t>::from_f32(v)).collect::<Vec<_>>())
                .unwrap();
            let mut c = backend.alloc::<f32>(64 * PROBE_N).unwrap();
            backend
                .launch(
                    &$kernel,
                    &LaunchConfig::new(1, 128),
                    (&ab, &bb, c.image_mut(PROBE_N, 64, PROBE_N)),
                )
                .unwrap();
            let got = c.to_vec().unwrap();
            let n = got.iter().zip(&want).filter(|(g, w)| g != w).count();
            println!(
                "{name}: wgmma probe {}: {n} of {} differ from the host's product",
                $what,
                want.len()
            );
            if n > 0 {
                bad.push(format!("{name}: {}: {n} differ", $what));
            }
        }};
    }
    run!(PROBE_WGMMA_BF16, bf16, "bf16");
    run!(PROBE_WGMMA_F16, f16, "f16");
    bad
}

/// Runs the GEMM at `m × n × k` on `backend`; checks every element
/// (`full`) or `GEMM_SAMPLES` of them (`gemm_check`, as `cg-lab compare
/// --only gemm` does); the mismatches, and the median time.
fn gemm(
    backend: &Backend,
    name: &str,
    (m, n, k): (usize, usize, usize),
    full: bool,
) -> Vec<String> {
    let a: Vec<bf16> = (0..m * k).map(gemm_a).collect();
    let b: Vec<bf16> = (0..n * k).map(gemm_b).collect();
    let ab = backend.upload(&a).unwrap();
    let bb = backend.upload(&b).unwrap();
    let ta = backend
        .tensor_map::<bf16, 64, 128, Swizzle128B>(&ab, k, m, k)
        .unwrap();
    let tb = backend
        .tensor_map::<bf16, 64, 256, Swizzle128B>(&bb, k, n, k)
        .unwrap();
    let mut c = backend.alloc::<f32>(m * n).unwrap();
    let blocks = (m.div_ceil(GEMM_BM) * n.div_ceil(GEMM_BN)) as u32;
    let cfg = LaunchConfig::new(blocks, GEMM_THREADS).with_dynamic_smem(GEMM_SMEM);
    let timing = Timing {
        warmups: 2,
        repeats: 9,
        ..Timing::default()
    };
    let timed = backend
        .time(&timing, |q| {
            q.launch(&GEMM_WGMMA_BF16, &cfg, (&ta, &tb, c.image_mut(n, m, n)))
        })
        .unwrap();
    let got = c.to_vec().unwrap();
    let check = gemm_check(&a, &b, &got, (m, n, k), full);
    let wrong = check.wrong;
    let flops = 2.0 * m as f64 * n as f64 * k as f64;
    match timed {
        Timed::Gpu(t) => println!(
            "WGMMA_GEMM {name} {m}x{n}x{k}: {:.4} ms median (p10 {:.4}, p90 {:.4}), {:.1} TFLOP/s; {wrong} of {} checked elements wrong",
            t.median_ms,
            t.p10_ms,
            t.p90_ms,
            flops / (t.median_ms * 1e-3) / 1e12,
            check.checked
        ),
        Timed::NotTimed => println!(
            "{name}: gemm {m}x{n}x{k}: {wrong} of {} elements wrong",
            check.checked
        ),
    }
    if wrong > 0 {
        vec![format!("{name}: gemm {m}x{n}x{k}: {wrong} wrong")]
    } else {
        Vec::new()
    }
}

#[test]
fn wgmma_matches_the_host_product() {
    let sim = Backend::sim();
    let mut bad = probe(&sim, "simulator");
    bad.extend(gemm(&sim, "simulator", (128, 256, 128), true));
    // M = 192: the second block's second consumer warpgroup has no rows
    // (it must still let go of every stage, or the producer waits forever
    // once the 4-stage ring wraps at K = 320).
    bad.extend(gemm(&sim, "simulator", (192, 256, 320), true));
    match Backend::gpu(0, &LAB_PTX) {
        Ok(gpu) => {
            bad.extend(probe(&gpu, "GPU"));
            bad.extend(gemm(&gpu, "GPU", (1024, 1024, 1024), true));
            for s in [4096, 8192] {
                bad.extend(gemm(&gpu, "GPU", (s, s, s), false));
            }
        }
        Err(e) => eprintln!("GPU half skipped: no GPU ({e})"),
    }
    assert!(bad.is_empty(), "{bad:#?}");
}
