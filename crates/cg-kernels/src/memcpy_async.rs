//! The `memcpy_async` experiment of `cg-lab compare`: a block-wise sum of a
//! large `f32` array, staged through shared memory in tiles of
//! [`TILE`] floats with double buffering — while a block sums one tile, the
//! next one is in flight (`memcpy_async` + `wait_prior::<1>`, the guide's
//! pattern) — against the same sum with plain loads.
//!
//! Blocks of [`BLOCK`] threads take tiles `blockIdx.x, + gridDim.x, …`; each
//! thread sums 16 floats of a tile (four 16-byte vectors, conflict-free in
//! shared memory), the block reduces its threads' sums, and thread 0 writes
//! `partial[blockIdx.x]` (every block writes it, so no reset is needed).
//! Launch with [`SMEM_BYTES`] of dynamic shared memory (two stages).

use cooperative_groups::intrinsics::{block_idx, grid_dim};
use cooperative_groups::prelude::*;
use cooperative_groups::{
    DynamicShared, GlobalSlice, Pod, SharedSlice, dynamic_shared, kernel, memcpy_async, wait,
    wait_prior,
};

/// Threads per block (declared with `with_threads`).
pub const BLOCK: u32 = 256;
/// Floats per tile (one stage): 16 per thread, 16 KiB.
pub const TILE: usize = 16 * BLOCK as usize;
/// Dynamic shared memory per block: two stages.
pub const SMEM_BYTES: u32 = 2 * TILE as u32 * 4;

/// Parameters of the experiment's kernels: `(input, partial, n)`.
pub type StagedArgs = (*const f32, *mut f32, u32);

/// Four floats, 16-byte aligned: copied as `F4` the alignment is known at
/// compile time (`cp.async.cg` 16 bytes, no run-time test).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(16))]
pub struct F4(pub [f32; 4]);

// SAFETY: four f32, no padding: any 16 bytes are an `F4`.
unsafe impl Pod for F4 {}

impl F4 {
    #[inline(always)]
    fn sum(self) -> f32 {
        let [a, b, c, d] = self.0;
        (a + b) + (c + d)
    }
}

/// This thread's share of tile `t` (`count` floats) in stage `stage`.
#[inline(always)]
#[track_caller]
fn stage_sum(rank: usize, stage: usize, count: usize) -> f32 {
    let vec: DynamicShared<F4> = dynamic_shared();
    let flat: DynamicShared<f32> = dynamic_shared();
    let q = count / 4;
    let mut acc = 0.0f32;
    for k in 0..4 {
        let j = rank + k * BLOCK as usize;
        if j < q {
            acc += vec.load(stage * (TILE / 4) + j).sum();
        }
    }
    if rank < count % 4 {
        acc += flat.load(stage * TILE + 4 * q + rank);
    }
    acc
}

/// The tiles of this block, staged with double buffering: `issue(t, stage)`
/// starts the copy of tile `t` into `stage`; returns this thread's sum.
#[inline(always)]
#[track_caller]
fn staged_sum(block: &ThreadBlock<BLOCK>, n: usize, issue: impl Fn(usize, usize)) -> f32 {
    let tiles = n.div_ceil(TILE);
    let step = grid_dim().x as usize;
    let rank = block.thread_rank() as usize;
    let mut t = block_idx().x as usize;
    let mut stage = 0;
    let mut acc = 0.0f32;
    if t < tiles {
        issue(t, 0);
    }
    while t < tiles {
        let next = t + step;
        if next < tiles {
            issue(next, stage ^ 1);
            wait_prior::<1>(block); // tile t has landed; tile `next` is in flight
        } else {
            wait(block);
        }
        acc += stage_sum(rank, stage, (n - t * TILE).min(TILE));
        block.sync(); // every thread is done with `stage` before it is refilled
        t = next;
        stage ^= 1;
    }
    acc
}

