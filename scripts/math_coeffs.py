#!/usr/bin/env python3
"""Polynomial coefficients of `cooperative_groups::math` (f32), derived here.

Each approximation is a near-minimax polynomial for a relative error
(Lawson's iteratively reweighted least squares on Chebyshev-spaced points,
in float64; the targets are f32 functions, so float64 references suffice),
with its coefficients rounded to f32 and the error of the *rounded*
coefficients reported. Run `python3 scripts/math_coeffs.py` and paste the
printed constants into `crates/cooperative-groups/src/math/*.rs`
(the function names in the output name the file and constant).

Requires numpy.
"""
import math
import numpy as np


def f32(v):
    return float(np.float32(v))


def fit(name, func, lo, hi, powers, weight=None, n=4000, iters=60, fixed=None):
    """Coefficients c_k for sum c_k * g(x)^powers[k] (g is x) approximating
    func on [lo, hi], minimizing max |(p - f) * weight| (weight defaults to
    1/|f|, a relative error). `fixed` = (powers, coefs) added exactly."""
    t = np.cos(np.pi * (np.arange(n) + 0.5) / n)
    x = (lo + hi) / 2 + (hi - lo) / 2 * t
    x = np.concatenate([x, [lo, hi]])
    y = np.array([func(v) for v in x])
    if fixed:
        fp, fc = fixed
        y = y - sum(c * x**p for p, c in zip(fp, fc))
    w = np.abs(weight(x)) if weight else 1 / np.maximum(np.abs(np.array([func(v) for v in x])), 1e-300)
    A = np.stack([x**p for p in powers], axis=1)
    lw = np.ones_like(x)
    for _ in range(iters):
        sw = np.sqrt(lw) * w
        c, *_ = np.linalg.lstsq(A * sw[:, None], y * sw, rcond=None)
        err = np.abs((A @ c - y) * w)
        lw = lw * err
        lw = lw / lw.sum()
    c32 = [f32(v) for v in c]
    err32 = np.max(np.abs((A @ np.array(c32) - y) * w))
    print(f"// {name}: powers {powers} on [{lo}, {hi}], max weighted error {err32:.3e} (2^{math.log2(err32):.1f})")
    for p, v in zip(powers, c32):
        print(f"    {v!r:>24}, // x^{p}")
    return c32


