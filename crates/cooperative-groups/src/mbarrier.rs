//! Split barriers in shared memory: the hardware `mbarrier` (sm_80+), the
//! object CUDA exposes as `cuda::barrier<cuda::thread_scope_block>`.
//!
//! An [`Mbarrier`] counts arrivals in phases: it is created expecting
//! `count` arrivals per phase, any thread of the block may arrive, and a
//! phase completes when its last expected arrival comes (and, for the
//! transaction counts of sm_90's bulk copies, when its expected bytes have
//! landed). Arriving ([`Mbarrier::arrive`]) releases what the thread
//! wrote; waiting on the arrival's token ([`ArrivalToken::wait`]) returns
//! once the phase completed and acquires what every arrival of it
//! released. Unlike `bar.sync`, the arriving and the waiting threads need
//! not be the same, nor whole warps, and a block may have as many as its
//! shared memory holds (the hardware has 16 named barriers).
//!
//! ```
//! # use cooperative_groups::{prelude::*, mbarrier, shared_array};
//! # cg_sim::launch(&cg_sim::LaunchConfig::new(1, 64), &|| {
//! let block = this_thread_block();
//! // Warp 0 produces, warp 1 consumes: 32 arrivals per phase.
//! let ready = mbarrier!(&block, 32);
//! let data = shared_array!(u32; 32);
//! let t = block.thread_rank();
//! if t < 32 {
//!     data.store(t as usize, t * t);
//!     ready.arrive().discard(); // release: the consumer will wait on the phase
//! } else {
//!     ready.wait_parity(0); // phase 0 complete: warp 0's stores are visible
//!     assert_eq!(data.load((t - 32) as usize), (t - 32) * (t - 32));
//! }
//! # }).unwrap();
//! ```
//!
//! # What is checked, and where
//!
//! The handle is made by the whole block ([`mbarrier!`](crate::mbarrier!)
//! declares the shared word and initialises it: one thread runs
//! `mbarrier.init`, between two block barriers), so no thread can touch
//! the word before it holds a barrier, nor through anything but these
//! methods. The count is checked when it is created (`1..=2^20 - 1`).
//! Arrivals of one at a time can never outnumber what a phase expects (a
//! phase completes at its last arrival, and the next starts expecting the
//! full count again), so [`arrive`](Mbarrier::arrive) and
//! [`arrive_and_wait`](Mbarrier::arrive_and_wait) are safe; what the PTX ISA
//! leaves undefined beyond that concerns only the barrier's own phase — a
//! wait on a token two phases old, re-creating a barrier whose phase has
//! arrivals pending, or every thread dropping out — and on the GPU can make
//! a wait return early or never, not touch other memory. The simulator
//! reports each of those at its source line, and a phase that can never
//! complete as a deadlock naming the wait. Several arrivals at once and the
//! transaction counts (which bulk copies complete) are `unsafe`, their
//! contracts stated.
//!
//! # The GPU code
//!
//! One instruction per operation on the word's `.shared` address, with
//! the PTX default orderings (`mbarrier.arrive` releases and a completed
//! `test_wait`/`try_wait` acquires, both at `.cta` scope); a wait is a loop
//! on `mbarrier.try_wait` on sm_90 (the hardware parks the thread until the
//! phase completes or a time limit passes) and on `mbarrier.test_wait`
//! on sm_80. Not available on sm_70, which has no mbarrier.

use crate::arch;
use crate::{SharedArray, ThreadBlock};

/// The largest count of arrivals a phase can expect (`2^20 - 1`), and the
/// bound of a phase's transaction count.
pub const MAX_COUNT: u32 = (1 << 20) - 1;

/// A handle to an mbarrier in this block's shared memory, made by
/// [`mbarrier!`](crate::mbarrier!). Copyable: every thread of the block
/// holds one, all naming the same barrier.
#[derive(Clone, Copy, Debug)]
pub struct Mbarrier {
    addr: arch::SharedAddr,
}

/// The phase an arrival counted in, to wait on. Consumed by the wait;
/// `#[must_use]`: an arrival whose completion does not matter to the
/// thread says so with [`discard`](ArrivalToken::discard).
#[must_use = "wait on the token, or discard it"]
#[derive(Debug)]
pub struct ArrivalToken {
    addr: arch::SharedAddr,
    state: u64,
}

