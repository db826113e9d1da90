//! [`BlockStore`]: the block's items to a tile of global memory (CUB's
//! `BlockStore`).

use core::marker::PhantomData;

use super::exchange::BlockExchange;
use super::load::{block_temp_bytes, warp_part};
use super::{full_warp, rank_of};
use crate::arch;
use crate::global::{Chunk, PerBlock, Window};
use crate::group::ThreadBlock;
use crate::pod::Pod;
use crate::primitives::algorithm::{
    BlockAlgorithm, BlockedGlobal, Kind, NoStorage, StripedGlobal, Transpose,
};
use crate::primitives::direct;
use crate::primitives::storage::{NeedsTempStorage, Smem, TempStorage};
use crate::primitives::warp::store::WarpStore;
use crate::value::ShflValue;

/// Stores a tile of `BLOCK · ITEMS` items with algorithm `A` (see
/// [`algorithm`](crate::primitives::algorithm)); the registers hold the
/// blocked arrangement for every algorithm but `Striped`.
///
/// ```
/// use cooperative_groups::prelude::*;
/// use cooperative_groups::primitives::{BlockStore, Transpose};
/// use cooperative_groups::temp_storage;
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// let mut out = vec![0u32; 100];
/// let p = out.as_mut_ptr() as usize;
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 32), &|| {
/// let block = this_thread_block().with_threads::<32>();
/// let temp = temp_storage!(BlockStore<u32, 32, 4, Transpose>);
/// let r = block.thread_rank();
/// let store = BlockStore::<u32, 32, 4, Transpose>::new(&block, &temp);
/// // SAFETY: the first 100 outputs are this block's, each written once.
/// unsafe { store.store_partial(p as *mut u32, 100, [4 * r, 4 * r + 1, 4 * r + 2, 4 * r + 3]) };
/// # }).unwrap();
/// assert_eq!(out, (0..100).collect::<Vec<u32>>());
/// ```
pub struct BlockStore<T, const BLOCK: u32, const ITEMS: usize, A = crate::primitives::Direct> {
    rank: u32,
    smem: Smem,
    _t: PhantomData<fn() -> (T, A)>,
}

impl<T, const BLOCK: u32, const ITEMS: usize, A: BlockAlgorithm> NeedsTempStorage
    for BlockStore<T, BLOCK, ITEMS, A>
{
    const TEMP_BYTES: usize = block_temp_bytes::<T, A, BLOCK, ITEMS>();
}

impl<T: ShflValue, const BLOCK: u32, const ITEMS: usize, A: BlockAlgorithm>
    BlockStore<T, BLOCK, ITEMS, A>
{
    /// The store for `block`, exchanging (for `Transpose`,
    /// `WarpTranspose`) in `temp`.
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
        BlockStore {
            rank: rank_of(block),
            smem: temp.smem::<Self>(),
            _t: PhantomData,
        }
    }

    /// Stores the full tile from element 0 of `dst`.
    ///
    /// # Safety
    /// The tile's `BLOCK · ITEMS` elements from `dst` must be valid for
    /// writes that no other thread makes concurrently.
    #[inline(always)]
    #[track_caller]
    pub unsafe fn store(&self, dst: *mut T, items: [T; ITEMS]) {
        let r = self.rank;
        // SAFETY: the caller's contract covers the tile, every arm's stores.
        unsafe {
            match A::KIND {
                Kind::Direct => direct::store_blocked(r, dst, &items),
                Kind::Striped => direct::store_striped::<BLOCK, T, ITEMS>(r, dst, &items),
                Kind::Vectorize => direct::store_blocked_vectorized(r, dst, &items),
                Kind::Transpose => {
                    let x = BlockExchange::<T, BLOCK, ITEMS>::from_parts(r, self.smem)
                        .blocked_to_striped(items);
                    direct::store_striped::<BLOCK, T, ITEMS>(r, dst, &x)
                }
                Kind::WarpTranspose => {
                    let (first, off) = warp_part::<T, ITEMS>(r);
                    let warp = WarpStore::<T, ITEMS, Transpose, 32>::from_parts(
                        full_warp(r),
                        self.smem.offset(off),
                    );
                    warp.store(dst.wrapping_add(first), items)
                }
            }
        }
    }

    /// Stores the first `valid` items of the tile.
    ///
    /// # Safety
    /// As [`store`](Self::store), for the first `valid` elements.
    #[inline(always)]
    #[track_caller]
    pub unsafe fn store_partial(&self, dst: *mut T, valid: usize, items: [T; ITEMS]) {
        let r = self.rank;
        // SAFETY: the caller's contract covers the first `valid`, every arm's stores.
        unsafe {
            match A::KIND {
                Kind::Direct | Kind::Vectorize => {
                    direct::store_blocked_partial(r, dst, valid, &items)
                }
                Kind::Striped => {
                    direct::store_striped_partial::<BLOCK, T, ITEMS>(r, dst, valid, &items)
                }
                Kind::Transpose => {
                    let x = BlockExchange::<T, BLOCK, ITEMS>::from_parts(r, self.smem)
                        .blocked_to_striped(items);
                    direct::store_striped_partial::<BLOCK, T, ITEMS>(r, dst, valid, &x)
                }
                Kind::WarpTranspose => {
                    let (first, off) = warp_part::<T, ITEMS>(r);
                    let warp = WarpStore::<T, ITEMS, Transpose, 32>::from_parts(
                        full_warp(r),
                        self.smem.offset(off),
                    );
                    warp.store_partial(dst.wrapping_add(first), valid.saturating_sub(first), items)
                }
            }
        }
    }
}

