//! The 16-bit floats on the simulator.
//!
//! * Conversions and arithmetic against references that round **once**:
//!   every `f16`/`bf16` value widened; `f32 → f16/bf16` for every 16-bit
//!   value, every midpoint between neighbours and the `f32`s next to each
//!   midpoint, plus random `f32`s; `+ - * fma` for every 16-bit value
//!   against a set of partners, plus random pairs and triples. The
//!   reference computes the exact result as an unevaluated sum `s + err`
//!   of two `f64`s (exact products, Knuth's two-sum) and rounds it to
//!   nearest even by comparing it with the midpoint of its neighbours —
//!   no `f32` step, no `half` crate, so the simulator's
//!   `f32`-then-round (the double-rounding argument) is checked, not
//!   assumed.
//! * `min`/`max` against `__hmin`/`__hmax`'s documented rules.
//! * `reduce` and the scans on tiles of 1–32, 64- and 128-thread tiles
//!   and the block, with values whose sums round, against sequential
//!   models that combine in the library's (and NVIDIA's) order: the
//!   butterfly within a warp, Hillis–Steele scans, and the warp partials
//!   folded in warp order.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use cooperative_groups::prelude::*;
use cooperative_groups::{Float16, ReduceOp, bf16, bf16x2, f16, f16x2};

// ---------------------------------------------------------------- formats

/// One of the two 16-bit formats, by its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Fmt {
    F16,
    Bf16,
}

impl Fmt {
    /// Bits of +infinity (the first NaN pattern is one above).
    fn inf(self) -> u16 {
        match self {
            Fmt::F16 => 0x7c00,
            Fmt::Bf16 => 0x7f80,
        }
    }

    /// The exact value of the non-negative finite pattern `bits` (or, for
    /// the infinity pattern, `2^(emax+1)`, the value rounding with an
    /// unbounded exponent would reach next), decoded from the fields.
    fn value(self, bits: u16) -> f64 {
        let (mant_bits, bias): (i32, i32) = match self {
            Fmt::F16 => (10, 15),
            Fmt::Bf16 => (7, 127),
        };
        let e = (bits >> mant_bits) as i32;
        let m = (bits & ((1u16 << mant_bits) - 1)) as f64;
        let scale = |k: i32| 2f64.powi(k);
        if e == 0 {
            m * scale(1 - bias - mant_bits)
        } else {
            (m + scale(mant_bits)) * scale(e - bias - mant_bits)
        }
    }

    /// Every non-negative finite value and then the infinity pattern's
    /// `2^(emax+1)`: increasing, indexed by bits.
    fn table(self) -> Vec<f64> {
        (0..=self.inf()).map(|b| self.value(b)).collect()
    }

    fn is_nan(self, bits: u16) -> bool {
        bits & 0x7fff > self.inf()
    }

    fn widen_ref(self, bits: u16) -> f64 {
        if self.is_nan(bits) {
            return f64::NAN;
        }
        let v = self.value(bits & 0x7fff);
        let v = if bits & 0x7fff == self.inf() {
            f64::INFINITY
        } else {
            v
        };
        if bits & 0x8000 != 0 { -v } else { v }
    }
}

/// The exact value `s + err` (`err` below half an ulp of `s`, or 0)
/// rounded once to nearest even in `fmt`; NaN → the canonical `0x7fff`.
fn round_ref(fmt: Fmt, table: &[f64], s: f64, err: f64) -> u16 {
    if s.is_nan() {
        return 0x7fff;
    }
    let neg = s.is_sign_negative();
    let sign = if neg { 0x8000 } else { 0 };
    if s.is_infinite() {
        return sign | fmt.inf();
    }
    let (x, e) = if neg { (-s, -err) } else { (s, err) };
    let last = table.len() - 1; // the infinity pattern
    if x >= table[last] {
        return sign | fmt.inf();
    }
    // The largest index whose value is at most `x`.
    let mut i = table.partition_point(|&v| v <= x) - 1;
    if table[i] == x {
        if e == 0.0 {
            return sign | i as u16;
        }
        if e < 0.0 {
            i -= 1; // just below a representable value
        }
    }
    let (lo, hi) = (table[i], table[i + 1]);
    let mid = (lo + hi) / 2.0; // exact: one bit more than the format
    // Sign of x + e - mid: `x - mid` is exact (close values), and the sum's
    // sign is exact in round-to-nearest.
    let d = (x - mid) + e;
    let pick = if d < 0.0 {
        i
    } else if d > 0.0 {
        i + 1
    } else if i % 2 == 0 {
        i
    } else {
        i + 1
    };
    sign | pick as u16
}

/// `a + b` exactly, as `(s, err)` (Knuth's two-sum; `err` is 0 when `s`
/// is not finite).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    if !s.is_finite() {
        return (s, 0.0);
    }
    let v = s - a;
    (s, (a - (s - v)) + (b - v))
}

// ---------------------------------------------------------------- the simulator's operations, by format

fn sim_widen(fmt: Fmt, a: u16) -> f32 {
    match fmt {
        Fmt::F16 => f16::from_bits(a).widen(),
        Fmt::Bf16 => bf16::from_bits(a).widen(),
    }
}

fn sim_round(fmt: Fmt, x: f32) -> u16 {
    match fmt {
        Fmt::F16 => f16::from_f32_rn(x).to_bits(),
        Fmt::Bf16 => bf16::from_f32_rn(x).to_bits(),
    }
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Add,
    Sub,
    Mul,
    Fma,
    Min,
    Max,
}