/// `N` mbarriers in this block's shared memory, made by
/// [`mbarrier!(&block, count; N)`](crate::mbarrier!), each expecting the
/// same count: for one barrier per tile, per stage or per buffer.
#[derive(Clone, Copy, Debug)]
pub struct MbarrierArray<const N: usize> {
    base: arch::SharedAddr,
}

impl<const N: usize> MbarrierArray<N> {
    /// `N` barriers in the shared words `words`, initialised by the whole
    /// block as [`Mbarrier::init_in`] does (thread `i` initialises barrier
    /// `i`, for `i < N`; more barriers than threads is a panic).
    ///
    /// # Safety
    /// As [`Mbarrier::init_in`].
    #[doc(hidden)]
    #[inline(always)]
    #[track_caller]
    pub unsafe fn init_in<const M: u32>(
        words: SharedArray<u64, N>,
        block: &ThreadBlock<M>,
        count: u32,
    ) -> MbarrierArray<N> {
        assert!(
            (1..=MAX_COUNT).contains(&count),
            "an mbarrier expects 1..=2^20-1 arrivals per phase"
        );
        // (One barrier always fits: no test then.)
        assert!(
            N == 1 || N as u32 <= block.num_threads(),
            "an MbarrierArray has at most one barrier per thread of the block"
        );
        let base = words.addr();
        block.sync();
        let t = block.thread_rank();
        if t < N as u32 {
            // SAFETY: word `t` of the caller's words; no thread uses it
            // until the block barrier below, and every thread left the
            // previous barrier in it at the one above.
            unsafe { arch::mbarrier_init(arch::shared_add(base, 8 * t), count) };
            arch::mbarrier_init_fence();
        }
        block.sync();
        MbarrierArray { base }
    }

    /// Barrier `i` (panics, or traps on the GPU, unless `i < N`).
    #[inline(always)]
    #[track_caller]
    pub fn get(&self, i: usize) -> Mbarrier {
        assert!(i < N, "mbarrier index out of range");
        Mbarrier {
            addr: arch::shared_add(self.base, 8 * i as u32),
        }
    }
}

impl Mbarrier {
    /// The barrier in the shared word `word`, initialised by the
    /// whole block: `block.sync()`, thread 0 runs `mbarrier.init` with
    /// `count`, `block.sync()` (which makes the initialisation visible to
    /// every thread before its first use, and lets every thread finish
    /// with the word's previous barrier first). Panics (traps on the GPU)
    /// unless `1 <= count <= 2^20 - 1`.
    ///
    /// # Safety
    /// Nothing but barrier handles may ever access `word`;
    /// [`mbarrier!`](crate::mbarrier!) declares such a word for each call
    /// site.
    #[doc(hidden)]
    #[inline(always)]
    #[track_caller]
    pub unsafe fn init_in<const M: u32>(
        word: SharedArray<u64, 1>,
        block: &ThreadBlock<M>,
        count: u32,
    ) -> Mbarrier {
        // SAFETY: the caller's word, as an array of one barrier.
        unsafe { MbarrierArray::init_in(word, block, count) }.get(0)
    }

    /// The barrier's shared-window address.
    #[inline(always)]
    pub(crate) fn addr(&self) -> arch::SharedAddr {
        self.addr
    }

    /// The token of an arrival on this barrier whose state is `state`.
    #[inline(always)]
    pub(crate) fn token(&self, state: u64) -> ArrivalToken {
        ArrivalToken {
            addr: self.addr,
            state,
        }
    }

    /// One arrival (`mbarrier.arrive`): releases this thread's writes to
    /// the threads that wait on the phase. Returns the phase's token.
    #[inline(always)]
    #[track_caller]
    pub fn arrive(&self) -> ArrivalToken {
        // SAFETY: an initialised barrier (the handle exists only after
        // init); one arrival never outnumbers what a phase expects.
        let state = unsafe { arch::mbarrier_arrive(self.addr) };
        self.token(state)
    }