impl<T: ShflValue + Pod, const BLOCK: u32, const ITEMS: usize, A: BlockAlgorithm>
    BlockStore<T, BLOCK, ITEMS, A>
{
    /// Stores the tile into `window`, the calling block's window of an
    /// [`OwnedSlice<T, PerBlock<W>>`](crate::OwnedSlice) with `W = BLOCK ·
    /// ITEMS` (one tile per block): all of it, or the first
    /// `window.len()` items where the slice's last window is shorter.
    ///
    /// Safe, for the striped algorithms only ([`StripedGlobal`]:
    /// [`Striped`](crate::primitives::Striped), [`Transpose`]): the window
    /// is the block's own (its index is the hardware's block index), and
    /// its element `j` belongs to the block's thread `j mod BLOCK` — the
    /// thread that a striped store has write it. So the store and the
    /// window's own witnesses ([`Window::mine`], [`Window::striped`]) give
    /// each element one writer, and no other thread writes it. A blocked
    /// store (`Direct`, `Vectorize`) writes each thread's own
    /// [`Chunked`](crate::Chunked) chunk instead
    /// ([`store_chunk`](Self::store_chunk)); `WarpTranspose`'s warp-striped
    /// arrangement is no partition's, and has only the `unsafe` stores.
    ///
    /// ```
    /// use cooperative_groups::prelude::*;
    /// use cooperative_groups::primitives::{BlockStore, Transpose};
    /// use cooperative_groups::{kernel, temp_storage, OwnedSlice, PerBlock};
    ///
    /// #[kernel]
    /// pub fn iota(out: OwnedSlice<u32, PerBlock<128>>) {
    ///     let block = this_thread_block().with_threads::<32>();
    ///     let temp = temp_storage!(BlockStore<u32, 32, 4, Transpose>);
    ///     let r = block.thread_rank();
    ///     let first = 128 * block.group_index().x;
    ///     let items = [0, 1, 2, 3].map(|i| first + 4 * r + i);
    ///     BlockStore::<u32, 32, 4, Transpose>::new(&block, &temp)
    ///         .store_window(out.window(&block), items);
    /// }
    ///
    /// let mut out = vec![0u32; 300];                  // the third window holds 44
    /// let cfg = cg_sim::LaunchConfig::new(3, 32);
    /// cooperative_groups::host::run(&IOTA, &cfg, (&mut out[..],)).unwrap();
    /// assert_eq!(out, (0..300).collect::<Vec<u32>>());
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn store_window<const W: usize>(
        &self,
        window: Window<'_, T, PerBlock<W>>,
        items: [T; ITEMS],
    ) where
        A: StripedGlobal,
    {
        const {
            assert!(
                W == BLOCK as usize * ITEMS,
                "the window holds one tile: W = BLOCK * ITEMS"
            )
        };
        let (dst, len) = window.raw_parts();
        arch::global_region_check(dst.cast(), len * core::mem::size_of::<T>());
        // SAFETY: `len` elements from `dst` lie in the slice (the window's
        // bounds) and belong to this block alone (`PerBlock<W>` windows are
        // made from the hardware's block index); the striped store writes
        // element `j < len ≤ W` from thread `j mod BLOCK`, its owner in the
        // window (`new` checked that the block has `BLOCK` threads). `len`
        // is the same in every thread: the branch is uniform.
        unsafe {
            if len == W {
                self.store(dst, items)
            } else {
                self.store_partial(dst, len, items)
            }
        }
    }

    /// Stores the calling thread's `ITEMS` items (the blocked arrangement)
    /// into `chunk`, its chunk of an
    /// [`OwnedSlice<T, Chunked<ITEMS>>`](crate::OwnedSlice): all of them,
    /// or the first `chunk.len()` where the slice's last chunk is shorter
    /// (none past its end). In a grid of blocks of `BLOCK` threads, block
    /// `b`'s chunks are the tile `b · BLOCK · ITEMS ..` in the blocked
    /// arrangement: what [`store`](Self::store) writes there.
    ///
    /// Safe, for the blocked algorithms only ([`BlockedGlobal`]:
    /// [`Direct`](crate::primitives::Direct),
    /// [`Vectorize`](crate::primitives::Vectorize), which keeps its 16- or
    /// 8-byte vector stores where the chunk is aligned): the chunk is the
    /// thread's own (from its grid rank), and a blocked store writes the
    /// thread's items, nobody else's. Striped stores write a block's
    /// [`PerBlock`] window instead ([`store_window`](Self::store_window)).
    ///
    /// ```
    /// use cooperative_groups::prelude::*;
    /// use cooperative_groups::primitives::{BlockStore, Vectorize};
    /// use cooperative_groups::{kernel, Chunked, OwnedSlice};
    ///
    /// #[kernel]
    /// pub fn iota(out: OwnedSlice<u32, Chunked<4>>) {
    ///     let block = this_thread_block().with_threads::<32>();
    ///     let first = 4 * this_grid().thread_rank() as u32;
    ///     let items = [0, 1, 2, 3].map(|i| first + i);
    ///     BlockStore::<u32, 32, 4, Vectorize>::without_storage(&block)
    ///         .store_chunk(out.chunk(&this_grid()), items);
    /// }
    ///
    /// let mut out = vec![0u32; 298];                  // thread 74's chunk holds 2
    /// let cfg = cg_sim::LaunchConfig::new(3, 32);
    /// cooperative_groups::host::run(&IOTA, &cfg, (&mut out[..],)).unwrap();
    /// assert_eq!(out, (0..298).collect::<Vec<u32>>());
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn store_chunk(&self, chunk: Chunk<'_, T, ITEMS>, items: [T; ITEMS])
    where
        A: BlockedGlobal,
    {
        let (dst, len) = chunk.raw_parts();
        arch::global_region_check(dst.cast(), len * core::mem::size_of::<T>());
        // SAFETY: `len ≤ ITEMS` elements from `dst` lie in the slice (the
        // chunk's bounds) and belong to the calling thread alone
        // (`Chunked<ITEMS>` chunks are made from its grid rank); the
        // blocked stores of rank 0 from the chunk's start write exactly
        // them.
        unsafe {
            if len == ITEMS {
                match A::KIND {
                    Kind::Vectorize => direct::store_blocked_vectorized(0, dst, &items),
                    _ => direct::store_blocked(0, dst, &items),
                }
            } else {
                direct::store_blocked_partial(0, dst, len, &items)
            }
        }
    }
}

impl<T: ShflValue, const BLOCK: u32, const ITEMS: usize, A: NoStorage>
    BlockStore<T, BLOCK, ITEMS, A>
{
    /// The store for `block`, for the algorithms that need no storage.
    ///
    /// # Panics
    /// A block of another size than `BLOCK` is a contract violation.
    #[inline(always)]
    #[track_caller]
    pub fn without_storage(block: &ThreadBlock<BLOCK>) -> Self {
        const { assert!(ITEMS > 0, "a thread holds at least one item") };
        BlockStore {
            rank: rank_of(block),
            smem: Smem::none(),
            _t: PhantomData,
        }
    }
}
