//! Rows and 2-D tiles of an [`OwnedPitched`] owned by groups: the shapes
//! whose size is a launch argument (a row of `C` elements per warp, per
//! block, per thread) and the register tiles of a tiled matrix product (a
//! `TM × TN` output tile per thread).
//!
//! The image's width, height and pitch travel in the parameter, so every
//! thread of the launch sees the same shape — the host checked it once
//! against the buffer ([`host::image_span`](crate::host::image_span)) —
//! and a group's row or a thread's tile is in bounds by construction: the
//! stores through its witnesses carry no check.

use core::marker::PhantomData;

use crate::cache::{LoadHint, StoreHint};
use crate::group::{Size, ThreadBlock, ThreadBlockTile, TileSize};
use crate::vector::{AlignFor, Element, Lanes, Vector};
use crate::{GridGroup, Pod, arch};

use super::partition::WindowOwner;
use super::pitched::{Elem2d, OwnedPitched, Partition2d, sealed};

/// Row `y` belongs to block `y mod B` (`B`: the grid's blocks, linear
/// rank), its element `x` to the block's thread `(x / V) mod size`:
/// [`OwnedPitched::row`], [`OwnedPitched::row_stride`] with a
/// [`ThreadBlock`]. With `V = 1` (the default) a thread's elements are
/// `rank, rank + size, …` ([`Row::striped`]); with `V` of 2, 4, 8, 16
/// lanes the unit of ownership is a vector of `V` consecutive elements
/// ([`Row::striped_vec`], 16-byte stores), as for [`TileRows`].
#[derive(Clone, Copy, Debug)]
pub struct BlockRows<const V: usize = 1>;

/// Row `y` belongs to tile `y mod T` of `N` threads (`T`: the grid's tiles,
/// numbered as [`PerTile`](super::PerTile) numbers them), its element `x`
/// to the tile's thread `x mod N` — with `N = 32`, a row per warp:
/// [`OwnedPitched::row`], [`OwnedPitched::row_stride`] with a
/// [`ThreadBlockTile<N>`].
///
/// ```
/// # use cooperative_groups::prelude::*;
/// # use cooperative_groups::{kernel, OwnedPitched, Pitched, TileRows};
/// /// Each row divided by its sum, one warp per row; the row length is
/// /// the images' width, a launch argument.
/// #[kernel]
/// pub fn normalize_rows(x: Pitched<f32>, y: OwnedPitched<f32, TileRows<32>>) {
///     let warp = tiled_partition::<32>(&this_thread_block());
///     for row in y.row_stride(&warp) {
///         // Checked once: the row exists and is as wide as the output.
///         let xr = x.row(row.y()).prefix(row.len());
///         let mut s = 0.0;
///         for e in row.striped() {
///             s += xr.load(e.x());
///         }
///         let total = reduce(&warp, s, Plus);
///         for e in row.striped() {
///             e.store(xr.load(e.x()) / total);
///         }
///     }
/// }
/// # use cooperative_groups::host::Image;
/// # let (c, rows) = (50usize, 7usize);
/// # let x = vec![2.0f32; c * rows];
/// # let mut y = vec![0.0f32; c * rows];
/// # cooperative_groups::host::run(&NORMALIZE_ROWS, &cg_sim::LaunchConfig::new(1, 64),
/// #     (Image::new(&x[..], c, rows, c), Image::new(&mut y[..], c, rows, c))).unwrap();
/// # assert!(y.iter().all(|&v| v == 1.0 / 50.0));
/// ```
///
/// # Vectors: `TileRows<N, V>`
///
/// With `V > 1` the unit of ownership is `V` consecutive elements: element
/// `x` belongs to the tile's thread `(x / V) mod N`, so the `V` elements
/// `V·k .. V·k + V` are one thread's and it may write them with one vector
/// store ([`Row::striped_vec`]: `STG.E.128` for `f32 × 4`). Under `V = 1`
/// the `V` consecutive elements belong to `V` different threads, so no
/// vector view of such a row exists (`striped_vec` does not compile). A
/// row whose start is not aligned to the vector (an odd pitch, a buffer
/// that starts between two vectors) is still written through the same
/// witnesses, lane by lane; the elements past the last whole vector are
/// [`Row::tail`]'s, written as scalars by their unit's owner.
///
/// ```
/// # use cooperative_groups::prelude::*;
/// # use cooperative_groups::{kernel, OwnedPitched, Pitched, TileRows};
/// use cooperative_groups::vector::F32x4;
///
/// /// `y = 2·x`, a warp per row, four floats per store.
/// #[kernel]
/// pub fn double_rows(x: Pitched<f32>, y: OwnedPitched<f32, TileRows<32, 4>>) {
///     let warp = tiled_partition::<32>(&this_thread_block());
///     for row in y.row_stride(&warp) {
///         let xr = x.row(row.y()).prefix(row.len());
///         for v in row.striped_vec() {
///             let a: F32x4 = xr.load_vec(v.x()); // one 16-byte load where aligned
///             v.store(a + a); // one 16-byte store where aligned
///         }
///         for e in row.tail() {
///             e.store(2.0 * xr.load(e.x()));
///         }
///     }
/// }
/// # use cooperative_groups::host::Image;
/// # let (c, rows, pitch) = (50usize, 7usize, 53usize);
/// # let x: Vec<f32> = (0..pitch * rows).map(|i| i as f32).collect();
/// # let mut y = vec![0.0f32; pitch * rows];
/// # cooperative_groups::host::run(&DOUBLE_ROWS, &cg_sim::LaunchConfig::new(1, 64),
/// #     (Image::new(&x[..], c, rows, pitch), Image::new(&mut y[..], c, rows, pitch))).unwrap();
/// # for r in 0..rows { for i in 0..pitch {
/// #     let want = if i < c { 2.0 * x[r * pitch + i] } else { 0.0 };
/// #     assert_eq!(y[r * pitch + i], want);
/// # } }
/// ```
#[derive(Clone, Copy, Debug)]
pub struct TileRows<const N: u32, const V: usize = 1>;

