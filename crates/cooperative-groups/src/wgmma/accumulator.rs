//! The accumulator and its life cycle as move-only values: registers a
//! thread may read ([`Accumulator`]), a batch being issued ([`Batch`]), and
//! committed groups in flight ([`InFlight`]), which give the registers back
//! only through a wait.

use core::marker::PhantomData;

use crate::Pod;
use crate::arch::{self, wgmma_layout::wgmma_d_coord};
use crate::global::WarpgroupTile;

use super::element::{Shape, Warpgroup, WgmmaElement, WgmmaShape};
use super::operand::{SmemMatrix, Swizzled};

/// A thread's part of a 64 × `N` `f32` accumulator of the warpgroup MMA
/// (`N / 2` registers; `N` in 8, 16, 32, 64, 128, 256). Neither `Copy` nor
/// `Send`: it stays in the registers of the thread that holds it.
pub struct Accumulator<const N: usize>
where
    Shape<N>: WgmmaShape,
{
    d: <Shape<N> as WgmmaShape>::Regs,
    _p: PhantomData<*const ()>,
}

/// Multiplies being issued into an accumulator (after `wgmma.fence`,
/// before `wgmma.commit_group`): the registers belong to the tensor core.
#[must_use = "a batch is committed, then waited for"]
pub struct Batch<const N: usize>
where
    Shape<N>: WgmmaShape,
{
    acc: Accumulator<N>,
}

/// Committed groups of multiplies in flight: the accumulator comes back
/// with [`wait`](Self::wait), and not before — reading it earlier does not
/// compile.
#[must_use = "an accumulator in flight is waited for"]
pub struct InFlight<const N: usize>
where
    Shape<N>: WgmmaShape,
{
    acc: Accumulator<N>,
}

/// `f(0)`, …, `f(N / 2 - 1)`, written out with constant indices (a
/// rolled loop would put the accumulator in local memory; `unroll!` writes
/// out 32 at a time, so two levels).
#[inline(always)]
fn each_register<const N: usize>(mut f: impl FnMut(usize)) {
    crate::unroll!(j in 0..32 => {
        crate::unroll!(q in 0..4 => {
            if 4 * j + q < N / 2 {
                f(4 * j + q);
            }
        });
    });
}

impl<const N: usize> Accumulator<N>
where
    Shape<N>: WgmmaShape,
{
    /// All zeros.
    #[inline(always)]
    pub fn zero(wg: &Warpgroup) -> Self {
        let _ = wg;
        Accumulator {
            d: <Shape<N> as WgmmaShape>::ZERO,
            _p: PhantomData,
        }
    }

    /// The calling thread's elements as `(row, col, value)` (`row < 64`,
    /// `col < N`): the epilogue's view, with no layout to compute.
    #[inline(always)]
    pub fn elements(&self, wg: &Warpgroup) -> impl Iterator<Item = (usize, usize, f32)> + '_ {
        let t = wg.thread_rank();
        self.d.as_ref().iter().enumerate().map(move |(i, &v)| {
            let (r, c) = wgmma_d_coord(t, i);
            (r, c, v)
        })
    }

    /// Each element `v` at `(row, col)` replaced by `f(row, col, v)`.
    #[inline(always)]
    pub fn map(mut self, wg: &Warpgroup, mut f: impl FnMut(usize, usize, f32) -> f32) -> Self {
        let t = wg.thread_rank();
        each_register::<N>(|i| {
            let (r, c) = wgmma_d_coord(t, i);
            let d = self.d.as_mut();
            d[i] = f(r, c, d[i]);
        });
        self
    }

    /// Starts a batch of multiplies into this accumulator:
    /// `wgmma.fence` (the registers' last writes reach the tensor core).
    /// The warpgroup is a whole aligned 128-thread tile: a block whose
    /// size is not a multiple of 128 gets a `trap` on the GPU, a report on
    /// the simulator.
    #[doc(alias = "wgmma.fence")]
    #[doc(alias = "warpgroup_arrive")]
    #[inline(always)]
    #[track_caller]
    pub fn begin(mut self, wg: &Warpgroup) -> Batch<N> {
        if wg.num_threads() != 128 {
            arch::violation!(
                "wgmma on a partial warpgroup of {} threads: the tensor core takes 4 whole warps (a block size that is a multiple of 128)",
                wg.num_threads()
            );
        }
        <Shape<N> as WgmmaShape>::fence(&mut self.d);
        Batch { acc: self }
    }
}