fn sim_op(fmt: Fmt, op: Op, a: u16, b: u16, c: u16) -> u16 {
    macro_rules! go {
        ($t:ty) => {{
            let (a, b, c) = (<$t>::from_bits(a), <$t>::from_bits(b), <$t>::from_bits(c));
            match op {
                Op::Add => a.add_rn(b),
                Op::Sub => a.sub_rn(b),
                Op::Mul => a.mul_rn(b),
                Op::Fma => a.fma_rn(b, c),
                Op::Min => a.hmin(b),
                Op::Max => a.hmax(b),
            }
            .to_bits()
        }};
    }
    match fmt {
        Fmt::F16 => go!(f16),
        Fmt::Bf16 => go!(bf16),
    }
}

/// The reference of the arithmetic operations (rounded once from the
/// exact result) and of `__hmin`/`__hmax` (the CUDA Math API's rules).
fn ref_op(fmt: Fmt, table: &[f64], op: Op, a: u16, b: u16, c: u16) -> u16 {
    let (x, y, z) = (fmt.widen_ref(a), fmt.widen_ref(b), fmt.widen_ref(c));
    match op {
        Op::Add => {
            let (s, e) = two_sum(x, y);
            round_ref(fmt, table, s, e)
        }
        Op::Sub => {
            let (s, e) = two_sum(x, -y);
            round_ref(fmt, table, s, e)
        }
        // At most 22 significant bits: exact in f64.
        Op::Mul => round_ref(fmt, table, x * y, 0.0),
        Op::Fma => {
            let (s, e) = two_sum(x * y, z);
            round_ref(fmt, table, s, e)
        }
        Op::Min | Op::Max => {
            let (na, nb) = (fmt.is_nan(a), fmt.is_nan(b));
            if na && nb {
                return 0x7fff;
            }
            if na {
                return b;
            }
            if nb {
                return a;
            }
            let min = matches!(op, Op::Min);
            if x == y {
                // Equal values, or +0/-0: min takes -0, max takes +0.
                let neg = if a & 0x8000 != 0 { a } else { b };
                let pos = if a & 0x8000 != 0 { b } else { a };
                return if min { neg } else { pos };
            }
            if (x < y) == min { a } else { b }
        }
    }
}

/// A small deterministic generator.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn u16(&mut self) -> u16 {
        (self.next() >> 24) as u16
    }
}

/// Partners every 16-bit value meets: zeros, ones, the extremes,
/// subnormals, infinities, NaNs, and a few values with full significands.
fn partners(fmt: Fmt) -> Vec<u16> {
    let inf = fmt.inf();
    let one = match fmt {
        Fmt::F16 => 0x3c00,
        Fmt::Bf16 => 0x3f80,
    };
    let mut p = vec![
        0,
        0x8000,
        one,
        one | 0x8000,
        one + 1,
        inf - 1,
        (inf - 1) | 0x8000,
        1,
        0x8001,
        inf,
        inf | 0x8000,
        inf + 1,
        0x7fff,
        0x0400,
        0x3555,
        0xb7ff,
    ];
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    p.extend((0..8).map(|_| r.u16()));
    p
}

// ---------------------------------------------------------------- conversions

#[test]
fn widening_is_exact_for_every_value() {
    for fmt in [Fmt::F16, Fmt::Bf16] {
        for a in 0..=u16::MAX {
            let got = sim_widen(fmt, a);
            if fmt.is_nan(a) {
                assert!(got.is_nan(), "{fmt:?} {a:#06x}");
                // The sign and payload survive (quieted).
                assert_eq!(got.is_sign_negative(), a & 0x8000 != 0, "{fmt:?} {a:#06x}");
            } else {
                assert_eq!(got as f64, fmt.widen_ref(a), "{fmt:?} {a:#06x}");
                assert_eq!(got.is_sign_negative(), a & 0x8000 != 0, "{fmt:?} {a:#06x}");
            }
        }
    }
}

#[test]
fn narrowing_rounds_to_nearest_even() {
    for fmt in [Fmt::F16, Fmt::Bf16] {
        let table = fmt.table();
        let check = |x: f32| {
            let want = round_ref(fmt, &table, x as f64, 0.0);
            let got = sim_round(fmt, x);
            assert_eq!(got, want, "{fmt:?}: {x:e} ({:#010x})", x.to_bits());
        };
        // Every value, every midpoint (ties) and the f32s beside each.
        for b in 0..fmt.inf() {
            for sign in [0u16, 0x8000] {
                let v = fmt.widen_ref(b | sign) as f32;
                check(v);
                let next = fmt.value(b + 1);
                let mid = ((fmt.value(b) + next) / 2.0) as f32; // exact in f32
                let mid = if sign != 0 { -mid } else { mid };
                check(mid);
                check(f32::from_bits(mid.to_bits() + 1));
                check(f32::from_bits(mid.to_bits() - 1));
            }
        }
        for x in [
            0.0f32,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MAX,
            f32::MIN,
            f32::MIN_POSITIVE,
            1e-45,
            f32::NAN,
            -f32::NAN,
            f32::from_bits(0x7f80_0001),
        ] {
            check(x);
        }
        let mut r = Rng(12345);
        for _ in 0..1_000_000 {
            check(f32::from_bits(r.next() as u32));
        }
    }
}