/// Row `y` belongs, whole, to grid thread `y mod T` (`T`: the grid's
/// threads): [`OwnedPitched::row`], [`OwnedPitched::row_stride`] with the
/// [`GridGroup`].
#[derive(Clone, Copy, Debug)]
pub struct ThreadRows;

impl<const V: usize> sealed::Sealed for BlockRows<V> {}
impl<const V: usize> Partition2d for BlockRows<V> {}
impl<const N: u32, const V: usize> sealed::Sealed for TileRows<N, V> {}
impl<const N: u32, const V: usize> Partition2d for TileRows<N, V> {}
impl sealed::Sealed for ThreadRows {}
impl Partition2d for ThreadRows {}

/// The row partitions whose unit of ownership is one element (sealed):
/// [`BlockRows`], [`TileRows<N>`](TileRows), [`ThreadRows`] — the rows
/// [`Row::striped`] and [`Row::mine`] walk element by element.
pub trait ElementRows: Partition2d {}
impl ElementRows for BlockRows<1> {}
impl<const N: u32> ElementRows for TileRows<N, 1> {}
impl ElementRows for ThreadRows {}

impl<const M: u32, const V: usize> WindowOwner<BlockRows<V>> for ThreadBlock<M> {}
impl<const N: u32, const V: usize> WindowOwner<TileRows<N, V>> for ThreadBlockTile<N> where
    Size<N>: TileSize
{
}
impl WindowOwner<ThreadRows> for GridGroup {}

