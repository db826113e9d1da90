//! `cg-lab sync`: what one `sync()` costs on each kind of group, the
//! kernels of the microbenchmark. Their C++ twins (NVIDIA's
//! `cooperative_groups`) are `reference/cuda/sync.cu`.
//!
//! Every kernel runs the same loop: `iters` times, each member stores its
//! running sum mixed with a word of the iteration ([`word`]) into one half
//! of a double buffer, the group syncs, and the member adds its partner's
//! word (the next rank, cyclically) to its sum. Each store depends on the
//! previous load, so no iteration can start before the last one's barrier
//! and load are done (no compiler can overlap them): `cycles / iters` is
//! the latency of one barrier plus the store and the load it orders. The
//! barrier is what makes the sums right, so a `sync` that lets a member
//! through early fails verification; the halves alternate, so one barrier
//! per iteration is enough (a word is overwritten two barriers after it
//! was read). Thread 0 of every block reads `clock64()` around the loop.
//!
//! Parameters of every kernel ([`SyncArgs`]): `acc` (one word per thread of
//! the grid: its sum), `cycles` (one per block), `scratch` (the grid's
//! double buffer: `2 · gridDim.x` words; unused by the other kernels) and
//! `iters`.

use cooperative_groups::intrinsics::{block_dim, block_idx, clock64, thread_idx};
use cooperative_groups::prelude::*;
use cooperative_groups::{Size, ThreadGroup, TileSize, kernel, shared_array};

/// Parameters of the sync kernels: `(acc, cycles, scratch, iters)`.
pub type SyncArgs = (*mut u32, *mut u64, *mut u32, u32);

/// The word that group rank `who` mixes into its store in iteration `i`.
#[inline(always)]
pub const fn word(i: u32, who: u32) -> u32 {
    i.wrapping_mul(0x9E37_79B9).wrapping_add(who)
}

/// What rank `who` stores in iteration `i` when its sum is `sum`.
#[inline(always)]
pub const fn stored(sum: u32, i: u32, who: u32) -> u32 {
    sum ^ word(i, who)
}

/// Writes this thread's sum, and (thread 0) the block's cycles.
#[inline(always)]
fn finish(acc: *mut u32, cycles: *mut u64, sum: u32, t0: u64, t1: u64) {
    let t = thread_idx().x;
    let b = block_idx().x;
    // SAFETY: the launcher passes one word per thread of the grid and one
    // u64 per block.
    unsafe {
        *acc.add((b * block_dim().x + t) as usize) = sum;
        if t == 0 {
            *cycles.add(b as usize) = t1 - t0;
        }
    }
}

/// The loop on a group whose members are consecutive threads of the block
/// (a tile, or the block itself), `sync` being its barrier: the partner of
/// rank `r` is rank `(r + 1) mod n`, exchanged through shared memory.
#[inline(always)]
fn exchange((r, n): (u32, u32), sync: impl Fn(), acc: *mut u32, cycles: *mut u64, iters: u32) {
    let buf = shared_array!(u32; 2048);
    let t = thread_idx().x;
    // Both below 1024 (a block has at most 1024 threads); the masks let the
    // compiler see that every index below is in bounds, so the loop has no
    // bounds check (and no exit but its end), as the C++ loop has none.
    let partner = (t - r + (r + 1) % n) as usize & 1023;
    let me = t as usize & 1023;
    let mut sum = 0u32;
    let t0 = clock64();
    // Two iterations per trip, one per half of the buffer (the C++ twin's
    // loop has the same shape and `#pragma unroll 1`).
    let mut i = 0;
    while i < iters {
        buf.store(me, stored(sum, i, r));
        sync();
        sum = sum.wrapping_add(buf.load(partner));
        if i + 1 < iters {
            buf.store(1024 + me, stored(sum, i + 1, r));
            sync();
            sum = sum.wrapping_add(buf.load(1024 + partner));
        }
        i += 2;
    }
    let t1 = clock64();
    finish(acc, cycles, sum, t0, t1);
}

/// [`exchange`] on `g` with its own `sync`.
#[inline(always)]
fn group_exchange<G: ThreadGroup>(g: &G, acc: *mut u32, cycles: *mut u64, iters: u32) {
    exchange(
        (g.thread_rank(), g.num_threads()),
        || g.sync(),
        acc,
        cycles,
        iters,
    )
}

