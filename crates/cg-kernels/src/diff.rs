//! Differential kernels: small programs over the raw warp and block
//! primitives whose outputs must be identical on the simulator and on a GPU.
//!
//! Every kernel takes one [`DiffOut`] and writes its thread's [`DIFF_WORDS`]
//! words, `out[global_thread * DIFF_WORDS ..]` (the thread's chunk). `cg-lab verify` runs them
//! on both backends and compares word for word; the H200's outputs are
//! committed under `docs/results/h200/` and a test compares the simulator
//! against them on every CI run.

use cooperative_groups::atomic::{AtomicRef, Block, Relaxed};
use cooperative_groups::intrinsics::*;
use cooperative_groups::prelude::*;
use cooperative_groups::{Chunked, OwnedSlice, dynamic_shared, kernel, shared_array};

/// Output words per thread of every differential kernel.
pub const DIFF_WORDS: usize = 4;

/// The output of every differential kernel: each thread owns its
/// [`DIFF_WORDS`] words.
pub type DiffOut<'a> = OwnedSlice<'a, u32, Chunked<DIFF_WORDS>>;

#[inline(always)]
fn gtid() -> u32 {
    block_idx().x * block_dim().x + thread_idx().x
}

/// Word `j` of the calling thread's chunk.
#[inline(always)]
#[track_caller]
fn put(out: &DiffOut, j: usize, v: u32) {
    out.chunk(&this_grid()).store(j, v)
}

/// `shfl.sync.idx` at widths 32, 8 and 4 with lane-dependent sources.
#[kernel]
pub fn diff_shfl_idx(out: DiffOut) {
    let lane = lane_id();
    let v = gtid() * 7 + 1;
    put(&out, 0, shfl_sync(FULL_MASK, v, (lane * 5 + 3) % 32, 32));
    put(&out, 1, shfl_sync(FULL_MASK, v, lane * 3, 8));
    put(&out, 2, shfl_sync(FULL_MASK, v, 37, 4));
    put(
        &out,
        3,
        shfl_sync(FULL_MASK, v as f32, 31 - lane, 32).to_bits(),
    );
}

/// `shfl.sync.up` at widths 32, 16 and 2, including deltas past the segment.
#[kernel]
pub fn diff_shfl_up(out: DiffOut) {
    let v = gtid() * 3 + 11;
    put(&out, 0, shfl_up_sync(FULL_MASK, v, 3, 32));
    put(&out, 1, shfl_up_sync(FULL_MASK, v, 5, 16));
    put(&out, 2, shfl_up_sync(FULL_MASK, v, 1, 2));
    put(&out, 3, shfl_up_sync(FULL_MASK, v, 40, 32));
}

/// `shfl.sync.down` at widths 32, 8 and 16.
#[kernel]
pub fn diff_shfl_down(out: DiffOut) {
    let v = gtid() * 13 + 5;
    put(&out, 0, shfl_down_sync(FULL_MASK, v, 5, 32));
    put(&out, 1, shfl_down_sync(FULL_MASK, v, 3, 8));
    put(&out, 2, shfl_down_sync(FULL_MASK, v, 15, 16));
    put(
        &out,
        3,
        shfl_down_sync(FULL_MASK, v as i32 - 1000, 1, 32) as u32,
    );
}

/// `shfl.sync.bfly` with several lane masks and widths.
#[kernel]
pub fn diff_shfl_xor(out: DiffOut) {
    let v = gtid() * 17 + 2;
    put(&out, 0, shfl_xor_sync(FULL_MASK, v, 9, 32));
    put(&out, 1, shfl_xor_sync(FULL_MASK, v, 1, 16));
    put(&out, 2, shfl_xor_sync(FULL_MASK, v, 31, 8));
    put(&out, 3, shfl_xor_sync(FULL_MASK, v, 16, 32));
}

