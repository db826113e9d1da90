//! A multi-stage producer/consumer pipeline in shared memory, on
//! mbarriers (sm_80+): the role of CUDA's `cuda::pipeline`, with the
//! producers and consumers in different warps (warp specialisation).
//!
//! A [`Pipeline<K>`] is `K` stages, each with a *full* barrier (one
//! arrival per fill: the producer's, which may carry a bulk or tile copy's
//! bytes) and an *empty* barrier (one arrival per consumer). A producer
//! [`acquire`](Producer::acquire)s the next stage — waiting until every
//! consumer released its previous use — fills it and commits; a consumer
//! [`wait`](Consumer::wait)s until the next stage is full, reads it and
//! [`release`](ConsumerSlot::release)s it. The handles count the trips, so
//! no thread computes a stage or a phase parity, and a slot is consumed
//! by its commit or release (`#[must_use]`): a stage cannot be committed
//! twice nor left unreleased without a warning. No block barrier is
//! involved: consumers never wait for each other, only for the data.
//!
//! ```
//! # use cooperative_groups::{prelude::*, pipeline, shared_array};
//! # use std::sync::atomic::{AtomicU32, Ordering};
//! let total = AtomicU32::new(0);
//! cg_sim::launch(&cg_sim::LaunchConfig::new(1, 64), &|| {
//!     let block = this_thread_block();
//!     // Two stages of 32 words; warp 0's 32 threads produce (32 commits
//!     // fill a stage), warp 1's 32 threads consume.
//!     let pipe = pipeline!(&block, 32, 32; 2);
//!     let buf = shared_array!(u32; 64);
//!     let t = block.thread_rank();
//!     if t < 32 {
//!         let mut producer = pipe.producer();
//!         for round in 0..5u32 {
//!             let slot = producer.acquire(); // waits for the consumers of round - 2
//!             buf.store(slot.stage() * 32 + t as usize, round * 100 + t);
//!             slot.commit(); // this thread's one arrival on the stage's full barrier
//!         }
//!     } else {
//!         let mut consumer = pipe.consumer();
//!         let mut sum = 0;
//!         for _ in 0..5 {
//!             let slot = consumer.wait();
//!             sum += buf.load(slot.stage() * 32 + (t - 32) as usize);
//!             slot.release();
//!         }
//!         total.fetch_add(sum, Ordering::Relaxed);
//!     }
//! })
//! .unwrap();
//! // 32 consumers, each reading one word per round.
//! let want: u32 = (0..5u32).map(|r| (0..32).map(|t| r * 100 + t).sum::<u32>()).sum();
//! assert_eq!(total.load(Ordering::Relaxed), want);
//! ```
//!
//! Here every producer thread commits, so the full barriers count 32
//! arrivals (`pipeline!(&block, producers, consumers; K)`); counting one,
//! the first commit would complete the phase before the other producers'
//! stores, and the race detector reports the consumer's read. With one
//! producer thread filling a stage by a bulk copy ([`ProducerSlot::copy`]),
//! `pipeline!(&block, consumers; K)` counts one, the copy's bytes
//! completing the phase.
//!
//! The race detector sees the fills ordered before the consumers' reads
//! (an arrival releases, a completed wait acquires) and the reads before
//! the next fill of the stage; the simulator reports a phase that never
//! completes (a missing commit or release) as a deadlock naming the wait.

use crate::mbarrier::{Mbarrier, MbarrierArray};

/// `K` stages of full and empty barriers: made by
/// [`pipeline!`](crate::pipeline!), copyable (every thread holds one).
#[derive(Clone, Copy, Debug)]
pub struct Pipeline<const K: usize> {
    full: MbarrierArray<K>,
    empty: MbarrierArray<K>,
}

impl<const K: usize> Pipeline<K> {
    /// The pipeline of the barriers `full` (its count: the producer
    /// arrivals per fill) and `empty` (the consumers).
    #[doc(hidden)]
    #[inline(always)]
    pub fn from_barriers(full: MbarrierArray<K>, empty: MbarrierArray<K>) -> Pipeline<K> {
        Pipeline { full, empty }
    }

    /// This thread's producer side, at trip 0. Every producer thread takes
    /// one and acquires every stage in turn.
    #[inline(always)]
    pub fn producer(&self) -> Producer<K> {
        Producer {
            pipe: *self,
            trip: 0,
        }
    }

    /// This thread's consumer side, at trip 0. Every consumer thread (as
    /// many as the pipeline counts) takes one, waits on every stage in
    /// turn and releases it.
    #[inline(always)]
    pub fn consumer(&self) -> Consumer<K> {
        Consumer {
            pipe: *self,
            trip: 0,
        }
    }
}

/// A producer's trips through the stages: from [`Pipeline::producer`].
#[derive(Debug)]
pub struct Producer<const K: usize> {
    pipe: Pipeline<K>,
    trip: u32,
}

/// A stage the producer may fill: commit it ([`commit`](Self::commit)), or
/// fill and commit it with one copy ([`copy`](Self::copy),
/// [`copy_tile`](Self::copy_tile)).
#[must_use = "commit the stage, or its consumers wait forever"]
#[derive(Debug)]
pub struct ProducerSlot {
    stage: usize,
    full: Mbarrier,
}