impl<const N: usize> Accumulator<N>
where
    Shape<N>: WgmmaShape,
{
    /// Writes the accumulator to the warpgroup's 64 × `N` tile, each
    /// thread its own elements, those outside the image left out.
    #[inline(always)]
    #[track_caller]
    pub fn store(&self, wg: &Warpgroup, tile: &WarpgroupTile<'_, f32, 64, N>) {
        let t = wg.thread_rank();
        each_register::<N>(|i| {
            let (r, c) = wgmma_d_coord(t, i);
            tile.store_own(t, r, c, self.d.as_ref()[i]);
        });
    }
}

impl<const N: usize> Batch<N>
where
    Shape<N>: WgmmaShape,
{
    /// `acc += a · bᵀ` over the whole rows of `a` (64 × K) and `b` (`N` ×
    /// K), both K-major: one `wgmma.mma_async` per 32 bytes of K
    /// (`m64nNk16` for 16-bit inputs, `k32` for 8-bit). `a` must have 64
    /// rows and `b` `N`: a `trap` on the GPU and a report on the simulator
    /// otherwise.
    #[doc(alias = "wgmma.mma_async")]
    #[inline(always)]
    #[track_caller]
    pub fn mma<T: WgmmaElement + Pod, L: Swizzled>(
        mut self,
        wg: &Warpgroup,
        a: &SmemMatrix<'_, T, L>,
        b: &SmemMatrix<'_, T, L>,
    ) -> Self {
        if a.num_rows() != 64 || b.num_rows() != N {
            arch::violation!(
                "wgmma m64n{N}: A has 64 rows and B {N} (got {} and {})",
                a.num_rows(),
                b.num_rows()
            );
        }
        if !(a.is_live() && b.is_live()) {
            return self;
        }
        let t = wg.thread_rank();
        crate::unroll!(s in 0..4 => {
            if s < SmemMatrix::<T, L>::STEPS {
                // SAFETY: the whole warpgroup issues it (checked at
                // `begin`), after the fence; the accumulator stays with the
                // tensor core until `InFlight::wait`; the operands are
                // checked shared tiles.
                unsafe {
                    <Shape<N> as WgmmaShape>::mma(T::KIND, &mut self.acc.d, a.step(s), b.step(s), t)
                }
            }
        });
        self
    }

    /// Ends the batch: `wgmma.commit_group`.
    #[doc(alias = "wgmma.commit_group")]
    #[doc(alias = "warpgroup_commit_batch")]
    #[inline(always)]
    #[track_caller]
    pub fn commit(self) -> InFlight<N> {
        arch::wgmma_commit();
        InFlight { acc: self.acc }
    }
}

impl<const N: usize> InFlight<N>
where
    Shape<N>: WgmmaShape,
{
    /// Waits for every group in flight (`wgmma.wait_group 0`) and gives
    /// the accumulator back.
    #[doc(alias = "wgmma.wait_group")]
    #[doc(alias = "warpgroup_wait")]
    #[inline(always)]
    #[track_caller]
    pub fn wait(mut self) -> Accumulator<N> {
        <Shape<N> as WgmmaShape>::wait::<0>(&mut self.acc.d);
        self.acc
    }

    /// Waits until at most the newest group is in flight
    /// (`wgmma.wait_group 1`): the shared memory the older groups read may
    /// be written again, while this accumulator stays with the tensor
    /// core.
    #[inline(always)]
    #[track_caller]
    pub fn wait_older(mut self) -> Self {
        <Shape<N> as WgmmaShape>::wait::<1>(&mut self.acc.d);
        self
    }

    /// Issues another batch into the same accumulator without waiting:
    /// `wgmma.fence` without touching the registers (which the groups in
    /// flight still write). The fence is what ptxas would otherwise insert
    /// itself before the batch, possibly where it cannot prove the warps
    /// converged (after an mbarrier wait), which serializes every
    /// `wgmma`.
    #[inline(always)]
    #[track_caller]
    pub fn resume(self) -> Batch<N> {
        arch::wgmma_fence();
        Batch { acc: self.acc }
    }
}