/// `vote.sync` ballot, any, all.
#[kernel]
pub fn diff_vote(out: DiffOut) {
    let lane = lane_id();
    let t = gtid();
    put(&out, 0, ballot_sync(FULL_MASK, lane.is_multiple_of(3)));
    put(&out, 1, any_sync(FULL_MASK, t == 77) as u32);
    put(
        &out,
        2,
        all_sync(FULL_MASK, lane < 40) as u32 | (all_sync(FULL_MASK, lane < 31) as u32) << 1,
    );
    let subset = 0x0000_ffff | (1 << 31);
    let b = if subset & (1 << lane) != 0 {
        ballot_sync(subset, lane & 1 == 1)
    } else {
        0
    };
    put(&out, 3, b);
}

/// `match.any.sync` and `match.all.sync`.
#[kernel]
pub fn diff_match(out: DiffOut) {
    let lane = lane_id();
    put(&out, 0, match_any_sync(FULL_MASK, lane % 5));
    put(&out, 1, match_any_sync(FULL_MASK, block_idx().x));
    let (m, p) = match_all_sync(FULL_MASK, 42);
    put(&out, 2, m ^ p as u32);
    let (m, p) = match_all_sync(FULL_MASK, lane / 16);
    put(&out, 3, m | (p as u32) << 1);
}

/// `activemask` in divergent code: the lanes of each branch see each other.
/// The three branches are identical on purpose: LLVM merged such branches
/// into one `activemask` when the primitive was inline asm (not convergent).
#[allow(clippy::if_same_then_else)]
#[kernel]
pub fn diff_activemask(out: DiffOut) {
    let lane = lane_id();
    let m = if lane % 4 == 1 {
        let m = activemask();
        syncwarp(m);
        m
    } else if lane < 20 {
        let m = activemask();
        syncwarp(m);
        m
    } else {
        let m = activemask();
        syncwarp(m);
        m
    };
    put(&out, 0, m);
    put(&out, 1, activemask());
    put(&out, 2, ballot_sync(m, lane.is_multiple_of(2)));
    put(&out, 3, shfl_sync(m, lane * 100, m.trailing_zeros(), 32));
}

/// Block barrier: every thread publishes, `bar.sync 0`, reads other warps.
#[kernel]
pub fn diff_block_barrier(out: DiffOut) {
    let t = thread_idx().x;
    let n = block_dim().x;
    let s = shared_array!(u32; 1024);
    s.store(t as usize, t * t + block_idx().x);
    syncthreads();
    put(&out, 0, s.load(((t + 32) % n) as usize));
    put(&out, 1, s.load((n - 1 - t) as usize));
    let next = s.load(((t + 1) % n) as usize);
    syncthreads();
    s.store(t as usize, next.wrapping_mul(3));
    syncthreads();
    put(&out, 2, s.load(t as usize));
    put(&out, 3, s.load(((t * 7) % n) as usize));
}

/// Named barriers: warps 0–1 pair on barrier 1, warps 2–3 on barrier 2 (64
/// threads each); each pair exchanges values through shared memory.
#[kernel]
pub fn diff_named_barrier(out: DiffOut) {
    let t = thread_idx().x;
    let warp = t / 32;
    let s = shared_array!(u32; 128);
    s.store(t as usize, t * 10 + block_idx().x);
    let pair = warp / 2;
    named_barrier_sync(1 + pair, 64);
    let partner = t ^ 32;
    let theirs = s.load(partner as usize);
    put(&out, 0, theirs);
    named_barrier_sync(1 + pair, 64);
    s.store(t as usize, theirs + 1);
    named_barrier_sync(1 + pair, 64);
    put(&out, 1, s.load(partner as usize));
    put(&out, 2, pair);
    syncthreads();
    put(&out, 3, s.load((127 - t) as usize));
}