#[test]
fn nan_converts_to_the_canonical_nan() {
    for x in [
        f32::NAN,
        -f32::NAN,
        f32::from_bits(0x7f80_0001),
        f32::from_bits(0xffc0_1234),
    ] {
        assert_eq!(f16::from_f32_rn(x).to_bits(), 0x7fff);
        assert_eq!(bf16::from_f32_rn(x).to_bits(), 0x7fff);
    }
    assert_eq!(<f16 as Float16>::CANONICAL_NAN.to_bits(), 0x7fff);
    assert_eq!(<bf16 as Float16>::CANONICAL_NAN.to_bits(), 0x7fff);
}

#[test]
fn packed_conversions_put_x_in_the_low_half() {
    let p = f16x2::from_f32_rn(1.0, -2.0);
    assert_eq!(p.to_bits(), 0xc000_3c00);
    assert_eq!(p.widen(), (1.0, -2.0));
    let q = bf16x2::from_f32_rn(3.0, f32::NAN);
    assert_eq!(q.to_bits(), 0x7fff_4040);
    assert_eq!(bf16x2::from_bits(q.to_bits()).to_bits(), q.to_bits());
}

// ---------------------------------------------------------------- arithmetic

/// Every value against [`partners`] in both operand positions, and
/// `random` random operand triples.
fn check_op(fmt: Fmt, op: Op, random: usize) {
    let table = fmt.table();
    let check = |a: u16, b: u16, c: u16| {
        let got = sim_op(fmt, op, a, b, c);
        let want = ref_op(fmt, &table, op, a, b, c);
        assert_eq!(
            got, want,
            "{fmt:?} {op:?}({a:#06x}, {b:#06x}, {c:#06x}) = {got:#06x}, want {want:#06x}"
        );
    };
    let ps = partners(fmt);
    for a in 0..=u16::MAX {
        for (k, &p) in ps.iter().enumerate() {
            let q = ps[(k * 7 + 3) % ps.len()];
            check(a, p, q);
            check(p, a, q);
            if matches!(op, Op::Fma) {
                check(p, q, a);
            }
        }
    }
    let mut r = Rng(0x2545_f491_4f6c_dd1d ^ op as u64);
    for _ in 0..random {
        check(r.u16(), r.u16(), r.u16());
    }
    // Operands close in magnitude, where sums and differences round most.
    for _ in 0..random {
        let a = r.u16();
        let b = a ^ (r.u16() & 0x80ff);
        check(a, b, a.wrapping_add(b));
    }
}

#[test]
fn add_rounds_once() {
    check_op(Fmt::F16, Op::Add, 300_000);
    check_op(Fmt::Bf16, Op::Add, 300_000);
}

#[test]
fn sub_rounds_once() {
    check_op(Fmt::F16, Op::Sub, 300_000);
    check_op(Fmt::Bf16, Op::Sub, 300_000);
}

#[test]
fn mul_rounds_once() {
    check_op(Fmt::F16, Op::Mul, 300_000);
    check_op(Fmt::Bf16, Op::Mul, 300_000);
}

#[test]
fn fma_rounds_once() {
    check_op(Fmt::F16, Op::Fma, 300_000);
    check_op(Fmt::Bf16, Op::Fma, 300_000);
}

/// A case where rounding the `f32` result of an `fma` to bf16 would round
/// twice and miss: `(1 + 2^-7)(1 - 2^-8)` = `1 + 2^-8 - 2^-15`, whose f32
/// rounding is exact here, plus a `c` that puts the sum a hair below a
/// bf16 midpoint that `f32` cannot resolve.
#[test]
fn fma_does_not_round_twice() {
    let table = Fmt::Bf16.table();
    let mut r = Rng(77);
    let mut differs = 0;
    for _ in 0..2_000_000 {
        let (a, b, c) = (r.u16(), r.u16(), r.u16());
        let (x, y, z) = (
            Fmt::Bf16.widen_ref(a),
            Fmt::Bf16.widen_ref(b),
            Fmt::Bf16.widen_ref(c),
        );
        let twice = bf16::from_f32(((x * y) as f32).mul_add(1.0, z as f32)).to_bits();
        let want = ref_op(Fmt::Bf16, &table, Op::Fma, a, b, c);
        if twice != want && !Fmt::Bf16.is_nan(want) {
            differs += 1;
            assert_eq!(sim_op(Fmt::Bf16, Op::Fma, a, b, c), want);
        }
    }
    // The sample does contain double-rounding cases (so the model's
    // round-to-odd step is exercised, not only the easy ones).
    assert!(differs > 0);
}

#[test]
fn min_max_follow_hmin_hmax() {
    check_op(Fmt::F16, Op::Min, 100_000);
    check_op(Fmt::F16, Op::Max, 100_000);
    check_op(Fmt::Bf16, Op::Min, 100_000);
    check_op(Fmt::Bf16, Op::Max, 100_000);
    // The documented cases, spelled out.
    let (p0, n0, one, nan) = (
        f16::ZERO,
        f16::NEG_ZERO,
        f16::ONE,
        <f16 as Float16>::CANONICAL_NAN,
    );
    assert_eq!(p0.hmin(n0).to_bits(), 0x8000);
    assert_eq!(n0.hmin(p0).to_bits(), 0x8000);
    assert_eq!(p0.hmax(n0).to_bits(), 0);
    assert_eq!(nan.hmin(one), one);
    assert_eq!(one.hmax(nan), one);
    assert_eq!(nan.hmax(f16::from_bits(0x7c01)).to_bits(), 0x7fff);
}

