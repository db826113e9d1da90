//! [`ThreadBlock`]: the block of the calling thread (`cg::thread_block`).

use super::sealed::Sealed;
use super::shape::{Bar, Multi, Shape};
use super::{forward_thread_group, violation};
use crate::Dim3;
use crate::arch;

/// The thread block of the calling thread (`cg::thread_block`), from
/// [`this_thread_block`].
///
/// Ranks are linear thread indices (x fastest), so warp `w` holds ranks
/// `32w..32w + 32` and tiles are runs of consecutive ranks, as in CUDA.
/// Beyond CUDA, [`reduce`](crate::reduce) and the scans accept a
/// `ThreadBlock` (warp step + one shared-memory exchange, like CUB).
///
/// `MAX_THREADS` is an upper bound on the block's size known at compile
/// time: 1024 (any block) from `this_thread_block()`, smaller after
/// [`with_max_threads`](Self::with_max_threads) — the `__launch_bounds__`
/// of this library, which lets tiles of 64–512 threads reserve only the
/// hardware barriers such a block can need.
#[derive(Debug)]
pub struct ThreadBlock<const MAX_THREADS: u32 = 1024> {
    rank: u32,
    size: u32,
    scratch: arch::SharedAddr,
    /// The block the handle was made in (the simulator's record of whose
    /// `scratch` it is; nothing on the GPU).
    owner: arch::SharedOwner,
}

/// `cg::this_thread_block()`: the calling thread's block.
///
/// Not a collective: it reads `%tid` and `%ntid` and costs a few integer
/// instructions (which LLVM shares between handles). Create it early and
/// pass it by reference.
#[inline(always)]
#[track_caller]
pub fn this_thread_block() -> ThreadBlock {
    let [tx, ty, tz] = arch::thread_idx();
    let [nx, ny, nz] = arch::block_dim();
    ThreadBlock {
        rank: (tz * ny + ty) * nx + tx,
        size: nx * ny * nz,
        scratch: arch::collective_scratch(),
        owner: arch::shared_owner(),
    }
}

/// Proof that this thread arrived at the block barrier
/// ([`ThreadBlock::barrier_arrive`]), consumed by
/// [`ThreadBlock::barrier_wait`]: not `Copy`, not `Clone`, `#[must_use]`;
/// a grid's or cluster's token does not fit.
#[must_use = "an arrival token must be passed to barrier_wait"]
pub struct BlockArrivalToken {
    _not_send: core::marker::PhantomData<*const ()>,
}

impl<const MAX_THREADS: u32> ThreadBlock<MAX_THREADS> {
    /// Declares that the block has at most `M` threads (1..=1024; another
    /// `M` does not compile).
    ///
    /// # Panics
    /// A larger block is a contract violation: `trap` on the GPU, a panic
    /// naming both sizes on the simulator.
    ///
    /// # Why
    ///
    /// Why: a tile of 64–512 threads syncs with a hardware named barrier
    /// whose id depends on the block's size. Without a bound the kernel may
    /// use any of the 16 barriers, ptxas reserves all of them, and the SM
    /// then holds at most 4 such blocks (on the H200) — a quarter of its
    /// threads for 128-thread blocks. With `M ≤ 256`, each tile `sync` names
    /// its barrier as an immediate (`bar.sync 1, 64`) and the kernel reserves
    /// only what a block of `M` threads can need (3 barriers for 64-thread
    /// tiles of a 128-thread block, 7 for a 256-thread block). Larger bounds
    /// keep the register form: 4 blocks of 512 threads fill an SM anyway.
    ///
    /// ```
    /// # use cooperative_groups::prelude::*;
    /// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
    /// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 128), &|| {
    /// let block = this_thread_block().with_max_threads::<128>();
    /// let tile = tiled_partition::<64>(&block); // bar.sync 1 / bar.sync 2
    /// # tile.sync();
    /// # assert_eq!(tile.meta_group_size(), 2);
    /// # }).unwrap();
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn with_max_threads<const M: u32>(self) -> ThreadBlock<M> {
        const { assert!(M >= 1 && M <= 1024, "a block has 1 to 1024 threads") };
        if M < 1024 && self.size > M {
            violation!(
                "with_max_threads::<{M}>: the block has {} threads",
                self.size
            );
        }
        ThreadBlock {
            rank: self.rank,
            size: self.size,
            scratch: self.scratch,
            owner: self.owner,
        }
    }