/// Static and dynamic shared memory side by side (dynamic: one u32 per thread).
#[kernel]
pub fn diff_shared(out: DiffOut) {
    let t = thread_idx().x;
    let n = block_dim().x;
    let a = shared_array!(u32; 256);
    let b = shared_array!(u16; 512);
    let d = dynamic_shared::<u32>();
    a.store(t as usize, t + 1000);
    b.store(2 * t as usize, t as u16);
    b.store(2 * t as usize + 1, (t * 3) as u16);
    d.store(t as usize, t ^ 0x55);
    syncthreads();
    put(&out, 0, a.load(((t + 5) % n) as usize));
    put(&out, 1, b.load(((2 * t + 3) % (2 * n)) as usize) as u32);
    put(&out, 2, d.load(((t + 64) % n) as usize));
    put(&out, 3, d.len() as u32);
}

/// Atomics: a shared-memory histogram, an f32 sum of small integers (exact
/// in any order) and a counter, both accumulated by every thread of the
/// block and written by its thread 0 (words 2 and 3; the other threads'
/// stay 0).
#[kernel]
pub fn diff_atomics(out: DiffOut) {
    let t = thread_idx().x;
    let hist = shared_array!(u32; 8);
    let sum = shared_array!(f32; 1);
    let count = shared_array!(u32; 1);
    if t < 8 {
        hist.store(t as usize, 0);
    }
    if t == 0 {
        sum.store(0, 0.0);
        count.store(0, 0);
    }
    syncthreads();
    // SAFETY: words of this block's shared arrays (`t % 8 < 8`), used only
    // atomically until the barrier below.
    let (bin, s, c) = unsafe {
        (
            AtomicRef::<u32, Block>::from_ptr(hist.as_ptr().add((t % 8) as usize)),
            AtomicRef::<f32, Block>::from_ptr(sum.as_ptr()),
            AtomicRef::<u32, Block>::from_ptr(count.as_ptr()),
        )
    };
    let old = bin.fetch_add(1, Relaxed);
    s.fetch_add(t as f32, Relaxed);
    c.fetch_add(1, Relaxed);
    syncthreads();
    put(&out, 0, hist.load((t % 8) as usize));
    put(&out, 1, (old < hist.load((t % 8) as usize)) as u32);
    if t == 0 {
        put(&out, 2, sum.load(0).to_bits());
        put(&out, 3, count.load(0));
    }
}

/// Partial warps: launched with 120-thread blocks, the last warp has 24
/// lanes; ballots and `activemask` see only the lanes that exist.
#[kernel]
pub fn diff_partial_warp(out: DiffOut) {
    let lane = lane_id();
    put(&out, 0, ballot_sync(FULL_MASK, true));
    put(&out, 1, activemask());
    put(&out, 2, ballot_sync(FULL_MASK, lane % 2 == 1));
    put(&out, 3, all_sync(FULL_MASK, true) as u32);
}

/// The value of thread `t` in [`diff_tile_paths`] (also used by its model).
pub const fn tile_paths_value(t: u32) -> u32 {
    t * 37 + 11
}

/// Library reduce and scans on 8- and 16-thread tiles, along both of their
/// `membermask` paths: the whole warp present (constant full mask), a warp
/// whose tiles diverge (a trip count that differs per tile, a branch taken
/// by every other tile) and the partial last warp of a 120-thread block
/// (exact tile masks). Integers and integer-valued floats: exact results.
#[kernel]
pub fn diff_tile_paths(out: DiffOut) {
    let block = this_thread_block();
    let t8 = tiled_partition::<8>(&block);
    let t16 = tiled_partition::<16>(&block);
    let v = tile_paths_value(gtid());
    let x = v as u64 * 0x1_0000_0001;
    let fold = |w: u64| (w as u32) ^ ((w >> 32) as u32);
    put(&out, 0, fold(reduce(&t8, x, Plus)));
    put(&out, 1, inclusive_scan(&t16, v as f32, Plus).to_bits());
    let mut acc = 0u64;
    let mut i = 0;
    while i < t8.meta_group_rank() % 4 {
        acc = acc.wrapping_add(reduce(&t8, x ^ i as u64, Plus));
        i += 1;
    }
    put(&out, 2, fold(acc));
    let e = if t8.meta_group_rank().is_multiple_of(2) {
        exclusive_scan(&t8, v, Plus)
    } else {
        u32::MAX
    };
    put(&out, 3, e);
}