/// The block's total to `partial[blockIdx.x]`.
#[inline(always)]
fn finish(block: &ThreadBlock<BLOCK>, partial: *mut f32, acc: f32) {
    let total = reduce(block, acc, Plus);
    if block.thread_rank() == 0 {
        // SAFETY: the launcher allocates one float per block.
        unsafe { *partial.add(block_idx().x as usize) = total };
    }
}

/// `input` as a slice of `n` floats.
#[inline(always)]
fn input_slice<'a>(input: *const f32, n: usize) -> &'a [f32] {
    // SAFETY: the launcher passes `n` readable floats.
    unsafe { core::slice::from_raw_parts(input, n) }
}

/// Staged through `memcpy_async` of `f32` slices: the library tests the
/// addresses' alignment at run time (16 bytes here: `cp.async.cg` 16).
#[kernel]
pub fn staged_async(input: *const f32, partial: *mut f32, n: u32) {
    let block = this_thread_block().with_threads::<BLOCK>();
    let n = n as usize;
    let src = input_slice(input, n);
    let buf: DynamicShared<f32> = dynamic_shared();
    let acc = staged_sum(&block, n, |t, stage| {
        let part = &src[t * TILE..((t + 1) * TILE).min(n)];
        memcpy_async(&block, buf.slice(stage * TILE, TILE), part);
    });
    finish(&block, partial, acc);
}

/// Staged through `memcpy_async` of [`F4`] slices: 16-byte alignment known
/// at compile time. A tail of `n % 4` floats is copied as `f32` (and an
/// input not 16-aligned takes the `f32` path throughout).
#[kernel]
pub fn staged_async_v4(input: *const f32, partial: *mut f32, n: u32) {
    let block = this_thread_block().with_threads::<BLOCK>();
    let n = n as usize;
    let src = input_slice(input, n);
    let buf: DynamicShared<f32> = dynamic_shared();
    let vec: DynamicShared<F4> = dynamic_shared();
    let aligned = (input as usize).is_multiple_of(16);
    let src4: &[F4] = if aligned {
        // SAFETY: the input is 16-byte aligned and holds `n / 4` whole vectors.
        unsafe { core::slice::from_raw_parts(input.cast(), n / 4) }
    } else {
        &[]
    };
    let acc = staged_sum(&block, n, |t, stage| {
        let (start, end) = (t * TILE, ((t + 1) * TILE).min(n));
        if aligned && end - start == TILE {
            let dst: SharedSlice<F4> = vec.slice(stage * (TILE / 4), TILE / 4);
            memcpy_async(&block, dst, &src4[start / 4..end / 4]);
        } else {
            memcpy_async(&block, buf.slice(stage * TILE, TILE), &src[start..end]);
        }
    });
    finish(&block, partial, acc);
}

/// Staged through bulk copies (sm_90, Hopper's copy engine), two stages
/// as the other kernels: thread 0 starts each tile with
/// [`Mbarrier::arrive_copy`] — one `cp.async.bulk` of the tile's 16-byte
/// granules (16 KiB for a whole tile), which completes on the stage's
/// mbarrier — and the block waits on that barrier's phase; no thread
/// moves the data. A tail of `n % 4` floats (not a 16-byte granule) is
/// stored into the stage by thread 0 before its arrival, which publishes
/// it. An input that is not 16-byte aligned (a bulk copy needs it) takes
/// the plain loads of [`staged_plain`]. Launch on sm_90 (other targets
/// trap) with [`bulk_smem`]`(2)` bytes of dynamic shared memory.
///
/// On the H200 at 2^28 floats: 92.5 % of the DRAM peak, 0.75× the time of
/// its C++ twin (`cuda::ptx`), whose wait loop and issue are the same
/// instructions; three stages 91.0 %, and four (64 KiB: three blocks per
/// SM) 76 % (measured at commit c2b850e:
/// `git show f66ff74:docs/results/h200/runs/2026-12-02-bulk-swap-c2b850e/3-stages/`).
/// Written on `staged_sum`'s two-stage loop, with the copy's `t < tiles`
/// test outside the closure, the same kernel reached only 85–87 %.
///
/// [`Mbarrier::arrive_copy`]: cooperative_groups::mbarrier::Mbarrier::arrive_copy
#[kernel]
pub fn staged_bulk(input: *const f32, partial: *mut f32, n: u32) {
    bulk_sum::<2>(input, partial, n);
}

