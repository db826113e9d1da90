//! Thread-block clusters (guide §4.4.3 `this_cluster()`, §4.4.5.2 barriers):
//! the blocks of a cluster run at the same time on one GPC and can read each
//! other's shared memory (distributed shared memory, DSMEM).
//!
//! Clusters need compute capability 9.0. In PTX built for older SMs every
//! block is a cluster of one, as CUDA defines `this_cluster()` for a launch
//! without clusters: `block_rank()` is 0, `sync()` is a block barrier, and
//! only rank 0 can be mapped.

use core::marker::PhantomData;

use crate::Dim3;
use crate::arch;
use crate::shared::{Peer, SharedArray};

/// The calling thread's cluster (`cg::cluster_group`). Not `Clone`: pass it
/// by reference, like every group handle.
pub struct ClusterGroup {
    _not_send: PhantomData<*const ()>,
}

/// `cg::this_cluster()`.
#[inline(always)]
pub fn this_cluster() -> ClusterGroup {
    ClusterGroup {
        _not_send: PhantomData,
    }
}

/// Proof that this thread arrived at the cluster barrier
/// ([`ClusterGroup::barrier_arrive`]). It must be consumed by
/// [`ClusterGroup::barrier_wait`]: it cannot be copied, and dropping it is a
/// warning (`#[must_use]`), so "wait twice" or "never wait" do not compile
/// cleanly.
#[must_use = "an arrival token must be passed to barrier_wait"]
pub struct ClusterArrivalToken {
    _private: (),
}

impl ClusterGroup {
    /// This block's rank in the cluster (`%cluster_ctarank`).
    #[inline(always)]
    pub fn block_rank(&self) -> u32 {
        arch::cluster::cta_rank()
    }

    /// Blocks in the cluster (`%cluster_nctarank`).
    #[inline(always)]
    pub fn num_blocks(&self) -> u32 {
        arch::cluster::num_ctas()
    }

    /// This block's 3-D index inside the cluster (`%cluster_ctaid`).
    #[inline(always)]
    pub fn block_index(&self) -> Dim3 {
        Dim3::from_array(arch::cluster::cta_idx())
    }

    /// The cluster's shape in blocks (`%cluster_nctaid`).
    #[inline(always)]
    pub fn dim_blocks(&self) -> Dim3 {
        Dim3::from_array(arch::cluster::cluster_dim())
    }

    /// The caller's rank among all threads of the cluster.
    #[inline(always)]
    pub fn thread_rank(&self) -> u32 {
        let b = Dim3::from_array(arch::block_dim());
        let t = Dim3::from_array(arch::thread_idx());
        self.block_rank() * b.volume() as u32 + b.linear(t)
    }

    /// Threads in the cluster.
    #[inline(always)]
    pub fn num_threads(&self) -> u32 {
        self.num_blocks() * Dim3::from_array(arch::block_dim()).volume() as u32
    }

    /// `cluster.sync()`: `barrier.cluster.arrive` + `barrier.cluster.wait`.
    /// Every thread of every block of the cluster must call it; shared-memory
    /// writes before it are visible to the whole cluster after it.
    #[inline(always)]
    #[track_caller]
    pub fn sync(&self) {
        arch::cluster::arrive();
        arch::cluster::wait();
    }

    /// Arrives at the cluster barrier and returns the token that
    /// [`barrier_wait`](Self::barrier_wait) consumes. Between the two the
    /// thread may do local work, but no collective of the cluster.
    #[inline(always)]
    #[track_caller]
    pub fn barrier_arrive(&self) -> ClusterArrivalToken {
        arch::cluster::arrive();
        ClusterArrivalToken { _private: () }
    }

    /// Waits until every thread of the cluster has arrived; consumes the
    /// token of this thread's [`barrier_arrive`](Self::barrier_arrive).
    #[inline(always)]
    #[track_caller]
    pub fn barrier_wait(&self, token: ClusterArrivalToken) {
        let ClusterArrivalToken { _private: () } = token;
        arch::cluster::wait();
    }

    /// `cluster.map_shared_rank(p, rank)` (`mapa`): the address of the same
    /// shared variable in block `rank` of the cluster. Reading through it is
    /// a DSMEM access; the target block must still be running (keep a
    /// `sync()` between the last remote access and the end of the kernel).
    #[inline(always)]
    #[track_caller]
    pub fn map_shared_rank<T>(&self, p: *mut T, rank: u32) -> *mut T {
        arch::cluster::map_shared_rank(p.cast(), rank).cast()
    }

    /// `cluster.query_shared_rank(p)` (`getctarank`): the rank of the block
    /// whose shared memory `p` points into — this block's for its own
    /// shared variables, `rank` for a pointer from
    /// [`map_shared_rank(_, rank)`](Self::map_shared_rank). Below sm_90
    /// every block is a cluster of one: 0. The simulator reports a pointer
    /// outside the cluster's shared memory (the GPU's result is undefined).
    #[doc(alias = "getctarank")]
    #[inline(always)]
    #[track_caller]
    pub fn query_shared_rank<T>(&self, p: *const T) -> u32 {
        arch::cluster::query_shared_rank(p.cast())
    }

    /// [`map_shared_rank`](Self::map_shared_rank) for a whole
    /// [`SharedArray`]: the same array of block `rank`, with the same
    /// bounds-checked `load`/`store`.
    ///
    /// On the simulator `a` must be the calling block's array (a handle
    /// kept from another block is a misuse report), and every access
    /// through the result checks that block `rank` still runs: a peer's
    /// shared memory read after the peer exited is undefined on the GPU.
    #[inline(always)]
    #[track_caller]
    pub fn map_shared_array<T: crate::Pod, const N: usize>(
        &self,
        a: SharedArray<T, N>,
        rank: u32,
    ) -> SharedArray<T, N, Peer> {
        // On the simulator `mapa` checks the handle first (see above).
        let (p, owner) = arch::sim_or_gpu!(
            {
                let size = (core::mem::size_of::<[T; N]>(), core::mem::align_of::<T>());
                let (p, owner) = arch::map_shared_owned(a.owner(), a.as_ptr().cast(), size, rank);
                (p.cast(), owner)
            },
            (self.map_shared_rank(a.as_ptr(), rank), a.owner())
        );
        // SAFETY: `mapa` of a shared array yields the same array in a peer
        // block of the cluster: same size, same alignment, alive while the
        // cluster runs (which the simulator checks at each access).
        unsafe { SharedArray::from_generic_ptr(p, a.addr(), owner) }
    }
}

impl crate::group::group_counts::Sealed for ClusterGroup {}
impl crate::group::GroupCounts for ClusterGroup {
    type Count = u32;
    #[inline(always)]
    fn rank_in_group(&self) -> u32 {
        self.thread_rank()
    }
    #[inline(always)]
    fn threads_in_group(&self) -> u32 {
        self.num_threads()
    }
}