#[test]
fn pairs_act_per_element() {
    let mut r = Rng(99);
    for _ in 0..100_000 {
        let (a, b, c) = (r.next() as u32, r.next() as u32, r.next() as u32);
        let lanes = |op: Op, fmt: Fmt| {
            let (a0, a1, b0, b1, c0, c1) = (
                a as u16,
                (a >> 16) as u16,
                b as u16,
                (b >> 16) as u16,
                c as u16,
                (c >> 16) as u16,
            );
            sim_op(fmt, op, a0, b0, c0) as u32 | (sim_op(fmt, op, a1, b1, c1) as u32) << 16
        };
        let (h, g, k) = (
            f16x2::from_bits(a),
            f16x2::from_bits(b),
            f16x2::from_bits(c),
        );
        assert_eq!((h + g).to_bits(), lanes(Op::Add, Fmt::F16));
        assert_eq!((h - g).to_bits(), lanes(Op::Sub, Fmt::F16));
        assert_eq!((h * g).to_bits(), lanes(Op::Mul, Fmt::F16));
        assert_eq!(h.fma_rn(g, k).to_bits(), lanes(Op::Fma, Fmt::F16));
        assert_eq!(h.hmin(g).to_bits(), lanes(Op::Min, Fmt::F16));
        assert_eq!(h.hmax(g).to_bits(), lanes(Op::Max, Fmt::F16));
        let (h, g, k) = (
            bf16x2::from_bits(a),
            bf16x2::from_bits(b),
            bf16x2::from_bits(c),
        );
        assert_eq!((h + g).to_bits(), lanes(Op::Add, Fmt::Bf16));
        assert_eq!((h - g).to_bits(), lanes(Op::Sub, Fmt::Bf16));
        assert_eq!((h * g).to_bits(), lanes(Op::Mul, Fmt::Bf16));
        assert_eq!(h.fma_rn(g, k).to_bits(), lanes(Op::Fma, Fmt::Bf16));
        assert_eq!(h.hmin(g).to_bits(), lanes(Op::Min, Fmt::Bf16));
        assert_eq!(h.hmax(g).to_bits(), lanes(Op::Max, Fmt::Bf16));
        let (x, y) = (h.widen(), g.widen());
        assert_eq!(h.lt(g), [x.0 < y.0, x.1 < y.1]);
        assert_eq!(h.ge(g), [x.0 >= y.0, x.1 >= y.1]);
        assert_eq!(h.eq(g), [x.0 == y.0, x.1 == y.1]);
        assert_eq!(h.ne(g), [x.0 != y.0, x.1 != y.1]);
    }
}

// ---------------------------------------------------------------- collectives

/// Input of thread `t`: values of varied magnitudes whose sums round.
fn input<T: Float16>(t: u32) -> T {
    let m = (t.wrapping_mul(2_654_435_761) >> 8) % 1000;
    let e = (t % 5) as i32 - 2;
    T::from_f32_rn((m as f32 / 7.0 - 60.0) * 2f32.powi(e))
}

/// `reduce` by the butterfly: every lane's result within segments of
/// `width`, combining `(own, partner)` as the shuffle tree does.
fn butterfly<T: Copy>(vals: &[T], width: usize, op: impl Fn(T, T) -> T) -> Vec<T> {
    let mut v = vals.to_vec();
    let mut d = width / 2;
    while d > 0 {
        v = (0..v.len()).map(|i| op(v[i], v[i ^ d])).collect();
        d /= 2;
    }
    v
}

/// Inclusive Hillis–Steele scans within segments of `width`, combining
/// `(lower, own)`.
fn hillis<T: Copy>(vals: &[T], width: usize, op: impl Fn(T, T) -> T) -> Vec<T> {
    let mut v = vals.to_vec();
    let mut d = 1;
    while d < width {
        v = (0..v.len())
            .map(|i| {
                if i % width >= d {
                    op(v[i - d], v[i])
                } else {
                    v[i]
                }
            })
            .collect();
        d *= 2;
    }
    v
}

/// Runs `body(thread)` on the simulator for each thread of one block of
/// `block` threads; returns the words each wrote (`W` per thread).
fn run<const W: usize>(block: u32, body: impl Fn(u32) -> [u16; W] + Sync) -> Vec<[u16; W]> {
    let out: Vec<AtomicU32> = (0..block as usize * W).map(|_| AtomicU32::new(0)).collect();
    let dev = cg_sim::SimDevice {
        stack_size: 4 << 20,
        ..Default::default()
    };
    cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, block), &|| {
        let t = this_thread_block().thread_rank();
        for (j, w) in body(t).into_iter().enumerate() {
            out[t as usize * W + j].store(w as u32, Relaxed);
        }
    })
    .unwrap();
    (0..block as usize)
        .map(|t| std::array::from_fn(|j| out[t * W + j].load(Relaxed) as u16))
        .collect()
}

/// The bits of a 16-bit float (what `match` compares).
fn bits<T: Float16>(x: T) -> u16 {
    x.match_bits().0 as u16
}

