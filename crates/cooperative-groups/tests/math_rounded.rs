//! The directed-rounding intrinsics (`math::rounded`) on the simulator are
//! exact: against the exact value (in `f64`, where the operations chosen
//! here are exact), `_rd <= exact <= _ru` with the two one `f32` apart
//! unless the exact value is representable (then all four agree), `_rz`
//! is the one toward zero and `_rn` the nearest. Plus the fast intrinsics
//! within their documented errors of the accurate functions.

use cooperative_groups::math::{self, fast, rounded};

fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

/// A random f32 with exponent within `[lo, hi)` (biased), random sign.
fn rand_f32(s: &mut u64, lo: u32, hi: u32) -> f32 {
    let b = xorshift(s);
    let e = lo + (b >> 40) as u32 % (hi - lo);
    f32::from_bits(((b >> 63) as u32) << 31 | e << 23 | (b as u32 & 0x7f_ffff))
}

/// Checks the four roundings of one exact value `v` (an `f64` that holds
/// it exactly) against `(rn, rz, ru, rd)`.
fn check(what: &str, v: f64, r: [f32; 4]) {
    let [rn, rz, ru, rd] = r;
    if v.is_nan() {
        assert!(r.iter().all(|x| x.is_nan()), "{what}");
        return;
    }
    let (lo, hi) = (rd as f64, ru as f64);
    assert!(lo <= v && v <= hi, "{what}: {rd:e} <= {v:e} <= {ru:e}");
    if lo == v {
        assert!(
            rd == ru && rz == rd && rn == rd,
            "{what}: exact {v:e}: {r:?}"
        );
    } else {
        assert_eq!(rd.next_up(), ru, "{what}: rd/ru not adjacent around {v:e}");
        assert_eq!(rz, if v > 0.0 { rd } else { ru }, "{what}: rz");
        let near = if (v - lo) < (hi - v) || ((v - lo) == (hi - v) && rd.to_bits() & 1 == 0) {
            rd
        } else {
            ru
        };
        assert_eq!(rn, near, "{what}: rn of {v:e}");
    }
}

