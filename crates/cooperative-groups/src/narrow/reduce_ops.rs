//! [`Plus`], [`Less`] and [`Greater`] on the 16-bit floats and their
//! pairs, so that `reduce` and the scans take them as they take `f32`.
//!
//! * `Plus` is `add.rn` (one rounding per step, as `cg::plus<__half>` and
//!   `cg::plus<__nv_bfloat16>`); the collectives combine in NVIDIA's
//!   order, so the results are NVIDIA's bits.
//! * `Less` / `Greater` are `__hmin` / `__hmax` (`min.bf16`, …):
//!   commutative, so every member of a group gets the same bits. CUDA's
//!   `cg::less<T>` is the select `b < a ? b : a` instead; the two agree
//!   except on zeros of two signs and on NaNs (see the crate's table of
//!   differences).

use half::{bf16, f16};

use super::pair::{bf16x2, f16x2};
use super::scalar::Float16;
use crate::ops::{Greater, Less, Plus, ReduceOp};

macro_rules! ops16 {
    ($t:ty, $zero:expr, $inf:expr, $neg_inf:expr) => {
        impl ReduceOp<$t> for Plus {
            #[inline(always)]
            fn combine(&self, a: $t, b: $t) -> $t {
                a.add_rn(b)
            }
            #[inline(always)]
            fn identity(&self) -> $t {
                $zero
            }
        }
        impl ReduceOp<$t> for Less {
            #[inline(always)]
            fn combine(&self, a: $t, b: $t) -> $t {
                a.hmin(b)
            }
            #[inline(always)]
            fn identity(&self) -> $t {
                $inf
            }
        }
        impl ReduceOp<$t> for Greater {
            #[inline(always)]
            fn combine(&self, a: $t, b: $t) -> $t {
                a.hmax(b)
            }
            #[inline(always)]
            fn identity(&self) -> $t {
                $neg_inf
            }
        }
    };
}

ops16!(f16, f16::ZERO, f16::INFINITY, f16::NEG_INFINITY);
ops16!(bf16, bf16::ZERO, bf16::INFINITY, bf16::NEG_INFINITY);
ops16!(
    f16x2,
    f16x2::splat(f16::ZERO),
    f16x2::splat(f16::INFINITY),
    f16x2::splat(f16::NEG_INFINITY)
);
ops16!(
    bf16x2,
    bf16x2::splat(bf16::ZERO),
    bf16x2::splat(bf16::INFINITY),
    bf16x2::splat(bf16::NEG_INFINITY)
);