def main():
    ln2 = math.log(2)
    # exp: e^r = 1 + r + r^2 * P(r), |r| <= ln2/2
    fit("exp.rs EXP_P", lambda r: (math.expm1(r) - r) / (r * r) if r != 0 else 0.5,
        -ln2 / 2 - 1e-4, ln2 / 2 + 1e-4, [0, 1, 2, 3, 4, 5],
        weight=lambda r: r * r / np.exp(r))
    # exp2: 2^r = 1 + r * Q(r), |r| <= 1/2
    fit("exp.rs EXP2_P", lambda r: (2**r - 1) / r if r != 0 else ln2,
        -0.5, 0.5, [0, 1, 2, 3, 4, 5, 6], weight=lambda r: r / 2**r)
    # exp10: 10^r = 1 + r * Q(r), |r| <= log10(2)/2
    h = math.log10(2) / 2 + 1e-5
    fit("exp.rs EXP10_P", lambda r: (10**r - 1) / r if r != 0 else math.log(10),
        -h, h, [0, 1, 2, 3, 4, 5, 6], weight=lambda r: r / 10**r)
    # log: log1p(f) = f - f^2/2 + f^3 * Q(f), f in [sqrt(1/2) - 1, sqrt(2) - 1]
    lo, hi = math.sqrt(0.5) - 1 - 1e-6, math.sqrt(2) - 1 + 1e-6
    fit("log.rs LOG_P", lambda f: (math.log1p(f) - f + f * f / 2) / f**3 if abs(f) > 1e-5 else 1 / 3 - f / 4,
        lo, hi, list(range(0, 9)), weight=lambda f: np.abs(f**3 / np.log1p(f)))
    # sin(r) = r + r^3 * S(r^2), cos(r) = 1 - r^2/2 + r^4 * C(r^2), |r| <= pi/4
    q = math.pi / 4 + 1e-4
    fit("trig.rs SIN_P", lambda r: (math.sin(r) - r) / r**3 if abs(r) > 1e-4 else -1 / 6 + r * r / 120,
        1e-6, q, [0, 2, 4, 6], weight=lambda r: r**3 / np.sin(r))
    fit("trig.rs COS_P", lambda r: (math.cos(r) - 1 + r * r / 2) / r**4 if abs(r) > 1e-3 else 1 / 24 - r * r / 720,
        1e-6, q, [0, 2, 4, 6], weight=lambda r: r**4 / np.cos(r))
    # sinpi(t) = t * (pi + t^2 * S(t^2)), cospi(t) = 1 + t^2 * C(t^2), |t| <= 1/4
    fit("trig.rs SINPI_P", lambda t: (math.sin(math.pi * t) / t - math.pi) / t**2 if abs(t) > 1e-4 else -math.pi**3 / 6,
        1e-6, 0.25 + 1e-6, [0, 2, 4, 6], weight=lambda t: t**3 / np.sin(np.pi * t))
    # cospi(t) = 1 - (pi^2/2) t^2 + t^4 * C(t^2), the t^2 coefficient exact
    # (in two floats in the code): C alone is fitted.
    c2 = -math.pi**2 / 2
    fit("trig.rs COSPI_P", lambda t: (math.cos(math.pi * t) - 1 - c2 * t * t) / t**4 if abs(t) > 1e-3 else math.pi**4 / 24,
        1e-6, 0.25 + 1e-6, [0, 2, 4, 6], weight=lambda t: t**4 / np.cos(np.pi * t))
    # atan(t) = t + t^3 * A(t^2), t in [0, 1]
    fit("inverse.rs ATAN_P", lambda t: (math.atan(t) - t) / t**3 if t > 1e-3 else -1 / 3 + t * t / 5,
        1e-6, 1.0, list(range(0, 18, 2)), weight=lambda t: t**3 / np.arctan(t))
    # asin(s) = s + s^3 * A(s^2), s in [0, 1/2]
    fit("inverse.rs ASIN_P", lambda s: (math.asin(s) - s) / s**3 if s > 1e-3 else 1 / 6 + 3 * s * s / 40,
        1e-6, 0.5 + 1e-6, list(range(0, 12, 2)), weight=lambda s: s**3 / np.arcsin(s))
    # tanh(x) = x + x^3 * T(x^2), |x| <= 0.55
    fit("hyperbolic.rs TANH_P", lambda x: (math.tanh(x) - x) / x**3 if x > 1e-3 else -1 / 3 + 2 * x * x / 15,
        1e-6, 0.55, list(range(0, 12, 2)), weight=lambda x: x**3 / np.tanh(x))
    # sinh(x) = x + x^3 * S(x^2), |x| <= 1
    fit("hyperbolic.rs SINH_P", lambda x: (math.sinh(x) - x) / x**3 if x > 1e-3 else 1 / 6 + x * x / 120,
        1e-6, 1.0, list(range(0, 10, 2)), weight=lambda x: x**3 / np.sinh(x))



def special():
    """erf / erfc: erf(x) = x * E(x^2) on |x| <= 1; erfc(a) = exp(-a^2) *
    G(t), t = 1/a, on a in [0.5, 2] and [2, 10.1] (G(t) = erfc(1/t) e^(1/t^2))."""
    import mpmath as mp
    mp.mp.prec = 80
    c0 = 2 / mp.sqrt(mp.pi)
    fit("special.rs ERF_P (erf(x)/x - 2/sqrt(pi)) / x^2 in u = x^2",
        lambda u: float((mp.erf(mp.sqrt(u)) / mp.sqrt(u) - c0) / u) if u > 1e-8 else float(-c0 / 3),
        0.0, 1.0, list(range(0, 9)), weight=lambda u: u / 1.1)
    Ga = lambda a: float(mp.erfc(mp.mpf(a)) * mp.exp(mp.mpf(a) ** 2))
    fit("special.rs ERFC_NEAR_P: erfc(a) e^(a^2) in s = a - 1, a in [0.5, 1.5]", lambda s: Ga(s + 1.0), -0.5, 0.5, list(range(0, 11)))
    fit("special.rs ERFC_MID_P: erfc(a) e^(a^2) in s = a - 2, a in [1.5, 2.5]", lambda s: Ga(s + 2.0), -0.5, 0.5, list(range(0, 13)))
    G = lambda t: float(mp.erfc(1 / mp.mpf(t)) * mp.exp(1 / mp.mpf(t) ** 2))
    c1 = 1 / mp.sqrt(mp.pi)
    fit("special.rs ERFC_FAR_P: (erfc(a) e^(a^2) a - 1/sqrt(pi)) / u in u = 1/a^2, a in [2.5, 10.1]",
        lambda u: float((G(mp.sqrt(u)) * mp.sqrt(u) ** -1 - c1) / u) if False else float(((mp.erfc(1 / mp.sqrt(u)) * mp.exp(1 / u)) / mp.sqrt(u) - c1) / u),
        1 / 10.1**2, 0.16, list(range(0, 8)), weight=lambda u: u / 0.5)


