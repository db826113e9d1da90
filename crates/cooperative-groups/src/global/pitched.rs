//! Two-dimensional views of global memory: rows of `width` elements,
//! `pitch` elements apart (`cudaMallocPitch`'s layout).

use core::marker::PhantomData;

use crate::Pod;
use crate::arch;

use super::identity;
use super::slice::GlobalSlice;

pub(super) mod sealed {
    pub trait Sealed {}
}

/// How an [`OwnedPitched`]'s elements are divided among the threads of a
/// launch (sealed): one element per thread ([`PerThread2d`], the default),
/// rows owned by groups ([`BlockRows`](super::BlockRows),
/// [`TileRows`](super::TileRows), [`ThreadRows`](super::ThreadRows)), or a
/// `TM × TN` tile per thread ([`ThreadTiles`](super::ThreadTiles)).
pub trait Partition2d: sealed::Sealed + Copy + 'static {}

/// Element `(x, y)` belongs to the thread whose global 2-D index is `(x, y
/// mod H)` (`H`: the grid's height in threads): [`OwnedPitched::at`],
/// [`OwnedPitched::rows`].
#[derive(Clone, Copy, Debug)]
pub struct PerThread2d;

impl sealed::Sealed for PerThread2d {}
impl Partition2d for PerThread2d {}

/// A read-only image of `width × height` elements in rows `pitch` elements
/// apart, the 2-D form of [`GlobalSlice`](super::GlobalSlice):
/// [`load(x, y)`](Self::load) is `ld.global.nc`, checked against the width
/// and the height.
#[repr(C)]
pub struct Pitched<'a, T> {
    ptr: *const T,
    width: usize,
    height: usize,
    pitch: usize,
    /// The launch (or the borrow of the buffer) the view lives in: a view
    /// cannot be kept past it.
    _t: PhantomData<(&'a (), T)>,
}

/// A writable image in the layout of [`Pitched`], each element owned by
/// one thread of the launch as the partition `P` says.
///
/// | `P` | element `(x, y)` belongs to | the owner's elements |
/// |---|---|---|
/// | [`PerThread2d`] (default) | the thread whose global 2-D index is `(x, y mod H)` | [`at`](Self::at), [`rows`](Self::rows) |
/// | [`BlockRows`](super::BlockRows) | block `y mod B`, its member `x mod size` | [`row`](Self::row), [`row_stride`](Self::row_stride) |
/// | [`TileRows<N>`](super::TileRows) | tile `y mod T` (grid-wide numbering), its member `x mod N` | [`row`](Self::row), [`row_stride`](Self::row_stride) |
/// | [`ThreadRows`](super::ThreadRows) | grid thread `y mod T` | [`row`](Self::row), [`row_stride`](Self::row_stride) |
/// | [`ThreadTiles<TM, TN>`](super::ThreadTiles) | the thread of global 2-D index `(x / TN mod W, y / TM mod H)` | [`tile`](Self::tile), [`tile_stride`](Self::tile_stride) |
///
/// (Global 2-D index: `blockIdx.x · blockDim.x + threadIdx.x`, the same in
/// `y`; threads of other z-planes own nothing under `PerThread2d` and
/// `ThreadTiles`. `B`, `T`: the grid's blocks, tiles, threads; `W × H` its
/// threads in x and y.) The row
/// partitions are the shapes whose width is a launch argument — a row of
/// `C` elements per warp, per block, per thread, `C` the image's width —
/// checked once, when the host builds the image.
///
/// Under `PerThread2d`, [`at`](Self::at) gives a thread its element `(x,
/// y)`, [`rows`](Self::rows) all of its column's elements `y, y + H, …` (a
/// grid-stride walk down the image).
///
/// ```
/// # use cooperative_groups::prelude::*;
/// # use cooperative_groups::{kernel, Pitched, OwnedPitched};
/// /// out(x, y) = in(y, x), a transpose.
/// #[kernel]
/// pub fn transpose(src: Pitched<u32>, dst: OwnedPitched<u32>) {
///     if let Some(e) = dst.at(&this_grid()) {
///         e.store(src.load(e.y(), e.x()));
///     }
/// }
/// # let (w, h) = (20usize, 12usize);
/// # let src: Vec<u32> = (0..(w * h) as u32).collect();
/// # let mut dst = vec![0u32; w * h];
/// # use cooperative_groups::host::Image;
/// # let cfg = cg_sim::LaunchConfig::new((2, 2), (16, 8));
/// # cooperative_groups::host::run(&TRANSPOSE, &cfg, (Image::new(&src[..], w, h, w), Image::new(&mut dst[..], h, w, h))).unwrap();
/// # assert_eq!(dst[3 * h + 5], src[5 * w + 3]);
/// ```
#[repr(C)]
pub struct OwnedPitched<'a, T, P: Partition2d = PerThread2d> {
    ptr: *mut T,
    width: usize,
    height: usize,
    pitch: usize,
    /// The launch (or the borrow of the buffer) the view lives in: a view
    /// cannot be kept past it.
    _t: PhantomData<(&'a (), T, P)>,
}