/// Which differential kernels exist, with their launch shape.
#[cfg(not(target_arch = "nvptx64"))]
pub mod cases {
    use cooperative_groups::Kernel;

    /// One differential case: kernel, grid, block, dynamic shared bytes.
    #[derive(Clone, Copy, Debug)]
    pub struct DiffCase {
        /// Short name.
        pub name: &'static str,
        /// The kernel.
        pub kernel: Kernel<(super::DiffOut<'static>,)>,
        /// Blocks.
        pub grid: u32,
        /// Threads per block.
        pub block: u32,
        /// Dynamic shared memory, bytes.
        pub dynamic_smem: u32,
        /// What the case covers (for reports).
        pub note: &'static str,
    }

    /// Every differential case.
    pub const DIFF_CASES: &[DiffCase] = &[
        DiffCase {
            name: "shfl_idx",
            kernel: super::DIFF_SHFL_IDX,
            grid: 2,
            block: 128,
            dynamic_smem: 0,
            note: "widths 32/8/4, f32",
        },
        DiffCase {
            name: "shfl_up",
            kernel: super::DIFF_SHFL_UP,
            grid: 2,
            block: 128,
            dynamic_smem: 0,
            note: "widths 32/16/2, delta past segment",
        },
        DiffCase {
            name: "shfl_down",
            kernel: super::DIFF_SHFL_DOWN,
            grid: 2,
            block: 128,
            dynamic_smem: 0,
            note: "widths 32/8/16, i32",
        },
        DiffCase {
            name: "shfl_xor",
            kernel: super::DIFF_SHFL_XOR,
            grid: 2,
            block: 128,
            dynamic_smem: 0,
            note: "lane masks 9/1/31/16",
        },
        DiffCase {
            name: "vote",
            kernel: super::DIFF_VOTE,
            grid: 2,
            block: 128,
            dynamic_smem: 0,
            note: "ballot/any/all, partial mask",
        },
        DiffCase {
            name: "match",
            kernel: super::DIFF_MATCH,
            grid: 2,
            block: 128,
            dynamic_smem: 0,
            note: "match.any/all",
        },
        DiffCase {
            name: "activemask",
            kernel: super::DIFF_ACTIVEMASK,
            grid: 2,
            block: 128,
            dynamic_smem: 0,
            note: "three divergent branches",
        },
        DiffCase {
            name: "block_barrier",
            kernel: super::DIFF_BLOCK_BARRIER,
            grid: 2,
            block: 256,
            dynamic_smem: 0,
            note: "bar.sync 0",
        },
        DiffCase {
            name: "named_barrier",
            kernel: super::DIFF_NAMED_BARRIER,
            grid: 2,
            block: 128,
            dynamic_smem: 0,
            note: "bar.sync 1/2, 64",
        },
        DiffCase {
            name: "shared",
            kernel: super::DIFF_SHARED,
            grid: 2,
            block: 256,
            dynamic_smem: 1024,
            note: "static u32/u16 + dynamic",
        },
        DiffCase {
            name: "atomics",
            kernel: super::DIFF_ATOMICS,
            grid: 2,
            block: 128,
            dynamic_smem: 0,
            note: "smem histogram, f32/u32 global",
        },
        DiffCase {
            name: "partial_warp",
            kernel: super::DIFF_PARTIAL_WARP,
            grid: 2,
            block: 120,
            dynamic_smem: 0,
            note: "120-thread blocks",
        },
        DiffCase {
            name: "tile_paths",
            kernel: super::DIFF_TILE_PATHS,
            grid: 2,
            block: 120,
            dynamic_smem: 0,
            note: "tile 8/16 reduce + scans: full warp, diverged tiles, partial warp",
        },
    ];
}