def inverse():
    """erfinv / erfcinv / normcdfinv and lgamma (f32), see special.rs and
    gamma.rs. erfinv(x) = x * (c0 + u R(u)), u = x^2, on |x| <= 1/2; beyond,
    erfinv(1 - z) as a polynomial in t = s - mid, s = sqrt(-ln z), on two
    segments (c0 of each in two parts: the fit is of y - c0_hi), and a
    rough start for one Newton step in the far tail. lgamma(1 + t) = t (t - 1) P(t),
    lgamma(2 + u) = u Q(u), and Stirling's correction (1/x) S(1/x^2)."""
    import mpmath as mp
    mp.mp.prec = 120
    c0 = mp.sqrt(mp.pi) / 2
    fit("special.rs ERFINV_P (erfinv(x)/x - sqrt(pi)/2) / x^2 in u = x^2",
        lambda u: float((mp.erfinv(mp.sqrt(u)) / mp.sqrt(u) - c0) / u) if u > 1e-12 else float(c0**3 / 3),
        0.0, 0.25 + 1e-6, list(range(0, 8)), weight=lambda u: u / 0.9)

    def y_of_s(s):
        # erfc(y) = e^(-s^2): Newton on ln erfc(y) + s^2.
        s = mp.mpf(s)
        y = s
        for _ in range(80):
            e = mp.erfc(y)
            dy = (mp.log(e) + s * s) / (-2 / mp.sqrt(mp.pi) * mp.exp(-y * y) / e)
            y -= dy
            if abs(dy) < mp.mpf(10) ** -32:
                break
        return y

    for name, lo, hi, deg in [("ERFINV_S1", 0.83, 1.58, 10), ("ERFINV_S2", 1.58, 2.35, 9)]:
        mid = f32((lo + hi) / 2)
        chi = f32(float(y_of_s(mid)))
        print(f"// {name}: mid {mid!r}, c0_hi {chi!r}")
        fit(f"special.rs {name}: erfinv(1 - e^(-s^2)) - c0_hi in t = s - mid",
            lambda t: float(y_of_s(t + mid) - chi), lo - mid, hi - mid, list(range(0, deg + 1)),
            weight=np.vectorize(lambda t: 1 / float(y_of_s(t + mid))), n=400, iters=40)
    fit("special.rs ERFINV_FAR (rough: one Newton step follows) in t = s - 6.25",
        lambda t: float(y_of_s(t + 6.25)), 2.3 - 6.25, 10.2 - 6.25, list(range(0, 7)),
        weight=lambda t: np.ones_like(t), n=300, iters=30)

    lg = lambda x: mp.log(abs(mp.gamma(x)))
    fit("gamma.rs LGAMMA_P: lgamma(1 + t) / (t (t - 1)) on [-0.25, 0.75]",
        lambda t: float(lg(1 + mp.mpf(t)) / (t * (t - 1))) if abs(t) > 1e-12 else float(mp.euler),
        -0.25, 0.75, list(range(0, 13)), n=600)
    fit("gamma.rs LGAMMA_Q: lgamma(2 + u) / u on [-0.5, 1]",
        lambda u: float(lg(2 + mp.mpf(u)) / u) if abs(u) > 1e-12 else float(1 - mp.euler),
        -0.5, 1.0, list(range(0, 14)), n=600)
    hl = mp.log(2 * mp.pi) / 2
    def corr(v):
        x = 1 / mp.sqrt(v)
        return float((lg(x) - ((x - mp.mpf(1) / 2) * mp.log(x) - x + hl)) * x)
    fit("gamma.rs LGAMMA_S: (lgamma(x) - Stirling's main terms) * x in v = 1/x^2, x >= 3",
        lambda v: corr(v) if v > 1e-8 else 1 / 12, 0.0, 1 / 9 + 1e-6, list(range(0, 6)),
        weight=lambda v: np.sqrt(v) / np.array([float(lg(1 / mp.sqrt(w))) if w > 1e-8 else 1e4 for w in v]), n=300)

if __name__ == "__main__":
    import sys
    if "special" in sys.argv:
        special()
    elif "inverse" in sys.argv:
        inverse()
    else:
        main()
