//! Who owns which element of an [`OwnedSlice`]: the windows, chunks and
//! grid-stride walks the partitions (`kinds`) hand a thread.
//!
//! Each partition is a function from an element's index to the one thread
//! of the launch that may write it, computed from the hardware's thread and
//! block indices; the methods below give the calling thread witnesses
//! ([`Elem`]) for its own elements and for no others.

use core::marker::PhantomData;

use crate::group::{Size, ThreadBlock, ThreadBlockTile, TileSize};
use crate::{GridGroup, Pod};

use super::identity;
use super::kinds::{Chunked, Partition, PerBlock, PerThread, PerTile};
use super::owned::{Elem, OwnedSlice};

mod sealed {
    /// The groups that own windows, and where the caller's group stands:
    /// `((group index in the grid, caller's rank, group size), groups in
    /// the grid)`.
    pub trait Sealed {
        fn place(&self) -> ((usize, usize, usize), usize);
    }
}

impl<T: Pod> OwnedSlice<'_, T, PerThread> {
    /// The calling thread's element: index `grid.thread_rank()`, if the
    /// slice is that long.
    #[inline(always)]
    #[track_caller]
    pub fn at(&self, grid: &GridGroup) -> Option<Elem<'_, T>> {
        let _ = grid;
        let (rank, _) = identity::grid_thread();
        (rank < self.len()).then(|| self.elem(rank))
    }

    /// The calling thread's elements in a grid-stride loop: indices
    /// `rank, rank + T, rank + 2T, …` below the length (`T`: the grid's
    /// thread count). The indices are in bounds by construction.
    #[inline(always)]
    pub fn grid_stride(&self, grid: &GridGroup) -> GridStride<'_, T> {
        let _ = grid;
        let (rank, threads) = identity::grid_thread();
        GridStride {
            slice: self,
            next: rank,
            step: threads,
        }
    }
}

/// The iterator of [`OwnedSlice::grid_stride`].
pub struct GridStride<'s, T> {
    slice: &'s OwnedSlice<'s, T, PerThread>,
    next: usize,
    step: usize,
}

impl<'s, T: Pod> Iterator for GridStride<'s, T> {
    type Item = Elem<'s, T>;

    #[inline(always)]
    fn next(&mut self) -> Option<Elem<'s, T>> {
        let i = self.next;
        (i < self.slice.len()).then(|| {
            self.next = i + self.step;
            self.slice.elem(i)
        })
    }
}

impl<T: Pod, const N: usize> OwnedSlice<'_, T, Chunked<N>> {
    /// The calling thread's `N` contiguous elements, `rank·N .. rank·N + N`
    /// (fewer at the end of the slice, none past it).
    #[inline(always)]
    pub fn chunk(&self, grid: &GridGroup) -> Chunk<'_, T, N> {
        let _ = grid;
        let (rank, _) = identity::grid_thread();
        let start = rank.saturating_mul(N).min(self.len());
        Chunk {
            slice: self,
            start,
            len: (self.len() - start).min(N),
        }
    }
}

/// The elements of one thread's chunk ([`OwnedSlice::chunk`]).
pub struct Chunk<'s, T, const N: usize> {
    slice: &'s OwnedSlice<'s, T, Chunked<N>>,
    start: usize,
    len: usize,
}

impl<'s, T: Pod, const N: usize> Chunk<'s, T, N> {
    /// Elements in the chunk: `N`, fewer in the slice's last chunk.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// The chunk is empty (the thread's elements are past the end).
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Index in the slice of the chunk's element 0.
    #[inline(always)]
    pub fn start(&self) -> usize {
        self.start
    }

