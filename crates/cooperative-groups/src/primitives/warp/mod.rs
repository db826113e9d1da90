//! The warp layer of the primitives: tiles of `W ≤ 32` threads
//! ([`ThreadBlockTile<W>`](crate::ThreadBlockTile), CUB's
//! `LOGICAL_WARP_THREADS`), built on the thread layer (`direct`,
//! `thread`, the storage) and the library's warp collectives. The block
//! layer builds on this one; this one never uses the block layer.

pub(crate) mod exchange;
pub(crate) mod load;
pub(crate) mod merge_sort;
pub(crate) mod reduce;
pub(crate) mod scan;
pub(crate) mod store;

use crate::arch;
use crate::group::sealed::Sealed;
use crate::group::shape::Shape;
use crate::group::{Size, ThreadBlockTile, WarpTileSize};

/// What a warp primitive keeps of its tile: the caller's rank and the
/// `bar.warp.sync` mask of the tile.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lanes {
    pub(crate) rank: u32,
    pub(crate) mask: u32,
}

impl Lanes {
    /// The tile's lanes.
    #[inline(always)]
    #[track_caller]
    pub(crate) fn of<const W: u32>(tile: &ThreadBlockTile<W>) -> Lanes
    where
        Size<W>: WarpTileSize,
    {
        match tile.shape() {
            Shape::Seg(s) => Lanes {
                rank: s.rank(),
                mask: s.op_mask,
            },
            // A tile of at most 32 threads is a segment of one warp.
            _ => unreachable!(),
        }
    }

    /// `tile.sync()`: `bar.warp.sync`, which orders the tile's
    /// shared-memory accesses.
    #[inline(always)]
    #[track_caller]
    pub(crate) fn sync(&self) {
        arch::warp_sync(self.mask)
    }
}