impl<const K: usize> Producer<K> {
    /// Waits until the next stage is free (its consumers released its
    /// previous use; at once for the first `K` trips) and returns it.
    #[inline(always)]
    #[track_caller]
    pub fn acquire(&mut self) -> ProducerSlot {
        let stage = self.trip as usize % K;
        let use_ = self.trip / K as u32;
        if use_ > 0 {
            self.pipe.empty.get(stage).wait_parity((use_ - 1) & 1);
        }
        self.trip += 1;
        ProducerSlot {
            stage,
            full: self.pipe.full.get(stage),
        }
    }
}

impl ProducerSlot {
    /// The stage's index, `0..K`.
    #[inline(always)]
    pub fn stage(&self) -> usize {
        self.stage
    }

    /// This thread's arrival on the stage's full barrier (a release of
    /// what it wrote to the stage).
    #[inline(always)]
    #[track_caller]
    pub fn commit(self) {
        self.full.arrive().discard();
    }

    /// Fills `dst` (in the stage) from global `src` with one bulk copy and
    /// commits: [`Mbarrier::arrive_copy`] on the stage's full barrier.
    ///
    /// # Safety
    /// As [`Mbarrier::arrive_copy`]; the pipeline's full barriers count
    /// one arrival per fill (`pipeline!(&block, consumers; K)`).
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    #[inline(always)]
    #[track_caller]
    pub unsafe fn copy<T: crate::Pod>(self, dst: crate::SharedSlice<T>, src: &[T]) {
        // SAFETY: the caller's contract.
        unsafe { self.full.arrive_copy(dst, src) }.discard();
    }

    /// Fills `dst` (in the stage) with the tile at `(x, y)` of `tiles` (in
    /// the map's layout) and commits: [`Mbarrier::arrive_copy_tile`] on the
    /// stage's full barrier.
    ///
    /// # Safety
    /// As [`Mbarrier::arrive_copy_tile`]; one arrival per fill.
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    #[inline(always)]
    #[track_caller]
    pub unsafe fn copy_tile<
        T: crate::Pod,
        const BW: u32,
        const BH: u32,
        L: crate::tma::TileLayout,
    >(
        self,
        dst: crate::SharedSlice<T>,
        tiles: &crate::tma::TensorTiles<'_, T, BW, BH, L>,
        x: i32,
        y: i32,
    ) {
        // SAFETY: the caller's contract.
        unsafe { self.full.arrive_copy_tile(dst, tiles, x, y) }.discard();
    }
}

/// A consumer's trips through the stages: from [`Pipeline::consumer`].
#[derive(Debug)]
pub struct Consumer<const K: usize> {
    pipe: Pipeline<K>,
    trip: u32,
}

/// A full stage the consumer may read until it
/// [`release`](Self::release)s it.
#[must_use = "release the stage, or its producer waits forever"]
#[derive(Debug)]
pub struct ConsumerSlot {
    stage: usize,
    empty: Mbarrier,
}

impl<const K: usize> Consumer<K> {
    /// Waits until the next stage is full (its fill's phase completed,
    /// acquiring what the fill wrote) and returns it.
    #[inline(always)]
    #[track_caller]
    pub fn wait(&mut self) -> ConsumerSlot {
        let stage = self.trip as usize % K;
        self.pipe
            .full
            .get(stage)
            .wait_parity((self.trip / K as u32) & 1);
        self.trip += 1;
        ConsumerSlot {
            stage,
            empty: self.pipe.empty.get(stage),
        }
    }
}

impl ConsumerSlot {
    /// The stage's index, `0..K`.
    #[inline(always)]
    pub fn stage(&self) -> usize {
        self.stage
    }

    /// This thread is done with the stage (its arrival on the stage's
    /// empty barrier releases its reads to the next fill).
    #[inline(always)]
    #[track_caller]
    pub fn release(self) {
        self.empty.arrive().discard();
    }

    /// The group `g` is done with the stage: `g` syncs (which orders every
    /// member's reads before its thread 0's: `bar.warp.sync` and
    /// `bar.sync` order memory among their participants) and its thread 0
    /// arrives — one arrival per group, for a pipeline that counts
    /// consumer groups (`pipeline!(&block, warps; K)`), where 256 threads
    /// arriving one by one on one word would queue. Every member of `g`
    /// calls it with its own slot.
    #[inline(always)]
    #[track_caller]
    pub fn release_by<G: crate::ThreadGroup>(self, g: &G) {
        g.sync();
        if g.thread_rank() == 0 {
            self.empty.arrive().discard();
        }
    }
}

/// Declares a [`Pipeline`](crate::pipeline::Pipeline) of `K` stages in
/// shared memory at this call site and initialises it with the whole
/// block (every thread must reach it: it runs block barriers):
/// `pipeline!(&block, consumers; K)` for one producer arrival per fill (a
/// thread that fills a stage by a copy), `pipeline!(&block, producers,
/// consumers; K)` for `producers` arrivals per fill.
#[macro_export]
macro_rules! pipeline {
    ($block:expr, $producers:expr, $consumers:expr; $k:expr) => {{
        let __cg_full = $crate::mbarrier!($block, $producers; $k);
        let __cg_empty = $crate::mbarrier!($block, $consumers; $k);
        $crate::pipeline::Pipeline::from_barriers(__cg_full, __cg_empty)
    }};
    ($block:expr, $consumers:expr; $k:expr) => {
        $crate::pipeline!($block, 1, $consumers; $k)
    };
}
