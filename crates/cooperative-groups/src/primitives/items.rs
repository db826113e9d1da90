//! Reductions and scans of several items per thread over a group: each
//! thread folds its items in order, the group combines the thread totals
//! with its collective ([`reduce`](crate::reduce), the scans), and each
//! thread scans its items from its prefix — what the warp primitives
//! ([`WarpReduce`](super::WarpReduce), [`WarpScan`](super::WarpScan)) and
//! the block ones ([`BlockReduce`](super::BlockReduce),
//! [`BlockScan`](super::BlockScan)) share. The thread layer: it uses the
//! collectives, not the warp or block primitives.

use super::thread;
use crate::collective::scan::exclusive_with_total;
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

/// The fold of the thread totals of lower ranks, the caller's own total,
/// and — when `with_total` and the group's scan gives it for free (the
/// block's 32-bit scans of exact operators) — the group's total. At rank
/// 0 the fold is empty: `None`, except for [`EXACT`](ReduceOp::EXACT)
/// operators, whose identity is neutral, so rank 0 combines its items
/// with it like every other rank — no branch between the group's
/// collectives (a divergent branch there makes ptxas wrap the next
/// collective in a `WARPSYNC`: the 4-item warp scan ran at 1.46×
/// `cub::WarpScan`'s time with it).
#[inline(always)]
#[track_caller]
fn prefix<G: ThreadGroup, T: ShflValue, Op: ReduceOp<T>, const N: usize>(
    g: &G,
    items: &[T; N],
    op: Op,
    with_total: bool,
) -> (Option<T>, T, Option<T>) {
    let total = thread::reduce(items, op);
    let (before, aggregate) = if with_total {
        exclusive_with_total(g.shape(), total, op)
    } else {
        (crate::exclusive_scan(g, total, op), None)
    };
    if Op::EXACT {
        // `exclusive_scan` gives rank 0 the identity.
        return (Some(before), total, aggregate);
    }
    ((g.thread_rank() > 0).then_some(before), total, aggregate)
}

/// The group's total: the scan's (`aggregate`, where it gave one), else
/// its last member's inclusive value, broadcast.
#[inline(always)]
#[track_caller]
fn total<G: ThreadGroup, T: ShflValue>(g: &G, aggregate: Option<T>, last_inclusive: T) -> T {
    match aggregate {
        Some(t) => t,
        None => shfl(g.shape(), last_inclusive, g.num_threads() - 1),
    }
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
    let (before, _, aggregate) = prefix(g, items, op, with_total);
    let out = match before {
        None => thread::inclusive_scan(items, op),
        Some(p) => thread::inclusive_scan_from(items, p, op),
    };
    (out, with_total.then(|| total(g, aggregate, out[N - 1])))
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
    let (before, own, aggregate) = prefix(g, items, op, with_total);
    let aggregate = with_total.then(|| {
        let inclusive = match before {
            None => own,
            Some(p) => op.combine(p, own),
        };
        total(g, aggregate, inclusive)
    });
    let base = start_of(aggregate);
    let start = match before {
        None => base,
        Some(p) => op.combine(base, p),
    };
    (thread::exclusive_scan(items, start, op), aggregate)
}