/// Tiles of `n` threads (1..32) in a block of 64: reduce with `Plus`,
/// `Less` and `Greater`, inclusive and exclusive `Plus` scans, against the
/// butterfly and Hillis–Steele models.
// `t % $n` with `$n == 1` (the tile of one thread): a rank, always 0.
#[allow(clippy::modulo_one)]
fn tiles<T: Float16 + Send + Sync>()
where
    Plus: ReduceOp<T>,
    Less: ReduceOp<T>,
    Greater: ReduceOp<T>,
{
    macro_rules! tile {
        ($n:literal) => {{
            let out = run::<5>(64, |t| {
                let tile = tiled_partition::<$n>(&this_thread_block());
                let x: T = input(t);
                [
                    bits(reduce(&tile, x, Plus)),
                    bits(reduce(&tile, x, Less)),
                    bits(reduce(&tile, x, Greater)),
                    bits(inclusive_scan(&tile, x, Plus)),
                    bits(exclusive_scan(&tile, x, Plus)),
                ]
            });
            let vals: Vec<T> = (0..64).map(input).collect();
            let sum = butterfly(&vals, $n, |a: T, b| a.add_rn(b));
            let min = butterfly(&vals, $n, |a: T, b| a.hmin(b));
            let max = butterfly(&vals, $n, |a: T, b| a.hmax(b));
            let inc = hillis(&vals, $n, |a: T, b| a.add_rn(b));
            for t in 0..64 {
                let exc = if t % $n == 0 { 0 } else { bits(inc[t - 1]) };
                let want = [bits(sum[t]), bits(min[t]), bits(max[t]), bits(inc[t]), exc];
                assert_eq!(out[t], want, "tile {}, thread {t}", $n);
            }
        }};
    }
    tile!(1);
    tile!(2);
    tile!(4);
    tile!(8);
    tile!(16);
    tile!(32);
}

#[test]
fn tile_collectives_combine_in_the_tree_order() {
    tiles::<bf16>();
    tiles::<f16>();
}

/// The sums do round: a sequential sum of a tile differs from the
/// butterfly's somewhere, so the models above are order-sensitive.
#[test]
fn the_inputs_make_the_order_visible() {
    let vals: Vec<bf16> = (0..32).map(input).collect();
    let tree = butterfly(&vals, 32, |a: bf16, b| a.add_rn(b))[0];
    let seq = vals[1..].iter().fold(vals[0], |a, &b| a.add_rn(b));
    assert_ne!(bits(tree), bits(seq));
}

/// Multi-warp tiles (64, 128) and the block (64..256 threads, whole
/// warps): the warp's butterfly, then the warp partials folded in warp
/// order from the identity; the tiles' scans: the warp's Hillis–Steele scan
/// combined with the fold of the earlier warps' totals.
fn multi_warp<T: Float16 + Send + Sync>()
where
    Plus: ReduceOp<T>,
    Greater: ReduceOp<T>,
{
    let zero: T = T::from_f32_rn(0.0);
    let add = |a: T, b: T| a.add_rn(b);
    for block in [128u32, 256] {
        let out = run::<5>(block, |t| {
            let b = this_thread_block();
            let t64 = tiled_partition::<64>(&b);
            let t128 = tiled_partition::<128>(&b);
            let x: T = input(t);
            [
                bits(reduce(&t64, x, Plus)),
                bits(reduce(&t128, x, Plus)),
                bits(reduce(&b, x, Plus)),
                bits(inclusive_scan(&t128, x, Plus)),
                bits(exclusive_scan(&t64, x, Plus)),
            ]
        });
        let vals: Vec<T> = (0..block).map(input).collect();
        let warp_sum = butterfly(&vals, 32, add);
        let warp_inc = hillis(&vals, 32, add);
        // The fold of warps `first .. first + count` from the identity.
        let fold = |first: usize, count: usize, per_warp: &dyn Fn(usize) -> T| {
            (first..first + count).fold(zero, |acc, w| add(acc, per_warp(w)))
        };
        let total_of = |w: usize| warp_sum[w * 32];
        let last_of = |w: usize| warp_inc[w * 32 + 31];
        for t in 0..block as usize {
            let w = t / 32;
            let reduce_over =
                |size: usize| bits(fold(w / (size / 32) * (size / 32), size / 32, &total_of));
            let scan_in = |size: usize, inclusive: bool| {
                let first = w / (size / 32) * (size / 32);
                let lane = t % 32;
                let own = if inclusive {
                    Some(warp_inc[t])
                } else if lane > 0 {
                    Some(warp_inc[t - 1])
                } else {
                    None
                };
                let prefix = (w > first).then(|| fold(first, w - first, &last_of));
                bits(match (prefix, own) {
                    (None, Some(o)) => o,
                    (None, None) => zero,
                    (Some(p), None) => p,
                    (Some(p), Some(o)) => add(p, o),
                })
            };
            let want = [
                reduce_over(64),
                reduce_over(128),
                reduce_over(block as usize),
                scan_in(128, true),
                scan_in(64, false),
            ];
            assert_eq!(out[t], want, "block {block}, thread {t}");
        }
    }
}

#[test]
fn multi_warp_collectives_fold_in_warp_order() {
    multi_warp::<bf16>();
    multi_warp::<f16>();
}

