//! 2-D tiles of an [`OwnedPitched`] owned by a thread (a tiled matrix
//! product's register tile, [`ThreadTiles`]) or by a warp (the tensor
//! core's accumulator tiles, [`WarpTiles`]). A tile is cut at the image's
//! right and bottom edges once, when it is handed out; its stores check
//! against that cut, or not at all for a full tile.

use core::marker::PhantomData;

use crate::group::ThreadBlockTile;
use crate::{GridGroup, Pod, arch};

use super::identity;
use super::partition::tile_owner;
use super::pitched::{Elem2d, OwnedPitched, Partition2d, sealed};

/// Element `(x, y)` belongs to the thread of global 2-D index `(x / TN mod
/// W, y / TM mod H)` (`W × H` the grid's threads in x and y): each thread a
/// `TM × TN` tile of the image, rows `TM·gy ..`, columns `TN·gx ..` (a tiled
/// matrix product's register tile): [`OwnedPitched::tile`], and in a
/// grid-stride loop over more tiles than threads,
/// [`OwnedPitched::tile_stride`].
#[derive(Clone, Copy, Debug)]
pub struct ThreadTiles<const TM: usize, const TN: usize>;

/// Element `(x, y)` belongs to a warp: the image is cut into `TM × TN`
/// tiles (row-major order of tiles), tile `t` belongs to warp `t mod W`
/// (`W`: the grid's warps, numbered as [`PerTile<32>`](super::PerTile)
/// numbers them), and inside a tile, element `(r, c)` to the lane that
/// holds it in a 16 × 8 `mma` accumulator (lane `4·(r mod 8) + (c mod
/// 8)/2`): [`OwnedPitched::warp_tile`], written by
/// [`Accumulator::store`](crate::mma::Accumulator::store). `TM` is a
/// multiple of 16, `TN` of 8.
#[derive(Clone, Copy, Debug)]
pub struct WarpTiles<const TM: usize, const TN: usize>;

/// Element `(x, y)` belongs to a warpgroup (an aligned 128-thread tile):
/// the image is cut into `TM × TN` tiles (row-major order of tiles), tile
/// `t` belongs to block `t`, and in it rows `64·w .. 64·w + 64` to the
/// block's warpgroup `w` (`TM` = 64 × the warpgroups that multiply; a
/// block's further warpgroups, a producer's, own none); inside those 64
/// rows element `(r, c)` belongs to the thread that holds it in an
/// `m64nTN` `wgmma` accumulator (warp `r / 16` of the group, lane `4·(r
/// mod 8) + (c mod 8)/2`): [`OwnedPitched::warpgroup_tile`], written by
/// [`wgmma::Accumulator::store`](crate::wgmma::Accumulator::store). `TN`
/// is a multiple of 8.
#[derive(Clone, Copy, Debug)]
pub struct WarpgroupTiles<const TM: usize, const TN: usize>;

impl<const TM: usize, const TN: usize> sealed::Sealed for ThreadTiles<TM, TN> {}
impl<const TM: usize, const TN: usize> Partition2d for ThreadTiles<TM, TN> {}
impl<const TM: usize, const TN: usize> sealed::Sealed for WarpTiles<TM, TN> {}
impl<const TM: usize, const TN: usize> Partition2d for WarpTiles<TM, TN> {}
impl<const TM: usize, const TN: usize> sealed::Sealed for WarpgroupTiles<TM, TN> {}
impl<const TM: usize, const TN: usize> Partition2d for WarpgroupTiles<TM, TN> {}

/// Where a tile lies: its element `(0, 0)`, the image's pitch, and the
/// part of the tile inside the image.
#[derive(Clone, Copy, Debug)]
struct Span<T> {
    ptr: *mut T,
    pitch: usize,
    x0: usize,
    y0: usize,
    rows: usize,
    cols: usize,
}

impl<T: Pod> Span<T> {
    /// The `tm × tn` tile of `image` at `(x0, y0)`, if it starts inside.
    #[inline(always)]
    fn cut<P: Partition2d>(
        image: &OwnedPitched<'_, T, P>,
        (x0, y0): (usize, usize),
        (tm, tn): (usize, usize),
    ) -> Option<Span<T>> {
        (x0 < image.width() && y0 < image.height()).then(|| Span {
            ptr: image.as_ptr().wrapping_add(y0 * image.pitch() + x0),
            pitch: image.pitch(),
            x0,
            y0,
            rows: (image.height() - y0).min(tm),
            cols: (image.width() - x0).min(tn),
        })
    }

    /// The address of the tile's `(i, j)` (no check).
    #[inline(always)]
    fn at(&self, i: usize, j: usize) -> *mut T {
        self.ptr.wrapping_add(i * self.pitch + j)
    }

