//! The operands: K-major matrices in shared memory, in the layout a
//! swizzled tensor-map tile has, described to the tensor core by a
//! descriptor built here and nowhere else.

use core::marker::PhantomData;

use crate::arch::wgmma_layout::desc_layout;
use crate::arch::{self, SmemDesc};
use crate::tma::TileLayout;
use crate::{Pod, SharedSlice, ThreadGroup};

use super::element::WgmmaElement;

/// A swizzled tile layout ([`Swizzle32B`](crate::tma::Swizzle32B),
/// [`Swizzle64B`](crate::tma::Swizzle64B),
/// [`Swizzle128B`](crate::tma::Swizzle128B)): the layouts `wgmma` reads a
/// K-major operand in. Sealed.
pub trait Swizzled: TileLayout {}
impl Swizzled for crate::tma::Swizzle32B {}
impl Swizzled for crate::tma::Swizzle64B {}
impl Swizzled for crate::tma::Swizzle128B {}

/// `rows` rows of a K-major matrix of `T` in shared memory (row `r`, element
/// `k` of A's row `m` or of B's column `n`), laid out as a tensor-map tile
/// of layout `L` whose box is [`ROW`](Self::ROW) elements wide: each row
/// the swizzle's width, the tile aligned to its period. A TMA load of such
/// a box ([`Mbarrier::arrive_copy_tile`](crate::mbarrier::Mbarrier)) fills
/// it. Borrows the shared slice it describes.
pub struct SmemMatrix<'s, T: WgmmaElement, L: Swizzled> {
    start: arch::SharedAddr,
    rows: usize,
    /// The slice is the calling thread's block's (always on the GPU; on
    /// the simulator `false` only for an unwinding thread, whose multiply
    /// must not read).
    live: bool,
    _p: PhantomData<(&'s SharedSlice<T>, L)>,
}

impl<T: WgmmaElement, L: Swizzled> Clone for SmemMatrix<'_, T, L> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: WgmmaElement, L: Swizzled> Copy for SmemMatrix<'_, T, L> {}

impl<'s, T: WgmmaElement + Pod, L: Swizzled> SmemMatrix<'s, T, L> {
    /// Elements of a row (along K): the swizzle's width in `T`s (64
    /// `bf16` for [`Swizzle128B`](crate::tma::Swizzle128B)).
    pub const ROW: usize = L::SWIZZLE.bytes() / core::mem::size_of::<T>();

    /// The first `rows` rows of `src` (a multiple of 8). `src` must be
    /// aligned to the swizzle's period (`shared_array!(T; N, align 1024)`
    /// for 128-byte rows) and hold the rows: a `trap` on the GPU and a
    /// report on the simulator otherwise.
    #[inline(always)]
    #[track_caller]
    pub fn k_major(src: &'s SharedSlice<T>, rows: usize) -> Self {
        let align = L::SWIZZLE.align();
        if !(src.as_ptr() as usize).is_multiple_of(align)
            || !rows.is_multiple_of(8)
            || rows.checked_mul(Self::ROW).is_none_or(|n| n > src.len())
        {
            arch::violation!(
                "a wgmma operand of {rows} rows of {} elements needs a shared slice {align}-byte aligned holding them, rows a multiple of 8 (got {} elements)",
                Self::ROW,
                src.len()
            );
        }
        // The simulator checks the slice's block once, here: another
        // block's or an ended block's memory is a report at this line.
        let live = arch::sim_or_gpu!(src.own("a wgmma operand"), true);
        SmemMatrix {
            start: src.addr(),
            rows,
            live,
            _p: PhantomData,
        }
    }

    /// Rows `first..first + count` (both multiples of 8, inside): the
    /// part one warpgroup multiplies of a taller tile. A `trap` on the GPU
    /// and a report on the simulator otherwise.
    #[inline(always)]
    #[track_caller]
    pub fn rows(self, first: usize, count: usize) -> Self {
        if !first.is_multiple_of(8)
            || !count.is_multiple_of(8)
            || first.checked_add(count).is_none_or(|end| end > self.rows)
        {
            arch::violation!(
                "rows {first}..{first}+{count} of a wgmma operand of {} rows: not inside, or not whole 8-row atoms",
                self.rows
            );
        }
        SmemMatrix {
            start: arch::shared_add(self.start, (first * L::SWIZZLE.bytes()) as u32),
            rows: count,
            live: self.live,
            _p: PhantomData,
        }
    }

    /// Rows of the operand.
    #[inline(always)]
    pub fn num_rows(&self) -> usize {
        self.rows
    }

    /// Whether a multiply may read the operand (see the field).
    #[inline(always)]
    pub(super) fn is_live(&self) -> bool {
        self.live
    }

    /// The descriptor of K step `step` (elements `K·step ..` of every row,
    /// `K` = [`WgmmaElement`]'s 32 bytes): inside a swizzle atom the tensor
    /// core applies the XOR to the address, so a step is a plain offset of
    /// the start.
    #[inline(always)]
    pub(super) fn step(&self, step: usize) -> SmemDesc {
        SmemDesc {
            start: arch::shared_add(self.start, (32 * step) as u32),
            layout: const { desc_layout(L::SWIZZLE) },
        }
    }

    /// K steps in a row.
    pub(super) const STEPS: usize = L::SWIZZLE.bytes() / 32;
}

/// Makes the group's ordinary stores to shared memory visible to the
/// tensor core, which reads `wgmma` operands through the async proxy: each
/// thread fences its writes (`fence.proxy.async.shared::cta`), then the
/// group syncs. Needed where threads stage an operand themselves, between
/// their stores and the multiply; a TMA load (the copy engine is the async
/// proxy too) needs none. The simulator has one proxy: there it is the
/// group's sync.
#[doc(alias = "fence_view_async_shared")]
#[doc(alias = "fence.proxy.async")]
#[inline(always)]
#[track_caller]
pub fn operands_written<G: ThreadGroup>(g: &G) {
    arch::wgmma_operand_fence();
    g.sync();
}