/// `tile.sync()` on tiles of `N` threads, in blocks declared to have at
/// most `MAX` threads (which decides the named barriers a multi-warp tile
/// may use, as in the lab's `cg_reduce` kernels): `sync_tile_N_MAX`.
#[kernel(instances(
    (1, 1024), (2, 1024), (4, 1024), (8, 1024), (16, 1024), (32, 1024),
    (64, 128), (64, 256), (64, 1024), (128, 256), (128, 1024),
    (256, 256), (256, 1024), (512, 1024), (1024, 1024)
))]
pub fn sync_tile<const N: u32, const MAX: u32>(
    acc: *mut u32,
    cycles: *mut u64,
    _scratch: *mut u32,
    iters: u32,
) where
    Size<N>: TileSize,
{
    let block = this_thread_block().with_max_threads::<MAX>();
    group_exchange(&tiled_partition::<N>(&block), acc, cycles, iters)
}

/// `block.sync()` (`bar.sync 0`, CUDA's `__syncthreads()`).
#[kernel]
pub fn sync_block(acc: *mut u32, cycles: *mut u64, _scratch: *mut u32, iters: u32) {
    group_exchange(&this_thread_block(), acc, cycles, iters)
}

/// `block.barrier_arrive()` then `block.barrier_wait(token)`.
#[kernel]
pub fn sync_block_split(acc: *mut u32, cycles: *mut u64, _scratch: *mut u32, iters: u32) {
    let block = this_thread_block();
    let sync = || {
        let token = block.barrier_arrive();
        block.barrier_wait(token)
    };
    exchange(
        (block.thread_rank(), block.num_threads()),
        sync,
        acc,
        cycles,
        iters,
    )
}

/// `cluster.sync()`: thread 0 of every block stores its word in its own
/// shared memory, the cluster syncs, thread 0 adds the word of the next
/// block of the cluster (read through `map_shared_array`, DSMEM). A last
/// `sync` keeps every block's shared memory alive until its peers have
/// read it.
#[kernel]
pub fn sync_cluster(acc: *mut u32, cycles: *mut u64, _scratch: *mut u32, iters: u32) {
    let cluster = this_cluster();
    let buf = shared_array!(u32; 2);
    let rank = cluster.block_rank();
    let peer = cluster.map_shared_array(buf, (rank + 1) % cluster.num_blocks());
    let lead = thread_idx().x == 0;
    let mut sum = 0u32;
    let t0 = clock64();
    let mut i = 0;
    while i < iters {
        let half = (i & 1) as usize;
        if lead {
            buf.store(half, stored(sum, i, rank));
        }
        cluster.sync();
        if lead {
            sum = sum.wrapping_add(peer.load(half));
        }
        i += 1;
    }
    let t1 = clock64();
    cluster.sync();
    finish(acc, cycles, sum, t0, t1);
}

/// `grid.sync()` under a cooperative launch: thread 0 of every block
/// stores its word in `scratch` (global memory), the grid syncs, thread 0
/// adds the word of the next block.
#[kernel]
pub fn sync_grid(acc: *mut u32, cycles: *mut u64, scratch: *mut u32, iters: u32) {
    let grid = this_grid();
    let (b, nb) = (grid.block_rank(), grid.num_blocks());
    let next = (b + 1) % nb;
    let lead = thread_idx().x == 0;
    let mut sum = 0u32;
    let t0 = clock64();
    let mut i = 0;
    while i < iters {
        let half = (i & 1) * nb;
        if lead {
            // SAFETY: `scratch` holds `2 · gridDim.x` words.
            unsafe {
                scratch
                    .add((half + b) as usize)
                    .write_volatile(stored(sum, i, b))
            };
        }
        grid.sync();
        if lead {
            // SAFETY: as above.
            let w = unsafe { scratch.add((half + next) as usize).read_volatile() };
            sum = sum.wrapping_add(w);
        }
        i += 1;
    }
    let t1 = clock64();
    finish(acc, cycles, sum, t0, t1);
}

/// A kernel body that uses the mbarrier API, which exists on sm_80+ (and
/// the host); below sm_80 the kernel traps.
macro_rules! with_mbarrier {
    (($($arg:ident),*) $body:block) => {{
        #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_80"))]
        $body
        #[cfg(all(target_arch = "nvptx64", not(target_feature = "sm_80")))]
        {
            let _ = ($($arg),*);
            panic!("mbarrier needs sm_80")
        }
    }};
}