macro_rules! copy_debug {
    ($name:ident $(, $p:ident: $bound:ident)?) => {
        impl<T $(, $p: $bound)?> Clone for $name<'_, T $(, $p)?> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<T $(, $p: $bound)?> Copy for $name<'_, T $(, $p)?> {}
        impl<T $(, $p: $bound)?> core::fmt::Debug for $name<'_, T $(, $p)?> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("ptr", &self.ptr)
                    .field("width", &self.width)
                    .field("height", &self.height)
                    .field("pitch", &self.pitch)
                    .finish()
            }
        }
    };
}
copy_debug!(Pitched);
copy_debug!(OwnedPitched, P: Partition2d);

/// The element index of `(x, y)`, or the out-of-bounds report.
#[inline(always)]
#[track_caller]
fn index(
    base: *const u8,
    (x, y): (usize, usize),
    w: usize,
    h: usize,
    pitch: usize,
    write: bool,
) -> usize {
    if x >= w || y >= h {
        // The flat index the access would have had, against the image's size.
        arch::global_out_of_bounds(
            base,
            y.saturating_mul(pitch).saturating_add(x),
            pitch.saturating_mul(h),
            write,
        )
    }
    // No wrap: `y < h`, `x < w`, and `from_raw_parts`'s span
    // `pitch · (h − 1) + w` does not overflow.
    y * pitch + x
}

impl<T: Pod> Pitched<'_, T> {
    /// A view of rows of `width` elements at `ptr`, `pitch ≥ width`
    /// elements apart, `height` rows.
    ///
    /// # Safety
    /// As [`GlobalSlice::from_raw_parts`](super::GlobalSlice::from_raw_parts)
    /// for `pitch · (height - 1) + width` elements, a number that does not
    /// overflow `usize` (where it does, rows far apart alias: the host's
    /// `host::image_span` computes it checked).
    #[inline(always)]
    pub const unsafe fn from_raw_parts(
        ptr: *const T,
        width: usize,
        height: usize,
        pitch: usize,
    ) -> Self {
        Pitched {
            ptr,
            width,
            height,
            pitch,
            _t: PhantomData,
        }
    }

    /// Elements per row.
    #[inline(always)]
    pub const fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    #[inline(always)]
    pub const fn height(&self) -> usize {
        self.height
    }

    /// Elements from one row to the next.
    #[inline(always)]
    pub const fn pitch(&self) -> usize {
        self.pitch
    }

    /// Element `(x, y)` (`ld.global.nc`); outside the image: a `trap` on
    /// the GPU, a report on the simulator.
    #[inline(always)]
    #[track_caller]
    pub fn load(&self, x: usize, y: usize) -> T {
        let i = index(
            self.ptr.cast(),
            (x, y),
            self.width,
            self.height,
            self.pitch,
            false,
        );
        // SAFETY: `(x, y)` inside the image, and `from_raw_parts`'s contract.
        unsafe { arch::ld_global_nc(self.ptr.add(i)) }
    }
}

