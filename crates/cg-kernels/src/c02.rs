//! The kernels of the C-02 lab (`../shared/LAB_SPEC.md`), one source for the
//! GPU and the simulator.
//!
//! Reduce kernels share one shape: every thread sums its grid-stride slice of
//! `input` (global memory is read once), then runs `reps` rounds of a tile
//! reduction, chaining them with `v += red * 1e-30` (one fused multiply-add)
//! so that no round can be optimised away; the tile's rank 0 finally adds
//! its result to `partial[blockIdx.x]` (one `red.global.add`). At
//! `reps = 1` the partial sums add up to the sum of the input, which is how
//! every configuration is verified.

use cooperative_groups::atomic::{AcqRel, AtomicRef, Device, red_add};
use cooperative_groups::intrinsics::{block_dim, block_idx, grid_dim, thread_idx};
use cooperative_groups::prelude::*;
use cooperative_groups::{Size, ThreadGroup, TileSize, kernel, shared_array, unroll};

/// `v + red * 1e-30` as one fused multiply-add: the `FFMA` that nvcc
/// contracts the seed's `v += red * 1e-30f` to. Rust never contracts a
/// multiply and an add on its own; without this the Rust kernels would pay an
/// extra dependent instruction per round that the C++ ones do not.
#[inline(always)]
fn chain(red: f32, v: f32) -> f32 {
    core::f32::math::mul_add(red, 1e-30, v)
}

/// The `reps` loops of the kernels on groups of at most 32 threads run 4
/// rounds per trip ([`unroll`]), as nvcc unrolls the C++ twins' loops;
/// LLVM unrolls no loop that holds a collective by itself (the hand-written
/// baseline's inline PTX is no convergent call, and LLVM unrolls its loop
/// 4 times anyway). nvcc leaves the loops of its multi-warp tiles rolled,
/// and so do the kernels on larger groups here.
const WARP_REPS_UNROLL: u32 = 4;

/// `atomicAdd(&partial[blockIdx.x], red)`: a tile's (or the block's)
/// contribution to its block's partial sum.
#[inline(always)]
fn add_to_partial(partial: *mut f32, red: f32) {
    // SAFETY: the launcher allocates one float per block, in global memory.
    unsafe { red_add(partial.add(block_idx().x as usize), red) };
}

/// Parameters of every reduce kernel: `(input, partial, n, reps)`.
pub type ReduceArgs = (*const f32, *mut f32, u32, u32);

/// This thread's grid-stride sum of `input[..n]`.
#[inline(always)]
fn grid_stride_sum(input: *const f32, n: u32) -> f32 {
    let stride = grid_dim().x * block_dim().x;
    let mut i = block_idx().x * block_dim().x + thread_idx().x;
    let mut v = 0.0f32;
    while i < n {
        // SAFETY: i < n and the launcher passes `n` readable floats.
        v += unsafe { *input.add(i as usize) };
        i += stride;
    }
    v
}

/// The baseline's warp primitives: hand-written inline PTX on the GPU (no
/// library code at all), the library's raw intrinsics on the simulator.
mod hand {
    #[cfg(target_arch = "nvptx64")]
    #[inline(always)]
    pub fn shfl_down_full(v: f32, delta: u32) -> f32 {
        let r: f32;
        // SAFETY: a full-warp shuffle; every lane of the warp executes it.
        // `nomem`: registers only; not `pure`: it must stay where the warp
        // is converged.
        unsafe {
            core::arch::asm!("shfl.sync.down.b32 {0}, {1}, {2}, 0x1f, 0xffffffff;",
                out(reg32) r, in(reg32) v, in(reg32) delta, options(nomem, nostack))
        };
        r
    }

    #[cfg(target_arch = "nvptx64")]
    #[inline(always)]
    pub fn shfl_idx_full(v: f32, src: u32) -> f32 {
        let r: f32;
        // SAFETY: a full-warp shuffle; every lane of the warp executes it.
        // `nomem`: registers only; not `pure`: it must stay where the warp
        // is converged.
        unsafe {
            core::arch::asm!("shfl.sync.idx.b32 {0}, {1}, {2}, 0x1f, 0xffffffff;",
                out(reg32) r, in(reg32) v, in(reg32) src, options(nomem, nostack))
        };
        r
    }

    #[cfg(not(target_arch = "nvptx64"))]
    pub use self::host::*;

    #[cfg(not(target_arch = "nvptx64"))]
    mod host {
        use cooperative_groups::intrinsics::{FULL_MASK, shfl_down_sync, shfl_sync};

