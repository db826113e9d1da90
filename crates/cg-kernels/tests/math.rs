//! The math kernel on the simulator gives exactly what the host gets by
//! calling the same functions (the same code: bit for bit), for every
//! unary `f32` function, on ordinary, huge, tiny, subnormal and special
//! inputs.

use cg_kernels::math::{MATH_METHODS_F32, MATH_UNARY_F32, UNARY_F32_FUNCTIONS, method_mix};
use cooperative_groups::host::run;

fn inputs() -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        2.0,
        1e-45,
        -1e-45,
        1e-40,
        3.0e38,
        -3.0e38,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::MIN_POSITIVE,
        88.7,
        -103.0,
        1e6,
        1e30,
        std::f32::consts::PI,
        0.25,
        16_777_216.0,
        12_345.678,
    ];
    let mut s = 0x1234_5678u32;
    while v.len() < 1024 {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        v.push(f32::from_bits(s));
    }
    v
}

#[test]
fn simulator_matches_direct_calls_bit_for_bit() {
    let x = inputs();
    let cfg = cg_sim::LaunchConfig::new(4, 256);
    for (f, (name, func)) in UNARY_F32_FUNCTIONS.iter().enumerate() {
        let mut out = vec![0f32; x.len()];
        run(&MATH_UNARY_F32, &cfg, (f as u32, &x[..], &mut out[..])).unwrap();
        for (i, (&xi, &yi)) in x.iter().zip(&out).enumerate() {
            let want = func(xi);
            assert!(
                yi.to_bits() == want.to_bits() || (yi.is_nan() && want.is_nan()),
                "{name}({xi:e}) [{i}]: kernel {yi:e}, host {want:e}"
            );
        }
    }
}

#[test]
fn method_syntax_kernel_matches_the_host() {
    let x = inputs();
    let mut out = vec![0f32; x.len()];
    run(
        &MATH_METHODS_F32,
        &cg_sim::LaunchConfig::new(4, 256),
        (&x[..], &mut out[..]),
    )
    .unwrap();
    for (&xi, &yi) in x.iter().zip(&out) {
        let want = method_mix(xi);
        assert!(
            yi.to_bits() == want.to_bits() || (yi.is_nan() && want.is_nan()),
            "{xi:e}: {yi:e} {want:e}"
        );
    }
}

/// The methods `std` lacks are the library's on the host too (bit for bit);
/// `exp` is `std`'s there (documented: the free function is the portable
/// spelling), which this pins so that a change of Rust's method resolution
/// shows up here.
#[test]
fn method_resolution_on_the_host() {
    use cooperative_groups::math;
    use cooperative_groups::prelude::*;
    for x in inputs() {
        let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
        assert!(same(x.exp10(), math::exp10f(x)), "exp10 {x:e}");
        assert!(same(x.rsqrt(), math::rsqrtf(x)), "rsqrt {x:e}");
        assert!(same(x.sinpi(), math::sinpif(x)), "sinpi {x:e}");
        assert!(same(x.cospi(), math::cospif(x)), "cospi {x:e}");
        assert!(same(x.fdim(1.5), math::fdimf(x, 1.5)), "fdim {x:e}");
        assert!(
            same(x.remainder(0.7), math::remainderf(x, 0.7)),
            "remainder {x:e}"
        );
        assert!(same(x.erfinv(), math::erfinvf(x)), "erfinv {x:e}");
        assert!(same(x.erfcinv(), math::erfcinvf(x)), "erfcinv {x:e}");
        assert!(
            same(x.normcdfinv(), math::normcdfinvf(x)),
            "normcdfinv {x:e}"
        );
        assert!(same(x.lgamma(), math::lgammaf(x)), "lgamma {x:e}");
        assert!(same(x.tgamma(), math::tgammaf(x)), "tgamma {x:e}");
        assert!(
            same(x.exp(), f64::from(x).exp() as f32) || !x.is_finite() || x.abs() > 80.0,
            "exp {x:e}"
        );
    }
}

/// `#[kernel(fast_math)]` on the simulator computes exactly what the
/// `math::fast` intrinsics compute on the host (the same code), with `/`
/// and `sqrt` correctly rounded; its accurate twin computes something
/// else.
#[test]
fn a_fast_math_kernel_computes_the_intrinsics() {
    use cg_kernels::math::{MATH_ACCURATE_F32, MATH_FAST_F32, fast_mix};
    let n = 512;
    let x: Vec<f32> = (0..n).map(|i| (i as f32 - 256.0) / 37.0).collect();
    let y: Vec<f32> = (0..n).map(|i| 0.25 + i as f32 / 19.0).collect();
    let cfg = cg_sim::LaunchConfig::new(2, 256);
    let mut fast = vec![0f32; n];
    run(&MATH_FAST_F32, &cfg, (&x[..], &y[..], &mut fast[..])).unwrap();
    let mut accurate = vec![0f32; n];
    run(
        &MATH_ACCURATE_F32,
        &cfg,
        (&x[..], &y[..], &mut accurate[..]),
    )
    .unwrap();
    let mut differ = 0;
    for i in 0..n {
        let want = fast_mix(x[i], y[i]);
        assert!(
            fast[i].to_bits() == want.to_bits() || (fast[i].is_nan() && want.is_nan()),
            "[{i}] ({:e}, {:e}): kernel {:e}, math::fast {want:e}",
            x[i],
            y[i],
            fast[i]
        );
        differ += usize::from(accurate[i].to_bits() != fast[i].to_bits());
    }
    assert!(
        differ > n / 4,
        "only {differ} of {n} differ from the accurate kernel"
    );
}