impl<'a, T: Pod> Pitched<'a, T> {
    /// Row `y` as a [`GlobalSlice`] of `width` elements, checked once here
    /// (past the last row: a `trap` on the GPU, a report on the
    /// simulator), so loads along the row check only the row's length —
    /// and none in a loop the row's length bounds.
    ///
    /// A row reads as vectors two ways. Paired with an output row's
    /// vectors ([`Row::striped_vec`](super::Row::striped_vec)),
    /// `x.row(y).load_vec::<4>(v.x())`: one 16-byte load where the row is
    /// aligned, four scalar loads where it is not (a pitch that is not a
    /// multiple of 4, a buffer that starts between two vectors). For a
    /// reduction along the row, [`GlobalSlice::align_to`]: the row's
    /// elements before its first aligned vector (`head`, fewer than 4, none
    /// when the row starts aligned), its aligned middle as vectors
    /// (`body`, no alignment test in the loop), and the elements after its
    /// last whole vector (`tail`) — every element in exactly one of the
    /// three, whatever the pitch:
    ///
    /// ```
    /// # use cooperative_groups::prelude::*;
    /// # use cooperative_groups::{kernel, OwnedPitched, Pitched, TileRows};
    /// /// Each row's sum, a warp per row, four floats per load.
    /// #[kernel]
    /// pub fn row_sums(x: Pitched<f32>, sums: OwnedPitched<f32, TileRows<32>>) {
    ///     let warp = tiled_partition::<32>(&this_thread_block());
    ///     for row in sums.row_stride(&warp) {
    ///         let (head, body, tail) = x.row(row.y()).align_to::<4>();
    ///         let lane = warp.thread_rank() as usize;
    ///         let mut s = 0.0;
    ///         for k in (lane..body.len()).step_by(32) {
    ///             let v = body.load(k);
    ///             s += (v[0] + v[1]) + (v[2] + v[3]);
    ///         }
    ///         if lane < head.len() {
    ///             s += head.load(lane);
    ///         }
    ///         if lane < tail.len() {
    ///             s += tail.load(lane);
    ///         }
    ///         let total = reduce(&warp, s, Plus);
    ///         if let Some(e) = row.mine(0) {
    ///             e.store(total);
    ///         }
    ///     }
    /// }
    /// # use cooperative_groups::host::Image;
    /// # let (c, rows, pitch) = (50usize, 5usize, 51usize); // odd pitch: misaligned rows
    /// # let x = vec![1.0f32; pitch * rows];
    /// # let mut s = vec![0.0f32; rows];
    /// # cooperative_groups::host::run(&ROW_SUMS, &cg_sim::LaunchConfig::new(1, 64),
    /// #     (Image::new(&x[..], c, rows, pitch), Image::new(&mut s[..], 1, rows, 1))).unwrap();
    /// # assert!(s.iter().all(|&v| v == 50.0));
    /// ```
    #[doc(alias = "float4")]
    #[inline(always)]
    #[track_caller]
    pub fn row(&self, y: usize) -> GlobalSlice<'a, T> {
        if y >= self.height {
            arch::global_out_of_bounds(
                self.ptr.cast(),
                y.saturating_mul(self.pitch),
                self.pitch.saturating_mul(self.height),
                false,
            )
        }
        // SAFETY: row `y < height` lies inside the image's span
        // (`from_raw_parts`'s contract), read-only for the launch.
        unsafe { GlobalSlice::from_raw_parts(self.ptr.wrapping_add(y * self.pitch), self.width) }
    }
}