/// The block's scans (the raking scan at 64–256 threads, the warp-total
/// scan elsewhere) and coalesced groups, on values whose sums are exact in
/// every order (integers): the right prefix at every rank.
#[test]
fn block_and_coalesced_scans_are_exact_on_exact_data() {
    for block in [64u32, 96, 128, 200, 256, 320] {
        let out = run::<3>(block, |t| {
            let b = this_thread_block();
            let x = bf16::from_f32_rn((t % 2) as f32);
            let h = f16x2::from_f32_rn((t % 5) as f32, -((t % 3) as f32));
            let g = reduce(&b, h, Plus);
            [
                bits(inclusive_scan(&b, x, Plus)),
                bits(exclusive_scan(&b, x, Greater)),
                (g.to_bits() >> 16) as u16,
            ]
        });
        let mut sum = 0.0f32;
        let mut max = f32::NEG_INFINITY;
        let neg_total: f32 = (0..block).map(|t| -((t % 3) as f32)).sum();
        for (t, out) in out.iter().enumerate() {
            sum += (t % 2) as f32;
            assert_eq!(
                out[0],
                bf16::from_f32(sum).to_bits(),
                "block {block}, thread {t}"
            );
            let want_max = if t == 0 {
                bf16::NEG_INFINITY
            } else {
                bf16::from_f32(max)
            };
            assert_eq!(out[1], want_max.to_bits(), "block {block}, thread {t}");
            max = max.max((t % 2) as f32);
            assert_eq!(out[2], f16::from_f32(neg_total).to_bits());
        }
    }
    // A coalesced group of the odd lanes.
    let out = run::<2>(32, |t| {
        if t % 2 == 1 {
            let g = coalesced_threads();
            let x = f16::from_f32_rn(t as f32);
            [bits(inclusive_scan(&g, x, Plus)), bits(reduce(&g, x, Less))]
        } else {
            [0, 0]
        }
    });
    let mut sum = 0.0;
    for t in (1..32).step_by(2) {
        sum += t as f32;
        assert_eq!(out[t], [f16::from_f32(sum).to_bits(), f16::ONE.to_bits()]);
    }
}

/// Shuffles move a 16-bit value in the low half of one word: the tile's
/// `shfl_xor` gives the partner's exact bits, NaNs and signed zeros
/// included.
#[test]
fn shuffles_move_the_bits() {
    let odd = [0x7fffu16, 0x8000, 0x7c01, 0x0001, 0xfbff, 0x3c00];
    let out = run::<2>(32, |t| {
        let tile = tiled_partition::<32>(&this_thread_block());
        let x = bf16::from_bits(odd[t as usize % odd.len()]);
        let p = bf16x2::new(x, bf16::from_bits(t as u16));
        let q = tile.shfl_xor(p, 5);
        [tile.shfl_xor(x, 3).to_bits(), q.y.to_bits()]
    });
    for t in 0..32 {
        assert_eq!(out[t][0], odd[(t ^ 3) % odd.len()]);
        assert_eq!(out[t][1], (t ^ 5) as u16);
    }
}

/// A multi-warp tile's `shfl` (a broadcast through shared memory) moves
/// a 16-bit value and a pair as they are.
#[test]
fn multi_warp_broadcast_moves_the_bits() {
    let out = run::<3>(128, |t| {
        let tile = tiled_partition::<64>(&this_thread_block());
        let x = f16::from_bits(0x8000 | t as u16);
        let p = bf16x2::from_bits(0x7fff_0000 | t);
        let q = tile.shfl(p, 40);
        [tile.shfl(x, 37).to_bits(), q.x.to_bits(), q.y.to_bits()]
    });
    for (t, o) in out.iter().enumerate() {
        let src = (t / 64 * 64) as u16;
        assert_eq!(*o, [0x8000 | (src + 37), src + 40, 0x7fff], "thread {t}");
    }
}

// ---------------------------------------------------------------- atomics

/// `fetch_add` / `fetch_sub` / `red_add` of pairs on the simulator: each
/// thread's add is one `add.rn` of the word it finds (`fetch_add` returns
/// it), whatever the order the lanes run in. Integer data, so the final
/// sums are exact in every order; every returned old value is a prefix
/// sum of some order, checked by replaying the adds in the order of the
/// old values.
#[test]
fn pair_atomics_add_each_half() {
    use cooperative_groups::atomic::{AtomicRef, Device, Relaxed};
    let mut words = [0u32; 3];
    let p = words.as_mut_ptr();
    let olds: Vec<AtomicU32> = (0..64).map(|_| AtomicU32::new(0)).collect();
    let ptr = p as usize;
    cg_sim::launch(&cg_sim::LaunchConfig::new(2, 32), &|| {
        let g = this_grid().thread_rank();
        let p = ptr as *mut u32;
        // SAFETY: three aligned words that outlive the launch, accessed
        // only atomically.
        let (h, b, s) = unsafe {
            (
                AtomicRef::<f16x2, Device>::from_ptr(p.cast()),
                AtomicRef::<bf16x2, Device>::from_ptr(p.add(1).cast()),
                AtomicRef::<f16x2, Device>::from_ptr(p.add(2).cast()),
            )
        };
        let v = f16x2::from_f32_rn(g as f32, -2.0 * g as f32);
        let old = h.fetch_add(v, Relaxed);
        olds[g as usize].store(old.to_bits(), std::sync::atomic::Ordering::Relaxed);
        b.red_add(bf16x2::from_f32_rn(1.0, 2.0), Relaxed);
        s.fetch_sub(v, Relaxed);
    })
    .unwrap();
    let total: f32 = (0..64).map(|g| g as f32).sum(); // 2016: exact in f16
    assert_eq!(f16x2::from_bits(words[0]).widen(), (total, -2.0 * total));
    assert_eq!(bf16x2::from_bits(words[1]).widen(), (64.0, 128.0));
    assert_eq!(f16x2::from_bits(words[2]).widen(), (-total, 2.0 * total));
    // The old values, sorted by their first element, are the running sums
    // of the adds in that order: each add saw the word the previous left.
    let mut seen: Vec<(f32, u32)> = olds
        .iter()
        .enumerate()
        .map(|(g, o)| {
            let old = o.load(std::sync::atomic::Ordering::Relaxed);
            (f16x2::from_bits(old).widen().0, g as u32)
        })
        .collect();
    seen.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut run = 0.0;
    for (old, g) in seen {
        assert_eq!(old, run, "thread {g}");
        run += g as f32;
    }
}

