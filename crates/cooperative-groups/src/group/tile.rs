//! [`ThreadBlockTile<N>`]: static tiles of a block (`cg::thread_block_tile<N>`),
//! from [`tiled_partition::<N>`](tiled_partition), for every power of two
//! `N` from 1 to 1024.
//!
//! Sizes are checked by the type system: `tiled_partition::<3>` and
//! `tiled_partition::<2048>` do not compile, nor does a tile larger than its
//! parent tile, nor `ballot` on a tile of more than 32 threads.
//!
//! ```compile_fail
//! # use cooperative_groups::*;
//! let t = tiled_partition::<3>(&this_thread_block()); // not a power of two
//! ```
//!
//! ```compile_fail
//! # use cooperative_groups::*;
//! let t = tiled_partition::<64>(&this_thread_block());
//! t.ballot(true); // ballot exists only on tiles within a warp
//! ```

use super::barrier::{self, decode, encode, tile_barrier};
use super::sealed::Sealed;
use super::shape::{Bar, FULL, Multi, Seg, Shape, lane_range};
use super::{ThreadBlock, ThreadGroup, forward_thread_group, violation};
use crate::arch;
use crate::collective::methods::{WarpGroup, common_collectives, warp_collectives};

/// A tile size as a type, for the bounds of [`ThreadBlockTile`] and
/// [`tiled_partition`]: `Size<N>`.
#[derive(Clone, Copy, Debug)]
pub struct Size<const N: u32>;

mod sealed_size {
    pub trait Sealed {}
}

/// Implemented by `Size<N>` for the valid tile sizes: powers of two from 1
/// to 1024.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tile size",
    label = "tile sizes are powers of two from 1 to 1024",
    note = "use one of 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024"
)]
pub trait TileSize: sealed_size::Sealed {}

/// Tile sizes that fit in one warp (1–32): these tiles have the lane-level
/// collectives (`shfl_up`, `ballot`, `match_any`, …).
#[diagnostic::on_unimplemented(
    message = "a tile of `{Self}` threads spans several warps",
    label = "this needs a tile of at most 32 threads",
    note = "lane-level collectives (shfl_up/down/xor, ballot, match_any/all, partitions) exist only on tiles within one warp"
)]
pub trait WarpTileSize: TileSize {}

/// Tile sizes that span several warps (64–1024).
pub trait MultiWarpTileSize: TileSize {}

macro_rules! sizes {
    (warp: $($w:literal)*; multi: $($m:literal)*) => {
        $(
            impl sealed_size::Sealed for Size<$w> {}
            impl TileSize for Size<$w> {}
            impl WarpTileSize for Size<$w> {}
        )*
        $(
            impl sealed_size::Sealed for Size<$m> {}
            impl TileSize for Size<$m> {}
            impl MultiWarpTileSize for Size<$m> {}
        )*
    };
}
sizes!(warp: 1 2 4 8 16 32; multi: 64 128 256 512 1024);

/// `P: TiledParent<N>`: tiles of `N` threads can be cut from `P` — any
/// valid size from a block, at most the parent's size from a tile.
#[diagnostic::on_unimplemented(
    message = "tiles of {N} threads cannot be cut from `{Self}`",
    label = "a static tile must be a power of two from 1 to 1024, and not larger than its parent tile"
)]
pub trait TiledParent<const N: u32>: StaticParent {}

impl<const N: u32, const M: u32> TiledParent<N> for ThreadBlock<M> where Size<N>: TileSize {}

macro_rules! fits {
    ($parent:literal: $($n:literal)*) => {
        $( impl TiledParent<$n> for ThreadBlockTile<$parent> {} )*
    };
}
fits!(1: 1);
fits!(2: 1 2);
fits!(4: 1 2 4);
fits!(8: 1 2 4 8);
fits!(16: 1 2 4 8 16);
fits!(32: 1 2 4 8 16 32);
fits!(64: 1 2 4 8 16 32 64);
fits!(128: 1 2 4 8 16 32 64 128);
fits!(256: 1 2 4 8 16 32 64 128 256);
fits!(512: 1 2 4 8 16 32 64 128 256 512);
fits!(1024: 1 2 4 8 16 32 64 128 256 512 1024);

