//! Double-double arithmetic: a value as the unevaluated sum `hi + lo` of two
//! `f64` (`|lo| <= ulp(hi)/2`), about 106 significant bits. The `f64`
//! functions compute their result this way and round once at the end
//! ([`Dd::round`]), which is what keeps them within CUDA's 1- and 2-ulp
//! bounds without tables or fitted polynomials.
//!
//! Every product that feeds a sum is an explicit [`fma`] (or [`mul`], an
//! `fma` with a zero addend), so `-fp-contract=fast` has nothing to fuse
//! and the GPU and the simulator compute the same bits (the rule of the
//! `f32` code, `math::util`).

use core::ops::{Add, Div, Mul, Neg, Sub};

pub(crate) use crate::arch::fp::fma;

/// `a * b` rounded, which contraction cannot fuse into a later sum.
#[inline(always)]
pub(crate) fn mul(a: f64, b: f64) -> f64 {
    fma(a, b, 0.0)
}

/// `2^k` for `-1022 <= k <= 1023` (a normal number: exact).
#[inline(always)]
pub(crate) fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// `p * 2^k` with one rounding, for `-2044 <= k <= 2046`: two exact-range
/// factors, so that only the last multiplication can round (into the
/// subnormals) or overflow.
#[inline(always)]
pub(crate) fn scale(p: f64, k: i32) -> f64 {
    let h = k >> 1;
    p * pow2(h) * pow2(k - h)
}

/// Horner's rule, one `fma` per coefficient: `c[0] + x*(c[1] + x*(…))`.
#[inline(always)]
pub(crate) fn horner<const N: usize>(x: f64, c: [f64; N]) -> f64 {
    let mut acc = c[N - 1];
    let mut i = N - 1;
    while i > 0 {
        i -= 1;
        acc = fma(acc, x, c[i]);
    }
    acc
}

/// A double-double `hi + lo`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dd {
    pub hi: f64,
    pub lo: f64,
}

/// TwoSum: `a + b = s + e` exactly.
#[inline(always)]
pub(crate) fn two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    let v = s - a;
    Dd {
        hi: s,
        lo: (a - (s - v)) + (b - v),
    }
}

/// Fast2Sum: `a + b = s + e` exactly when `|a| >= |b|` (or `a` is zero).
#[inline(always)]
pub(crate) fn fast_two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    Dd {
        hi: s,
        lo: b - (s - a),
    }
}

/// TwoProd: `a * b = p + e` exactly (the `fma` gives the error), barring
/// underflow of `e`.
#[inline(always)]
pub(crate) fn two_prod(a: f64, b: f64) -> Dd {
    let p = mul(a, b);
    Dd {
        hi: p,
        lo: fma(a, b, -p),
    }
}

impl Dd {
    /// The exact value `hi + lo` of a pair of constants.
    pub(crate) const fn new(hi: f64, lo: f64) -> Dd {
        Dd { hi, lo }
    }
    /// `x` exactly.
    #[inline(always)]
    pub(crate) fn from(x: f64) -> Dd {
        Dd { hi: x, lo: 0.0 }
    }
    /// The nearest `f64` (`lo` is below half an ulp of `hi` after every
    /// operation here, so this is `hi` up to the tie cases).
    #[inline(always)]
    pub(crate) fn round(self) -> f64 {
        self.hi + self.lo
    }
    /// `self * 2^k`, exact while both parts stay normal (two factors, as [`scale`]).
    #[inline(always)]
    pub(crate) fn scale(self, k: i32) -> Dd {
        let h = k >> 1;
        let (a, b) = (pow2(h), pow2(k - h));
        Dd {
            hi: self.hi * a * b,
            lo: self.lo * a * b,
        }
    }
    /// `self^2`.
    #[inline(always)]
    pub(crate) fn sqr(self) -> Dd {
        let p = two_prod(self.hi, self.hi);
        let t = fma(2.0 * self.hi, self.lo, p.lo);
        fast_two_sum(p.hi, t)
    }
    /// The square root, from the correctly rounded `sqrt(hi)` and one
    /// correction `(self - s^2) / 2s`. `self` must be positive.
    #[inline(always)]
    pub(crate) fn sqrt(self) -> Dd {
        let s = crate::arch::fp::sqrt(self.hi);
        if s == 0.0 || s.is_infinite() {
            return Dd::from(s);
        }
        let r = self - two_prod(s, s);
        fast_two_sum(s, r.hi / (2.0 * s))
    }
}

impl Neg for Dd {
    type Output = Dd;
    #[inline(always)]
    fn neg(self) -> Dd {
        Dd {
            hi: -self.hi,
            lo: -self.lo,
        }
    }
}

impl Add for Dd {
    type Output = Dd;
    /// The accurate sum: both parts added with their errors.
    #[inline(always)]
    fn add(self, b: Dd) -> Dd {
        let s = two_sum(self.hi, b.hi);
        let t = two_sum(self.lo, b.lo);
        let s = fast_two_sum(s.hi, s.lo + t.hi);
        fast_two_sum(s.hi, s.lo + t.lo)
    }
}

impl Add<f64> for Dd {
    type Output = Dd;
    #[inline(always)]
    fn add(self, b: f64) -> Dd {
        let s = two_sum(self.hi, b);
        fast_two_sum(s.hi, s.lo + self.lo)
    }
}

impl Sub for Dd {
    type Output = Dd;
    #[inline(always)]
    fn sub(self, b: Dd) -> Dd {
        self + -b
    }
}

impl Sub<f64> for Dd {
    type Output = Dd;
    #[inline(always)]
    fn sub(self, b: f64) -> Dd {
        self + -b
    }
}

impl Mul for Dd {
    type Output = Dd;
    #[inline(always)]
    fn mul(self, b: Dd) -> Dd {
        let p = two_prod(self.hi, b.hi);
        let t = fma(self.hi, b.lo, fma(self.lo, b.hi, p.lo));
        fast_two_sum(p.hi, t)
    }
}

impl Mul<f64> for Dd {
    type Output = Dd;
    #[inline(always)]
    fn mul(self, b: f64) -> Dd {
        let p = two_prod(self.hi, b);
        fast_two_sum(p.hi, fma(self.lo, b, p.lo))
    }
}

impl Div for Dd {
    type Output = Dd;
    /// Long division: three partial quotients, each remainder exact to
    /// double-double precision.
    #[inline(always)]
    fn div(self, b: Dd) -> Dd {
        let q1 = self.hi / b.hi;
        let r = self - b * q1;
        let q2 = r.hi / b.hi;
        let r = r - b * q2;
        let q3 = r.hi / b.hi;
        fast_two_sum(q1, q2) + q3
    }
}

impl Div<f64> for Dd {
    type Output = Dd;
    #[inline(always)]
    fn div(self, b: f64) -> Dd {
        self / Dd::from(b)
    }
}
