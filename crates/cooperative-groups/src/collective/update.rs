//! CUDA 12's collectives that finish in an atomic: `reduce_update_async`,
//! `reduce_store_async`, `inclusive_scan_update`, `exclusive_scan_update`.
//! The group reduces (or scans) as usual; one member then applies the
//! total to a [`cuda::atomic_ref`](AtomicRef) with the operator's atomic
//! (`Plus` → `fetch_add`, `Less` → `fetch_min`, `Greater` → `fetch_max`,
//! the bit operators → `fetch_and`/`or`/`xor`), relaxed.
//!
//! "Async" is CUDA's word for "visible to other members only after a
//! sync of the group" — as here: only one member writes.

use super::invoke::broadcast_one;
use super::reduce::reduce;
use super::scan::{exclusive_scan, inclusive_scan};
use crate::atomic::{AtomicArith, AtomicInteger, AtomicRef, AtomicValue, Relaxed, Scope};
use crate::group::ThreadGroup;
use crate::ops::OneCall;
use crate::ops::{BitAnd, BitOr, BitXor, Greater, Less, Plus, ReduceOp};
use crate::value::ShflValue;

/// An operator with an atomic read-modify-write on `T` (CUDA's
/// `reduce_update_async` and the scans' `_update` forms accept exactly
/// these: `cg::plus`, `cg::less`, `cg::greater`, `cg::bit_and`,
/// `cg::bit_or`, `cg::bit_xor`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no atomic update on `{T}`",
    label = "no atomic read-modify-write for this operator and type",
    note = "Plus works on u32, i32, u64, i64, f32, f64; Less, Greater and the bit operators on the integers; closures have none"
)]
pub trait AtomicOp<T: AtomicValue>: ReduceOp<T> {
    /// `dst ⊕= v`, relaxed; returns the old value.
    #[track_caller]
    fn fetch<S: Scope>(&self, dst: &AtomicRef<'_, T, S>, v: T) -> T;
}

impl<T: AtomicArith> AtomicOp<T> for Plus
where
    Plus: ReduceOp<T>,
{
    #[inline(always)]
    #[track_caller]
    fn fetch<S: Scope>(&self, dst: &AtomicRef<'_, T, S>, v: T) -> T {
        dst.fetch_add(v, Relaxed)
    }
}

macro_rules! integer_atomic_op {
    ($op:ty, $fetch:ident) => {
        impl<T: AtomicInteger> AtomicOp<T> for $op
        where
            $op: ReduceOp<T>,
        {
            #[inline(always)]
            #[track_caller]
            fn fetch<S: Scope>(&self, dst: &AtomicRef<'_, T, S>, v: T) -> T {
                dst.$fetch(v, Relaxed)
            }
        }
    };
}
integer_atomic_op!(Less, fetch_min);
integer_atomic_op!(Greater, fetch_max);
integer_atomic_op!(BitAnd, fetch_and);
integer_atomic_op!(BitOr, fetch_or);
integer_atomic_op!(BitXor, fetch_xor);

/// `cg::reduce_update_async(group, dst, v, op)`: the group's
/// [`reduce`] combined into `dst` by one member's atomic (`fetch_add`,
/// `fetch_min`, …, relaxed). Returns nothing; other members see the new
/// value after a sync of the group.
#[inline(always)]
#[track_caller]
pub fn reduce_update_async<G, T, Op, S>(group: &G, dst: &AtomicRef<'_, T, S>, v: T, op: Op)
where
    G: ThreadGroup,
    T: ShflValue + AtomicValue,
    Op: AtomicOp<T>,
    S: Scope,
{
    let total = reduce(group, v, op);
    if group.thread_rank() == 0 {
        op.fetch(dst, total);
    }
}

/// `cg::reduce_store_async(group, dst, v, op)`: the group's [`reduce`]
/// stored to `dst` by one member (a relaxed atomic store). Any operator,
/// closures included.
#[inline(always)]
#[track_caller]
pub fn reduce_store_async<G, T, Op, S>(group: &G, dst: &AtomicRef<'_, T, S>, v: T, op: Op)
where
    G: ThreadGroup,
    T: ShflValue + AtomicValue,
    Op: ReduceOp<T>,
    S: Scope,
{
    let total = reduce(group, v, op);
    if group.thread_rank() == 0 {
        dst.store(total, Relaxed);
    }
}

/// `op.fetch(dst, v)` as the one call of [`broadcast_one`] (a closure would
/// name this file's line in the simulator's reports).
struct Fetch<'r, 'a, Op, T: AtomicValue, S: Scope> {
    op: Op,
    dst: &'r AtomicRef<'a, T, S>,
    v: T,
}

impl<T: AtomicValue, Op: AtomicOp<T>, S: Scope> OneCall<T> for Fetch<'_, '_, Op, T, S> {
    #[inline(always)]
    #[track_caller]
    fn call(self) -> T {
        self.op.fetch(self.dst, self.v)
    }
}

/// `cg::inclusive_scan_update(group, dst, v, op)`: one member applies the
/// group's total to `dst` atomically; each member gets `old ⊕ v₀ ⊕ … ⊕
/// v_rank`, where `old` is `dst`'s value before the update — the group's
/// slice of a running prefix kept in memory.
#[inline(always)]
#[track_caller]
pub fn inclusive_scan_update<G, T, Op, S>(group: &G, dst: &AtomicRef<'_, T, S>, v: T, op: Op) -> T
where
    G: ThreadGroup,
    T: ShflValue + AtomicValue,
    Op: AtomicOp<T>,
    S: Scope,
{
    let inc = inclusive_scan(group, v, op);
    let total = reduce(group, v, op);
    let old = broadcast_one(group, Fetch { op, dst, v: total });
    op.combine(old, inc)
}

/// `cg::exclusive_scan_update(group, dst, v, op)`: as
/// [`inclusive_scan_update`], each member getting `old ⊕ v₀ ⊕ … ⊕
/// v_{rank-1}` (rank 0: `old`).
#[inline(always)]
#[track_caller]
pub fn exclusive_scan_update<G, T, Op, S>(group: &G, dst: &AtomicRef<'_, T, S>, v: T, op: Op) -> T
where
    G: ThreadGroup,
    T: ShflValue + AtomicValue,
    Op: AtomicOp<T>,
    S: Scope,
{
    let exc = exclusive_scan(group, v, op);
    let total = reduce(group, v, op);
    let old = broadcast_one(group, Fetch { op, dst, v: total });
    if group.thread_rank() == 0 {
        old
    } else {
        op.combine(old, exc)
    }
}
