//! Reductions and scans of several items per thread over a group: each
//! thread folds its items in order, the group combines the thread totals
//! with its collective ([`reduce`](crate::reduce), the scans), and each
//! thread scans its items from its prefix — what the warp primitives
//! ([`WarpReduce`](super::WarpReduce), [`WarpScan`](super::WarpScan)) and
//! the block ones ([`BlockReduce`](super::BlockReduce),
//! [`BlockScan`](super::BlockScan)) share. The thread layer: it uses the
//! collectives, not the warp or block primitives.

use super::thread;
use crate::collective::shuffle::shfl;
use crate::group::ThreadGroup;
use crate::ops::ReduceOp;
use crate::value::ShflValue;

/// `items` of every member, combined by `op`.
#[inline(always)]
#[track_caller]
pub(crate) fn reduce<G: ThreadGroup, T: ShflValue, Op: ReduceOp<T>, const N: usize>(
    g: &G,
    items: &[T; N],
    op: Op,
) -> T {
    crate::reduce(g, thread::reduce(items, op), op)
}

/// The reduction of the first `valid` items of a group of `size` threads
/// (its type's: a tile's `W`, a block's `BLOCK`; blocked order): an
/// inclusive scan of the thread totals over the valid items and the last
/// valid thread's value, broadcast — exact for every operator, since no
/// thread without valid items enters the result. `valid == 0` gives
/// `op.identity()`.
#[inline(always)]
#[track_caller]
pub(crate) fn reduce_partial<G: ThreadGroup, T: ShflValue, Op: ReduceOp<T>, const N: usize>(
    g: &G,
    size: u32,
    items: &[T; N],
    valid: usize,
    op: Op,
) -> T {
    // The group type's size, not the members that exist: every tile of a
    // warp takes the same branch (the sub-warp collectives below need the
    // warp's lanes to run the same instructions).
    if valid >= size as usize * N {
        return reduce(g, items, op);
    }
    if valid == 0 {
        return op.identity();
    }
    let base = g.thread_rank() as usize * N;
    // The caller's items below `valid` (its first, unused, when it has none).
    let mut partial = items[0];
    let mut i = 1;
    while i < N {
        if base + i < valid {
            partial = op.combine(partial, items[i]);
        }
        i += 1;
    }
    let scan = crate::inclusive_scan(g, partial, op);
    // The last thread with valid items (the last member when a partial
    // block cuts the tile short).
    let last = (((valid - 1) / N) as u32).min(g.num_threads() - 1);
    shfl(g.shape(), scan, last)
}

/// The fold of the thread totals of lower ranks (`None` at rank 0) and the
/// caller's own total.
#[inline(always)]
#[track_caller]
fn prefix<G: ThreadGroup, T: ShflValue, Op: ReduceOp<T>, const N: usize>(
    g: &G,
    items: &[T; N],
    op: Op,
) -> (Option<T>, T) {
    let total = thread::reduce(items, op);
    let before = crate::exclusive_scan(g, total, op);
    ((g.thread_rank() > 0).then_some(before), total)
}

/// The group's total from its last member's inclusive value.
#[inline(always)]
#[track_caller]
fn total<G: ThreadGroup, T: ShflValue>(g: &G, last_inclusive: T) -> T {
    shfl(g.shape(), last_inclusive, g.num_threads() - 1)
}

/// Item `k` of the group gets `x₀ ⊕ … ⊕ x_k`, and every member the total.
#[inline(always)]
#[track_caller]
pub(crate) fn inclusive_scan<G: ThreadGroup, T: ShflValue, Op: ReduceOp<T>, const N: usize>(
    g: &G,
    items: &[T; N],
    op: Op,
    with_total: bool,
) -> ([T; N], Option<T>) {
    let (before, _) = prefix(g, items, op);
    let out = match before {
        None => thread::inclusive_scan(items, op),
        Some(p) => thread::inclusive_scan_from(items, p, op),
    };
    (out, with_total.then(|| total(g, out[N - 1])))
}

/// Item `k` gets `start ⊕ x₀ ⊕ … ⊕ x_{k-1}` where `start` is what
/// `start_of` makes of the group's total of the items (when
/// `with_total`) — `initial` for a plain exclusive scan, a callback's
/// result for a scan with a prefix — and every member gets the total.
#[inline(always)]
#[track_caller]
pub(crate) fn exclusive_scan<G: ThreadGroup, T: ShflValue, Op: ReduceOp<T>, const N: usize>(
    g: &G,
    items: &[T; N],
    op: Op,
    with_total: bool,
    start_of: impl FnOnce(Option<T>) -> T,
) -> ([T; N], Option<T>) {
    let (before, own) = prefix(g, items, op);
    let aggregate = with_total.then(|| {
        let inclusive = match before {
            None => own,
            Some(p) => op.combine(p, own),
        };
        total(g, inclusive)
    });
    let base = start_of(aggregate);
    let start = match before {
        None => base,
        Some(p) => op.combine(base, p),
    };
    (thread::exclusive_scan(items, start, op), aggregate)
}
