//! The reduction operators of `reduce` and the scans: [`Plus`], [`Less`]
//! (minimum), [`Greater`] (maximum), [`BitAnd`], [`BitOr`], [`BitXor`] —
//! CUDA's `cg::plus`, `cg::less`, `cg::greater`, `cg::bit_and`, `cg::bit_or`,
//! `cg::bit_xor`.
//!
//! Between the shuffles of a collective an operator is one PTX instruction
//! (`add`, `min`, `max`, `and`, `or`, `xor` of the element type); for
//! 32-bit integers on sm_80+ the whole warp step is `redux.sync.{add, min,
//! max, and, or, xor}`.
//!
//! An operator is a zero-sized value; which element types it supports is a
//! trait bound, so `reduce(&tile, 1.0f32, BitAnd)` does not compile:
//!
//! ```compile_fail
//! # use cooperative_groups::{ops::*, ReduceOp};
//! fn needs_op<T, Op: ReduceOp<T>>(_: T, _: Op) {}
//! needs_op(1.0f32, BitAnd); // bit operators exist only for integers
//! ```

use crate::arch::ReduxOp;

/// A binary operator that `reduce`, `inclusive_scan` and `exclusive_scan`
/// apply to elements of type `T`.
///
/// The operator must be associative and commutative (the collectives combine
/// values in a tree). Implemented by this module's six operators for the
/// types CUDA supports them on (bit operators only for integers), and by
/// every closure `Fn(T, T) -> T` that is `Copy` — CUDA's lambdas:
/// `reduce(&tile, v, |a: i32, b: i32| a.max(b))`. A closure's
/// `exclusive_scan` gives rank 0 `T::default()`, CUDA's `T{}`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an operator on `{T}`",
    label = "not an operator on `{T}`",
    note = "the bit operators exist only for integers; a closure must be `Fn({T}, {T}) -> {T} + Copy`"
)]
pub trait ReduceOp<T>: Copy {
    /// `a ⊕ b`.
    fn combine(&self, a: T, b: T) -> T;

    /// What `exclusive_scan` returns to the thread of rank 0: the neutral
    /// element (`e ⊕ x == x`) for this module's operators, `T::default()`
    /// for closures.
    fn identity(&self) -> T;

    /// `true` when combining in any order gives bit-identical results and
    /// [`identity`](Self::identity) is neutral (integers; not floating-point
    /// `+`, nor float `min`/`max`, whose signed zeros may differ, nor
    /// closures). Exact operators may be reordered across warps; for the
    /// others every thread combines the per-warp partials in the same
    /// order, so all threads of a group get the same bits.
    const EXACT: bool = false;

    /// The `redux.sync` operation equal to this operator on `T`, for 32-bit
    /// integers (used on sm_80+).
    #[doc(hidden)]
    const REDUX: Option<ReduxOp> = None;

    /// `a` with `b` taken back out (`x` where `x ⊕ b == a`), where the
    /// operator has an exact inverse (integer `+`: wrapping `-`): an
    /// exclusive scan is then the inclusive one less the thread's own
    /// value, one shuffle fewer (CUB's `ExclusiveSum` does this).
    #[doc(hidden)]
    #[inline(always)]
    fn uncombine(&self, a: T, b: T) -> Option<T> {
        let _ = (a, b);
        None
    }
}

/// A closure as an operator (CUDA's lambdas). Not [`EXACT`](ReduceOp::EXACT):
/// the library cannot know that the closure is exact, so every thread
/// combines the partials in the same order and gets the same bits.
impl<T: Default, F: Fn(T, T) -> T + Copy> ReduceOp<T> for F {
    #[inline(always)]
    fn combine(&self, a: T, b: T) -> T {
        self(a, b)
    }
    #[inline(always)]
    fn identity(&self) -> T {
        T::default()
    }
}

/// Sum (`cg::plus`): wrapping for integers, IEEE `+` for floats (for
/// [`f16`](struct@crate::f16), [`bf16`](crate::bf16) and their pairs `add.rn`,
/// rounded once per step).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Plus;

/// Minimum (`cg::less`): `min` for integers, `f32::min`/`f64::min` (PTX
/// `min.f32`) for floats, `__hmin` (`min.f16`, `min.bf16`) for the 16-bit
/// floats and their pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Less;

/// Maximum (`cg::greater`): `max` for integers, `f32::max`/`f64::max` for
/// floats, `__hmax` for the 16-bit floats and their pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Greater;

/// Bitwise and (`cg::bit_and`); integers only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BitAnd;