    /// The chunk's element `j` (`j < len()`).
    #[inline(always)]
    #[track_caller]
    pub fn get(&self, j: usize) -> Option<Elem<'s, T>> {
        (j < self.len).then(|| self.slice.elem(self.start + j))
    }

    /// Writes element `j` of the chunk; `j` past the chunk is a `trap` on
    /// the GPU and a report on the simulator.
    #[inline(always)]
    #[track_caller]
    pub fn store(&self, j: usize, v: T) {
        if j >= self.len {
            crate::arch::global_out_of_bounds(
                self.slice.as_ptr().cast(),
                self.start.saturating_add(j),
                self.slice.len(),
                true,
            )
        }
        self.slice.elem(self.start + j).store(v)
    }

    /// Writes the whole chunk from `items` (a full chunk; the slice's last,
    /// shorter chunk takes the first `len()` items).
    #[inline(always)]
    #[track_caller]
    pub fn store_all(&self, items: [T; N]) {
        let mut j = 0;
        while j < N {
            if j < self.len {
                self.slice.elem(self.start + j).store(items[j]);
            }
            j += 1;
        }
    }

    /// The chunk's elements in order.
    #[inline(always)]
    pub fn iter(&self) -> impl Iterator<Item = Elem<'s, T>> + '_ {
        (0..self.len).map(move |j| self.slice.elem(self.start + j))
    }

    /// The chunk's element 0 and length, for the blocked block stores
    /// that write a thread's whole chunk
    /// ([`BlockStore::store_chunk`](crate::primitives::BlockStore::store_chunk)).
    #[inline(always)]
    pub(crate) fn raw_parts(&self) -> (*mut T, usize) {
        (self.slice.as_ptr().wrapping_add(self.start), self.len)
    }
}

/// A group that owns windows of an [`OwnedSlice`] under [`PerBlock`]
/// ([`ThreadBlock`]) or [`PerTile`] ([`ThreadBlockTile`]), or rows of an
/// [`OwnedPitched`](super::OwnedPitched) under the row partitions: its
/// grid-wide index, the caller's rank, the group's size and the number of
/// such groups in the grid (sealed: computed from the hardware's indices,
/// never from a value the kernel chose). Which partitions a group owns is
/// the list of its implementations; what it owns follows from its place.
pub trait WindowOwner<P>: sealed::Sealed {
    /// `(group index in the grid, caller's rank, group size)`.
    #[doc(hidden)]
    #[inline(always)]
    fn owner(&self) -> (usize, usize, usize) {
        self.place().0
    }

    /// Groups of this kind in the grid.
    #[doc(hidden)]
    #[inline(always)]
    fn groups(&self) -> usize {
        self.place().1
    }
}

impl<const M: u32> sealed::Sealed for ThreadBlock<M> {
    #[inline(always)]
    fn place(&self) -> ((usize, usize, usize), usize) {
        let (b, blocks) = identity::block_rank();
        let (r, n) = identity::block_thread();
        ((b, r, n), blocks)
    }
}
impl<const N: u32> sealed::Sealed for ThreadBlockTile<N>
where
    Size<N>: TileSize,
{
    #[inline(always)]
    fn place(&self) -> ((usize, usize, usize), usize) {
        tile_owner(N as usize)
    }
}
impl sealed::Sealed for GridGroup {
    #[inline(always)]
    fn place(&self) -> ((usize, usize, usize), usize) {
        let (rank, threads) = identity::grid_thread();
        ((rank, 0, 1), threads)
    }
}

/// A tile of `n_tile` threads' `(index, rank, size)` and the grid's tiles
/// (block `b`'s tile `k` is `b·⌈size/N⌉ + k`).
#[inline(always)]
pub(super) fn tile_owner(n_tile: usize) -> ((usize, usize, usize), usize) {
    let (b, blocks) = identity::block_rank();
    let (r, n) = identity::block_thread();
    let per_block = n.div_ceil(n_tile);
    (
        (b * per_block + r / n_tile, r % n_tile, n_tile),
        blocks * per_block,
    )
}

impl<const M: u32, const W: usize> WindowOwner<PerBlock<W>> for ThreadBlock<M> {}
impl<const N: u32, const W: usize> WindowOwner<PerTile<N, W>> for ThreadBlockTile<N> where
    Size<N>: TileSize
{
}

/// A group's window of an [`OwnedSlice`] ([`OwnedSlice::window`]); the
/// calling member's elements in it are those of index `rank, rank + size,
/// …` (striped, CUB's default arrangement for coalesced stores).
pub struct Window<'s, T, P: Partition> {
    slice: &'s OwnedSlice<'s, T, P>,
    start: usize,
    len: usize,
    rank: usize,
    size: usize,
    _p: PhantomData<P>,
}

