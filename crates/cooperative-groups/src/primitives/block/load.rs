//! [`BlockLoad`]: a tile of `BLOCK · ITEMS` items from global memory into
//! the block's registers (CUB's `BlockLoad`).

use core::marker::PhantomData;
use core::mem::size_of;

use super::exchange::BlockExchange;
use super::{full_warp, rank_of};
use crate::group::ThreadBlock;
use crate::primitives::algorithm::{BlockAlgorithm, Kind, NoStorage, Transpose};
use crate::primitives::arrange::{padded, slot};
use crate::primitives::direct;
use crate::primitives::storage::{NeedsTempStorage, Smem, TempStorage};
use crate::primitives::warp::load::WarpLoad;
use crate::value::ShflValue;

/// Loads a tile of `BLOCK · ITEMS` items with algorithm `A`
/// ([`Direct`](crate::primitives::Direct), [`Striped`](crate::primitives::Striped),
/// [`Vectorize`](crate::primitives::Vectorize), [`Transpose`],
/// [`WarpTranspose`](crate::primitives::WarpTranspose); see
/// [`algorithm`](crate::primitives::algorithm)). Every algorithm but
/// `Striped` gives the blocked arrangement; `WarpTranspose` is a
/// [`WarpLoad`] with `Transpose` in each warp.
///
/// `src` starts at the block's tile (`&input[tile_offset..]`); a full load
/// needs all the tile inside it, a partial load reads the first `valid`
/// items (and no more than `src.len()`) and gives the others `oob`.
///
/// ```
/// use cooperative_groups::prelude::*;
/// use cooperative_groups::primitives::{BlockLoad, WarpTranspose};
/// use cooperative_groups::temp_storage;
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// let input: Vec<u32> = (0..1000).collect();
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 64), &|| {
/// let block = this_thread_block().with_threads::<64>();
/// type Load = BlockLoad<u32, 64, 4, WarpTranspose>;
/// let temp = temp_storage!(Load);
/// let tile = 1;                                   // items 256..512
/// let items = Load::new(&block, &temp).load(&input[256 * tile..]);
/// # let r = block.thread_rank();
/// assert_eq!(items[0], 256 + 4 * block.thread_rank());
/// # assert_eq!(items, [256 + 4 * r, 257 + 4 * r, 258 + 4 * r, 259 + 4 * r]);
/// # }).unwrap();
/// ```
///
/// `WarpTranspose` in a block that is not whole warps does not compile
/// (`E0080`, when the kernel is compiled):
///
/// ```compile_fail,E0080
/// use cooperative_groups::prelude::*;
/// use cooperative_groups::primitives::{BlockLoad, WarpTranspose};
/// use cooperative_groups::temp_storage;
/// fn kernel(input: &[u32]) {
///     let block = this_thread_block().with_threads::<48>();
///     let temp = temp_storage!(BlockLoad<u32, 48, 2, WarpTranspose>);
///     let _ = BlockLoad::<u32, 48, 2, WarpTranspose>::new(&block, &temp).load(input);
/// }
/// kernel(&[0; 96]);
/// ```
pub struct BlockLoad<T, const BLOCK: u32, const ITEMS: usize, A = crate::primitives::Direct> {
    rank: u32,
    smem: Smem,
    _t: PhantomData<fn() -> (T, A)>,
}

/// The storage of the block loads and stores with algorithm `A`.
pub(crate) const fn block_temp_bytes<T, A: BlockAlgorithm, const BLOCK: u32, const ITEMS: usize>()
-> usize {
    match A::KIND {
        Kind::Transpose | Kind::WarpTranspose => {
            <BlockExchange<T, BLOCK, ITEMS> as NeedsTempStorage>::TEMP_BYTES
        }
        _ => 0,
    }
}

impl<T, const BLOCK: u32, const ITEMS: usize, A: BlockAlgorithm> NeedsTempStorage
    for BlockLoad<T, BLOCK, ITEMS, A>
{
    const TEMP_BYTES: usize = block_temp_bytes::<T, A, BLOCK, ITEMS>();
}

/// Warp `w`'s part of a block tile: its first item, and the byte offset of
/// its part of the exchange storage.
#[inline(always)]
pub(crate) fn warp_part<T, const ITEMS: usize>(rank: u32) -> (usize, u32) {
    let first = (rank / 32) * 32 * ITEMS as u32;
    (
        first as usize,
        slot(first, padded(ITEMS)) * size_of::<T>() as u32,
    )
}

impl<T: ShflValue, const BLOCK: u32, const ITEMS: usize, A: BlockAlgorithm>
    BlockLoad<T, BLOCK, ITEMS, A>
{
    /// The load for `block`, exchanging (for `Transpose`, `WarpTranspose`)
    /// in `temp`.
    ///
    /// # Panics
    /// A block of another size than `BLOCK` is a contract violation.
    #[inline(always)]
    #[track_caller]
    pub fn new<L: NeedsTempStorage>(block: &ThreadBlock<BLOCK>, temp: &TempStorage<L>) -> Self {
        const { assert!(ITEMS > 0, "a thread holds at least one item") };
        const {
            assert!(
                !matches!(A::KIND, Kind::WarpTranspose) || BLOCK.is_multiple_of(32),
                "WarpTranspose needs a block of whole warps"
            )
        };
        BlockLoad {
            rank: rank_of(block),
            smem: temp.smem::<Self>(),
            _t: PhantomData,
        }
    }

    /// Loads the full tile at the start of `src`.
    ///
    /// # Panics
    /// The tile must lie inside `src` (contract violation otherwise).
    #[inline(always)]
    #[track_caller]
    pub fn load(&self, src: &[T]) -> [T; ITEMS] {
        let r = self.rank;
        match A::KIND {
            Kind::Direct => direct::load_blocked(r, src),
            Kind::Striped => direct::load_striped::<BLOCK, T, ITEMS>(r, src),
            Kind::Vectorize => direct::load_blocked_vectorized(r, src),
            Kind::Transpose => {
                let x = direct::load_striped::<BLOCK, T, ITEMS>(r, src);
                BlockExchange::<T, BLOCK, ITEMS>::from_parts(r, self.smem).striped_to_blocked(x)
            }
            Kind::WarpTranspose => {
                let (first, off) = warp_part::<T, ITEMS>(r);
                let warp = WarpLoad::<T, ITEMS, Transpose, 32>::from_parts(
                    full_warp(r),
                    self.smem.offset(off),
                );
                warp.load(&src[first.min(src.len())..])
            }
        }
    }

    /// Loads the first `valid` items of the tile at the start of `src`
    /// (no more than `src.len()`); the others are `oob`.
    #[inline(always)]
    #[track_caller]
    pub fn load_partial(&self, src: &[T], valid: usize, oob: T) -> [T; ITEMS] {
        let r = self.rank;
        match A::KIND {
            Kind::Direct | Kind::Vectorize => direct::load_blocked_partial(r, src, valid, oob),
            Kind::Striped => direct::load_striped_partial::<BLOCK, T, ITEMS>(r, src, valid, oob),
            Kind::Transpose => {
                let x = direct::load_striped_partial::<BLOCK, T, ITEMS>(r, src, valid, oob);
                BlockExchange::<T, BLOCK, ITEMS>::from_parts(r, self.smem).striped_to_blocked(x)
            }
            Kind::WarpTranspose => {
                let (first, off) = warp_part::<T, ITEMS>(r);
                let warp = WarpLoad::<T, ITEMS, Transpose, 32>::from_parts(
                    full_warp(r),
                    self.smem.offset(off),
                );
                let from = first.min(src.len());
                warp.load_partial(&src[from..], valid.saturating_sub(first), oob)
            }
        }
    }
}

impl<T: ShflValue, const BLOCK: u32, const ITEMS: usize, A: NoStorage>
    BlockLoad<T, BLOCK, ITEMS, A>
{
    /// The load for `block`, for the algorithms that need no storage.
    ///
    /// # Panics
    /// A block of another size than `BLOCK` is a contract violation.
    #[inline(always)]
    #[track_caller]
    pub fn without_storage(block: &ThreadBlock<BLOCK>) -> Self {
        const { assert!(ITEMS > 0, "a thread holds at least one item") };
        BlockLoad {
            rank: rank_of(block),
            smem: Smem::none(),
            _t: PhantomData,
        }
    }
}