        #[track_caller]
        pub fn shfl_down_full(v: f32, delta: u32) -> f32 {
            shfl_down_sync(FULL_MASK, v, delta, 32)
        }

        #[track_caller]
        pub fn shfl_idx_full(v: f32, src: u32) -> f32 {
            shfl_sync(FULL_MASK, v, src, 32)
        }
    }
}

/// `intrinsic`: full-mask `shfl.sync.down` tree (16 → 1), then a
/// `shfl.sync.idx` broadcast from lane 0 — written in inline PTX.
#[kernel]
pub fn reduce_intrinsic(input: *const f32, partial: *mut f32, n: u32, reps: u32) {
    let mut v = grid_stride_sum(input, n);
    let mut red = 0.0f32;
    for _ in 0..reps {
        let mut x = v;
        let mut offset = 16;
        while offset > 0 {
            x += hand::shfl_down_full(x, offset);
            offset >>= 1;
        }
        red = hand::shfl_idx_full(x, 0);
        v = chain(red, v);
    }
    if thread_idx().x.is_multiple_of(32) {
        add_to_partial(partial, red);
    }
}

/// `tile32`: `ThreadBlockTile<32>` `shfl_down` tree, then `shfl(v, 0)`.
#[kernel]
pub fn reduce_tile32(input: *const f32, partial: *mut f32, n: u32, reps: u32) {
    let block = this_thread_block();
    let tile = tiled_partition::<32>(&block);
    let mut v = grid_stride_sum(input, n);
    let mut red = 0.0f32;
    unroll::<WARP_REPS_UNROLL>(reps, |_| {
        let mut x = v;
        let mut offset = 16;
        while offset > 0 {
            x += tile.shfl_down(x, offset);
            offset >>= 1;
        }
        red = tile.shfl(x, 0);
        v = chain(red, v);
    });
    if tile.thread_rank() == 0 {
        add_to_partial(partial, red);
    }
}

/// The reduce kernels' body on `group` (a tile or the block): `reps`
/// chained rounds of `reduce(group, v, Plus)` over this thread's grid-stride
/// sum; the group's rank 0 adds the result to `partial[blockIdx.x]`.
#[inline(always)]
fn group_reduce_body<G: ThreadGroup>(
    group: &G,
    warp_sized: bool,
    input: *const f32,
    partial: *mut f32,
    n: u32,
    reps: u32,
) {
    let mut v = grid_stride_sum(input, n);
    let mut red = 0.0f32;
    if warp_sized {
        unroll::<WARP_REPS_UNROLL>(reps, |_| {
            red = reduce(group, v, Plus);
            v = chain(red, v);
        });
    } else {
        for _ in 0..reps {
            red = reduce(group, v, Plus);
            v = chain(red, v);
        }
    }
    if group.thread_rank() == 0 {
        add_to_partial(partial, red);
    }
}

/// The scan kernels' body on `group` (a tile or the block): over chunks of
/// `b` (the block's size) elements of `input` (grid-stride over chunks),
/// `reps` chained rounds of `inclusive_scan(group, x, Plus)` per chunk;
/// writes each element's inclusive prefix sum within its group to `out`.
#[inline(always)]
fn group_scan_body<G: ThreadGroup>(
    group: &G,
    warp_sized: bool,
    b: u32,
    input: *const f32,
    out: *mut f32,
    n: u32,
    reps: u32,
) {
    let mut base = block_idx().x * b;
    while base < n {
        let i = base + thread_idx().x;
        let mut x = if i < n {
            // SAFETY: i < n is checked; the launcher passes `n` floats each way.
            unsafe { *input.add(i as usize) }
        } else {
            0.0
        };
        let mut s = 0.0f32;
        if warp_sized {
            unroll::<WARP_REPS_UNROLL>(reps, |_| {
                s = inclusive_scan(group, x, Plus);
                x = chain(s, x);
            });
        } else {
            for _ in 0..reps {
                s = inclusive_scan(group, x, Plus);
                x = chain(s, x);
            }
        }
        if i < n {
            // SAFETY: as above.
            unsafe { *out.add(i as usize) = s };
        }
        base += grid_dim().x * b;
    }
}

/// The `cg_reduce` body: the library's `reduce(&tile, v, Plus)` on tiles of
/// `N` threads, in blocks declared to have at most `MAX` threads.
#[inline(always)]
fn cg_reduce_body<const N: u32, const MAX: u32>(
    input: *const f32,
    partial: *mut f32,
    n: u32,
    reps: u32,
) where
    Size<N>: TileSize,
{
    let block = this_thread_block().with_max_threads::<MAX>();
    group_reduce_body(
        &tiled_partition::<N>(&block),
        N <= 32,
        input,
        partial,
        n,
        reps,
    )
}