/// The loop on 64-thread tiles, tile `k` of the block syncing on barrier
/// `k` of `bars` through `sync(bar)`.
#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_80"))]
#[inline(always)]
fn tile64_on_mbarriers(
    bars: cooperative_groups::mbarrier::MbarrierArray<16>,
    sync: impl Fn(&cooperative_groups::mbarrier::Mbarrier),
    acc: *mut u32,
    cycles: *mut u64,
    iters: u32,
) {
    let t = this_thread_block().thread_rank();
    let bar = bars.get((t / 64) as usize & 15);
    exchange((t % 64, 64), || sync(&bar), acc, cycles, iters)
}

/// `tile.sync()` of 64-thread tiles written with the mbarrier API (one
/// [`MbarrierArray`](cooperative_groups::mbarrier::MbarrierArray) entry per
/// tile, expecting 2 arrivals): each warp syncs, its lane 0 arrives and
/// waits on the token, the warp syncs again: one of the shapes measured
/// for the library's 64-thread tiles past the named barriers (blocks of
/// more than 512 threads), which take `sync_mbarrier_tile64_all`'s
/// (every thread arrives). sm_80+ (no mbarrier before).
#[kernel]
pub fn sync_mbarrier_tile64(acc: *mut u32, cycles: *mut u64, _scratch: *mut u32, iters: u32) {
    with_mbarrier!((acc, cycles, iters) {
        let block = this_thread_block();
        let bars = cooperative_groups::mbarrier!(&block, 2; 16);
        let warp = tiled_partition::<32>(&block);
        let lead = warp.thread_rank() == 0;
        let sync = |bar: &cooperative_groups::mbarrier::Mbarrier| {
            warp.sync();
            if lead {
                bar.arrive().wait();
            }
            warp.sync();
        };
        tile64_on_mbarriers(bars, sync, acc, cycles, iters)
    })
}

/// 64-thread tiles on one mbarrier each, expecting all 64 threads: every
/// thread arrives and waits (no warp barrier). sm_80+.
#[kernel]
pub fn sync_mbarrier_tile64_all(acc: *mut u32, cycles: *mut u64, _scratch: *mut u32, iters: u32) {
    with_mbarrier!((acc, cycles, iters) {
        let bars = cooperative_groups::mbarrier!(&this_thread_block(), 64; 16);
        tile64_on_mbarriers(bars, |bar| bar.arrive_and_wait(), acc, cycles, iters)
    })
}

/// 64-thread tiles on one mbarrier each, expecting 2 arrivals: each warp
/// syncs, its lane 0 arrives, and every lane waits on the phase's parity
/// (each lane acquires for itself: no second warp barrier). sm_80+.
#[kernel]
pub fn sync_mbarrier_tile64_parity(
    acc: *mut u32,
    cycles: *mut u64,
    _scratch: *mut u32,
    iters: u32,
) {
    with_mbarrier!((acc, cycles, iters) {
        let block = this_thread_block();
        let bars = cooperative_groups::mbarrier!(&block, 2; 16);
        let warp = tiled_partition::<32>(&block);
        let lead = warp.thread_rank() == 0;
        let phase = core::cell::Cell::new(0u32);
        let sync = |bar: &cooperative_groups::mbarrier::Mbarrier| {
            warp.sync();
            if lead {
                bar.arrive().discard();
            }
            bar.wait_parity(phase.get());
            phase.set(phase.get() ^ 1);
        };
        tile64_on_mbarriers(bars, sync, acc, cycles, iters)
    })
}

/// The whole block on one mbarrier: every thread arrives and waits
/// (`arrive_and_wait`, CUDA's `cuda::barrier` on the block). sm_80+.
#[kernel]
pub fn sync_mbarrier_block(acc: *mut u32, cycles: *mut u64, _scratch: *mut u32, iters: u32) {
    with_mbarrier!((acc, cycles, iters) {
        let block = this_thread_block();
        let bar = cooperative_groups::mbarrier!(&block, block.num_threads());
        exchange(
            (block.thread_rank(), block.num_threads()),
            || bar.arrive_and_wait(),
            acc,
            cycles,
            iters,
        )
    })
}