macro_rules! windowed {
    ($p:ty, [$($gen:tt)*]) => {
        impl<T: Pod, $($gen)*> OwnedSlice<'_, T, $p> {
            /// The calling thread's group's window: `W` elements starting at
            /// `W ·` the group's grid-wide index (fewer at the end of the
            /// slice).
            #[inline(always)]
            pub fn window<G: WindowOwner<$p>>(&self, group: &G) -> Window<'_, T, $p> {
                let (g, rank, size) = group.owner();
                let start = g.saturating_mul(W).min(self.len());
                Window {
                    slice: self,
                    start,
                    len: (self.len() - start).min(W),
                    rank,
                    size,
                    _p: PhantomData,
                }
            }

            /// The group's windows in a grid-stride loop: windows `g, g + G,
            /// g + 2G, …` (`g` the group's grid-wide index, `G` the grid's
            /// groups) below the slice's end — with `W = 1`, the
            /// block-strided (tile-strided) elements `g, g + G, …`, each
            /// written by the group's rank 0. A window past the grid's
            /// groups has no other owner, so the stride adds owners only
            /// to elements nobody else owns.
            #[inline(always)]
            pub fn windows<'s, G: WindowOwner<$p>>(
                &'s self,
                group: &G,
            ) -> impl Iterator<Item = Window<'s, T, $p>> + 's {
                let (g, rank, size) = group.owner();
                let step = group.groups().max(1);
                let len = self.len();
                let windows = if W == 0 { 0 } else { len.div_ceil(W) };
                (g..windows)
                    .step_by(step)
                    .map(move |w| {
                        let start = w * W;
                        Window {
                            slice: self,
                            start,
                            len: (len - start).min(W),
                            rank,
                            size,
                            _p: PhantomData,
                        }
                    })
            }

            /// The window's element 0, for its owner (the group's rank 0):
            /// one result per group, written by its leader.
            #[inline(always)]
            pub fn leader<G: WindowOwner<$p>>(&self, group: &G) -> Option<Elem<'_, T>> {
                self.window(group).mine(0)
            }
        }
    };
}
windowed!(PerBlock<W>, [const W: usize]);
windowed!(PerTile<N, W>, [const N: u32, const W: usize]);

impl<'s, T: Pod, P: Partition> Window<'s, T, P> {
    /// Elements in the window.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// The window is empty (the group's elements are past the end).
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Index in the slice of the window's element 0.
    #[inline(always)]
    pub fn start(&self) -> usize {
        self.start
    }

    /// The caller's `k`-th element of the window: index `rank + k·size`
    /// in it, if the window is that long.
    #[inline(always)]
    pub fn mine(&self, k: usize) -> Option<Elem<'s, T>> {
        let j = k.saturating_mul(self.size).saturating_add(self.rank);
        (j < self.len).then(|| self.slice.elem(self.start + j))
    }

    /// The caller's elements of the window (striped: `rank, rank + size, …`).
    #[inline(always)]
    pub fn striped(&self) -> impl Iterator<Item = Elem<'s, T>> + '_ {
        (self.rank..self.len)
            .step_by(self.size.max(1))
            .map(move |j| self.slice.elem(self.start + j))
    }

    /// Element `j` of the window (below [`len`](Self::len)), for the
    /// group's collectives that write the whole window.
    #[inline(always)]
    pub(crate) fn elem_at(&self, j: usize) -> Elem<'s, T> {
        self.slice.elem(self.start + j)
    }

    /// The window's element 0 and length, for the block primitives that
    /// write a whole window between the group's threads, each element from
    /// its owner ([`BlockStore::store_window`](crate::primitives::BlockStore::store_window)'s
    /// striped stores; `Window::store_bulk`'s one thread, `unsafe`).
    #[inline(always)]
    pub(crate) fn raw_parts(&self) -> (*mut T, usize) {
        (self.slice.as_ptr().wrapping_add(self.start), self.len)
    }
}