/// The `cg_scan` body (the twin of `cg::inclusive_scan` on a tile): each
/// tile of `N` threads scans its elements of block-sized chunks, in blocks
/// of at most `MAX` threads.
#[inline(always)]
fn cg_scan_body<const N: u32, const MAX: u32>(input: *const f32, out: *mut f32, n: u32, reps: u32)
where
    Size<N>: TileSize,
{
    let block = this_thread_block().with_max_threads::<MAX>();
    group_scan_body(
        &tiled_partition::<N>(&block),
        N <= 32,
        block_dim().x,
        input,
        out,
        n,
        reps,
    )
}

/// One `#[kernel]` per (tile, block bound) of a body, and `$select(tile,
/// block)`: the kernel with the smallest declared block bound that fits,
/// so that a tile of 64–128 threads in a small block reserves only the
/// named barriers it can use (all 16 would allow 4 blocks per SM).
macro_rules! tile_kernels {
    ($select:ident, $body:ident, $what:literal; $($name:ident $desc:ident $n:literal $max:literal),* $(,)?) => {
        $(
            #[doc = concat!(
                "`", $what, "` at tile ", stringify!($n), " in blocks of at most ",
                stringify!($max), " threads (`", stringify!($body), "`)."
            )]
            #[kernel]
            pub fn $name(input: *const f32, out: *mut f32, n: u32, reps: u32) {
                $body::<$n, $max>(input, out, n, reps)
            }
        )*

        #[doc = concat!(
            "The `", $what, "` kernel for `tile` (powers of two 8..=1024) and blocks of ",
            "`block` threads: the one with the smallest declared block bound that fits."
        )]
        #[cfg(not(target_arch = "nvptx64"))]
        pub fn $select(tile: u32, block: u32) -> Option<cooperative_groups::Kernel<ReduceArgs>> {
            let mut best: Option<(u32, cooperative_groups::Kernel<ReduceArgs>)> = None;
            $(
                if tile == $n && block <= $max && best.as_ref().is_none_or(|(m, _)| $max < *m) {
                    best = Some(($max, $desc));
                }
            )*
            best.map(|(_, k)| k)
        }
    };
}

// Blocks of 512 threads or more lose nothing to 16 reserved barriers (4
// blocks fill the SM); smaller ones get a bounded kernel (a tile as large
// as the block syncs with `bar.sync 0`, but without the bound the kernel
// still reserves all 16).
tile_kernels!(cg_reduce_kernel, cg_reduce_body, "cg_reduce";
    cg_reduce_8 CG_REDUCE_8 8 1024,
    cg_reduce_16 CG_REDUCE_16 16 1024,
    cg_reduce_32 CG_REDUCE_32 32 1024,
    cg_reduce_64 CG_REDUCE_64 64 1024,
    cg_reduce_128 CG_REDUCE_128 128 1024,
    cg_reduce_256 CG_REDUCE_256 256 1024,
    cg_reduce_512 CG_REDUCE_512 512 1024,
    cg_reduce_1024 CG_REDUCE_1024 1024 1024,
    cg_reduce_64_max128 CG_REDUCE_64_MAX128 64 128,
    cg_reduce_64_max256 CG_REDUCE_64_MAX256 64 256,
    cg_reduce_128_max256 CG_REDUCE_128_MAX256 128 256,
    cg_reduce_256_max256 CG_REDUCE_256_MAX256 256 256,
);

tile_kernels!(cg_scan_kernel, cg_scan_body, "cg_scan";
    cg_scan_8 CG_SCAN_8 8 1024,
    cg_scan_16 CG_SCAN_16 16 1024,
    cg_scan_32 CG_SCAN_32 32 1024,
    cg_scan_64 CG_SCAN_64 64 1024,
    cg_scan_128 CG_SCAN_128 128 1024,
    cg_scan_256 CG_SCAN_256 256 1024,
    cg_scan_512 CG_SCAN_512 512 1024,
    cg_scan_1024 CG_SCAN_1024 1024 1024,
    cg_scan_64_max128 CG_SCAN_64_MAX128 64 128,
    cg_scan_64_max256 CG_SCAN_64_MAX256 64 256,
    cg_scan_128_max256 CG_SCAN_128_MAX256 128 256,
    cg_scan_256_max256 CG_SCAN_256_MAX256 256 256,
);