    /// Declares that the block has exactly `N` threads (1..=1024; another
    /// `N` does not compile) — CUB's `BLOCK_DIM_X`. The block's size is then
    /// a constant: the block-wide `reduce` and scans drop their branches on
    /// the size and loop a known number of warps. Includes
    /// [`with_max_threads::<N>`](Self::with_max_threads).
    ///
    /// # Panics
    /// A block of another size is a contract violation: `trap` on the GPU,
    /// a panic naming both sizes on the simulator.
    ///
    /// ```
    /// # use cooperative_groups::prelude::*;
    /// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
    /// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 256), &|| {
    /// # let x = 3u32;
    /// let block = this_thread_block().with_threads::<256>();
    /// let total = reduce(&block, x, Plus);   // 8 warp totals, one ld.shared.v4 pair
    /// # assert_eq!(total, 768);
    /// # }).unwrap();
    /// ```
    ///
    /// In a kernel declared with [`#[kernel(block_dim(N))]`](crate::kernel)
    /// the check costs nothing: no other block shape launches (`.reqntid`),
    /// so the compiler knows the size, and `thread_rank()` is `%tid.x`.
    /// Another shape is refused before the kernel runs:
    ///
    /// ```
    /// use cooperative_groups::prelude::*;
    /// use cooperative_groups::{OwnedSlice, kernel};
    ///
    /// #[kernel(block_dim(128))]
    /// pub fn ranks(out: OwnedSlice<u32>) {
    ///     let block = this_thread_block().with_threads::<128>(); // no check left
    ///     if let Some(e) = out.at(&this_grid()) {
    ///         e.store(block.thread_rank());
    ///     }
    /// }
    ///
    /// let mut out = vec![0u32; 256];
    /// let run = |block: u32, out: &mut [u32]| {
    ///     cooperative_groups::host::run(&RANKS, &cg_sim::LaunchConfig::new(2, block), (out,))
    /// };
    /// run(128, &mut out).unwrap();
    /// assert_eq!(out[200], 72);
    /// let e = run(64, &mut out).unwrap_err();
    /// assert!(e.to_string().contains("declared with block_dim(128, 1, 1)"));
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn with_threads<const N: u32>(self) -> ThreadBlock<N> {
        const { assert!(N >= 1 && N <= 1024, "a block has 1 to 1024 threads") };
        if self.size != N {
            violation!("with_threads::<{N}>: the block has {} threads", self.size);
        }
        ThreadBlock {
            rank: self.rank,
            size: N,
            scratch: self.scratch,
            owner: self.owner,
        }
    }

    /// The caller's linear index in the block, `(z · ny + y) · nx + x`.
    #[inline(always)]
    pub fn thread_rank(&self) -> u32 {
        self.rank
    }
    /// Threads in the block: `nx · ny · nz` (`%ntid`).
    #[inline(always)]
    pub fn num_threads(&self) -> u32 {
        self.size
    }
    /// `num_threads()` (CUDA's older name).
    #[inline(always)]
    pub fn size(&self) -> u32 {
        self.size
    }
    /// `threadIdx` (`%tid`): the caller's 3-D index in the block.
    #[inline(always)]
    pub fn thread_index(&self) -> Dim3 {
        Dim3::from_array(arch::thread_idx())
    }
    /// `blockDim` (`%ntid`): the block's extent in threads.
    #[inline(always)]
    pub fn dim_threads(&self) -> Dim3 {
        Dim3::from_array(arch::block_dim())
    }
    /// `blockDim` (CUDA's older name for [`dim_threads`](Self::dim_threads)).
    #[inline(always)]
    pub fn group_dim(&self) -> Dim3 {
        self.dim_threads()
    }
    /// `blockIdx` (`%ctaid`): the block's 3-D index in the grid.
    #[inline(always)]
    pub fn group_index(&self) -> Dim3 {
        Dim3::from_array(arch::block_idx())
    }
    /// `__syncthreads()`: `bar.sync 0`.
    #[inline(always)]
    #[track_caller]
    #[doc(alias = "__syncthreads")]
    pub fn sync(&self) {
        arch::sync_threads()
    }

    /// `block.barrier_arrive()`: arrive at the block barrier; the token goes
    /// to [`barrier_wait`](Self::barrier_wait). Between the two a thread
    /// may do work that needs no other thread's data, and the block may
    /// perform no collective (CUDA's rule).
    ///
    /// CUDA's guarantee, which the simulator checks: after `barrier_wait`
    /// every thread sees what every other thread wrote *before its
    /// `barrier_arrive`* — not what it wrote between its arrive and its
    /// wait (the race detector reports a read of such a write), and a
    /// collective of the block between the two is reported as misuse.
    ///
    /// Lowers to nothing: the arrival is the `bar.sync 0` of
    /// `barrier_wait`, and the pair costs one `sync()`. (A hardware barrier
    /// cannot split one thread's arrival from its wait without shared state
    /// to initialise first.)
    #[inline(always)]
    #[track_caller]
    pub fn barrier_arrive(&self) -> BlockArrivalToken {
        arch::block_barrier_arrive();
        BlockArrivalToken {
            _not_send: core::marker::PhantomData,
        }
    }