/// One group's row of an [`OwnedPitched`] under a row partition `P`
/// ([`OwnedPitched::row`], [`OwnedPitched::row_stride`]): `len()` elements,
/// of which the calling member's are `rank, rank + size, …` (striped, so a
/// warp's stores coalesce) — or, under [`TileRows<N, V>`](TileRows) and
/// [`BlockRows<V>`](BlockRows) with `V > 1`, the vectors `rank, rank +
/// size, …` of `V` elements each ([`striped_vec`](Self::striped_vec)). It
/// cannot be copied, sent to another thread or kept past the image.
pub struct Row<'s, T, P: Partition2d> {
    ptr: *mut T,
    y: usize,
    len: usize,
    rank: usize,
    size: usize,
    _owner: PhantomData<(&'s (), *const (), P)>,
}

impl<T, P: Partition2d> core::fmt::Debug for Row<'_, T, P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Row")
            .field("y", &self.y)
            .field("len", &self.len)
            .field("rank", &self.rank)
            .field("size", &self.size)
            .finish()
    }
}

impl<'a, T: Pod, P: Partition2d> OwnedPitched<'a, T, P> {
    /// Row `y`'s handle for the member `rank` of a group of `size`.
    #[inline(always)]
    fn row_handle(&self, y: usize, rank: usize, size: usize) -> Row<'_, T, P> {
        Row {
            ptr: self.as_ptr().wrapping_add(y * self.pitch()),
            y,
            len: self.width(),
            rank,
            size,
            _owner: PhantomData,
        }
    }

    /// The calling group's first row: row `g` (`g` the group's grid-wide
    /// index), if the image has that many rows — one row per group.
    #[inline(always)]
    pub fn row<G: WindowOwner<P>>(&self, group: &G) -> Option<Row<'_, T, P>> {
        let (g, rank, size) = group.owner();
        (g < self.height()).then(|| self.row_handle(g, rank, size))
    }

    /// The calling group's rows in a grid-stride loop: rows `g, g + G, …`
    /// below the height (`g` the group's grid-wide index, `G` the grid's
    /// groups), for images with more rows than the grid has groups.
    #[inline(always)]
    pub fn row_stride<'s, G: WindowOwner<P>>(
        &'s self,
        group: &G,
    ) -> impl Iterator<Item = Row<'s, T, P>> + 's {
        let (g, rank, size) = group.owner();
        let step = group.groups().max(1);
        (g..self.height())
            .step_by(step)
            .map(move |y| self.row_handle(y, rank, size))
    }
}

impl<'s, T: Pod, P: Partition2d> Row<'s, T, P> {
    /// The row's index in the image.
    #[inline(always)]
    pub fn y(&self) -> usize {
        self.y
    }

    /// Elements in the row (the image's width).
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// The row has no elements (a zero-width image).
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<'s, T: Pod, P: ElementRows> Row<'s, T, P> {
    /// The caller's `k`-th element: column `rank + k·size`, if the row is
    /// that long.
    #[inline(always)]
    pub fn mine(&self, k: usize) -> Option<Elem2d<'s, T>> {
        let x = k.saturating_mul(self.size).saturating_add(self.rank);
        // SAFETY: `x < len` (the width), in row `y < height` of the image,
        // and column `x` of the group's row is the caller's (`x mod size
        // = rank`).
        (x < self.len).then(|| unsafe { Elem2d::new(self.ptr.wrapping_add(x), x, self.y) })
    }

    /// The caller's elements of the row, in order (columns `rank, rank +
    /// size, …`): the loop's own bound is the only test, no per-element
    /// check.
    #[inline(always)]
    pub fn striped(&self) -> impl Iterator<Item = Elem2d<'s, T>> + '_ {
        (self.rank..self.len)
            .step_by(self.size.max(1))
            // SAFETY: as in `mine`.
            .map(move |x| unsafe { Elem2d::new(self.ptr.wrapping_add(x), x, self.y) })
    }
}