    /// One arrival on this barrier's twin in block `rank` of the cluster
    /// (the same `mbarrier!` of the kernel, at the same offset), releasing
    /// this thread's writes to the threads that wait on its phase, at
    /// cluster scope: CUDA's `mbarrier.arrive.release.cluster.
    /// shared::cluster` on a `mapa` address (`cuda::ptx::mbarrier_arrive(…,
    /// scope_cluster, space_cluster, …)`). A remote arrival returns no
    /// token. How a consumer block tells the block that fills its buffers
    /// (by [`copy_tile_multicast`](Self::copy_tile_multicast), say) that a
    /// buffer is free again.
    ///
    /// # Safety
    /// Block `rank` of the cluster has not exited (keep a cluster barrier
    /// between the last remote arrival and its end) and initialised its
    /// barrier before this call (a cluster barrier after the
    /// initialisation). The simulator reports a rank outside the cluster,
    /// a block that has exited and an uninitialised barrier.
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    #[inline(always)]
    #[track_caller]
    pub unsafe fn arrive_remote(&self, rank: u32) {
        // SAFETY: the caller's contract; one arrival never outnumbers what
        // a phase expects.
        unsafe { arch::mbarrier_arrive_remote(self.addr, rank) }
    }

    /// Arrives and waits for the phase to complete (`arrive` + `wait`).
    #[inline(always)]
    #[track_caller]
    pub fn arrive_and_wait(&self) {
        self.arrive().wait()
    }

    /// One arrival, and one fewer expected in every later phase
    /// (`mbarrier.arrive_drop`, CUDA's `arrive_and_drop`): for a thread
    /// that leaves the barrier's protocol. Consumes this thread's handle.
    #[inline(always)]
    #[track_caller]
    pub fn arrive_and_drop(self) {
        // SAFETY: an initialised barrier; the simulator reports a drop
        // that would leave later phases expecting no arrival.
        unsafe { arch::mbarrier_arrive_drop(self.addr) };
    }

    /// Waits on `token`, an arrival on this barrier (the same as
    /// [`ArrivalToken::wait`]; the simulator reports a token of another
    /// barrier).
    #[inline(always)]
    #[track_caller]
    pub fn wait(&self, token: ArrivalToken) {
        #[cfg(not(target_arch = "nvptx64"))]
        assert!(
            token.addr == self.addr,
            "Mbarrier::wait on a token of another barrier"
        );
        token.wait()
    }

    /// Waits until the phase of parity `parity` (0 or 1) has completed
    /// (`mbarrier.try_wait.parity`): for threads that wait without having
    /// arrived. Phase `k` has parity `k % 2`; a wait on the parity of a
    /// phase completed two phases ago does not return until the next one
    /// completes.
    #[inline(always)]
    #[track_caller]
    pub fn wait_parity(&self, parity: u32) {
        // SAFETY: an initialised barrier.
        unsafe { arch::mbarrier_wait_parity(self.addr, parity & 1) }
    }

    /// Whether the phase of parity `parity` has completed (acquire when it
    /// has); never blocks.
    #[inline(always)]
    #[track_caller]
    pub fn test_wait_parity(&self, parity: u32) -> bool {
        // SAFETY: an initialised barrier.
        unsafe { arch::mbarrier_test_wait_parity(self.addr, parity & 1) }
    }

    /// `count` arrivals at once (`mbarrier.arrive` with a count, sm_90).
    ///
    /// # Safety
    /// The current phase must still expect at least `count` arrivals (more
    /// is undefined in the PTX ISA; the simulator reports it).
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    #[inline(always)]
    #[track_caller]
    pub unsafe fn arrive_count(&self, count: u32) -> ArrivalToken {
        // SAFETY: the caller's contract.
        let state = unsafe { arch::mbarrier_arrive_count(self.addr, count) };
        self.token(state)
    }

    /// One arrival, and `bytes` more transaction bytes the phase waits for
    /// (`mbarrier.arrive.expect_tx`, sm_90): the phase completes when its
    /// arrivals are in and as many bytes were completed
    /// ([`complete_tx`](Self::complete_tx), or a bulk copy).
    ///
    /// # Safety
    /// The phase's transaction count must stay within `±(2^20 - 1)`, and
    /// the bytes must be completed by something, or every waiter waits
    /// forever.
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    #[inline(always)]
    #[track_caller]
    pub unsafe fn arrive_expect_tx(&self, bytes: u32) -> ArrivalToken {
        // SAFETY: the caller's contract.
        let state = unsafe { arch::mbarrier_arrive_expect_tx(self.addr, bytes) };
        self.token(state)
    }

