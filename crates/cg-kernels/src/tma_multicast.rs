//! The cluster-multicast experiment of `cg-lab compare --only tma`: every
//! block of a cluster of [`MC_CLUSTER`] needs every tile its cluster takes
//! (as the blocks of a GEMM's row need the same tiles of A), and either one
//! block loads each tile for all of them (`Mbarrier::copy_tile_multicast`,
//! one read of L2 per tile) or each block loads its own copy
//! (`arrive_copy_tile`, one read per block). Both run the same loop over a
//! ring of [`MC_STAGES`] tiles; with multicast, each block tells rank 0
//! that it has read a stage by one remote arrival on rank 0's `empty`
//! barrier of the stage (`Mbarrier::arrive_remote`), and rank 0 refills
//! the stage when all have.
//!
//! Each thread folds the 8 elements of its column strip of every tile into
//! an order-dependent hash seeded with its block's rank ([`mc_fold`]), so
//! a tile that reached a block late, twice or not at all changes the
//! output; `cg-lab` checks it against the same fold on the host.

use cooperative_groups::intrinsics::{block_idx, grid_dim};
use cooperative_groups::prelude::*;
use cooperative_groups::{OwnedSlice, kernel};

use crate::tma::{TILE, Tiles};

/// Blocks per cluster.
pub const MC_CLUSTER: u32 = 4;
/// Threads per block: each folds 8 rows of one column of a 32 × 32 tile.
pub const MC_BLOCK: u32 = 128;

const TILE_LEN: usize = (TILE * TILE) as usize;

/// The parameters: the matrix's tiles, and one word per thread.
pub type McArgs = (Tiles<'static>, OwnedSlice<'static, u32>);

/// One step of a thread's fold: the hash so far and the next element's
/// bits.
#[inline(always)]
pub const fn mc_fold(acc: u32, bits: u32) -> u32 {
    acc.wrapping_mul(31).wrapping_add(bits)
}

/// A thread's hash before its first element: its block's rank in the
/// cluster, and its rank in the block.
#[inline(always)]
pub const fn mc_seed(cluster_rank: u32, thread: u32) -> u32 {
    cluster_rank * 1000 + thread + 1
}

/// Rank 0 of each cluster loads every tile once for the whole cluster.
#[kernel]
pub fn tma_multicast_fold(src: Tiles, out: OwnedSlice<u32>) {
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    fold_tiles::<true>(&src, &out);
    #[cfg(all(target_arch = "nvptx64", not(target_feature = "sm_90")))]
    {
        let _ = (src, out);
        panic!("tensor copies need sm_90")
    }
}

/// Every block loads its own copy of each tile (the same loop).
#[kernel]
pub fn tma_unicast_fold(src: Tiles, out: OwnedSlice<u32>) {
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    fold_tiles::<false>(&src, &out);
    #[cfg(all(target_arch = "nvptx64", not(target_feature = "sm_90")))]
    {
        let _ = (src, out);
        panic!("tensor copies need sm_90")
    }
}

/// Stages of the tile ring.
pub const MC_STAGES: usize = 4;