/// A pair add rounds each half once (`add.rn` of the pair), as the
/// instruction: `1024 + 0.5` in f16 is a tie and stays `1024`.
#[test]
fn pair_atomic_add_rounds_like_the_pair_add() {
    use cooperative_groups::atomic::{AtomicRef, Block, Relaxed};
    let mut w = f16x2::from_f32_rn(1024.0, 1.0);
    let a = AtomicRef::<f16x2, Block>::from_mut(&mut w);
    let inc = f16x2::from_f32_rn(0.5, 1.0 / 3.0);
    let before = a.fetch_add(inc, Relaxed);
    assert_eq!(before.widen(), (1024.0, 1.0));
    let want = f16x2::from_f32_rn(1024.0, 1.0) + inc;
    assert_eq!(w.to_bits(), want.to_bits());
    assert_eq!(w.widen().0, 1024.0);
}

/// The scalar half atomics on the simulator: `fetch_add`, `fetch_sub`,
/// `red_add`, `exchange`, `compare_exchange` of `f16` and `bf16`, on
/// integer data (exact in every order): the totals, and each `fetch_add`'s
/// old value a running sum of the adds in some order.
#[test]
fn half_atomics_add_and_exchange() {
    use cooperative_groups::atomic::{AtomicRef, Device, Relaxed};
    let mut h = [f16::ZERO; 3];
    let mut b = [bf16::ZERO; 2];
    let (ph, pb) = (h.as_mut_ptr() as usize, b.as_mut_ptr() as usize);
    let olds: Vec<AtomicU32> = (0..64).map(|_| AtomicU32::new(0)).collect();
    cg_sim::launch(&cg_sim::LaunchConfig::new(2, 32), &|| {
        let g = this_grid().thread_rank();
        let (ph, pb) = (ph as *mut f16, pb as *mut bf16);
        // SAFETY: five aligned 16-bit words that outlive the launch,
        // accessed only atomically.
        let (h0, h1, h2, b0, b1) = unsafe {
            (
                AtomicRef::<f16, Device>::from_ptr(ph),
                AtomicRef::<f16, Device>::from_ptr(ph.add(1)),
                AtomicRef::<f16, Device>::from_ptr(ph.add(2)),
                AtomicRef::<bf16, Device>::from_ptr(pb),
                AtomicRef::<bf16, Device>::from_ptr(pb.add(1)),
            )
        };
        let v = f16::from_f32_rn(g as f32);
        let old = h0.fetch_add(v, Relaxed);
        olds[g as usize].store(old.to_bits() as u32, std::sync::atomic::Ordering::Relaxed);
        h1.fetch_sub(v, Relaxed);
        h2.exchange(f16::from_f32_rn(7.0), Relaxed);
        b0.red_add(bf16::from_f32_rn(2.0), Relaxed);
        // Exactly one thread swaps 0 for 1 (the others see 1 afterwards).
        let _ = b1.compare_exchange(bf16::ZERO, bf16::ONE, Relaxed);
    })
    .unwrap();
    let total: f32 = (0..64).map(|g| g as f32).sum();
    assert_eq!(h[0].to_f32(), total);
    assert_eq!(h[1].to_f32(), -total);
    assert_eq!(h[2].to_f32(), 7.0);
    assert_eq!(b[0].to_f32(), 128.0);
    assert_eq!(b[1].to_f32(), 1.0);
    let mut seen: Vec<(f32, u32)> = olds
        .iter()
        .enumerate()
        .map(|(g, o)| {
            let old = o.load(std::sync::atomic::Ordering::Relaxed) as u16;
            (f16::from_bits(old).to_f32(), g as u32)
        })
        .collect();
    seen.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut run = 0.0;
    for (old, g) in seen {
        assert_eq!(old, run, "thread {g}");
        run += g as f32;
    }
}

/// A half atomic add rounds as `add.rn`: `256 + 1` in bf16 is a tie and
/// stays `256`; in f16 it is exact.
#[test]
fn half_atomic_add_rounds_like_add_rn() {
    use cooperative_groups::atomic::{AtomicRef, Block, Relaxed};
    // In a kernel: an atomic that leaves memory unchanged yields the lane.
    cg_sim::launch(&cg_sim::LaunchConfig::new(1, 1), &|| {
        let mut b = bf16::from_f32_rn(256.0);
        let a = AtomicRef::<bf16, Block>::from_mut(&mut b);
        assert_eq!(a.fetch_add(bf16::ONE, Relaxed).to_f32(), 256.0);
        assert_eq!(b.to_f32(), 256.0);
        let mut h = f16::from_f32_rn(256.0);
        AtomicRef::<f16, Block>::from_mut(&mut h).fetch_add(f16::ONE, Relaxed);
        assert_eq!(h.to_f32(), 257.0);
    })
    .unwrap();
}