/// `coalesced`: grid-stride over `input`; each thread holding an odd value
/// joins `coalesced_threads()`, whose rank 0 adds the group's size to `count`
/// with one 64-bit atomic.
#[kernel]
pub fn coalesced_odd(input: *const i32, count: *mut u64, n: u32) {
    let stride = grid_dim().x * block_dim().x;
    let mut i = block_idx().x * block_dim().x + thread_idx().x;
    while i < n {
        // SAFETY: i < n and the launcher passes `n` readable ints.
        let x = unsafe { *input.add(i as usize) };
        if x & 1 != 0 {
            let g = coalesced_threads();
            if g.thread_rank() == 0 {
                // SAFETY: `count` points at one u64 in global memory.
                unsafe { red_add(count, g.num_threads() as u64) };
            }
        }
        i += stride;
    }
}

/// `cluster`: each block stores `block_rank + 1` in shared memory, the
/// cluster syncs, each block reads its next neighbour's value through
/// `map_shared_rank` (DSMEM), syncs again (so no block exits while another
/// still reads its memory), and thread 0 writes the value to `out[blockIdx.x]`.
#[kernel]
pub fn cluster_dsmem(out: *mut u32) {
    let cluster = this_cluster();
    let value = shared_array!(u32; 1);
    let rank = cluster.block_rank();
    if thread_idx().x == 0 {
        value.store(0, rank + 1);
    }
    cluster.sync();
    let peer = cluster.map_shared_array(value, (rank + 1) % cluster.num_blocks());
    let v = peer.load(0);
    cluster.sync();
    if thread_idx().x == 0 {
        // SAFETY: one u32 per block.
        unsafe { *out.add(block_idx().x as usize) = v };
    }
}

/// Whole-block `reduce(&block, v, Plus)` (`group_reduce_body`) on any
/// block, its size read at run time and dispatched once per launch
/// ([`specialize_block!`](cooperative_groups::specialize_block): a sized
/// handle for 32–1024 threads, the run-time one otherwise). CUDA's
/// `cg::reduce` refuses `thread_block`; the C++ twin is CUB's `BlockReduce`.
#[kernel]
pub fn block_reduce(input: *const f32, partial: *mut f32, n: u32, reps: u32) {
    cooperative_groups::specialize_block!(this_thread_block(), |block| {
        group_reduce_body(block, false, input, partial, n, reps)
    })
}

/// Whole-block `inclusive_scan(&block, x, Plus)` over block-sized chunks
/// (`group_scan_body`) on any 1-D block, its size read at run time and
/// dispatched once per launch, as [`block_reduce`]'s (the twin of CUB's
/// `BlockScan::InclusiveSum`).
#[kernel]
pub fn block_scan(input: *const f32, out: *mut f32, n: u32, reps: u32) {
    cooperative_groups::specialize_block!(this_thread_block(), |block| {
        group_scan_body(block, false, block_dim().x, input, out, n, reps)
    })
}

/// The block reduce and scan for blocks of exactly `$b` threads
/// (`with_threads`), the twins of CUB's `BlockReduce<float, B>` and
/// `BlockScan<float, B>`, and selectors by block size.
macro_rules! sized_block_kernels {
    ($($b:literal $reduce:ident $reduce_desc:ident $scan:ident $scan_desc:ident),* $(,)?) => {
        $(
            #[doc = concat!("[`block_reduce`] in blocks of exactly ", stringify!($b), " threads.")]
            #[kernel]
            pub fn $reduce(input: *const f32, partial: *mut f32, n: u32, reps: u32) {
                group_reduce_body(&this_thread_block().with_threads::<$b>(), false, input, partial, n, reps)
            }

            #[doc = concat!("[`block_scan`] in 1-D blocks of exactly ", stringify!($b), " threads.")]
            #[kernel]
            pub fn $scan(input: *const f32, out: *mut f32, n: u32, reps: u32) {
                group_scan_body(&this_thread_block().with_threads::<$b>(), false, $b, input, out, n, reps)
            }
        )*

        /// The block reduce for blocks of exactly `block` threads (128,
        /// 256, 512 or 1024), if there is one.
        #[cfg(not(target_arch = "nvptx64"))]
        pub fn block_reduce_sized(block: u32) -> Option<cooperative_groups::Kernel<ReduceArgs>> {
            match block {
                $($b => Some($reduce_desc),)*
                _ => None,
            }
        }

        /// The block scan for 1-D blocks of exactly `block` threads (128,
        /// 256, 512 or 1024), if there is one.
        #[cfg(not(target_arch = "nvptx64"))]
        pub fn block_scan_sized(block: u32) -> Option<cooperative_groups::Kernel<ReduceArgs>> {
            match block {
                $($b => Some($scan_desc),)*
                _ => None,
            }
        }
    };
}

