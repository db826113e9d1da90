//! Minimal kernels whose PTX the zero-cost tests of `cooperative-groups`
//! read instruction by instruction: each one applies a single collective to
//! one value per thread, next to the same operation written by hand with
//! the raw intrinsics.

use cooperative_groups::intrinsics::{FULL_MASK, block_dim, block_idx, shfl_xor_sync, thread_idx};
use cooperative_groups::ops::Plus;
use cooperative_groups::{
    inclusive_scan, kernel, reduce, shared_array, this_thread_block, tiled_partition,
};

#[inline(always)]
fn gid() -> usize {
    (block_idx().x * block_dim().x + thread_idx().x) as usize
}

macro_rules! probe {
    ($(#[$doc:meta])* $name:ident: $t:ty, |$v:ident| $body:expr) => {
        $(#[$doc])*
        #[kernel]
        pub fn $name(input: *const $t, out: *mut $t) {
            let i = gid();
            // SAFETY: one input and one output per thread.
            let $v = unsafe { *input.add(i) };
            let r = $body;
            // SAFETY: as above.
            unsafe { *out.add(i) = r };
        }
    };
}

probe!(
    /// `reduce(&tile32, v, Plus)` on `u32`: `redux.sync.add.u32` on sm_80+.
    probe_tile32_reduce_u32: u32, |v| reduce(&tiled_partition::<32>(&this_thread_block()), v, Plus)
);
probe!(
    /// The hand-written `__shfl_xor_sync` tree on `u32`.
    probe_handwritten_reduce_u32: u32, |v| {
        let mut v = v;
        for d in [16, 8, 4, 2, 1] {
            v = v.wrapping_add(shfl_xor_sync(FULL_MASK, v, d, 32));
        }
        v
    }
);
probe!(
    /// `reduce(&tile32, v, Plus)` on `f32`: the shuffle tree.
    probe_tile32_reduce_f32: f32, |v| reduce(&tiled_partition::<32>(&this_thread_block()), v, Plus)
);
probe!(
    /// The hand-written `__shfl_xor_sync` tree on `f32`.
    probe_handwritten_reduce_f32: f32, |v| {
        let mut v = v;
        for d in [16, 8, 4, 2, 1] {
            v += shfl_xor_sync(FULL_MASK, v, d, 32);
        }
        v
    }
);
probe!(
    /// `reduce(&tile8, v, Plus)` on `f32`: one `activemask`, then the
    /// 3-step tree with the constant full mask (whole warp present) or with
    /// the tile's mask.
    probe_tile8_reduce_f32: f32, |v| reduce(&tiled_partition::<8>(&this_thread_block()), v, Plus)
);
probe!(
    /// `reduce(&tile64, v, Plus)` on `f32`: warp tree, shared exchange, named barrier.
    probe_tile64_reduce_f32: f32, |v| reduce(&tiled_partition::<64>(&this_thread_block()), v, Plus)
);
probe!(
    /// `reduce(&block, v, Plus)` on `u32`.
    probe_block_reduce_u32: u32, |v| reduce(&this_thread_block(), v, Plus)
);
probe!(
    /// `inclusive_scan(&tile32, v, Plus)` on `u32`.
    probe_tile32_scan_u32: u32, |v| inclusive_scan(&tiled_partition::<32>(&this_thread_block()), v, Plus)
);
probe!(
    /// `inclusive_scan(&tile8, v, Plus)` on `f32`: one `activemask`, whose
    /// result is the `membermask` of the 3 `shfl.sync.up`, no branch.
    probe_tile8_scan_f32: f32, |v| inclusive_scan(&tiled_partition::<8>(&this_thread_block()), v, Plus)
);
probe!(
    /// `tile128.sync()` between two shared-memory-free steps.
    probe_tile128_sync: u32, |v| {
        let t = tiled_partition::<128>(&this_thread_block());
        t.sync();
        v + t.thread_rank()
    }
);

probe!(
    /// `match_any_bits::<8>(&tile32, v)`: nine `vote.sync.ballot.b32`
    /// (the lanes taking part, then one per bit), no `match.any`.
    probe_tile32_match_bits: u32, |v| tiled_partition::<32>(&this_thread_block()).match_any_bits::<8>(v)
);
probe!(
    /// A block-wide counter in shared memory: `red_add` then, after a
    /// barrier, `fetch_add` (`red.shared.add.u32`, `atom.shared.add.u32`).
    probe_shared_atomics: u32, |v| {
        let block = this_thread_block();
        let c = shared_array!(u32; 2);
        if block.thread_rank() == 0 {
            c.store(0, 0);
            c.store(1, 0);
        }
        block.sync();
        c.red_add(0, v);
        block.sync();
        c.fetch_add(1, c.load(0))
    }
);

/// Floating-point contraction probes: thread `i` combines `input[3i..3i + 3]`
/// into `out[i]`, one kernel per form and type. `a * b + c` is one
/// `fma.rn` under cg-build's `FpContract::Fast` (nvcc's default) and
/// `mul.rn` + `add.rn` under `FpContract::Off`; `mul_add` is one `fma.rn`
/// under both.
macro_rules! fp_probe {
    ($(#[$doc:meta])* $name:ident: $t:ty, |$a:ident, $b:ident, $c:ident| $body:expr) => {
        $(#[$doc])*
        #[kernel]
        pub fn $name(input: *const $t, out: *mut $t) {
            let i = gid();
            // SAFETY: three inputs and one output per thread.
            let ($a, $b, $c) = unsafe {
                (*input.add(3 * i), *input.add(3 * i + 1), *input.add(3 * i + 2))
            };
            let r = $body;
            // SAFETY: as above.
            unsafe { *out.add(i) = r };
        }
    };
}

fp_probe!(
    /// `a * b + c` on `f32`, written as two operations.
    probe_mul_then_add_f32: f32, |a, b, c| a * b + c
);
fp_probe!(
    /// `a * b + c` on `f64`, written as two operations.
    probe_mul_then_add_f64: f64, |a, b, c| a * b + c
);
fp_probe!(
    /// `core::f32::math::mul_add(a, b, c)` (`f32::mul_add` with `std`).
    probe_mul_add_f32: f32, |a, b, c| core::f32::math::mul_add(a, b, c)
);
fp_probe!(
    /// `core::f64::math::mul_add(a, b, c)` (`f64::mul_add` with `std`).
    probe_mul_add_f64: f64, |a, b, c| core::f64::math::mul_add(a, b, c)
);