    /// `(i, j)` lies inside the image.
    #[inline(always)]
    fn inside(&self, i: usize, j: usize) -> bool {
        i < self.rows && j < self.cols
    }
}

/// The accessors both tiles share.
macro_rules! tile_extent {
    ($name:ident) => {
        impl<T, const TM: usize, const TN: usize> core::fmt::Debug for $name<'_, T, TM, TN> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("x0", &self.s.x0)
                    .field("y0", &self.s.y0)
                    .field("rows", &self.s.rows)
                    .field("cols", &self.s.cols)
                    .finish()
            }
        }

        impl<T: Pod, const TM: usize, const TN: usize> $name<'_, T, TM, TN> {
            /// Column of the tile's element `(0, 0)` in the image.
            #[inline(always)]
            pub fn x0(&self) -> usize {
                self.s.x0
            }

            /// Row of the tile's element `(0, 0)` in the image.
            #[inline(always)]
            pub fn y0(&self) -> usize {
                self.s.y0
            }

            /// Rows of the tile inside the image (`TM` but at the bottom
            /// edge).
            #[inline(always)]
            pub fn rows(&self) -> usize {
                self.s.rows
            }

            /// Columns of the tile inside the image (`TN` but at the right
            /// edge).
            #[inline(always)]
            pub fn cols(&self) -> usize {
                self.s.cols
            }

            /// The whole `TM × TN` tile lies inside the image.
            #[inline(always)]
            pub fn is_full(&self) -> bool {
                self.s.rows == TM && self.s.cols == TN
            }
        }
    };
}

/// A thread's `TM × TN` tile of an [`OwnedPitched`] under
/// [`ThreadTiles`] ([`OwnedPitched::tile`]): every element its own, `rows()
/// × cols()` of them inside the image (`TM × TN` but at the right and
/// bottom edges).
pub struct ThreadTile<'s, T, const TM: usize, const TN: usize> {
    s: Span<T>,
    _owner: PhantomData<(&'s (), *const ())>,
}

/// A warp's `TM × TN` tile of an [`OwnedPitched`] under [`WarpTiles`]
/// ([`OwnedPitched::warp_tile`]): written by
/// [`Accumulator::store`](crate::mma::Accumulator::store), each lane its
/// own elements.
pub struct WarpTile<'s, T, const TM: usize, const TN: usize> {
    s: Span<T>,
    _owner: PhantomData<(&'s (), *const ())>,
}

/// A warpgroup's `TM × TN` tile of an [`OwnedPitched`] under
/// [`WarpgroupTiles`] ([`OwnedPitched::warpgroup_tile`]): written by
/// [`wgmma::Accumulator::store`](crate::wgmma::Accumulator::store), each
/// thread its own elements.
pub struct WarpgroupTile<'s, T, const TM: usize, const TN: usize> {
    s: Span<T>,
    _owner: PhantomData<(&'s (), *const ())>,
}

tile_extent!(ThreadTile);
tile_extent!(WarpTile);
tile_extent!(WarpgroupTile);

impl<T: Pod, const TM: usize, const TN: usize> OwnedPitched<'_, T, ThreadTiles<TM, TN>> {
    /// The handle of the tile at tile coordinates `(tx, ty)`, if it starts
    /// inside the image.
    #[inline(always)]
    fn tile_at(&self, tx: usize, ty: usize) -> Option<ThreadTile<'_, T, TM, TN>> {
        const {
            assert!(
                TM > 0 && TN > 0,
                "a thread tile has at least one row and one column"
            )
        };
        let origin = (tx.saturating_mul(TN), ty.saturating_mul(TM));
        Span::cut(self, origin, (TM, TN)).map(|s| ThreadTile {
            s,
            _owner: PhantomData,
        })
    }

    /// The calling thread's `TM × TN` tile: rows `TM·gy ..`, columns `TN·gx
    /// ..` (`(gx, gy)` its global 2-D index), cut at the image's edge;
    /// `None` if it starts outside the image (or the thread is in another
    /// z-plane).
    #[inline(always)]
    pub fn tile(&self, grid: &GridGroup) -> Option<ThreadTile<'_, T, TM, TN>> {
        let _ = grid;
        let (gx, gy) = identity::grid_xy()?;
        self.tile_at(gx, gy)
    }

    /// The calling thread's tiles in a 2-D grid-stride loop, for images
    /// with more tiles than the grid has threads: tile coordinates `(gx +
    /// i·W, gy + j·H)` (`W × H` the grid's threads in x and y), row by row
    /// of tiles. Tile `(gx, gy)` is [`tile`](Self::tile)'s.
    #[inline(always)]
    pub fn tile_stride<'s>(
        &'s self,
        grid: &GridGroup,
    ) -> impl Iterator<Item = ThreadTile<'s, T, TM, TN>> + 's {
        let _ = grid;
        let (gx, gy) = identity::grid_xy().unwrap_or((usize::MAX, usize::MAX));
        let (w, h) = (
            identity::grid_width().max(1),
            identity::grid_height().max(1),
        );
        let (tiles_x, tiles_y) = (self.width().div_ceil(TN), self.height().div_ceil(TM));
        (gy.min(tiles_y)..tiles_y).step_by(h).flat_map(move |ty| {
            (gx.min(tiles_x)..tiles_x)
                .step_by(w)
                .filter_map(move |tx| self.tile_at(tx, ty))
        })
    }
}