sized_block_kernels!(
    128 block_reduce_128 BLOCK_REDUCE_128 block_scan_128 BLOCK_SCAN_128,
    256 block_reduce_256 BLOCK_REDUCE_256 block_scan_256 BLOCK_SCAN_256,
    512 block_reduce_512 BLOCK_REDUCE_512 block_scan_512 BLOCK_SCAN_512,
    1024 block_reduce_1024 BLOCK_REDUCE_1024 block_scan_1024 BLOCK_SCAN_1024,
);

/// Parameters of [`last_block_reduce`]: `(input, out, n, ticket)`.
pub type LastBlockArgs = (*const f32, *mut f32, u32, *mut u32);

/// The sum of `input[..n]` in one launch, the last block finishing it (the
/// pattern of NVIDIA's `threadFenceReduction` sample): each block reduces
/// its grid-stride slice with the library's block reduce; its thread 0
/// writes the block's partial to `out[blockIdx.x]` and draws a ticket with
/// `fetch_inc(gridDim.x - 1, AcqRel)` at device scope (`atomicInc`, PTX
/// `atom.acq_rel.gpu.inc.u32`: its release publishes the partial, its
/// acquire makes the other blocks' partials visible to the drawer). The
/// block that draws the last ticket sums the partials and writes the total
/// to `out[gridDim.x]`. The ticket wraps back to 0 on the last draw (the
/// `atomicInc` semantics), so `*ticket` is ready for the next launch.
///
/// `out` holds `gridDim.x + 1` floats; `*ticket` must be 0 at the launch.
#[kernel]
pub fn last_block_reduce(input: *const f32, out: *mut f32, n: u32, ticket: *mut u32) {
    last_block_body(&this_thread_block(), input, out, n, ticket)
}

/// The body of [`last_block_reduce`] on `block` (sized or not).
#[inline(always)]
fn last_block_body<G: ThreadGroup>(
    block: &G,
    input: *const f32,
    out: *mut f32,
    n: u32,
    ticket: *mut u32,
) {
    let blocks = grid_dim().x;
    let sum = reduce(block, grid_stride_sum(input, n), Plus);
    // SAFETY: the launcher passes one word in global memory that only this
    // kernel's atomics touch.
    let ticket = unsafe { AtomicRef::<u32, Device>::from_ptr(ticket) };
    let last = invoke_one_broadcast(block, || {
        // SAFETY: `out` has one float per block; this block's slot.
        unsafe { *out.add(block_idx().x as usize) = sum };
        u32::from(ticket.fetch_inc(blocks - 1, AcqRel) == blocks - 1)
    });
    if last != 0 {
        // Every other block's partial happens before the acquiring draw,
        // which the barrier of `invoke_one_broadcast` orders before these reads.
        let mut v = 0.0f32;
        let mut i = block.thread_rank();
        while i < blocks {
            // SAFETY: i < gridDim.x, within `out`.
            v += unsafe { *out.add(i as usize) };
            i += block.num_threads();
        }
        let total = reduce(block, v, Plus);
        if block.thread_rank() == 0 {
            // SAFETY: `out` has gridDim.x + 1 floats.
            unsafe { *out.add(blocks as usize) = total };
        }
    }
}

/// [`last_block_reduce`] in blocks of exactly `B` threads (`with_threads`),
/// the twins of the C++ `cpp_last_block_reduce_B` (CUB's `BlockReduce<float, B>`).
macro_rules! sized_last_block {
    ($($b:literal $name:ident $desc:ident),* $(,)?) => {
        $(
            #[doc = concat!("[`last_block_reduce`] in blocks of exactly ", stringify!($b), " threads.")]
            #[kernel]
            pub fn $name(input: *const f32, out: *mut f32, n: u32, ticket: *mut u32) {
                last_block_body(&this_thread_block().with_threads::<$b>(), input, out, n, ticket)
            }
        )*

        /// The last-block reduce for blocks of exactly `block` threads (128,
        /// 256, 512 or 1024), if there is one.
        #[cfg(not(target_arch = "nvptx64"))]
        pub fn last_block_reduce_sized(block: u32) -> Option<cooperative_groups::Kernel<LastBlockArgs>> {
            match block {
                $($b => Some($desc),)*
                _ => None,
            }
        }
    };
}

sized_last_block!(
    128 last_block_reduce_128 LAST_BLOCK_REDUCE_128,
    256 last_block_reduce_256 LAST_BLOCK_REDUCE_256,
    512 last_block_reduce_512 LAST_BLOCK_REDUCE_512,
    1024 last_block_reduce_1024 LAST_BLOCK_REDUCE_1024,
);