// ---------------------------------------------------------------- 8-bit floats

/// The value of an 8-bit float from its fields (`e4m3`: bias 7, NaN
/// `S.1111.111`, no infinities; `e5m2`: bias 15, IEEE-style specials).
fn fp8_ref(bits: u8, e4m3: bool) -> f64 {
    let (mb, bias) = if e4m3 { (3, 7) } else { (2, 15) };
    let e = ((bits & 0x7f) >> mb) as i32;
    let m = (bits & ((1 << mb) - 1)) as f64;
    let sign = if bits & 0x80 != 0 { -1.0 } else { 1.0 };
    let top = if e4m3 { 15 } else { 31 };
    if e == top && (!e4m3 || m == 7.0) {
        return if e4m3 || m != 0.0 {
            f64::NAN
        } else {
            sign * f64::INFINITY
        };
    }
    let frac = m / 2f64.powi(mb);
    sign * if e == 0 {
        frac * 2f64.powi(1 - bias)
    } else {
        (1.0 + frac) * 2f64.powi(e - bias)
    }
}

/// Saturating round-to-nearest-even of `x` to an 8-bit float, from the
/// table of its values.
fn fp8_round_ref(x: f32, e4m3: bool) -> u8 {
    let max_bits = if e4m3 { 0x7e } else { 0x7b };
    let sign = if x.is_sign_negative() { 0x80 } else { 0 };
    if x.is_nan() {
        let payload = if e4m3 {
            1
        } else {
            ((x.to_bits() >> 21) & 1) as u8
        };
        return sign | 0x7e | payload;
    }
    let a = (x as f64).abs();
    if a >= fp8_ref(max_bits, e4m3) {
        return sign | max_bits;
    }
    let mut best = 0u8;
    for b in 1..=max_bits {
        let (d, db) = (
            (fp8_ref(b, e4m3) - a).abs(),
            (fp8_ref(best, e4m3) - a).abs(),
        );
        if d < db || (d == db && b % 2 == 0) {
            best = b;
        }
    }
    sign | best
}

#[test]
fn fp8_widening_is_exact_for_every_value() {
    use cooperative_groups::narrow::{e4m3, e5m2};
    for b in 0..=255u8 {
        for (got, want) in [
            (e4m3::from_bits(b).to_f32(), fp8_ref(b, true)),
            (e5m2::from_bits(b).to_f32(), fp8_ref(b, false)),
        ] {
            if want.is_nan() {
                assert!(got.is_nan(), "{b:#04x}");
            } else {
                assert_eq!(got as f64, want, "{b:#04x}");
                assert_eq!(got.is_sign_negative(), want.is_sign_negative(), "{b:#04x}");
            }
        }
    }
    // The pair form: the low byte is element x.
    let p = e4m3::pair_to_f16x2([e4m3::from_bits(0x38), e4m3::from_bits(0xb8)]);
    assert_eq!(p.widen(), (1.0, -1.0));
}

#[test]
fn fp8_narrowing_rounds_to_nearest_even_and_saturates() {
    use cooperative_groups::narrow::{e4m3, e5m2};
    let check = |x: f32| {
        assert_eq!(
            e4m3::from_f32_satfinite(x).to_bits(),
            fp8_round_ref(x, true),
            "e4m3 {x:e}"
        );
        assert_eq!(
            e5m2::from_f32_satfinite(x).to_bits(),
            fp8_round_ref(x, false),
            "e5m2 {x:e}"
        );
        let [lo, hi] = e4m3::pair_from_f32_satfinite(x, -x);
        assert_eq!(
            (lo.to_bits(), hi.to_bits()),
            (fp8_round_ref(x, true), fp8_round_ref(-x, true))
        );
    };
    // Every value of both formats, the midpoints between neighbours (ties)
    // and the f32s beside them.
    for e4m3 in [true, false] {
        for b in 0..=0x7eu8 {
            let (v, w) = (fp8_ref(b, e4m3), fp8_ref(b + 1, e4m3));
            for x in [v, (v + w) / 2.0] {
                if x.is_finite() {
                    let x = x as f32;
                    for y in [
                        x,
                        -x,
                        f32::from_bits(x.to_bits() + 1),
                        f32::from_bits(x.to_bits().saturating_sub(1)),
                    ] {
                        check(y);
                    }
                }
            }
        }
    }
    for x in [
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MAX,
        1e-30,
        -0.0,
        f32::NAN,
        -f32::NAN,
        f32::from_bits(0x7fa0_0000),
    ] {
        check(x);
    }
    let mut r = Rng(4242);
    for _ in 0..50_000 {
        // Magnitudes around the formats' range, and any bits.
        let e = (r.next() % 60) as i32 - 30;
        check((r.next() as u32 as f32 / u32::MAX as f32 - 0.5) * 2f32.powi(e));
        check(f32::from_bits(r.next() as u32));
    }
}
