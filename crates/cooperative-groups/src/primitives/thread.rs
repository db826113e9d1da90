//! Operations on one thread's items, in registers (CUB's `ThreadReduce`,
//! `ThreadScan`): the thread layer under the warp and block reductions
//! and scans over several items per thread. Items combine in index order,
//! left to right, so a floating-point result is the same on every run.
//!
//! ```
//! use cooperative_groups::ops::Plus;
//! use cooperative_groups::primitives::thread;
//! assert_eq!(thread::reduce(&[1, 2, 3, 4], Plus), 10);
//! assert_eq!(thread::inclusive_scan(&[1, 2, 3, 4], Plus), [1, 3, 6, 10]);
//! assert_eq!(thread::exclusive_scan(&[1, 2, 3, 4], 100, Plus), [100, 101, 103, 106]);
//! ```

use crate::ops::ReduceOp;

/// `items[0] ⊕ items[1] ⊕ … ⊕ items[N-1]` (`N ≥ 1`, checked when compiled).
#[inline(always)]
pub fn reduce<T: Copy, Op: ReduceOp<T>, const N: usize>(items: &[T; N], op: Op) -> T {
    const { assert!(N > 0, "a thread holds at least one item") };
    let mut acc = items[0];
    let mut i = 1;
    while i < N {
        acc = op.combine(acc, items[i]);
        i += 1;
    }
    acc
}

/// Item `i` gets `items[0] ⊕ … ⊕ items[i]`.
#[inline(always)]
pub fn inclusive_scan<T: Copy, Op: ReduceOp<T>, const N: usize>(items: &[T; N], op: Op) -> [T; N] {
    const { assert!(N > 0, "a thread holds at least one item") };
    let mut out = *items;
    let mut i = 1;
    while i < N {
        out[i] = op.combine(out[i - 1], items[i]);
        i += 1;
    }
    out
}

/// Item `i` gets `prefix ⊕ items[0] ⊕ … ⊕ items[i]`.
#[inline(always)]
pub fn inclusive_scan_from<T: Copy, Op: ReduceOp<T>, const N: usize>(
    items: &[T; N],
    prefix: T,
    op: Op,
) -> [T; N] {
    let mut out = *items;
    let mut acc = prefix;
    let mut i = 0;
    while i < N {
        acc = op.combine(acc, items[i]);
        out[i] = acc;
        i += 1;
    }
    out
}

/// Item `0` gets `prefix`, item `i` gets `prefix ⊕ items[0] ⊕ … ⊕ items[i-1]`.
#[inline(always)]
pub fn exclusive_scan<T: Copy, Op: ReduceOp<T>, const N: usize>(
    items: &[T; N],
    prefix: T,
    op: Op,
) -> [T; N] {
    let mut out = *items;
    let mut acc = prefix;
    let mut i = 0;
    while i < N {
        out[i] = acc;
        acc = op.combine(acc, items[i]);
        i += 1;
    }
    out
}

/// Sorts `keys` (and `values` with them) in place by `less`, stably: an
/// odd–even transposition network of `N` rounds, every compare a select
/// in registers (CUB's `StableOddEvenSort`).
#[inline(always)]
pub(crate) fn sort_network<K: Copy, V: Copy, F: Fn(&K, &K) -> bool, const N: usize>(
    keys: &mut [K; N],
    values: &mut [V; N],
    less: &F,
) {
    let mut round = 0;
    while round < N {
        let mut i = round & 1;
        while i + 1 < N {
            if less(&keys[i + 1], &keys[i]) {
                keys.swap(i, i + 1);
                values.swap(i, i + 1);
            }
            i += 2;
        }
        round += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{Greater, Plus};

    #[test]
    fn scans_and_reduce() {
        assert_eq!(reduce(&[3], Greater), 3);
        assert_eq!(reduce(&[3, 9, 2], Greater), 9);
        assert_eq!(inclusive_scan_from(&[1, 2], 10, Plus), [11, 13]);
        assert_eq!(exclusive_scan(&[5u32], 7, Plus), [7]);
    }

    #[test]
    fn network_is_a_stable_sort() {
        let mut k = [3, 1, 3, 0, 1, 2, 3, 0];
        let mut v = [0, 1, 2, 3, 4, 5, 6, 7];
        sort_network(&mut k, &mut v, &|a: &i32, b: &i32| a < b);
        assert_eq!(k, [0, 0, 1, 1, 2, 3, 3, 3]);
        assert_eq!(v, [3, 7, 1, 4, 5, 0, 2, 6]);
    }
}