/// The scan methods of [`WarpScan`](super::WarpScan) and
/// [`BlockScan`](super::BlockScan): `$field` is the group handle's field,
/// `$group` its name in the docs.
macro_rules! scan_methods {
    ($field:ident, $group:literal) => {
    #[doc = concat!("Item `k` of the ", $group, " gets `x₀ ⊕ … ⊕ x_k`.")]
    #[inline(always)]
    #[track_caller]
    pub fn inclusive_scan<T: ShflValue, Op: ReduceOp<T>, const N: usize>(
        &self,
        items: &[T; N],
        op: Op,
    ) -> [T; N] {
        items::inclusive_scan(self.$field, items, op, false).0
    }

    #[doc = concat!("[`inclusive_scan`](Self::inclusive_scan), and the ", $group, "'s total")]
    /// (every member gets it; one broadcast more).
    #[inline(always)]
    #[track_caller]
    pub fn inclusive_scan_aggregate<T: ShflValue, Op: ReduceOp<T>, const N: usize>(
        &self,
        items: &[T; N],
        op: Op,
    ) -> ([T; N], T) {
        let (out, total) = items::inclusive_scan(self.$field, items, op, true);
        (out, total.expect("asked for"))
    }

    #[doc = concat!("Item `k` of the ", $group, " gets `initial ⊕ x₀ ⊕ … ⊕ x_{k-1}` (item 0")]
    /// gets `initial`).
    #[inline(always)]
    #[track_caller]
    pub fn exclusive_scan<T: ShflValue, Op: ReduceOp<T>, const N: usize>(
        &self,
        items: &[T; N],
        initial: T,
        op: Op,
    ) -> [T; N] {
        items::exclusive_scan(self.$field, items, op, false, |_| initial).0
    }

    #[doc = concat!("[`exclusive_scan`](Self::exclusive_scan), and the ", $group, "'s total of")]
    /// the items (without `initial`).
    #[inline(always)]
    #[track_caller]
    pub fn exclusive_scan_aggregate<T: ShflValue, Op: ReduceOp<T>, const N: usize>(
        &self,
        items: &[T; N],
        initial: T,
        op: Op,
    ) -> ([T; N], T) {
        let (out, total) = items::exclusive_scan(self.$field, items, op, true, |_| initial);
        (out, total.expect("asked for"))
    }

    /// CUB's scan with a prefix callback: `prefix_op` runs once, in one
    #[doc = concat!("member, with the ", $group, "'s total of the items, and returns the value")]
    #[doc = concat!("the scan starts from (e.g. the running total of earlier ", $group, "s); item")]
    /// `k` gets `prefix ⊕ x₀ ⊕ … ⊕ x_{k-1}`. (CUB calls it in every lane of
    /// the first warp and takes lane 0's result; here it is
    /// [`invoke_one_broadcast`](crate::invoke_one_broadcast).)
    #[inline(always)]
    #[track_caller]
    pub fn exclusive_scan_with_prefix<
        T: ShflValue,
        Op: ReduceOp<T>,
        F: FnOnce(T) -> T,
        const N: usize,
    >(
        &self,
        items: &[T; N],
        op: Op,
        prefix_op: F,
    ) -> [T; N] {
        let g = self.$field;
        items::exclusive_scan(g, items, op, true, |total| {
            let total = total.expect("asked for");
            crate::invoke_one_broadcast(g, || prefix_op(total))
        })
        .0
    }

    /// [`inclusive_scan`](Self::inclusive_scan) with [`Plus`].
    #[inline(always)]
    #[track_caller]
    pub fn inclusive_sum<T: ShflValue, const N: usize>(&self, items: &[T; N]) -> [T; N]
    where
        Plus: ReduceOp<T>,
    {
        self.inclusive_scan(items, Plus)
    }

    /// [`inclusive_scan_aggregate`](Self::inclusive_scan_aggregate) with [`Plus`].
    #[inline(always)]
    #[track_caller]
    pub fn inclusive_sum_aggregate<T: ShflValue, const N: usize>(
        &self,
        items: &[T; N],
    ) -> ([T; N], T)
    where
        Plus: ReduceOp<T>,
    {
        self.inclusive_scan_aggregate(items, Plus)
    }

    /// [`exclusive_scan`](Self::exclusive_scan) with [`Plus`] from 0.
    #[inline(always)]
    #[track_caller]
    pub fn exclusive_sum<T: ShflValue, const N: usize>(&self, items: &[T; N]) -> [T; N]
    where
        Plus: ReduceOp<T>,
    {
        self.exclusive_scan(items, Plus.identity(), Plus)
    }

    /// [`exclusive_scan_aggregate`](Self::exclusive_scan_aggregate) with
    /// [`Plus`] from 0.
    #[inline(always)]
    #[track_caller]
    pub fn exclusive_sum_aggregate<T: ShflValue, const N: usize>(
        &self,
        items: &[T; N],
    ) -> ([T; N], T)
    where
        Plus: ReduceOp<T>,
    {
        self.exclusive_scan_aggregate(items, Plus.identity(), Plus)
    }

    };
}
pub(crate) use scan_methods;

/// The reduction methods of [`WarpReduce`](super::WarpReduce) and
/// [`BlockReduce`](super::BlockReduce): `$field` is the group handle's
/// field, `$size` the group type's size, `$group` its name in the docs.
macro_rules! reduce_methods {
    ($field:ident, $size:expr, $group:literal) => {
        /// Every member's `items`, combined by `op` (each thread's items in
        /// order, then the thread totals).
        #[inline(always)]
        #[track_caller]
        pub fn reduce<T: ShflValue, Op: ReduceOp<T>, const N: usize>(
            &self,
            items: &[T; N],
            op: Op,
        ) -> T {
            items::reduce(self.$field, items, op)
        }

        /// [`reduce`](Self::reduce) with [`Plus`].
        #[inline(always)]
        #[track_caller]
        pub fn sum<T: ShflValue, const N: usize>(&self, items: &[T; N]) -> T
        where
            Plus: ReduceOp<T>,
        {
            self.reduce(items, Plus)
        }

        #[doc = concat!("The reduction of the ", $group, "'s first `valid` items (blocked order;")]
        /// the same `valid` in every member): thread totals over the valid
        /// items, an inclusive scan of the thread totals and the last valid
        /// thread's value, broadcast — exact for every operator, since no
        /// thread without valid items enters the result. `valid == 0` gives
        /// `op.identity()`.
        #[inline(always)]
        #[track_caller]
        pub fn reduce_partial<T: ShflValue, Op: ReduceOp<T>, const N: usize>(
            &self,
            items: &[T; N],
            valid: usize,
            op: Op,
        ) -> T {
            items::reduce_partial(self.$field, $size, items, valid, op)
        }
    };
}
pub(crate) use reduce_methods;