/// The loop of both kernels. Cluster `c` (blocks `MC_CLUSTER · c ..`, a
/// 1-D launch with clusters along x) takes tiles `c, c + clusters, …`;
/// trip `i` uses stage `i % MC_STAGES`, whose `full` barrier completes once
/// per use. Once a block has read a stage (a block barrier), its thread 0
/// frees it: unicast, by loading the block's tile `MC_STAGES` trips on
/// into it; multicast, by one remote arrival on rank 0's `empty` barrier
/// of the stage, which rank 0 waits on (all `MC_CLUSTER` blocks) before it
/// loads that tile for everyone.
#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
#[inline(always)]
fn fold_tiles<const MULTICAST: bool>(src: &Tiles, out: &OwnedSlice<u32>) {
    let block = this_thread_block().with_threads::<MC_BLOCK>();
    let cluster = this_cluster();
    let full = cooperative_groups::mbarrier!(&block, 1; MC_STAGES);
    let empty = cooperative_groups::mbarrier!(&block, MC_CLUSTER; MC_STAGES);
    let buf = cooperative_groups::shared_array!(f32; MC_STAGES * TILE_LEN, align 128);
    let rank = cluster.block_rank();
    let t = block.thread_rank();
    let leader = t == 0;
    let tiles_x = src.tiles_x();
    let tiles = tiles_x * src.tiles_y();
    let (first, step) = (block_idx().x / MC_CLUSTER, grid_dim().x / MC_CLUSTER);
    let rd = leader.then(|| src.tiles());
    let all = (1u16 << MC_CLUSTER) - 1;
    // Trip `trip`'s tile into its stage (thread 0 of each block).
    let issue = |trip: usize| {
        let tile = first + trip as u32 * step;
        if let (Some(rd), true) = (&rd, tile < tiles) {
            let s = trip % MC_STAGES;
            let (x, y) = (
                (tile % tiles_x * TILE) as i32,
                (tile / tiles_x * TILE) as i32,
            );
            let dst = buf.slice(s * TILE_LEN, TILE_LEN);
            if MULTICAST {
                // SAFETY: this block's phase expects the tile's 4 KiB.
                unsafe { full.get(s).arrive_expect_tx(Tiles::BOX_BYTES) }.discard();
                if rank == 0 {
                    if trip >= MC_STAGES {
                        // Every block has freed the stage (trip - K).
                        empty
                            .get(s)
                            .wait_parity(((trip / MC_STAGES - 1) & 1) as u32);
                    }
                    // SAFETY: every block of the cluster initialised its
                    // barriers before the first cluster barrier, expects
                    // the bytes on this phase of its `full` barrier, and
                    // has freed the stage (the wait above).
                    unsafe { full.get(s).copy_tile_multicast(dst, rd, x, y, all) };
                }
            } else {
                // SAFETY: one 4 KiB copy in flight on the stage's phase.
                unsafe { full.get(s).arrive_copy_tile(dst, rd, x, y) }.discard();
            }
        }
    };
    // Every block's barriers initialised before any copy or remote arrival
    // reaches them.
    cluster.sync();
    for trip in 0..MC_STAGES {
        issue(trip);
    }
    // This thread's strip: 8 rows of one column, from `at` in a stage (in
    // `u32`, as nvcc's `unsigned`: the 8 loads then share one address
    // register and differ by immediate offsets; a `usize` sum truncated to
    // the 32-bit shared window costs an address per load).
    // The mask changes nothing (`t < MC_BLOCK`) but bounds `at` for the
    // compiler: every load below is then provably inside `buf`, and the
    // loop keeps no bounds-check branch.
    let at = (t / TILE * 8 * TILE + t % TILE) & 0x31f;
    let mut acc = mc_seed(rank, t);
    let mut tile = first;
    let mut trip = 0usize;
    while tile < tiles {
        let s = trip % MC_STAGES;
        full.get(s).wait_parity(((trip / MC_STAGES) & 1) as u32);
        let strip = at + (s * TILE_LEN) as u32;
        for r in 0..8 {
            let v = buf.load((strip + r * TILE) as usize);
            acc = mc_fold(acc, v.to_bits());
        }
        // The whole block has read stage `s`.
        block.sync();
        if MULTICAST && leader {
            // SAFETY: rank 0 runs until the cluster barrier below, and
            // initialised its barriers before the first.
            unsafe { empty.get(s).arrive_remote(0) };
        }
        issue(trip + MC_STAGES);
        tile += step;
        trip += 1;
    }
    if let Some(e) = out.at(&this_grid()) {
        e.store(acc);
    }
    // No block exits while a remote arrival may still reach it.
    cluster.sync();
}

/// What both kernels write for thread `t` of block `b` of a grid of
/// `grid` blocks, for a `width × height` matrix of element bits `bits`
/// (row-major, rows `width` apart). The tiles' elements outside the matrix
/// count as 0.
pub fn mc_expected(
    bits: &[u32],
    (width, height): (usize, usize),
    grid: u32,
    b: u32,
    t: u32,
) -> u32 {
    let tile = TILE as usize;
    let tiles_x = width.div_ceil(tile);
    let tiles = (tiles_x * height.div_ceil(tile)) as u32;
    let clusters = (grid / MC_CLUSTER) as usize;
    let (rank, first) = (b % MC_CLUSTER, b / MC_CLUSTER);
    let (col, row0) = ((t % TILE) as usize, (t / TILE * 8) as usize);
    let mut acc = mc_seed(rank, t);
    for k in (first..tiles).step_by(clusters) {
        let (x0, y0) = (k as usize % tiles_x * tile, k as usize / tiles_x * tile);
        for r in 0..8 {
            let (x, y) = (x0 + col, y0 + row0 + r);
            let v = if x < width && y < height {
                bits[y * width + x]
            } else {
                0
            };
            acc = mc_fold(acc, v);
        }
    }
    acc
}
