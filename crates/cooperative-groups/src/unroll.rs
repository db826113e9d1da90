//! [`unroll()`]: a loop unrolled by a constant factor, for loops whose body
//! holds a collective.

/// Calls `f(0)`, `f(1)`, …, `f(n - 1)` in order, `K` calls per trip of the
/// loop (then the `n mod K` left one per trip): the loop `#pragma unroll K`
/// gives in CUDA C++.
///
/// # Why
///
/// LLVM never unrolls a loop whose trip count it does not know if the body
/// holds a convergent operation — every shuffle, vote, `redux` and barrier
/// of this library — because the remainder loop it would add runs on a
/// subset of the threads. nvcc does: its `for (r = 0; r < reps; ++r)
/// cg::reduce(…)` is unrolled 4 times, and pays the loop's counter, test
/// and branch once per four rounds where the Rust loop pays them every
/// round. Here each trip makes its `K` calls in straight-line code (`K ≤
/// 32`; a loop of constant trip count beyond), and the remainder is a loop
/// of its own: the same shape, with no thread doing anything another
/// thread of the group does not (every member passes the same `n`). Each
/// call is a copy of `f`'s body once LLVM inlines the closure, as it does
/// with the small bodies of collectives.
///
/// For a constant trip count written as a `usize` (an array length, a
/// const generic), the macro [`unroll!`](crate::unroll!) writes the body
/// out with the index a constant in each copy.
///
/// `K` is 1 to 64; a larger body costs instruction cache for little gain
/// (the loop overhead is a few instructions per trip).
///
/// ```
/// # use cooperative_groups::prelude::*;
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 32), &|| {
/// # let (reps, mut v) = (10u32, 1.0f32);
/// let tile = tiled_partition::<32>(&this_thread_block());
/// cooperative_groups::unroll::<4>(reps, |_| {
///     v += reduce(&tile, v, Plus) * 1e-30;   // 2 trips of 4 reduces, then 2
/// });
/// # }).unwrap();
/// ```
#[inline(always)]
pub fn unroll<const K: u32>(n: u32, mut f: impl FnMut(u32)) {
    const { assert!(K >= 1 && K <= 64, "unroll by 1 to 64") };
    if K == 1 {
        for i in 0..n {
            f(i);
        }
        return;
    }
    let mut i = 0u32;
    // `n - i` cannot wrap: `i ≤ n` at every test.
    while n - i >= K {
        if K <= 32 {
            // Written out: LLVM's full unrolling of a constant-trip loop
            // gives up on a large body (a multi-warp collective's, a radix
            // sort's 24 items), these copies do not depend on it.
            macro_rules! calls {
                ($($k:literal)*) => { $( if $k < K { f(i + $k); } )* };
            }
            calls!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
                16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
        } else {
            let mut j = 0;
            while j < K {
                f(i + j);
                j += 1;
            }
        }
        i += K;
    }
    while i < n {
        f(i);
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::vec::Vec;

    use super::unroll;

    #[test]
    fn calls_every_index_once_in_order() {
        for n in 0..20u32 {
            let mut seen = Vec::new();
            unroll::<4>(n, |i| seen.push(i));
            assert_eq!(seen, (0..n).collect::<Vec<_>>(), "n = {n}");
            let mut seen = Vec::new();
            unroll::<1>(n, |i| seen.push(i));
            assert_eq!(seen, (0..n).collect::<Vec<_>>(), "n = {n}");
            let mut seen = Vec::new();
            unroll::<7>(n, |i| seen.push(i));
            assert_eq!(seen, (0..n).collect::<Vec<_>>(), "n = {n}");
        }
    }
}
