//! The math library on a GPU against the simulator (the same code on the
//! host): every accurate function, `f32` and `f64`, bit for bit, the directed-rounding
//! intrinsics bit for bit (the simulator computes them exactly), the fast
//! intrinsics within their documented error. Skipped (with a message)
//! where no GPU is found; `CG_MATH_GPU_INPUTS` sets the inputs per function
//! (default 2^22: random bit patterns plus special values).

use cg_kernels::math::{
    MATH_INTRINSICS_F32, MATH_UNARY_F32, MATH_UNARY_F64, UNARY_F32_FUNCTIONS, UNARY_F64_FUNCTIONS,
};
use cg_runtime::{Backend, LaunchConfig};

include!(concat!(env!("OUT_DIR"), "/lab_ptx.rs"));

fn inputs(n: usize) -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        2.0,
        1e-45,
        -1e-40,
        f32::MIN_POSITIVE,
        3e38,
        -3e38,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        88.72,
        -103.9,
        105_615.0,
        1e30,
        0.999_999_9,
    ];
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    while v.len() < n {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        v.push(f32::from_bits(s as u32));
        v.push(f32::from_bits((s >> 32) as u32));
    }
    v.truncate(n);
    v
}

fn inputs_f64(n: usize) -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        2.0,
        f64::from_bits(1),
        -1e-310,
        f64::MIN_POSITIVE,
        1.7e308,
        -1.7e308,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        709.78,
        -745.1,
        1e22,
        0.999_999_999_999_9,
        26.5,
        -170.5,
    ];
    let mut s = 0x2545_f491_4f6c_dd1du64;
    while v.len() < n {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        v.push(f64::from_bits(s));
        // Half of them in [-32, 32], where most functions do their work.
        v.push(((s >> 11) as f64 / 9_007_199_254_740_992.0 - 0.5) * 64.0);
    }
    v.truncate(n);
    v
}

#[test]
fn gpu_matches_the_simulator() {
    let gpu = match Backend::gpu(0, &LAB_PTX) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("skipping: no GPU ({e})");
            return;
        }
    };
    let n: usize = std::env::var("CG_MATH_GPU_INPUTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1 << 22);
    let x = inputs(n);
    let cfg = LaunchConfig::linear((n as u32).div_ceil(256), 256);
    let input = gpu.upload(&x).unwrap();
    let mut failures = Vec::new();
    for (f, (name, func)) in UNARY_F32_FUNCTIONS.iter().enumerate() {
        let mut out = gpu.alloc::<f32>(n).unwrap();
        gpu.launch(&MATH_UNARY_F32, &cfg, (f as u32, &input, &mut out))
            .unwrap();
        let got = out.to_vec().unwrap();
        let mut bad = 0usize;
        let mut first = None;
        for (&xi, &g) in x.iter().zip(&got) {
            let h = func(xi);
            if g.to_bits() != h.to_bits() && !(g.is_nan() && h.is_nan()) {
                bad += 1;
                first.get_or_insert((xi, g, h));
            }
        }
        println!("{name}: {n} inputs, {bad} differ from the simulator");
        if let Some((xi, g, h)) = first {
            failures.push(format!(
                "{name}({xi:e}): GPU {g:e}, simulator {h:e} ({bad} inputs)"
            ));
        }
    }
    // The f64 functions: the same check on f64 bit patterns (every binade)
    // and the special values.
    let xd = inputs_f64(n);
    let input_d = gpu.upload(&xd).unwrap();
    for (f, (name, func)) in UNARY_F64_FUNCTIONS.iter().enumerate() {
        let mut out = gpu.alloc::<f64>(n).unwrap();
        gpu.launch(&MATH_UNARY_F64, &cfg, (f as u32, &input_d, &mut out))
            .unwrap();
        let got = out.to_vec().unwrap();
        let mut bad = 0usize;
        let mut first = None;
        for (&xi, &g) in xd.iter().zip(&got) {
            let h = func(xi);
            if g.to_bits() != h.to_bits() && !(g.is_nan() && h.is_nan()) {
                bad += 1;
                first.get_or_insert((xi, g, h));
            }
        }
        println!("{name}: {n} inputs, {bad} differ from the simulator");
        if let Some((xi, g, h)) = first {
            failures.push(format!(
                "{name}({xi:e}): GPU {g:e}, simulator {h:e} ({bad} inputs)"
            ));
        }
    }
    // The intrinsics kernel sums every intrinsic: the directed roundings are
    // exact on both sides, the fast ones within their error (`tanh.approx`:
    // 2^-11 relative), so the sums agree to that, but near tan's poles.
    let small: Vec<f32> = (0..65_536)
        .map(|i| (i as f32 - 32_768.0) / 8_192.0)
        .collect();
    let si = gpu.upload(&small).unwrap();
    let mut so = gpu.alloc::<f32>(small.len()).unwrap();
    let cfg2 = LaunchConfig::linear(256, 256);
    gpu.launch(&MATH_INTRINSICS_F32, &cfg2, (&si, &mut so))
        .unwrap();
    let g = so.to_vec().unwrap();
    let sim = Backend::sim();
    let (hi, mut ho) = (
        sim.upload(&small).unwrap(),
        sim.alloc::<f32>(small.len()).unwrap(),
    );
    sim.launch(&MATH_INTRINSICS_F32, &cfg2, (&hi, &mut ho))
        .unwrap();
    let h = ho.to_vec().unwrap();
    // Each difference over what the fast intrinsics may differ by: 2^-11
    // of the sum, plus `__tanf`'s share, which grows without bound at
    // tan's poles (`sin.approx`/`cos.approx` are each within 2^-20.5
    // absolute: the quotient within that times (1 + |tan v|) / |cos v|;
    // one input lies 4.4e-6 from -π/2).
    let worst = small
        .iter()
        .zip(g.iter().zip(&h))
        .filter(|(_, (a, b))| a != b && !(a.is_nan() && b.is_nan()))
        .map(|(&v, (a, b))| {
            let c = (v as f64).cos().abs();
            let tan_share = 2f64.powf(-20.5) * (1.0 + (v as f64).tan().abs()) / c;
            let allowed = 2e-3 * b.abs().max(1.0) as f64 + tan_share;
            (*a as f64 - *b as f64).abs() / allowed
        })
        .fold(
            0f64,
            |m, r| if r.is_nan() { f64::INFINITY } else { m.max(r) },
        );
    println!(
        "intrinsics: largest difference GPU vs simulator {worst:.3} of the allowed \
         (2^-11 relative plus __tanf's error near its poles)"
    );
    if worst > 1.0 {
        failures.push(format!("intrinsics differ by {worst:.3} times the allowed"));
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