/// Bitwise or (`cg::bit_or`); integers only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BitOr;

/// Bitwise xor (`cg::bit_xor`); integers only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BitXor;

macro_rules! int_ops {
    ($t:ty, $min:ident, $max:ident, $redux:expr) => {
        impl ReduceOp<$t> for Plus {
            #[inline(always)]
            fn combine(&self, a: $t, b: $t) -> $t {
                a.wrapping_add(b)
            }
            #[inline(always)]
            fn identity(&self) -> $t {
                0
            }
            const EXACT: bool = true;
            const REDUX: Option<ReduxOp> = if $redux { Some(ReduxOp::Add) } else { None };
            #[inline(always)]
            fn uncombine(&self, a: $t, b: $t) -> Option<$t> {
                Some(a.wrapping_sub(b))
            }
        }
        impl ReduceOp<$t> for Less {
            #[inline(always)]
            fn combine(&self, a: $t, b: $t) -> $t {
                if b < a { b } else { a }
            }
            #[inline(always)]
            fn identity(&self) -> $t {
                <$t>::MAX
            }
            const EXACT: bool = true;
            const REDUX: Option<ReduxOp> = if $redux { Some(ReduxOp::$min) } else { None };
        }
        impl ReduceOp<$t> for Greater {
            #[inline(always)]
            fn combine(&self, a: $t, b: $t) -> $t {
                if b > a { b } else { a }
            }
            #[inline(always)]
            fn identity(&self) -> $t {
                <$t>::MIN
            }
            const EXACT: bool = true;
            const REDUX: Option<ReduxOp> = if $redux { Some(ReduxOp::$max) } else { None };
        }
        impl ReduceOp<$t> for BitAnd {
            #[inline(always)]
            fn combine(&self, a: $t, b: $t) -> $t {
                a & b
            }
            #[inline(always)]
            fn identity(&self) -> $t {
                !0
            }
            const EXACT: bool = true;
            const REDUX: Option<ReduxOp> = if $redux { Some(ReduxOp::And) } else { None };
        }
        impl ReduceOp<$t> for BitOr {
            #[inline(always)]
            fn combine(&self, a: $t, b: $t) -> $t {
                a | b
            }
            #[inline(always)]
            fn identity(&self) -> $t {
                0
            }
            const EXACT: bool = true;
            const REDUX: Option<ReduxOp> = if $redux { Some(ReduxOp::Or) } else { None };
        }
        impl ReduceOp<$t> for BitXor {
            #[inline(always)]
            fn combine(&self, a: $t, b: $t) -> $t {
                a ^ b
            }
            #[inline(always)]
            fn identity(&self) -> $t {
                0
            }
            const EXACT: bool = true;
            const REDUX: Option<ReduxOp> = if $redux { Some(ReduxOp::Xor) } else { None };
        }
    };
}

int_ops!(u32, MinU, MaxU, true);
int_ops!(i32, MinS, MaxS, true);
int_ops!(u64, MinU, MaxU, false);
int_ops!(i64, MinS, MaxS, false);

macro_rules! float_ops {
    ($t:ty) => {
        impl ReduceOp<$t> for Plus {
            #[inline(always)]
            fn combine(&self, a: $t, b: $t) -> $t {
                a + b
            }
            #[inline(always)]
            fn identity(&self) -> $t {
                0.0
            }
        }
        impl ReduceOp<$t> for Less {
            #[inline(always)]
            fn combine(&self, a: $t, b: $t) -> $t {
                a.min(b)
            }
            #[inline(always)]
            fn identity(&self) -> $t {
                <$t>::INFINITY
            }
        }
        impl ReduceOp<$t> for Greater {
            #[inline(always)]
            fn combine(&self, a: $t, b: $t) -> $t {
                a.max(b)
            }
            #[inline(always)]
            fn identity(&self) -> $t {
                <$t>::NEG_INFINITY
            }
        }
    };
}

float_ops!(f32);
float_ops!(f64);

/// What the one member of `invoke_one_broadcast` calls: a closure (whose body is
/// the caller's code), or one of the library's calls whose primitives must
/// name the caller's line — a trait method can be `#[track_caller]`, a
/// closure cannot.
pub(crate) trait OneCall<T> {
    /// Makes the call.
    #[track_caller]
    fn call(self) -> T;
}

impl<T, F: FnOnce() -> T> OneCall<T> for F {
    #[inline(always)]
    #[track_caller]
    fn call(self) -> T {
        self()
    }
}