/// [`staged_bulk`] with three stages: two copies in flight while the block
/// sums a tile. Launch with [`bulk_smem`]`(3)` bytes of dynamic shared memory.
#[kernel]
pub fn staged_bulk_3(input: *const f32, partial: *mut f32, n: u32) {
    bulk_sum::<3>(input, partial, n);
}

/// Threads per block of [`staged_pipelined`]: one producer warp and
/// [`BLOCK`] consumers.
pub const PIPE_BLOCK: u32 = BLOCK + 32;

/// Stages of [`staged_pipelined`] (launch with [`bulk_smem`]`(PIPE_STAGES)`).
pub const PIPE_STAGES: usize = 3;

/// The bulk copies with a specialised producer warp on a
/// [`Pipeline`](cooperative_groups::pipeline::Pipeline) of
/// [`PIPE_STAGES`] stages: thread 0 fills each free stage with one bulk
/// copy; the [`BLOCK`] threads of warps 1.. wait for a full stage, sum it
/// and release it, one arrival per warp. No block barrier per tile: a stage is refilled as soon
/// as its own consumers are done with it. Launch [`PIPE_BLOCK`] threads
/// on sm_90 with [`bulk_smem`]`(PIPE_STAGES)` bytes of dynamic shared
/// memory.
#[kernel]
pub fn staged_pipelined(input: *const f32, partial: *mut f32, n: u32) {
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    {
        let block = this_thread_block().with_threads::<PIPE_BLOCK>();
        let rank = block.thread_rank() as usize;
        let n = n as usize;
        let src = input_slice(input, n);
        let aligned = (input as usize).is_multiple_of(16);
        let buf: DynamicShared<f32> = dynamic_shared();
        // One release per consumer warp.
        let pipe = cooperative_groups::pipeline!(&block, BLOCK / 32; PIPE_STAGES);
        let warp = tiled_partition::<32>(&block);
        let tiles = n.div_ceil(TILE);
        let step = grid_dim().x as usize;
        let first = block_idx().x as usize;
        let mut acc = 0.0f32;
        if !aligned {
            // Bulk copies need 16-byte aligned sources: the consumers sum
            // straight from global memory.
            if rank >= 32 {
                // SAFETY: the launcher passes `n` readable floats.
                let g = unsafe { GlobalSlice::from_raw_parts(input, n) };
                let mut t = first;
                while t < tiles {
                    let end = ((t + 1) * TILE).min(n);
                    let mut i = t * TILE + rank - 32;
                    while i < end {
                        acc += g.load(i);
                        i += BLOCK as usize;
                    }
                    t += step;
                }
            }
        } else if rank == 0 {
            let mut producer = pipe.producer();
            let mut t = first;
            while t < tiles {
                let slot = producer.acquire();
                let base = slot.stage() * TILE;
                let (start, end) = (t * TILE, ((t + 1) * TILE).min(n));
                let whole = (end - start) & !3;
                for i in whole..end - start {
                    buf.store(base + i, src[start + i]);
                }
                if whole > 0 {
                    // SAFETY: one copy of at most 16 KiB in flight on the
                    // stage's phase; the pipeline counts one arrival per fill.
                    unsafe { slot.copy(buf.slice(base, whole), &src[start..start + whole]) };
                } else {
                    slot.commit();
                }
                t += step;
            }
        } else if rank >= 32 {
            let mut consumer = pipe.consumer();
            let mut t = first;
            while t < tiles {
                let slot = consumer.wait();
                acc += stage_sum(rank - 32, slot.stage(), (n - t * TILE).min(TILE));
                slot.release_by(&warp);
                t += step;
            }
        }
        let total = reduce(&block, acc, Plus);
        if rank == 0 {
            // SAFETY: the launcher allocates one float per block.
            unsafe { *partial.add(block_idx().x as usize) = total };
        }
    }
    #[cfg(all(target_arch = "nvptx64", not(target_feature = "sm_90")))]
    {
        let _ = (input, partial, n);
        panic!("bulk copies need sm_90")
    }
}