/// The vector accessors of the rows whose unit of ownership is `V`
/// consecutive elements ([`TileRows<N, V>`](TileRows), [`BlockRows<V>`](BlockRows)).
macro_rules! vector_rows {
    ($p:ty, [$($gen:tt)*]) => {
        impl<'s, T: Element, $($gen)* const V: usize> Row<'s, T, $p>
        where
            Lanes<V>: AlignFor<T::Width>,
        {
            /// The caller's whole vectors of the row, in order: elements
            /// `V·k .. V·k + V` for `k = rank, rank + size, …` while they
            /// fit in the row — each a [`VecElem2d`] that loads and stores
            /// them as one `Vector<T, V>` (`ld/st.global.v4`, `STG.E.128`
            /// for `f32 × 4`) when the row's start is aligned to the
            /// vector, lane by lane when it is not (checked once here, per
            /// row). The elements past the last whole vector are
            /// [`tail`](Self::tail)'s.
            #[doc(alias = "float4")]
            #[inline(always)]
            pub fn striped_vec(&self) -> impl Iterator<Item = VecElem2d<'s, T, V>> + '_ {
                let aligned = (self.ptr as usize).is_multiple_of(core::mem::align_of::<Vector<T, V>>());
                (self.rank..self.len / V)
                    .step_by(self.size.max(1))
                    // SAFETY: `V·k + V <= len` (`k < len / V`): inside row
                    // `y < height`; the unit `k` is the caller's (`k mod
                    // size = rank`), and with `aligned` its address, `V·k`
                    // elements past an aligned start, is aligned for the
                    // vector.
                    .map(move |k| unsafe {
                        VecElem2d::new(self.ptr.wrapping_add(k * V), k * V, self.y, aligned)
                    })
            }

            /// The caller's elements past the row's last whole vector
            /// (columns `V·⌊len / V⌋ .. len`, fewer than `V`), which belong
            /// to the owner of the unit they start: empty for the other
            /// members and when `V` divides the row's length.
            #[inline(always)]
            pub fn tail(&self) -> impl Iterator<Item = Elem2d<'s, T>> + '_ {
                let k = self.len / V;
                let start = k * V;
                let end = if k % self.size.max(1) == self.rank { self.len } else { start };
                // SAFETY: `x < len`, in row `y`; unit `k` is the caller's.
                (start..end).map(move |x| unsafe { Elem2d::new(self.ptr.wrapping_add(x), x, self.y) })
            }
        }
    };
}
vector_rows!(TileRows<N, V>, [const N: u32,]);
vector_rows!(BlockRows<V>, []);

/// The witness that the calling thread owns the `V` consecutive elements
/// `(x .. x + V, y)` of an [`OwnedPitched`] under [`TileRows<N, V>`](TileRows)
/// or [`BlockRows<V>`](BlockRows) ([`Row::striped_vec`]): it loads and
/// stores them as one [`Vector<T, V>`](Vector) — one 16-byte access for
/// `f32 × 4` (`STG.E.128`) where the row is aligned, `V` scalar accesses
/// where it is not. Like [`Elem2d`] it cannot be copied, sent to another
/// thread (it is neither [`ShflValue`](crate::ShflValue) nor `Send`) or
/// kept past the image.
pub struct VecElem2d<'s, T, const V: usize> {
    ptr: *mut T,
    x: usize,
    y: usize,
    aligned: bool,
    _owner: PhantomData<(&'s (), *const ())>,
}

impl<T, const V: usize> core::fmt::Debug for VecElem2d<'_, T, V> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("VecElem2d")
            .field("x", &self.x)
            .field("y", &self.y)
            .field("aligned", &self.aligned)
            .finish()
    }
}

