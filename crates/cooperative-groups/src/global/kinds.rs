//! The partitions of an [`OwnedSlice`](super::OwnedSlice): who owns which
//! element, as types (the bottom of `global`: the slices and the walks
//! that hand out witnesses both name them).

mod sealed {
    pub trait Sealed {}
}

/// How an [`OwnedSlice`](super::OwnedSlice)'s elements are divided among the threads of a
/// launch (sealed: [`PerThread`], [`Chunked`], [`PerBlock`], [`PerTile`]).
pub trait Partition: sealed::Sealed + Copy + 'static {}

/// Element `i` belongs to grid thread `i mod T` (`T`: the grid's threads):
/// one element per thread ([`OwnedSlice::at`](super::OwnedSlice::at)), or every `T`-th in a
/// grid-stride loop ([`OwnedSlice::grid_stride`](super::OwnedSlice::grid_stride)).
#[derive(Clone, Copy, Debug)]
pub struct PerThread;

/// Element `i` belongs to grid thread `i / N`: `N` contiguous elements per
/// thread ([`OwnedSlice::chunk`](super::OwnedSlice::chunk)), CUB's "blocked" arrangement.
#[derive(Clone, Copy, Debug)]
pub struct Chunked<const N: usize>;

/// Block `b` (linear rank in the grid) owns elements `b·W .. b·W + W`; inside
/// the window, element `j` belongs to the block's thread `j mod size`
/// ([`OwnedSlice::window`](super::OwnedSlice::window); with `W = 1`, one result per block written by
/// its thread 0: [`OwnedSlice::leader`](super::OwnedSlice::leader)).
#[derive(Clone, Copy, Debug)]
pub struct PerBlock<const W: usize = 1>;

/// Tile `t` of `N` threads owns elements `t·W .. t·W + W`, tiles numbered
/// across the grid (block `b`'s tile `k` is `b·⌈size/N⌉ + k`); inside the
/// window element `j` belongs to the tile's thread `j mod N` (with `W = 1`,
/// one result per tile written by its rank 0).
#[derive(Clone, Copy, Debug)]
pub struct PerTile<const N: u32, const W: usize = 1>;

impl sealed::Sealed for PerThread {}
impl Partition for PerThread {}
impl<const N: usize> sealed::Sealed for Chunked<N> {}
impl<const N: usize> Partition for Chunked<N> {}
impl<const W: usize> sealed::Sealed for PerBlock<W> {}
impl<const W: usize> Partition for PerBlock<W> {}
impl<const N: u32, const W: usize> sealed::Sealed for PerTile<N, W> {}
impl<const N: u32, const W: usize> Partition for PerTile<N, W> {}