    /// One arrival that also copies `src` into `dst` with the bulk-copy
    /// engine (sm_90's `cp.async.bulk`: no thread moves the data), the
    /// phase waiting for its bytes: `min(dst.len(), src.len())` elements,
    /// then [`ArrivalToken::wait`] (or a parity wait) by whoever reads
    /// `dst`. CUDA's `cuda::memcpy_async(dst, src, size, barrier)` on
    /// sm_90, or `cuda::ptx`'s `mbarrier_arrive_expect_tx` +
    /// `cp_async_bulk`, in one call that cannot get the byte count wrong.
    /// Nothing may touch `dst` until the phase completes (the simulator
    /// reports an access before).
    ///
    /// # Panics
    /// (traps on the GPU) Unless `src` is global memory, both sides are
    /// 16-byte aligned and the copy is a multiple of 16 bytes below
    /// `2^20`: the hardware's rules for a bulk copy.
    ///
    /// # Safety
    /// The bytes of every copy of the phase still in flight must total
    /// less than `2^20` (the transaction count's range; the simulator
    /// reports more).
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    #[inline(always)]
    #[track_caller]
    pub unsafe fn arrive_copy<T: crate::Pod>(
        &self,
        dst: crate::SharedSlice<T>,
        src: &[T],
    ) -> ArrivalToken {
        let bytes = bulk_bytes("Mbarrier::arrive_copy", &dst, src);
        arch::sim_only! {
            if !dst.own("bulk copy destination") {
                return self.token(0);
            }
        }
        // SAFETY: an initialised barrier (one arrival never outnumbers a
        // phase); the sides checked above; `dst` is this block's shared
        // memory (a `SharedSlice`), in flight until the phase completes,
        // which the simulator checks; the transaction count of the phase
        // gains and loses exactly `bytes`, in range by the caller's
        // contract.
        let state = unsafe {
            arch::mbarrier_arrive_bulk_copy(
                self.addr,
                dst.as_ptr().cast(),
                src.as_ptr().cast(),
                bytes,
            )
        };
        self.token(state)
    }

    /// The bulk copy of [`arrive_copy`](Self::arrive_copy) delivered to
    /// every block of the cluster whose rank is in `blocks` (bit `r` for
    /// rank `r`): one read of `src`, landing at `dst`'s offset in each of
    /// those blocks and completing its bytes on the barrier at this
    /// barrier's offset there (`cp.async.bulk…multicast::cluster`, sm_90).
    /// No arrival: each receiving block expects the bytes on its own
    /// barrier (`arrive_expect_tx`), as for
    /// [`copy_tile_multicast`](Self::copy_tile_multicast), whose example
    /// shows the protocol.
    ///
    /// # Panics
    /// (traps on the GPU) As [`arrive_copy`](Self::arrive_copy).
    ///
    /// # Safety
    /// As [`copy_tile_multicast`](Self::copy_tile_multicast), for
    /// `min(dst.len(), src.len())` elements.
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    #[inline(always)]
    #[track_caller]
    pub unsafe fn copy_multicast<T: crate::Pod>(
        &self,
        dst: crate::SharedSlice<T>,
        src: &[T],
        blocks: u16,
    ) {
        let bytes = bulk_bytes("Mbarrier::copy_multicast", &dst, src);
        arch::sim_only! {
            if !dst.own("bulk copy destination") {
                return;
            }
        }
        // SAFETY: the sides checked by `bulk_bytes`; `dst` is this block's
        // shared memory, so is the same offset in every block of the
        // cluster; the caller's contract covers every receiving block's
        // barrier, phase and buffer.
        unsafe {
            arch::bulk_copy_multicast(
                self.addr,
                dst.as_ptr().cast(),
                src.as_ptr().cast(),
                bytes,
                blocks,
            )
        }
    }