#[test]
fn directed_roundings_are_exact() {
    let mut s = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..200_000 {
        // Exponents within 20 of each other: sums exact in f64. Some
        // results land in the subnormals and past f32::MAX.
        let e = 1 + (xorshift(&mut s) % 250) as u32;
        let (a, b) = (
            rand_f32(&mut s, e.saturating_sub(10).max(1), e + 1),
            rand_f32(&mut s, e.saturating_sub(10).max(1), e + 1),
        );
        let c = rand_f32(&mut s, 1, 254);
        let (a64, b64) = (a as f64, b as f64);
        // add: exact in f64 for these exponents.
        let sum = a64 + b64;
        if sum.abs() <= f32::MAX as f64 {
            check(
                &format!("add({a:e}, {b:e})"),
                sum,
                [
                    rounded::fadd_rn(a, b),
                    rounded::fadd_rz(a, b),
                    rounded::fadd_ru(a, b),
                    rounded::fadd_rd(a, b),
                ],
            );
            check(
                &format!("sub({a:e}, {b:e})"),
                a64 - b64,
                [
                    rounded::fsub_rn(a, b),
                    rounded::fsub_rz(a, b),
                    rounded::fsub_ru(a, b),
                    rounded::fsub_rd(a, b),
                ],
            );
        }
        // mul: always exact in f64; within range and above the subnormals' floor.
        let (x, y) = (rand_f32(&mut s, 64, 190), c);
        let p = x as f64 * y as f64;
        if p.abs() <= f32::MAX as f64 {
            check(
                &format!("mul({x:e}, {y:e})"),
                p,
                [
                    rounded::fmul_rn(x, y),
                    rounded::fmul_rz(x, y),
                    rounded::fmul_ru(x, y),
                    rounded::fmul_rd(x, y),
                ],
            );
        }
        // fma with a small addend near the product: exact in f64.
        let z = rand_f32(&mut s, 100, 120);
        let (u, w) = (rand_f32(&mut s, 110, 118), rand_f32(&mut s, 120, 128));
        let f = (u as f64).mul_add(w as f64, z as f64);
        if (u as f64 * w as f64 + z as f64) == f {
            check(
                &format!("fma({u:e}, {w:e}, {z:e})"),
                f,
                [
                    rounded::fmaf_rn(u, w, z),
                    rounded::fmaf_rz(u, w, z),
                    rounded::fmaf_ru(u, w, z),
                    rounded::fmaf_rd(u, w, z),
                ],
            );
        }
        // div and sqrt: bracket by exact products in f64.
        let (n, d) = (rand_f32(&mut s, 60, 190), rand_f32(&mut s, 60, 190));
        let q = [
            n / d,
            rounded::fdiv_rz(n, d),
            rounded::fdiv_ru(n, d),
            rounded::fdiv_rd(n, d),
        ];
        let (qd, qu) = (q[3] as f64 * d as f64, q[2] as f64 * d as f64);
        if d > 0.0 {
            assert!(qd <= n as f64 && n as f64 <= qu, "div({n:e}, {d:e})")
        } else {
            assert!(qd >= n as f64 && n as f64 >= qu, "div({n:e}, {d:e})")
        }
        assert!(
            q[3] == q[2] || q[3].next_up() == q[2],
            "div adjacent {n:e} {d:e}"
        );
        assert!(q[0] == q[2] || q[0] == q[3]);
        assert_eq!(q[1], if q[0] > 0.0 { q[3] } else { q[2] }, "div rz");
        let r = [
            rounded::frcp_rn(d),
            rounded::frcp_rz(d),
            rounded::frcp_ru(d),
            rounded::frcp_rd(d),
        ];
        assert_eq!(r[0], 1.0 / d);
        assert!(r[3] as f64 * d.abs() as f64 <= 1.0 || d < 0.0);
        let a = n.abs();
        let sq = [
            rounded::fsqrt_rn(a),
            rounded::fsqrt_rz(a),
            rounded::fsqrt_ru(a),
            rounded::fsqrt_rd(a),
        ];
        let (l2, h2) = ((sq[3] as f64).powi(2), (sq[2] as f64).powi(2));
        assert!(l2 <= a as f64 && a as f64 <= h2, "sqrt({a:e})");
        assert!(sq[3] == sq[2] || sq[3].next_up() == sq[2]);
        assert_eq!(sq[1], sq[3]);
        assert_eq!(sq[0], a.sqrt());
    }
    // Overflow: toward zero stops at MAX, up goes to ∞.
    assert_eq!(rounded::fadd_rz(f32::MAX, f32::MAX), f32::MAX);
    assert_eq!(rounded::fadd_ru(f32::MAX, f32::MAX), f32::INFINITY);
    assert_eq!(rounded::fmul_rd(f32::MAX, -2.0), f32::NEG_INFINITY);
    assert_eq!(rounded::fmul_ru(f32::MAX, -2.0), -f32::MAX);
    // Underflow: up from a positive tiny product is the smallest subnormal.
    assert_eq!(rounded::fmul_ru(1e-30, 1e-30), f32::from_bits(1));
    assert_eq!(rounded::fmul_rz(1e-30, 1e-30), 0.0);
    assert_eq!(rounded::fdiv_rd(-1e-30, 1e30), -f32::from_bits(1));
    assert_eq!(
        rounded::fmaf_rz(1.0 + f32::EPSILON, 1.0 + f32::EPSILON, -1.0),
        rounded::fmaf_rd(1.0 + f32::EPSILON, 1.0 + f32::EPSILON, -1.0)
    );
}

#[test]
fn fast_intrinsics_within_their_documented_error() {
    let mut s = 7u64;
    for _ in 0..100_000 {
        let x = (xorshift(&mut s) >> 40) as f32 / (1u64 << 24) as f32 * 20.0 - 10.0; // [-10, 10)
        let rel = |a: f32, b: f32| ((a - b) / b).abs();
        assert!(
            rel(fast::expf(x), math::expf(x)) < 2e-6 * (1.0 + x.abs()),
            "__expf({x})"
        );
        let p = x.abs() + 0.5;
        assert!(
            (fast::log2f(p) - math::log2f(p)).abs() < 1e-6 * (1.0 + math::log2f(p).abs()),
            "__log2f({p})"
        );
        let t = x * 0.314; // [-π, π]
        assert!(
            (fast::sinf(t) - math::sinf(t)).abs() < 2f32.powf(-21.0),
            "__sinf({t})"
        );
        assert!(
            (fast::cosf(t) - math::cosf(t)).abs() < 2f32.powf(-21.0),
            "__cosf({t})"
        );
        assert!(
            rel(fast::tanhf(x), math::tanhf(x)) < 2f32.powf(-10.98) || x == 0.0,
            "tanh.approx({x})"
        );
        assert!(
            rel(fast::rsqrtf(p), math::rsqrtf(p)) < 2f32.powf(-22.0),
            "rsqrt.approx({p})"
        );
        assert!(
            rel(fast::fdividef(x, p), x / p) < 2.5e-7 || x == 0.0,
            "__fdividef({x}, {p})"
        );
    }
    // __fdividef is 0 for a divisor above 2^126, as documented.
    assert_eq!(fast::fdividef(1.0, 1e38), 0.0);
    // ftz: a subnormal argument is zero.
    assert_eq!(fast::sinf(1e-40), 0.0);
}