/// Dynamic shared memory of a bulk-copy kernel with `stages` stages.
pub const fn bulk_smem(stages: u32) -> u32 {
    stages * TILE as u32 * 4
}

/// The bulk-copy kernels: `STAGES` tiles of shared memory in a ring, the
/// copies of the next `STAGES - 1` tiles in flight while the block sums
/// one. Trip `i` sums stage `i % STAGES`, whose barrier completes once per
/// use: trip `i` waits for its `i / STAGES`-th phase.
#[inline(always)]
fn bulk_sum<const STAGES: usize>(input: *const f32, partial: *mut f32, n: u32) {
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    {
        let block = this_thread_block().with_threads::<BLOCK>();
        let rank = block.thread_rank() as usize;
        if !(input as usize).is_multiple_of(16) {
            return plain_block(&block, input, partial, n);
        }
        let n = n as usize;
        let src = input_slice(input, n);
        let buf: DynamicShared<f32> = dynamic_shared();
        // Three barriers whatever `STAGES` (a shared declaration cannot
        // depend on a generic parameter); the ring uses the first `STAGES`.
        const { assert!(STAGES == 2 || STAGES == 3) };
        let bars = cooperative_groups::mbarrier!(&block, 1; 3);
        let tiles = n.div_ceil(TILE);
        let step = grid_dim().x as usize;
        // Thread 0 starts the copy of tile `t` (if there is one) into `stage`.
        let issue = |t: usize, stage: usize| {
            if rank == 0 && t < tiles {
                let (start, end) = (t * TILE, ((t + 1) * TILE).min(n));
                let whole = (end - start) & !3;
                let base = stage * TILE;
                for i in whole..end - start {
                    buf.store(base + i, src[start + i]);
                }
                let bar = bars.get(stage);
                if whole > 0 {
                    // SAFETY: one copy of at most 16 KiB in flight on the
                    // stage's phase.
                    unsafe { bar.arrive_copy(buf.slice(base, whole), &src[start..start + whole]) }
                        .discard();
                } else {
                    bar.arrive().discard();
                }
            }
        };
        let mut t = block_idx().x as usize;
        for s in 0..STAGES - 1 {
            issue(t + s * step, s);
        }
        let mut trip = 0;
        let mut acc = 0.0f32;
        while t < tiles {
            let stage = trip % STAGES;
            // Into the stage the previous trip summed (freed by its sync).
            issue(t + (STAGES - 1) * step, (trip + STAGES - 1) % STAGES);
            bars.get(stage).wait_parity(((trip / STAGES) & 1) as u32);
            acc += stage_sum(rank, stage, (n - t * TILE).min(TILE));
            block.sync(); // every thread is done with `stage` before it is refilled
            t += step;
            trip += 1;
        }
        finish(&block, partial, acc);
    }
    #[cfg(all(target_arch = "nvptx64", not(target_feature = "sm_90")))]
    {
        let _ = (input, partial, n);
        panic!("bulk copies need sm_90")
    }
}

/// The same tiles and the same per-thread sums with plain loads from
/// global memory: 16-byte vector loads when the input is 16-aligned, as
/// the C++ twin's `float4` loads (which assume it), else four `f32` loads.
///
/// Two things made this kernel 1.04–1.19x its twin on the H200, both seen
/// in SASS. Written as plain reads of one pointer, LLVM merged the two
/// paths into the four scalar loads valid for both (17 `LDG.E`, no
/// `LDG.E.128`): the paths now load through [`GlobalSlice`]s of `F4` and
/// of `f32` (`ld.global.nc.v4`, `ld.global.nc`). With the alignment test
/// inside the loop, each load sat in its own branch after the previous
/// load's adds (one load in flight per thread, 1.15x at 2^24 and above):
/// the path is now chosen once (`plain_sum::<ALIGNED>`), and a whole
/// tile's four loads are issued before its adds, as nvcc's predicated
/// loads are. The index arithmetic is `u32`, as the twin's.
#[kernel]
pub fn staged_plain(input: *const f32, partial: *mut f32, n: u32) {
    plain_block(
        &this_thread_block().with_threads::<BLOCK>(),
        input,
        partial,
        n,
    );
}