    /// The current phase waits for `bytes` more transaction bytes
    /// (`mbarrier.expect_tx`, sm_90).
    ///
    /// # Safety
    /// As [`arrive_expect_tx`](Self::arrive_expect_tx).
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    #[inline(always)]
    #[track_caller]
    pub unsafe fn expect_tx(&self, bytes: u32) {
        // SAFETY: the caller's contract.
        unsafe { arch::mbarrier_expect_tx(self.addr, bytes) }
    }

    /// `bytes` transaction bytes of the current phase are done
    /// (`mbarrier.complete_tx`, sm_90). Relaxed: it publishes nothing this
    /// thread wrote (an arrival does).
    ///
    /// # Safety
    /// As [`arrive_expect_tx`](Self::arrive_expect_tx).
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    #[inline(always)]
    #[track_caller]
    pub unsafe fn complete_tx(&self, bytes: u32) {
        // SAFETY: the caller's contract.
        unsafe { arch::mbarrier_complete_tx(self.addr, bytes) }
    }
}

impl ArrivalToken {
    /// Waits until the arrival's phase has completed, then acquires what
    /// its arrivals released.
    #[inline(always)]
    #[track_caller]
    pub fn wait(self) {
        // SAFETY: a token of an initialised barrier; a stale one (two
        // phases old) only makes the wait return early or never, and the
        // simulator reports it.
        unsafe { arch::mbarrier_wait(self.addr, self.state) }
    }

    /// Whether the arrival's phase has completed (acquire when it has);
    /// never blocks (`mbarrier.test_wait`).
    #[inline(always)]
    #[track_caller]
    pub fn test_wait(&self) -> bool {
        // SAFETY: as for `wait`.
        unsafe { arch::mbarrier_test_wait(self.addr, self.state) }
    }

    /// Drops the token: this thread does not wait on the phase.
    #[inline(always)]
    pub fn discard(self) {}
}

/// Declares an mbarrier in shared memory at this call site, one per
/// block, and initialises it with the whole block: `mbarrier!(&block,
/// count)` evaluates to an [`Mbarrier`](crate::mbarrier::Mbarrier)
/// expecting `count` arrivals per phase. Every thread of the block must
/// reach it (it runs two block barriers). See [the module](mod@crate::mbarrier).
///
/// `mbarrier!(&block, count; N)` declares `N` of them (`N` at most the
/// block's threads) and evaluates to an
/// [`MbarrierArray<N>`](crate::mbarrier::MbarrierArray).
#[macro_export]
macro_rules! mbarrier {
    ($block:expr, $count:expr; $n:expr) => {{
        let __cg_words = $crate::shared_array!(u64; $n);
        // SAFETY: the words were declared by this expansion and are
        // reached only through the handles.
        unsafe { $crate::mbarrier::MbarrierArray::init_in(__cg_words, $block, $count) }
    }};
    ($block:expr, $count:expr) => {{
        let __cg_word = $crate::shared_array!(u64; 1);
        // SAFETY: the word was declared by this expansion and is reached
        // only through the handle.
        unsafe {
            $crate::mbarrier::Mbarrier::init_in(__cg_word, $block, $count)
        }
    }};
}

/// The bytes of a bulk copy of `src` into `dst` (the shorter of the two),
/// checked against the hardware's rules: 16-byte aligned sides, a multiple
/// of 16 bytes in `16..2^20`, a global source (a violation naming `what`
/// otherwise).
#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
#[inline(always)]
#[track_caller]
fn bulk_bytes<T: crate::Pod>(what: &str, dst: &crate::SharedSlice<T>, src: &[T]) -> u32 {
    let bytes = dst.len().min(src.len()) * size_of::<T>();
    let (d, s) = (dst.as_ptr() as usize, src.as_ptr() as usize);
    if (d | s | bytes) & 15 != 0 || bytes == 0 || bytes > MAX_COUNT as usize {
        crate::group::violation!(
            "{what}: a bulk copy needs 16-byte aligned sides and a multiple of 16 bytes in \
             16..2^20 (got {bytes} bytes)"
        );
    }
    if !arch::is_global(src.as_ptr().cast()) {
        crate::group::violation!("{what}: the source is not global memory");
    }
    bytes as u32
}