impl<T: Pod, P: Partition2d> OwnedPitched<'_, T, P> {
    /// A writable view (see [`Pitched::from_raw_parts`]).
    ///
    /// # Safety
    /// As [`OwnedSlice::from_raw_parts`](super::OwnedSlice::from_raw_parts)
    /// for `pitch · (height - 1) + width` elements, a number that does not
    /// overflow `usize` (where it does, two threads own one element), with
    /// `pitch ≥ width` (rows do not overlap).
    #[inline(always)]
    pub const unsafe fn from_raw_parts(
        ptr: *mut T,
        width: usize,
        height: usize,
        pitch: usize,
    ) -> Self {
        OwnedPitched {
            ptr,
            width,
            height,
            pitch,
            _t: PhantomData,
        }
    }

    /// Elements per row.
    #[inline(always)]
    pub const fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    #[inline(always)]
    pub const fn height(&self) -> usize {
        self.height
    }

    /// Element `(x, y)`, whoever owns it (`ld.global`; ordered after its
    /// owner's write only by a synchronisation, as [`OwnedSlice::load`](super::OwnedSlice::load)).
    #[inline(always)]
    #[track_caller]
    pub fn load(&self, x: usize, y: usize) -> T {
        let i = index(
            self.ptr.cast(),
            (x, y),
            self.width,
            self.height,
            self.pitch,
            false,
        );
        // SAFETY: inside the image, and `from_raw_parts`'s contract.
        unsafe { arch::ld_global(self.ptr.add(i)) }
    }

    /// Elements from one row to the next.
    #[inline(always)]
    pub const fn pitch(&self) -> usize {
        self.pitch
    }

    /// The address of element `(0, 0)` (for raw access; safe code cannot
    /// dereference it).
    #[inline(always)]
    pub const fn as_ptr(&self) -> *mut T {
        self.ptr
    }
}

impl<T: Pod> OwnedPitched<'_, T, PerThread2d> {
    /// The calling thread's elements down its column: `(x, y)`, `(x, y +
    /// H)`, … inside the image (`(x, y)` its global 2-D index, `H` the
    /// grid's height in threads).
    #[inline(always)]
    pub fn rows(&self, grid: &crate::GridGroup) -> impl Iterator<Item = Elem2d<'_, T>> + '_ {
        let _ = grid;
        let (x, y0) = identity::grid_xy().unwrap_or((usize::MAX, usize::MAX));
        let step = identity::grid_height();
        let xs = if x < self.width { self.height } else { 0 };
        (y0..xs).step_by(step.max(1)).map(move |y| Elem2d {
            ptr: self.ptr.wrapping_add(y * self.pitch + x),
            x,
            y,
            _owner: PhantomData,
        })
    }

    /// The calling thread's element: its global 2-D index, if inside the
    /// image.
    #[inline(always)]
    pub fn at(&self, grid: &crate::GridGroup) -> Option<Elem2d<'_, T>> {
        let _ = grid;
        let (x, y) = identity::grid_xy()?;
        (x < self.width && y < self.height).then(|| Elem2d {
            ptr: self.ptr.wrapping_add(y * self.pitch + x),
            x,
            y,
            _owner: PhantomData,
        })
    }
}

/// The witness of the calling thread's element of an [`OwnedPitched`]
/// (as [`Elem`](super::Elem), in two dimensions).
pub struct Elem2d<'s, T> {
    ptr: *mut T,
    x: usize,
    y: usize,
    _owner: PhantomData<(&'s (), *const ())>,
}

impl<T> core::fmt::Debug for Elem2d<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Elem2d")
            .field("x", &self.x)
            .field("y", &self.y)
            .finish()
    }
}

impl<T> Elem2d<'_, T> {
    /// The witness of element `(x, y)` at `ptr`.
    ///
    /// # Safety
    /// `ptr` is element `(x, y)` of an image inside its bounds, and the
    /// calling thread owns it under the image's partition.
    #[inline(always)]
    pub(super) unsafe fn new(ptr: *mut T, x: usize, y: usize) -> Self {
        Elem2d {
            ptr,
            x,
            y,
            _owner: PhantomData,
        }
    }
}

impl<T: Pod> Elem2d<'_, T> {
    /// Column.
    #[inline(always)]
    pub fn x(&self) -> usize {
        self.x
    }

    /// Row.
    #[inline(always)]
    pub fn y(&self) -> usize {
        self.y
    }

    /// Writes the element (`st.global`).
    #[inline(always)]
    #[track_caller]
    pub fn store(&self, v: T) {
        // SAFETY: `at` made this witness inside the image, for its owner.
        unsafe { arch::st_global(self.ptr, v) }
    }

    /// Reads the element (`ld.global`).
    #[inline(always)]
    #[track_caller]
    pub fn load(&self) -> T {
        // SAFETY: as `store`.
        unsafe { arch::ld_global(self.ptr) }
    }
}