impl<'s, T: Element, const V: usize> VecElem2d<'s, T, V>
where
    Lanes<V>: AlignFor<T::Width>,
{
    /// The witness of elements `(x .. x + V, y)` at `ptr`.
    ///
    /// # Safety
    /// The `V` elements at `ptr` are `(x .. x + V, y)` of an image, inside
    /// its bounds, all owned by the calling thread; with `aligned`, `ptr`
    /// is aligned for `Vector<T, V>`.
    #[inline(always)]
    unsafe fn new(ptr: *mut T, x: usize, y: usize, aligned: bool) -> Self {
        VecElem2d {
            ptr,
            x,
            y,
            aligned,
            _owner: PhantomData,
        }
    }

    /// Column of the first element.
    #[inline(always)]
    pub fn x(&self) -> usize {
        self.x
    }

    /// Row.
    #[inline(always)]
    pub fn y(&self) -> usize {
        self.y
    }

    /// The elements are one aligned vector (one access), not `V` scalars.
    #[inline(always)]
    pub fn is_aligned(&self) -> bool {
        self.aligned
    }

    /// Writes the `V` elements (`st.global.v4` / `.v2` where aligned).
    #[doc(alias = "float4")]
    #[inline(always)]
    #[track_caller]
    pub fn store(&self, v: Vector<T, V>) {
        if self.aligned {
            // SAFETY: `new`'s contract: owned, in bounds, aligned.
            unsafe { arch::st_global(self.ptr.cast::<Vector<T, V>>(), v) }
        } else {
            for i in 0..V {
                // SAFETY: `new`'s contract: element `x + i` owned, in bounds.
                unsafe { arch::st_global(self.ptr.wrapping_add(i), v[i]) }
            }
        }
    }

    /// Reads the `V` elements (`ld.global.v4` / `.v2` where aligned).
    #[inline(always)]
    #[track_caller]
    pub fn load(&self) -> Vector<T, V> {
        if self.aligned {
            // SAFETY: as `store`.
            unsafe { arch::ld_global(self.ptr.cast::<Vector<T, V>>()) }
        } else {
            // SAFETY: as `store`.
            Vector::new(core::array::from_fn(|i| unsafe {
                arch::ld_global(self.ptr.wrapping_add(i))
            }))
        }
    }

    /// Writes the `V` elements with the cache hint `h`
    /// ([`cache`](crate::cache): `Streaming` is `__stcs` on a `float4`).
    #[doc(alias = "__stcs")]
    #[inline(always)]
    #[track_caller]
    pub fn store_hint<H: StoreHint>(&self, v: Vector<T, V>, hint: H) {
        if self.aligned {
            // SAFETY: as `store`.
            unsafe { hint.store(self.ptr.cast::<Vector<T, V>>(), v) }
        } else {
            for i in 0..V {
                // SAFETY: as `store`.
                unsafe { hint.store(self.ptr.wrapping_add(i), v[i]) }
            }
        }
    }

    /// Reads the `V` elements with the cache hint `h` (`__ldcs` on a
    /// `float4`).
    #[doc(alias = "__ldcs")]
    #[inline(always)]
    #[track_caller]
    pub fn load_hint<H: LoadHint>(&self, hint: H) -> Vector<T, V> {
        if self.aligned {
            // SAFETY: as `store`.
            unsafe { hint.load(self.ptr.cast::<Vector<T, V>>()) }
        } else {
            // SAFETY: as `store`.
            Vector::new(core::array::from_fn(|i| unsafe {
                hint.load(self.ptr.wrapping_add(i))
            }))
        }
    }

    /// `store(f(load()))`.
    #[inline(always)]
    #[track_caller]
    pub fn update(&self, f: impl FnOnce(Vector<T, V>) -> Vector<T, V>) {
        self.store(f(self.load()))
    }

    /// The `V` elements' scalar witnesses (columns `x .. x + V`).
    #[inline(always)]
    pub fn elems(&self) -> impl Iterator<Item = Elem2d<'s, T>> + '_ {
        // SAFETY: `new`'s contract: the `V` elements are the caller's.
        (0..V).map(move |i| unsafe { Elem2d::new(self.ptr.wrapping_add(i), self.x + i, self.y) })
    }
}