    /// `block.barrier_wait(token)`: waits until every thread of the block
    /// has arrived (`bar.sync 0`); consumes this thread's token.
    #[inline(always)]
    #[track_caller]
    pub fn barrier_wait(&self, token: BlockArrivalToken) {
        let BlockArrivalToken { _not_send } = token;
        arch::block_barrier_wait()
    }

    /// The block as a multi-warp shape.
    #[inline(always)]
    pub(crate) fn multi(&self) -> Multi {
        Multi {
            block_rank: self.rank,
            base: 0,
            n: self.size,
            bar: Bar::Block,
            max_bar_id: 0,
            max_warps: 32,
            warps_full: self.size & 31 == 0,
            scratch: arch::sim_or_gpu!(self.scratch_now(), self.scratch),
            soft: arch::NO_SHARED,
        }
    }
}

arch::sim_only! {
    impl<const MAX_THREADS: u32> ThreadBlock<MAX_THREADS> {
        /// The collective scratch a collective of the calling thread uses:
        /// the handle's while its block runs, and the calling thread's
        /// block's (looked up now) when the handle was kept past its block
        /// (in a `Cell` of the launch's closure): on the simulator the
        /// block's end freed the handle's scratch.
        #[inline(always)]
        fn scratch_now(&self) -> arch::SharedAddr {
            if arch::shared_owner() == self.owner {
                self.scratch
            } else {
                arch::collective_scratch()
            }
        }
    }
}

impl<const MAX_THREADS: u32> Sealed for ThreadBlock<MAX_THREADS> {
    #[inline(always)]
    #[track_caller]
    fn shape(&self) -> Shape {
        Shape::Multi(self.multi())
    }
}

forward_thread_group!(impl[const MAX_THREADS: u32] ThreadBlock<MAX_THREADS>, where);

/// `specialize_block!(block, |b| body)`: runs `body` once, with `b` bound
/// to `&block.with_threads::<N>()` if the block has `N` = 32, 64, 128, 256,
/// 512 or 1024 threads, else to `&block` — the choice made once, where
/// `body` starts, instead of in every collective inside it.
///
/// # Why
///
/// A block whose size is read at run time picks its algorithm in every
/// collective: the block scan, for instance, rakes at 64, 128 and 256
/// threads and scans warp totals at other sizes, and folds a run-time
/// number of warps. Inside a loop those choices are loop-invariant, but
/// LLVM does not unswitch a loop that holds convergent calls (every
/// barrier and shuffle), so each round pays the branches and the
/// predicates they keep live: on the H200 the block scan of a 512-thread
/// block ran 1.13× CUB's, where the same loop on `with_threads::<512>()`
/// ran 1.01×. `body` is compiled once per size (seven copies), each with
/// the size a constant, as if the kernel had been written for it.
///
/// `block` is any [`ThreadBlock`] (moved into the macro); `body` is an
/// expression, typically a block `{ … }`, whose value the macro returns
/// (the same type in every copy).
///
/// ```
/// # use cooperative_groups::prelude::*;
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// # for threads in [96, 128] {
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, threads), &|| {
/// let mut x = 1u32;
/// let total = cooperative_groups::specialize_block!(this_thread_block(), |block| {
///     for _ in 0..4 {
///         x = inclusive_scan(block, x, Plus); // no per-call dispatch on the size
///     }
///     x
/// });
/// # assert!(total >= 1);
/// # }).unwrap();
/// # }
/// ```
#[macro_export]
macro_rules! specialize_block {
    ($block:expr, |$b:ident| $body:expr $(,)?) => {
        $crate::__specialize_block!($block, $b, $body; 32 64 128 256 512 1024)
    };
}

/// [`specialize_block!`]'s expansion: one arm per size in `$n`.
#[doc(hidden)]
#[macro_export]
macro_rules! __specialize_block {
    ($block:expr, $b:ident, $body:expr; $($n:literal)*) => {{
        let block = $block;
        match block.num_threads() {
            $(
                $n => {
                    let $b = &block.with_threads::<$n>();
                    $body
                }
            )*
            _ => {
                let $b = &block;
                $body
            }
        }
    }};
}
