//! The warp MMA's probe kernels (`cg_kernels::typed::probe_mma*`) on the
//! simulator and, where a GPU is found, on the GPU: every element of one
//! 16 × K × 8 product against the host's, bit for bit (integer-valued
//! inputs, whose sums are exact in `f32`), for each input type and for the
//! `ldmatrix` path — the check that the fragment layouts are the
//! hardware's. Without a GPU the simulator half runs and the GPU half says
//! it was skipped.

use cg_kernels::typed::{
    PROBE_MMA_BF16, PROBE_MMA_F16, PROBE_MMA_FP8_E4M3, PROBE_MMA_FP8_E5M2, PROBE_MMA_INT_I8,
    PROBE_MMA_INT_U8, PROBE_MMA_LDMATRIX,
};
use cg_runtime::{Backend, LaunchConfig};
use cooperative_groups::{bf16, e4m3, e5m2, f16};

include!(concat!(env!("OUT_DIR"), "/lab_ptx.rs"));

/// `a` (16 × k) times `b` (k × 8), row-major, as `f64`.
fn product(a: &[f64], b: &[f64], k: usize) -> Vec<f64> {
    let mut c = vec![0.0; 128];
    for i in 0..16 {
        for j in 0..8 {
            c[i * 8 + j] = (0..k).map(|kk| a[i * k + kk] * b[kk * 8 + j]).sum();
        }
    }
    c
}

/// Small integers: exact in every input type, sums exact in `f32`.
fn small(i: usize, salt: usize) -> f64 {
    ((i * 7 + salt) % 9) as f64 - 4.0
}

/// Runs every probe on `backend`; the mismatches, described.
fn check(backend: &Backend, name: &str) -> Vec<String> {
    let mut bad = Vec::new();
    let cfg = LaunchConfig::new(1, 32);
    let mut compare = |what: &str, got: Vec<f64>, want: Vec<f64>| {
        let n = got.iter().zip(&want).filter(|(g, w)| g != w).count();
        println!("{name}: {what}: {n} of 128 differ from the host's product");
        if n > 0 {
            bad.push(format!(
                "{name}: {what}: {n} differ; got {got:?}, want {want:?}"
            ));
        }
    };
    macro_rules! float16 {
        ($kernel:expr, $t:ty, $what:literal) => {{
            let a: Vec<f64> = (0..256).map(|i| small(i, 1)).collect();
            let b: Vec<f64> = (0..128).map(|i| small(i, 5)).collect();
            let ab = backend
                .upload(&a.iter().map(|&v| <$t>::from_f64(v)).collect::<Vec<_>>())
                .unwrap();
            let bb = backend
                .upload(&b.iter().map(|&v| <$t>::from_f64(v)).collect::<Vec<_>>())
                .unwrap();
            let mut c = backend.alloc::<f32>(128).unwrap();
            backend
                .launch(&$kernel, &cfg, (&ab, &bb, c.image_mut(8, 16, 8)))
                .unwrap();
            let got = c.to_vec().unwrap().iter().map(|&v| v as f64).collect();
            compare($what, got, product(&a, &b, 16));
        }};
    }
    float16!(PROBE_MMA_BF16, bf16, "bf16 from_fn");
    float16!(PROBE_MMA_F16, f16, "f16 from_fn");
    float16!(PROBE_MMA_LDMATRIX, bf16, "bf16 ldmatrix");
    macro_rules! eight {
        ($kernel:expr, $t:ty, $to:expr, $acc:ty, $shift:expr, $what:literal) => {{
            let a: Vec<f64> = (0..512).map(|i| small(i, 2) + $shift).collect();
            let b: Vec<f64> = (0..256).map(|i| small(i, 3) + $shift).collect();
            let ab = backend
                .upload(&a.iter().map(|&v| $to(v)).collect::<Vec<$t>>())
                .unwrap();
            let bb = backend
                .upload(&b.iter().map(|&v| $to(v)).collect::<Vec<$t>>())
                .unwrap();
            let mut c = backend.alloc::<$acc>(128).unwrap();
            backend
                .launch(&$kernel, &cfg, (&ab, &bb, c.image_mut(8, 16, 8)))
                .unwrap();
            let got = c.to_vec().unwrap().iter().map(|&v| v as f64).collect();
            compare($what, got, product(&a, &b, 32));
        }};
    }
    eight!(PROBE_MMA_INT_I8, i8, |v: f64| v as i8, i32, 0.0, "i8");
    eight!(PROBE_MMA_INT_U8, u8, |v: f64| v as u8, i32, 4.0, "u8");
    eight!(
        PROBE_MMA_FP8_E4M3,
        e4m3,
        |v: f64| e4m3::from_f32_satfinite(v as f32),
        f32,
        0.0,
        "e4m3"
    );
    eight!(
        PROBE_MMA_FP8_E5M2,
        e5m2,
        |v: f64| e5m2::from_f32_satfinite(v as f32),
        f32,
        0.0,
        "e5m2"
    );
    bad
}

#[test]
fn mma_probes_match_the_host_product() {
    let mut bad = check(&Backend::sim(), "simulator");
    match Backend::gpu(0, &LAB_PTX) {
        Ok(gpu) => bad.extend(check(&gpu, "GPU")),
        Err(e) => eprintln!("GPU half skipped: no GPU ({e})"),
    }
    assert!(bad.is_empty(), "{bad:#?}");
}