/// A parent of [`tiled_partition::<N>`](tiled_partition): the block or a
/// static tile (sealed).
pub trait StaticParent: ThreadGroup {
    /// The caller's linear rank in the block.
    #[doc(hidden)]
    fn block_rank(&self) -> u32;
    /// The simulator's participation check for a partition of the parent:
    /// every member arrives with the same tile size (free on the GPU).
    #[doc(hidden)]
    fn check_partition(&self, what: &'static str, size: u32);
    /// The compile-time bound on the block's threads (see
    /// [`ThreadBlock::with_max_threads`]), inherited by tiles.
    #[doc(hidden)]
    fn max_block_threads(&self) -> u32;
}

impl<const M: u32> StaticParent for ThreadBlock<M> {
    #[inline(always)]
    fn block_rank(&self) -> u32 {
        self.thread_rank()
    }
    #[inline(always)]
    fn max_block_threads(&self) -> u32 {
        M
    }
    #[inline(always)]
    #[track_caller]
    fn check_partition(&self, what: &'static str, size: u32) {
        arch::check_uniform_block(what, size as u64)
    }
}

impl<const M: u32> StaticParent for ThreadBlockTile<M>
where
    Size<M>: TileSize,
{
    #[inline(always)]
    fn block_rank(&self) -> u32 {
        self.block_rank
    }
    #[inline(always)]
    fn max_block_threads(&self) -> u32 {
        self.max_block
    }
    #[inline(always)]
    #[track_caller]
    fn check_partition(&self, what: &'static str, size: u32) {
        // The simulator checks a warp at a time: the parent's lanes in the
        // caller's warp.
        let lanes = match self.shape() {
            Shape::Seg(s) => s.mask(),
            Shape::Multi(m) => m.warp_seg().mask(),
            Shape::Coal(c) => c.mask,
        };
        arch::check_uniform_warp(lanes, what, size as u64)
    }
}

/// The block's thread count (`%ntid.x · %ntid.y · %ntid.z`).
#[inline(always)]
pub(crate) fn block_threads() -> u32 {
    let [x, y, z] = arch::block_dim();
    x * y * z
}

/// A tile of `N` threads of one block (`cg::thread_block_tile<N>`): threads
/// whose block ranks share `rank / N`.
///
/// * `N ≤ 32`: the tile lives in one warp; collectives are single warp
///   instructions (`shfl.sync`, `vote.sync`, `match.sync`, `redux.sync`) and
///   `sync()` is `bar.warp.sync`.
/// * `N ≥ 64`: `sync()` is a hardware named barrier `bar.sync id, count`
///   (see the [barrier reservation](crate#named-barriers)); `shfl` (uniform
///   source), `any`, `all`, `reduce`, the scans and `invoke_one*` go through
///   a small shared-memory scratch of the library.
///
/// In a block whose size is not a multiple of `N` the last tile has fewer
/// threads: `num_threads()` counts the threads that exist (CUDA reports `N`),
/// and every collective is exact over them.
#[derive(Debug)]
pub struct ThreadBlockTile<const N: u32> {
    block_rank: u32,
    n: u32,
    meta_rank: u32,
    meta_size: u32,
    /// `N ≤ 32`: the member lanes. `N ≥ 64`: the encoded barrier.
    aux: u32,
    /// The block's compile-time size bound (a constant after inlining).
    max_block: u32,
    /// A tile that may sync on the software barrier: the block's
    /// software-barrier state, read once where the handle is made (read
    /// at each sync, it costs an `S2R` per sync on sm_90: LLVM does not
    /// hoist the asm out of a loop); else `arch::NO_SHARED`.
    soft: arch::SharedAddr,
    /// The block the handle was made in (the simulator's record of whose
    /// `soft` it is; nothing on the GPU, where no code reads it).
    owner: arch::SharedOwner,
}

/// `cg::tiled_partition<N>(parent)`: the caller's tile of `N` threads of a
/// [`ThreadBlock`] or a larger [`ThreadBlockTile`].
///
/// A collective over the parent (the simulator checks that the whole parent
/// takes part), but free on the GPU: a few integer instructions, no barrier
/// — except a 64-thread tile of a block of more than 512 threads, which
/// syncs the parent twice to set up its software barrier (see the
/// [barrier reservation](crate#named-barriers)).
///
/// # Panics
/// `N` larger than the block is a contract violation: `trap` on the GPU, a
/// panic naming the sizes on the simulator. On the simulator, a parent
/// whose threads do not all take part fails the launch with a report.
#[inline(always)]
#[track_caller]
pub fn tiled_partition<const N: u32>(parent: &impl TiledParent<N>) -> ThreadBlockTile<N>
where
    Size<N>: TileSize,
{
    parent.check_partition("tiled_partition::<N> (tile size)", N);
    let block = block_threads();
    if N > block {
        violation!(
            "tiled_partition::<{N}>: a tile of {N} threads is larger than the block ({block} threads)"
        );
    }
    let block_rank = parent.block_rank();
    // A 1024-thread tile is the whole block (no block is larger): base 0
    // and every thread, known to the compiler.
    let base = if N >= 1024 { 0 } else { block_rank & !(N - 1) };
    // `min(N, block - base)`, written so that the compiler sees 1 ≤ n ≤ N
    // (the caller is a member, so `base < block`): a user's `x % n` or
    // `x / n` then has no division-by-zero branch, which would depend on
    // the thread and make ptxas guard every later `bar.warp.sync` with a
    // convergence check (`BRA.DIV`).
    let n = (block - 1 - base).min(N - 1) + 1;
    let meta_rank = parent.thread_rank() / N;
    let meta_size = parent.num_threads().div_ceil(N);
    let aux = if N <= 32 {
        lane_range(base & 31, n)
    } else {
        let bar = tile_barrier(N, block, block_rank / N);
        let soft = barrier::may_use_soft(N, parent.max_block_threads());
        if let (true, Bar::Soft(slot)) = (soft, bar) {
            // The software barrier's mbarrier (flags) starts as garbage.
            barrier::soft_setup(slot, block_rank == base, n, parent);
        }
        encode(bar)
    };
    let soft = if N > 32 && barrier::may_use_soft(N, parent.max_block_threads()) {
        arch::soft_barrier_scratch()
    } else {
        arch::NO_SHARED
    };
    ThreadBlockTile {
        block_rank,
        n,
        meta_rank,
        meta_size,
        aux,
        max_block: parent.max_block_threads(),
        soft,
        owner: arch::shared_owner(),
    }
}

impl<const N: u32> ThreadBlockTile<N>
where
    Size<N>: TileSize,
{
    /// The caller's rank in the tile: `block rank mod N`.
    #[inline(always)]
    pub fn thread_rank(&self) -> u32 {
        self.block_rank & (N - 1)
    }
    /// Threads in the tile: `N`, or fewer for the last tile of a block whose
    /// size is not a multiple of `N`.
    #[inline(always)]
    pub fn num_threads(&self) -> u32 {
        self.n
    }
    /// `num_threads()` (CUDA's older name).
    #[inline(always)]
    pub fn size(&self) -> u32 {
        self.n
    }
    /// The tile's index among the tiles of its parent.
    #[inline(always)]
    pub fn meta_group_rank(&self) -> u32 {
        self.meta_rank
    }
    /// The number of tiles the parent was cut into: `⌈parent size / N⌉`.
    #[inline(always)]
    pub fn meta_group_size(&self) -> u32 {
        self.meta_size
    }
    /// Waits for every thread of the tile.
    ///
    /// Lowers to `bar.warp.sync mask` for `N ≤ 32` (`-1` for `N = 32`), and
    /// for `N ≥ 64` to `bar.sync id, 32·warps` (the tile's named barrier),
    /// `bar.sync 0` if the tile is the whole block, or the software barrier
    /// of a 64-thread tile in a block of more than 512 threads.
    #[inline(always)]
    #[track_caller]
    pub fn sync(&self) {
        match self.shape() {
            Shape::Seg(s) => arch::warp_sync(s.op_mask),
            Shape::Multi(m) => barrier::sync(&m),
            Shape::Coal(_) => unreachable!(),
        }
    }

    common_collectives!(pub);
}

impl<const N: u32> ThreadBlockTile<N>
where
    Size<N>: WarpTileSize,
{
    warp_collectives!(pub);
}

impl<const N: u32> Sealed for ThreadBlockTile<N>
where
    Size<N>: TileSize,
{
    #[inline(always)]
    #[track_caller]
    fn shape(&self) -> Shape {
        let block = block_threads();
        if N <= 32 {
            Shape::Seg(Seg {
                width: N,
                n: self.n,
                lane: self.block_rank & 31,
                op_mask: if N == 32 { FULL } else { self.aux },
                all_full: block & (N - 1) == 0,
            })
        } else {
            Shape::Multi(Multi {
                block_rank: self.block_rank,
                // A 1024-thread tile is the block (ranks are below 1024):
                // saying so frees the registers of a base and a first warp.
                base: if N >= 1024 {
                    0
                } else {
                    self.block_rank & !(N - 1)
                },
                n: self.n,
                bar: decode(self.aux, N, self.max_block),
                max_bar_id: barrier::immediate_id_bound(N, self.max_block),
                max_warps: N / 32,
                warps_full: block & 31 == 0,
                scratch: crate::arch::collective_scratch(),
                soft: crate::arch::sim_or_gpu!(self.soft_now(), self.soft),
            })
        }
    }
}

arch::sim_only! {
    impl<const N: u32> ThreadBlockTile<N>
    where
        Size<N>: TileSize,
    {
        /// The software-barrier state a sync of the calling thread uses:
        /// the handle's while its block runs, and the calling thread's
        /// block's (looked up now) when the handle was kept past its block
        /// (in a `Cell` of the launch's closure): on the simulator the
        /// block's end freed the handle's state.
        #[inline(always)]
        fn soft_now(&self) -> arch::SharedAddr {
            if self.soft.is_null() || arch::shared_owner() == self.owner {
                self.soft
            } else {
                arch::soft_barrier_scratch()
            }
        }
    }
}

forward_thread_group!(impl[const N: u32] ThreadBlockTile<N>, where Size<N>: TileSize);

impl<const N: u32> WarpGroup for ThreadBlockTile<N> where Size<N>: WarpTileSize {}