impl<'s, T: Pod, const TM: usize, const TN: usize> ThreadTile<'s, T, TM, TN> {
    /// The tile's element `(i, j)` (row `i`, column `j`), if inside the
    /// image.
    #[inline(always)]
    pub fn get(&self, i: usize, j: usize) -> Option<Elem2d<'s, T>> {
        // SAFETY: `(i, j)` inside the tile's part of the image, which the
        // caller owns.
        self.s
            .inside(i, j)
            .then(|| unsafe { Elem2d::new(self.s.at(i, j), self.s.x0 + j, self.s.y0 + i) })
    }

    /// The address of `(i, j)`, reporting an element outside the tile's
    /// part of the image (a `trap` on the GPU, a report on the simulator).
    #[inline(always)]
    #[track_caller]
    fn checked(&self, i: usize, j: usize, write: bool) -> *mut T {
        if !self.s.inside(i, j) {
            arch::global_out_of_bounds(
                self.s.ptr.cast(),
                i.saturating_mul(self.s.pitch).saturating_add(j),
                self.s.rows.saturating_sub(1) * self.s.pitch + self.s.cols,
                write,
            )
        }
        self.s.at(i, j)
    }

    /// Writes element `(i, j)` of the tile (`st.global`); outside the
    /// tile's part of the image: a `trap` on the GPU, a report on the
    /// simulator. With `i`, `j` constants in an unrolled loop over a full
    /// tile the check folds away; [`store_all`](Self::store_all) checks
    /// once for the whole tile.
    #[inline(always)]
    #[track_caller]
    pub fn store(&self, i: usize, j: usize, v: T) {
        let p = self.checked(i, j, true);
        // SAFETY: `(i, j)` checked inside the caller's tile.
        unsafe { arch::st_global(p, v) }
    }

    /// Reads element `(i, j)` of the tile (`ld.global`), checked as
    /// [`store`](Self::store).
    #[inline(always)]
    #[track_caller]
    pub fn load(&self, i: usize, j: usize) -> T {
        let p = self.checked(i, j, false);
        // SAFETY: as `store`.
        unsafe { arch::ld_global(p) }
    }

    /// Writes the whole tile from `items` (`items[i][j]` to `(i, j)`): one
    /// test that the tile is full, then `TM · TN` unchecked stores; at the
    /// image's edge, the elements inside it.
    #[inline(always)]
    #[track_caller]
    pub fn store_all(&self, items: &[[T; TN]; TM]) {
        if self.is_full() {
            crate::unroll!(i in 0..TM => {
                crate::unroll!(j in 0..TN => {
                    // SAFETY: a full tile: `(i, j)` inside it.
                    unsafe { arch::st_global(self.s.at(i, j), items[i][j]) }
                });
            });
        } else {
            // Written out with a test per element (not loops to `rows` and
            // `cols`, which LLVM left as loops indexing `items`: the
            // caller's accumulator then lived in local memory, for the
            // full tiles too).
            crate::unroll!(i in 0..TM => {
                crate::unroll!(j in 0..TN => {
                    if self.s.inside(i, j) {
                        // SAFETY: `(i, j)` inside the tile.
                        unsafe { arch::st_global(self.s.at(i, j), items[i][j]) }
                    }
                });
            });
        }
    }
}

