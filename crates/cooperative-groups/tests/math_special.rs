//! Special values of `cooperative_groups::math` as CUDA's Math API documents
//! them (±0, ±∞, NaN, subnormals, the exact points): each row is checked bit
//! for bit (any NaN matches NaN).

use cooperative_groups::math::*;

const INF: f32 = f32::INFINITY;
const NAN: f32 = f32::NAN;
const SUB: f32 = 1e-40; // a subnormal
const PI_2: f32 = core::f32::consts::FRAC_PI_2;
const PI: f32 = core::f32::consts::PI;

fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

#[test]
fn unary_special_values() {
    type F = fn(f32) -> f32;
    let rows: &[(&str, F, f32, f32)] = &[
        ("expf", expf, 0.0, 1.0),
        ("expf", expf, -0.0, 1.0),
        ("expf", expf, -INF, 0.0),
        ("expf", expf, INF, INF),
        ("expf", expf, NAN, NAN),
        ("expf", expf, 89.0, INF),
        ("expf", expf, -104.0, 0.0),
        ("exp2f", exp2f, 3.0, 8.0),
        ("exp2f", exp2f, -149.0, f32::from_bits(1)),
        ("exp2f", exp2f, 128.0, INF),
        ("exp2f", exp2f, -INF, 0.0),
        ("exp10f", exp10f, 2.0, 100.0),
        ("exp10f", exp10f, -INF, 0.0),
        ("expm1f", expm1f, -0.0, -0.0),
        ("expm1f", expm1f, 0.0, 0.0),
        ("expm1f", expm1f, -INF, -1.0),
        ("expm1f", expm1f, INF, INF),
        ("expm1f", expm1f, SUB, SUB),
        ("logf", logf, 0.0, -INF),
        ("logf", logf, -0.0, -INF),
        ("logf", logf, 1.0, 0.0),
        ("logf", logf, -1.0, NAN),
        ("logf", logf, INF, INF),
        ("logf", logf, NAN, NAN),
        ("log2f", log2f, 8.0, 3.0),
        ("log2f", log2f, f32::from_bits(1), -149.0),
        ("log2f", log2f, 0.0, -INF),
        ("log10f", log10f, 1000.0, 3.0),
        ("log10f", log10f, -0.0, -INF),
        ("log1pf", log1pf, -0.0, -0.0),
        ("log1pf", log1pf, -1.0, -INF),
        ("log1pf", log1pf, -2.0, NAN),
        ("log1pf", log1pf, INF, INF),
        ("log1pf", log1pf, SUB, SUB),
        ("sqrtf", sqrtf, -0.0, -0.0),
        ("sqrtf", sqrtf, -1.0, NAN),
        ("sqrtf", sqrtf, INF, INF),
        ("rsqrtf", rsqrtf, 0.0, INF),
        ("rsqrtf", rsqrtf, -0.0, -INF),
        ("rsqrtf", rsqrtf, INF, 0.0),
        ("rsqrtf", rsqrtf, 4.0, 0.5),
        ("cbrtf", cbrtf, -27.0, -3.0),
        ("cbrtf", cbrtf, -0.0, -0.0),
        ("cbrtf", cbrtf, -INF, -INF),
        ("sinf", sinf, -0.0, -0.0),
        ("sinf", sinf, INF, NAN),
        ("sinf", sinf, SUB, SUB),
        ("cosf", cosf, -0.0, 1.0),
        ("cosf", cosf, -INF, NAN),
        ("tanf", tanf, -0.0, -0.0),
        ("tanf", tanf, INF, NAN),
        ("sinpif", sinpif, 1.0, 0.0),
        ("sinpif", sinpif, -2.0, -0.0),
        ("sinpif", sinpif, 0.5, 1.0),
        ("sinpif", sinpif, -0.0, -0.0),
        ("sinpif", sinpif, 3e38, 0.0),
        ("sinpif", sinpif, INF, NAN),
        ("cospif", cospif, 0.5, 0.0),
        ("cospif", cospif, -1.5, 0.0),
        ("cospif", cospif, 1.0, -1.0),
        ("cospif", cospif, 3e38, 1.0),
        ("asinf", asinf, -0.0, -0.0),
        ("asinf", asinf, 1.0, PI_2),
        ("asinf", asinf, 1.5, NAN),
        ("acosf", acosf, 1.0, 0.0),
        ("acosf", acosf, -1.0, PI),
        ("acosf", acosf, -1.5, NAN),
        ("atanf", atanf, INF, PI_2),
        ("atanf", atanf, -INF, -PI_2),
        ("atanf", atanf, -0.0, -0.0),
        ("sinhf", sinhf, -0.0, -0.0),
        ("sinhf", sinhf, -INF, -INF),
        ("sinhf", sinhf, 100.0, INF),
        ("coshf", coshf, -0.0, 1.0),
        ("coshf", coshf, -INF, INF),
        ("tanhf", tanhf, -0.0, -0.0),
        ("tanhf", tanhf, INF, 1.0),
        ("tanhf", tanhf, -INF, -1.0),
        ("asinhf", asinhf, -0.0, -0.0),
        ("asinhf", asinhf, -INF, -INF),
        ("acoshf", acoshf, 1.0, 0.0),
        ("acoshf", acoshf, 0.5, NAN),
        ("acoshf", acoshf, INF, INF),
        ("atanhf", atanhf, 1.0, INF),
        ("atanhf", atanhf, -1.0, -INF),
        ("atanhf", atanhf, -0.0, -0.0),
        ("atanhf", atanhf, 2.0, NAN),
        ("erff", erff, -0.0, -0.0),
        ("erff", erff, INF, 1.0),
        ("erff", erff, -INF, -1.0),
        ("erfcf", erfcf, INF, 0.0),
        ("erfcf", erfcf, -INF, 2.0),
        ("erfcf", erfcf, 0.0, 1.0),
        ("normcdff", normcdff, INF, 1.0),
        ("normcdff", normcdff, -INF, 0.0),
        ("normcdff", normcdff, 0.0, 0.5),
        ("erfinvf", erfinvf, 0.0, 0.0),
        ("erfinvf", erfinvf, -0.0, -0.0),
        ("erfinvf", erfinvf, 1.0, INF),
        ("erfinvf", erfinvf, -1.0, -INF),
        ("erfinvf", erfinvf, 1.5, NAN),
        ("erfinvf", erfinvf, -INF, NAN),
        ("erfinvf", erfinvf, NAN, NAN),
        ("erfinvf", erfinvf, SUB, 1e-40 * 0.886_226_9),
        ("erfcinvf", erfcinvf, 0.0, INF),
        ("erfcinvf", erfcinvf, 2.0, -INF),
        ("erfcinvf", erfcinvf, 1.0, 0.0),
        ("erfcinvf", erfcinvf, -0.0, INF),
        ("erfcinvf", erfcinvf, -1.0, NAN),
        ("erfcinvf", erfcinvf, 2.5, NAN),
        ("erfcinvf", erfcinvf, INF, NAN),
        ("erfcinvf", erfcinvf, NAN, NAN),
        ("normcdfinvf", normcdfinvf, 0.0, -INF),
        ("normcdfinvf", normcdfinvf, 1.0, INF),
        ("normcdfinvf", normcdfinvf, 0.5, 0.0),
        ("normcdfinvf", normcdfinvf, -0.5, NAN),
        ("normcdfinvf", normcdfinvf, 1.5, NAN),
        ("normcdfinvf", normcdfinvf, NAN, NAN),
        ("lgammaf", lgammaf, 1.0, 0.0),
        ("lgammaf", lgammaf, 2.0, 0.0),
        ("lgammaf", lgammaf, 0.0, INF),
        ("lgammaf", lgammaf, -0.0, INF),
        ("lgammaf", lgammaf, -1.0, INF),
        ("lgammaf", lgammaf, -3.0, INF),
        ("lgammaf", lgammaf, -1e10, INF),
        ("lgammaf", lgammaf, INF, INF),
        ("lgammaf", lgammaf, -INF, INF),
        ("lgammaf", lgammaf, NAN, NAN),
        ("lgammaf", lgammaf, 1e37, INF),
        ("lgammaf", lgammaf, 3.0, core::f32::consts::LN_2),
        ("tgammaf", tgammaf, 0.0, INF),
        ("tgammaf", tgammaf, -0.0, -INF),
        ("tgammaf", tgammaf, -1.0, NAN),
        ("tgammaf", tgammaf, -2.0, NAN),
        ("tgammaf", tgammaf, INF, INF),
        ("tgammaf", tgammaf, -INF, NAN),
        ("tgammaf", tgammaf, NAN, NAN),
        ("tgammaf", tgammaf, 1.0, 1.0),
        ("tgammaf", tgammaf, 5.0, 24.0),
        ("tgammaf", tgammaf, 0.5, 1.772_453_9),
        ("tgammaf", tgammaf, 36.0, INF),
        ("tgammaf", tgammaf, -50.5, -0.0),
        ("tgammaf", tgammaf, -51.5, 0.0),
        ("floorf", floorf, -0.5, -1.0),
        ("floorf", floorf, -0.0, -0.0),
        ("ceilf", ceilf, -0.5, -0.0),
        ("truncf", truncf, -1.5, -1.0),
        ("roundf", roundf, 2.5, 3.0),
        ("roundf", roundf, -2.5, -3.0),
        ("roundf", roundf, -0.4, -0.0),
        ("rintf", rintf, 2.5, 2.0),
        ("rintf", rintf, -0.5, -0.0),
    ];
    let mut bad = Vec::new();
    for &(name, f, x, want) in rows {
        let got = f(x);
        if !same(got, want) {
            bad.push(format!("{name}({x:e}) = {got:e}, want {want:e}"));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn binary_special_values() {
    type F = fn(f32, f32) -> f32;
    let rows: &[(&str, F, f32, f32, f32)] = &[
        ("powf", powf, NAN, 0.0, 1.0),
        ("powf", powf, 1.0, NAN, 1.0),
        ("powf", powf, -1.0, INF, 1.0),
        ("powf", powf, -1.0, -INF, 1.0),
        ("powf", powf, 0.5, INF, 0.0),
        ("powf", powf, 0.5, -INF, INF),
        ("powf", powf, 2.0, INF, INF),
        ("powf", powf, 2.0, -INF, 0.0),
        ("powf", powf, -0.0, -3.0, -INF),
        ("powf", powf, -0.0, -2.0, INF),
        ("powf", powf, -0.0, 3.0, -0.0),
        ("powf", powf, -0.0, 2.5, 0.0),
        ("powf", powf, -INF, -3.0, -0.0),
        ("powf", powf, -INF, -2.0, 0.0),
        ("powf", powf, -INF, 3.0, -INF),
        ("powf", powf, INF, -1.0, 0.0),
        ("powf", powf, -2.0, 0.5, NAN),
        ("powf", powf, -2.0, 3.0, -8.0),
        ("powf", powf, 2.0, 0.5, core::f32::consts::SQRT_2),
        ("powf", powf, 2.0, -149.0, f32::from_bits(1)),
        ("powf", powf, 2.0, 128.0, INF),
        ("atan2f", atan2f, 0.0, -0.0, PI),
        ("atan2f", atan2f, -0.0, -0.0, -PI),
        ("atan2f", atan2f, 0.0, 0.0, 0.0),
        ("atan2f", atan2f, -0.0, 1.0, -0.0),
        ("atan2f", atan2f, 1.0, 0.0, PI_2),
        ("atan2f", atan2f, INF, INF, core::f32::consts::FRAC_PI_4),
        ("atan2f", atan2f, -INF, -INF, -2.356_194_5),
        ("atan2f", atan2f, 1.0, -INF, PI),
        ("atan2f", atan2f, 1.0, INF, 0.0),
        ("hypotf", hypotf, INF, NAN, INF),
        ("hypotf", hypotf, NAN, -INF, INF),
        ("hypotf", hypotf, 3.0, 4.0, 5.0),
        ("hypotf", hypotf, -0.0, 0.0, 0.0),
        ("hypotf", hypotf, 3e38, 3e38, INF),
        ("fmodf", fmodf, 5.5, 2.0, 1.5),
        ("fmodf", fmodf, -5.5, 2.0, -1.5),
        ("fmodf", fmodf, -4.0, 2.0, -0.0),
        ("fmodf", fmodf, INF, 2.0, NAN),
        ("fmodf", fmodf, 1.0, 0.0, NAN),
        ("fmodf", fmodf, 1.0, INF, 1.0),
        ("fmodf", fmodf, SUB, 3e-41, 1e-40 - 3.0 * 3e-41),
        ("remainderf", remainderf, 5.0, 2.0, 1.0),
        ("remainderf", remainderf, 7.0, 2.0, -1.0),
        ("remainderf", remainderf, -4.0, 2.0, -0.0),
        ("remainderf", remainderf, 1.0, INF, 1.0),
        ("remainderf", remainderf, INF, 1.0, NAN),
        ("fminf", fminf, NAN, 1.0, 1.0),
        ("fminf", fminf, 0.0, -0.0, -0.0),
        ("fminf", fminf, -0.0, 0.0, -0.0),
        ("fmaxf", fmaxf, -0.0, 0.0, 0.0),
        ("fmaxf", fmaxf, 1.0, NAN, 1.0),
        ("fdimf", fdimf, 1.0, 3.0, 0.0),
        ("fdimf", fdimf, NAN, 3.0, NAN),
        ("nextafterf", nextafterf, 0.0, -1.0, -f32::from_bits(1)),
        ("nextafterf", nextafterf, 1.0, 2.0, 1.000_000_1),
        ("nextafterf", nextafterf, 1.0, 1.0, 1.0),
        ("copysignf", copysignf, 1.0, -0.0, -1.0),
    ];
    let mut bad = Vec::new();
    for &(name, f, x, y, want) in rows {
        let got = f(x, y);
        if !same(got, want) {
            bad.push(format!("{name}({x:e}, {y:e}) = {got:e}, want {want:e}"));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn decompositions() {
    assert_eq!(frexpf(8.0), (0.5, 4));
    assert_eq!(frexpf(-0.75), (-0.75, 0));
    let (m, e) = frexpf(f32::from_bits(1));
    assert_eq!((m, e), (0.5, -148));
    assert_eq!(frexpf(INF), (INF, 0));
    assert_eq!(frexpf(-0.0).0.to_bits(), (-0.0f32).to_bits());
    assert_eq!(modff(-3.25), (-0.25, -3.0));
    assert_eq!(modff(-INF).0.to_bits(), (-0.0f32).to_bits());
    assert_eq!(modff(-INF).1, -INF);
    assert_eq!(ldexpf(1.0, -149), f32::from_bits(1));
    assert_eq!(ldexpf(1.5, -149), f32::from_bits(2)); // 1.5 * 2^-149 ties to even: 2^-148
    assert_eq!(ldexpf(f32::from_bits(1), 277), INF);
    assert_eq!(ldexpf(3e38, -300), 0.0);
    assert_eq!(ldexpf(f32::from_bits(1), 149), 1.0);
    assert_eq!(ldexpf(1.0, i32::MAX), INF);
    assert_eq!(
        fmaf(1.0 + f32::EPSILON, 1.0 - f32::EPSILON, -1.0),
        -f32::EPSILON * f32::EPSILON
    );
    let (s, c) = sincosf(0.5);
    assert!(same(s, sinf(0.5)) && same(c, cosf(0.5)));
}