/// [`staged_plain`]'s body (also the bulk kernels' path for an input that
/// is not 16-byte aligned): the block's tiles summed from global memory,
/// the total to `partial[blockIdx.x]`.
#[inline(always)]
fn plain_block(block: &ThreadBlock<BLOCK>, input: *const f32, partial: *mut f32, n: u32) {
    let rank = block.thread_rank();
    let aligned = (input as usize).is_multiple_of(16);
    // SAFETY: the launcher passes `n` readable floats, which nothing writes
    // during the launch.
    let src = unsafe { GlobalSlice::from_raw_parts(input, n as usize) };
    // SAFETY: as above: `n / 4` whole 16-byte vectors when the input is
    // 16-aligned, none otherwise.
    let src4: GlobalSlice<F4> = unsafe {
        GlobalSlice::from_raw_parts(input.cast(), if aligned { n as usize / 4 } else { 0 })
    };
    let acc = if aligned {
        plain_sum::<true>(&src, &src4, n, rank)
    } else {
        plain_sum::<false>(&src, &src4, n, rank)
    };
    finish(block, partial, acc);
}

/// [`staged_plain`]'s loop over the block's tiles, on the vector path
/// (`ALIGNED`) or the scalar one.
#[inline(always)]
fn plain_sum<const ALIGNED: bool>(
    src: &GlobalSlice<f32>,
    src4: &GlobalSlice<F4>,
    n: u32,
    rank: u32,
) -> f32 {
    let tile = TILE as u32;
    let tiles = n.div_ceil(tile);
    // Vector `v` of the input: floats `4v .. 4v + 4`; the callers pass
    // `v < n / 4`.
    let load = |v: u32| -> F4 {
        if ALIGNED {
            // SAFETY: `v < n / 4`, the vectors `src4` holds when aligned.
            unsafe { src4.load_unchecked(v as usize) }
        } else {
            let i = 4 * v as usize;
            // SAFETY: `i + 3 < n`.
            unsafe {
                F4([
                    src.load_unchecked(i),
                    src.load_unchecked(i + 1),
                    src.load_unchecked(i + 2),
                    src.load_unchecked(i + 3),
                ])
            }
        }
    };
    let mut t = block_idx().x;
    let mut acc = 0.0f32;
    while t < tiles {
        let base = t * tile;
        let count = (n - base).min(tile);
        if count == tile {
            // A whole tile (`base + tile <= n`, `tile / 4 = 4 * BLOCK`):
            // the four loads first, then the adds in the same order.
            let v: [F4; 4] = core::array::from_fn(|k| load(base / 4 + rank + k as u32 * BLOCK));
            for x in v {
                acc += x.sum();
            }
        } else {
            let q = count / 4;
            for k in 0..4 {
                let j = rank + k * BLOCK;
                // `j < q`: vector `base / 4 + j` lies below `(base + count) / 4`.
                if j < q {
                    acc += load(base / 4 + j).sum();
                }
            }
            if rank < count % 4 {
                // SAFETY: `base + 4q + rank < base + count <= n`.
                acc += unsafe { src.load_unchecked((base + 4 * q + rank) as usize) };
            }
        }
        t += grid_dim().x;
    }
    acc
}

/// The host's expectation for `partial` summed: the sum of `input`.
pub fn expected_sum(input: &[f32]) -> f64 {
    input.iter().map(|&x| x as f64).sum()
}