impl<T: Pod, const TM: usize, const TN: usize> OwnedPitched<'_, T, WarpTiles<TM, TN>> {
    /// Tile `t`'s handle (`t` below the tile count).
    #[inline(always)]
    fn warp_tile_at(&self, t: usize) -> Option<WarpTile<'_, T, TM, TN>> {
        // (At least 1: `t` below the tile count means the width is not 0 —
        // said so that the division has no panic path.)
        let tiles_x = self.width().div_ceil(TN).max(1);
        let origin = ((t % tiles_x) * TN, (t / tiles_x) * TM);
        Span::cut(self, origin, (TM, TN)).map(|s| WarpTile {
            s,
            _owner: PhantomData,
        })
    }

    /// Tiles of the image.
    #[inline(always)]
    fn warp_tiles(&self) -> usize {
        const {
            assert!(
                TM > 0 && TM.is_multiple_of(16) && TN > 0 && TN.is_multiple_of(8),
                "a warp tile is a whole number of 16 × 8 mma tiles"
            )
        };
        self.width().div_ceil(TN) * self.height().div_ceil(TM)
    }

    /// The calling warp's first tile: tile `w` (`w` the warp's grid-wide
    /// index), if the image has that many.
    #[inline(always)]
    pub fn warp_tile(&self, warp: &ThreadBlockTile<32>) -> Option<WarpTile<'_, T, TM, TN>> {
        let _ = warp;
        let ((w, _, _), _) = tile_owner(32);
        if w < self.warp_tiles() {
            self.warp_tile_at(w)
        } else {
            None
        }
    }

    /// The calling warp's tiles in a grid-stride loop: tiles `w, w + W, …`.
    #[inline(always)]
    pub fn warp_tile_stride<'s>(
        &'s self,
        warp: &ThreadBlockTile<32>,
    ) -> impl Iterator<Item = WarpTile<'s, T, TM, TN>> + 's {
        let _ = warp;
        let ((w, _, _), warps) = tile_owner(32);
        (w..self.warp_tiles())
            .step_by(warps.max(1))
            .filter_map(move |t| self.warp_tile_at(t))
    }
}

impl<T: Pod, const TM: usize, const TN: usize> WarpTile<'_, T, TM, TN> {
    /// Writes element `(r, c)` of the tile for `lane`, which holds it in
    /// the accumulator layout (the caller computed `(r mod 16, c mod 8)`
    /// from `lane`); `(r, c)` past the tile is reported, past the image's
    /// edge left out.
    #[inline(always)]
    #[track_caller]
    pub(crate) fn store_own(&self, lane: u32, r: usize, c: usize, v: T) {
        debug_assert_eq!(lane as usize, 4 * (r % 8) + (c % 8) / 2);
        if r >= TM || c >= TN {
            arch::global_out_of_bounds(
                self.s.ptr.cast(),
                r.saturating_mul(self.s.pitch).saturating_add(c),
                (TM - 1) * self.s.pitch + TN,
                true,
            )
        }
        if self.s.inside(r, c) {
            // SAFETY: `(r, c)` inside the tile's part of the image, owned by
            // `lane` — the caller — under `WarpTiles`.
            unsafe { arch::st_global(self.s.at(r, c), v) }
        }
    }
}

impl<T: Pod, const TM: usize, const TN: usize> OwnedPitched<'_, T, WarpgroupTiles<TM, TN>> {
    /// Tiles of the image.
    #[inline(always)]
    fn block_tiles(&self) -> usize {
        const {
            assert!(
                TM > 0 && TM.is_multiple_of(64) && TN > 0 && TN.is_multiple_of(8),
                "a block's tile is 64 rows per warpgroup by a multiple of 8 columns"
            )
        };
        self.width().div_ceil(TN) * self.height().div_ceil(TM)
    }

    /// The calling warpgroup's 64 rows of its block's tile: tile `b` (`b`
    /// the block's rank), rows `64·w ..` (`w` the warpgroup's rank in the
    /// block), if the image has that tile and the tile that many rows.
    #[inline(always)]
    pub fn warpgroup_tile(
        &self,
        wg: &ThreadBlockTile<128>,
    ) -> Option<WarpgroupTile<'_, T, 64, TN>> {
        let _ = wg;
        let ((g, _, _), _) = tile_owner(128);
        let per_block = identity::block_thread().1.div_ceil(128);
        let (b, w) = (g / per_block, g % per_block);
        if b >= self.block_tiles() || 64 * w >= TM {
            return None;
        }
        let tiles_x = self.width().div_ceil(TN).max(1);
        let origin = ((b % tiles_x) * TN, (b / tiles_x) * TM + 64 * w);
        Span::cut(self, origin, (64, TN)).map(|s| WarpgroupTile {
            s,
            _owner: PhantomData,
        })
    }
}

impl<T: Pod, const TM: usize, const TN: usize> WarpgroupTile<'_, T, TM, TN> {
    /// Writes element `(r, c)` of the tile for thread `t` of the
    /// warpgroup, which holds it in the accumulator layout (the caller
    /// computed `(r, c)` from `t`); `(r, c)` past the image's edge is left
    /// out.
    #[inline(always)]
    #[track_caller]
    pub(crate) fn store_own(&self, t: u32, r: usize, c: usize, v: T) {
        debug_assert_eq!(t as usize, 32 * (r / 16) + 4 * (r % 8) + (c % 8) / 2);
        if self.s.inside(r, c) {
            // SAFETY: `(r, c)` inside the tile's part of the image (`r <
            // TM`, `c < TN` by the accumulator's shape), owned by thread `t`
            // — the caller — under `WarpgroupTiles`.
            unsafe { arch::st_global(self.s.at(r, c), v) }
        }
    }
}
