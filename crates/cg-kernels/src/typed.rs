//! Typed kernels next to their raw-pointer forms, for the zero-cost tests
//! (`crates/cg-lab/tests/zero_cost.rs`): the same loop, the same collective,
//! one reading and writing through `GlobalSlice`/`OwnedSlice`, the other
//! through pointers, must assemble to the same instructions (the typed
//! input's loads take the read-only path, `LDG.E.CONSTANT`).

use cooperative_groups::cache::{CachePolicy, L1NoAllocate, L2EvictFirst, L2EvictLast, Streaming};
use cooperative_groups::mma::{Accumulator, MatrixA, MatrixB, MmaElement, mma};
use cooperative_groups::prelude::*;
use cooperative_groups::vector::F32x4;
use cooperative_groups::{
    AtomicSlice, GlobalSlice, OwnedPitched, OwnedSlice, PerBlock, Pitched, Pod, ThreadTiles,
    TileRows, WarpTiles, bf16, e4m3, e5m2, f16, kernel, shared_array, unroll,
};

/// `y[i] = a · x[i] + y[i]`, a grid-stride loop through raw pointers (what
/// the kernels of this repository were written as).
#[kernel]
pub fn probe_saxpy_raw(a: f32, x: *const f32, y: *mut f32, n: u32) {
    let grid = this_grid();
    let mut i = grid.thread_rank() as usize;
    while i < n as usize {
        // SAFETY: the launcher passes `n` elements of each.
        unsafe { *y.add(i) = a * *x.add(i) + *y.add(i) };
        i += grid.num_threads() as usize;
    }
}

/// [`probe_saxpy_raw`], typed: `y`'s grid-stride elements, `x` checked
/// against its length once (a launch with a shorter `x` traps), so that
/// every `x.load` is in bounds by the loop's own test.
#[kernel]
pub fn probe_saxpy_typed(a: f32, x: GlobalSlice<f32>, y: OwnedSlice<f32>) {
    let x = x.prefix(y.len());
    for e in y.grid_stride(&this_grid()) {
        e.store(a * x.load(e.index()) + e.load());
    }
}

/// Each block's sum of its grid-strided share of `input[..n]` in
/// `partial[block]`, raw (the lab's reduce shape).
#[kernel]
pub fn probe_block_sum_raw(input: *const f32, partial: *mut f32, n: u32) {
    let block = this_thread_block();
    let grid = this_grid();
    let mut v = 0.0f32;
    let mut i = grid.thread_rank() as usize;
    while i < n as usize {
        // SAFETY: `n` inputs.
        v += unsafe { *input.add(i) };
        i += grid.num_threads() as usize;
    }
    let s = reduce(&block, v, Plus);
    if block.thread_rank() == 0 {
        // SAFETY: one partial per block.
        unsafe { *partial.add(grid.block_rank() as usize) = s };
    }
}

/// [`probe_block_sum_raw`], typed.
#[kernel]
pub fn probe_block_sum_typed(input: GlobalSlice<f32>, partial: OwnedSlice<f32, PerBlock>) {
    let block = this_thread_block();
    let grid = this_grid();
    let mut v = 0.0f32;
    let mut i = grid.thread_rank() as usize;
    while i < input.len() {
        v += input.load(i);
        i += grid.num_threads() as usize;
    }
    let s = reduce(&block, v, Plus);
    if let Some(e) = partial.leader(&block) {
        e.store(s);
    }
}

/// Two loads a block apart per iteration, counting in `u32` (the reduction
/// sample's kernel 9 shape), raw.
#[kernel]
pub fn probe_pair_sum_raw(input: *const i32, partial: *mut i32, n: u32) {
    let block = this_thread_block();
    let grid = this_grid();
    let b = block.num_threads() as u32;
    let mut v = 0i32;
    let mut i = grid.block_rank() as u32 * b * 2 + block.thread_rank() as u32;
    while i < n {
        // SAFETY: `i < n` and `i + b < n` below: `n` inputs.
        v = v.wrapping_add(unsafe { *input.add(i as usize) });
        if i + b < n {
            // SAFETY: as above.
            v = v.wrapping_add(unsafe { *input.add((i + b) as usize) });
        }
        i += grid.num_threads() as u32 * 2;
    }
    let s = reduce(&block, v, Plus);
    if block.thread_rank() == 0 {
        // SAFETY: one partial per block.
        unsafe { *partial.add(grid.block_rank() as usize) = s };
    }
}

/// [`probe_pair_sum_raw`], typed: `with_u32_len` gives the `u32` bound
/// that makes both loads' checks redundant.
#[kernel]
pub fn probe_pair_sum_typed(input: GlobalSlice<i32>, partial: OwnedSlice<i32, PerBlock>) {
    let (input, n) = input.with_u32_len();
    let block = this_thread_block();
    let grid = this_grid();
    let b = block.num_threads() as u32;
    let mut v = 0i32;
    let mut i = grid.block_rank() as u32 * b * 2 + block.thread_rank() as u32;
    while i < n {
        v = v.wrapping_add(input.load(i as usize));
        if i + b < n {
            v = v.wrapping_add(input.load((i + b) as usize));
        }
        i += grid.num_threads() as u32 * 2;
    }
    let s = reduce(&block, v, Plus);
    if let Some(e) = partial.leader(&block) {
        e.store(s);
    }
}

/// Every kind of atomic access on elements of an [`AtomicSlice`]: a `red`,
/// a fetch-add of `f64`, a compare-and-swap, an atomic load and store. The
/// slice's memory is global, so each lowers to its `.global` form (SASS
/// `REDG` on sm_90, `ATOMG`), as nvcc's atomics on a global pointer do,
/// where an [`AtomicRef`](cooperative_groups::atomic::AtomicRef) made from
/// a pointer of unknown space uses the generic forms (`ATOM.E`, for the
/// `red` too).
#[kernel]
pub fn probe_atomic_slice(
    keys: GlobalSlice<u32>,
    bins: AtomicSlice<u32>,
    sums: AtomicSlice<f64>,
    flags: AtomicSlice<u64>,
) {
    use cooperative_groups::atomic::{Acquire, Relaxed, Release};
    let r = this_grid().thread_rank() as usize;
    if r < keys.len() && !bins.is_empty() && !sums.is_empty() && !flags.is_empty() {
        let k = keys.load(r);
        bins.at(k as usize % bins.len()).red_add(1, Relaxed);
        let before = sums.at(0).fetch_add(k as f64, Relaxed);
        let f = flags.at(r % flags.len());
        let _ = f.compare_exchange(0, before.to_bits(), Relaxed);
        if f.load(Acquire) == 0 {
            f.store(1, Release);
        }
    }
}

/// A bulk copy into shared memory completing on an mbarrier
/// ([`Mbarrier::arrive_copy`](cooperative_groups::mbarrier::Mbarrier::arrive_copy),
/// sm_90: `mbarrier.arrive.expect_tx` + `cp.async.bulk`), waited on by the
/// whole block, then a sum per thread: the PTX tests pin the instructions.
/// Other SMs have no bulk copy: the kernel traps there.
#[kernel]
pub fn probe_bulk_copy(input: GlobalSlice<u32>, out: OwnedSlice<u32>) {
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    {
        let block = this_thread_block();
        let bar = cooperative_groups::mbarrier!(&block, 1);
        let buf = cooperative_groups::shared_array!(u32; 256);
        let src = input.as_slice();
        let n = src.len().min(256) & !3;
        if block.thread_rank() == 0 && n > 0 {
            // SAFETY: one copy of at most 1 KiB in flight on the phase.
            unsafe { bar.arrive_copy(buf.slice(0, n), &src[..n]) }.discard();
        } else if block.thread_rank() == 0 {
            bar.arrive().discard();
        }
        bar.wait_parity(0);
        let t = block.thread_rank() as usize;
        if let Some(e) = out.at(&this_grid()) {
            e.store(if t < n { buf.load(t & 255) } else { 0 });
        }
    }
    #[cfg(all(target_arch = "nvptx64", not(target_feature = "sm_90")))]
    {
        let _ = (input, out);
        panic!("bulk copies need sm_90")
    }
}

/// Vectors: the aligned middle of a read-only `f32` input read as 16-byte
/// vectors, exchanged between neighbouring threads through shared memory
/// and stored to an owned vector output — one `LDG.E.128`, `STS.128`,
/// `LDS.128` and `STG.E.128` each (zero_cost checks the SASS).
#[kernel]
pub fn probe_vector_copy(x: GlobalSlice<f32>, y: OwnedSlice<F32x4>) {
    let block = this_thread_block();
    let stage = shared_array!(F32x4; 1024);
    let (_, body, _) = x.align_to::<4>();
    // (A block has at most 1024 threads: the remainder only tells the
    // compiler, so that the indices below need no check.)
    let t = block.thread_rank() as usize % 1024;
    let e = y.at(&this_grid());
    let v = match &e {
        Some(e) => body.load(e.index()),
        None => F32x4::default(),
    };
    stage.store(t, v);
    block.sync();
    if let Some(e) = e {
        e.store(stage.load(t ^ 1) + v);
    }
}

/// Cache hints: a streaming read-modify-write of 16-byte vectors
/// (`__ldcs`/`__stcs` on `float4`): `y = a·x + y` with `ld.global.cs` and
/// `st.global.cs` (zero_cost checks the evict-first SASS).
#[kernel]
pub fn probe_streaming_rmw(a: f32, x: GlobalSlice<F32x4>, y: OwnedSlice<F32x4>) {
    let x = x.prefix(y.len());
    for e in y.grid_stride(&this_grid()) {
        let v = x.load_hint(e.index(), Streaming) * F32x4::splat(a) + e.load_hint(Streaming);
        e.store_hint(v, Streaming);
    }
}

/// A row of run-time width per warp, raw: `y(j, r) = a · x(j, r)` for the
/// warp's rows `r = w, w + W, …` (`w` its grid-wide index, `W` the grid's
/// warps), its lanes striped along the row (the shape of a layer norm's
/// store pass).
#[kernel]
#[allow(clippy::too_many_arguments)]
pub fn probe_rows_raw(
    a: f32,
    x: *const f32,
    x_pitch: usize,
    y: *mut f32,
    y_pitch: usize,
    width: usize,
    height: usize,
) {
    let block = this_thread_block();
    let grid = this_grid();
    let per_block = (block.num_threads() as usize).div_ceil(32);
    let t = block.thread_rank() as usize;
    let mut r = grid.block_rank() as usize * per_block + t / 32;
    while r < height {
        let mut j = t % 32;
        while j < width {
            // SAFETY: the launcher passes images of `height` rows of
            // `width` elements, `x_pitch` and `y_pitch` apart.
            unsafe { *y.add(r * y_pitch + j) = a * *x.add(r * x_pitch + j) };
            j += 32;
        }
        r += grid.num_blocks() as usize * per_block;
    }
}

/// [`probe_rows_raw`], typed: `y`'s rows under [`TileRows<32>`], `x`'s row
/// checked once per row (`row`, then `prefix` to the output's width), so
/// that the inner loop's loads carry no check — the same inner loop as the
/// raw form (zero_cost checks the SASS).
#[kernel]
pub fn probe_rows_typed(a: f32, x: Pitched<f32>, y: OwnedPitched<f32, TileRows<32>>) {
    let warp = tiled_partition::<32>(&this_thread_block());
    for row in y.row_stride(&warp) {
        let xr = x.row(row.y()).prefix(row.len());
        for e in row.striped() {
            e.store(a * xr.load(e.x()));
        }
    }
}

/// [`probe_rows_typed`] with 16-byte vectors: `y`'s rows under
/// [`TileRows<32, 4>`] (each lane owns 4 consecutive floats at a time),
/// written by `striped_vec` (`STG.E.128` where the row is aligned), read
/// by `load_vec` (`LDG.E.128.CONSTANT` where aligned), the row's last
/// elements by `tail` (zero_cost checks the SASS).
#[kernel]
pub fn probe_rows_vec(a: f32, x: Pitched<f32>, y: OwnedPitched<f32, TileRows<32, 4>>) {
    let warp = tiled_partition::<32>(&this_thread_block());
    for row in y.row_stride(&warp) {
        let xr = x.row(row.y()).prefix(row.len());
        for v in row.striped_vec() {
            v.store(xr.load_vec::<4>(v.x()) * F32x4::splat(a));
        }
        for e in row.tail() {
            e.store(a * xr.load(e.x()));
        }
    }
}

/// A shared `SharedSlice<F32x4>` (a slice of a shared array):
/// its `store` and `load` of 16-byte vectors are `STS.128` and `LDS.128`,
/// not the generic `ST.E.128`/`LD.E.128` (zero_cost checks the SASS).
#[kernel]
pub fn probe_shared_slice_vec(x: GlobalSlice<F32x4>, y: OwnedSlice<F32x4>) {
    let block = this_thread_block();
    // A slice of a whole array: its length is known, so with the index
    // below it (a block has at most 1024 threads: the remainder only
    // tells the compiler) the accesses need no check.
    let stage = shared_array!(F32x4; 1024).as_slice();
    let t = block.thread_rank() as usize % 1024;
    let e = y.at(&this_grid());
    let v = match &e {
        Some(e) => x.load(e.index()),
        None => F32x4::default(),
    };
    stage.store(t, v);
    block.sync();
    if let Some(e) = e {
        e.store(stage.load(t ^ 1) + v);
    }
}

/// L1/L2 eviction priorities and an L2 cache policy: `x` read with
/// `.L2::evict_last` (kept in L2) and `.L1::no_allocate`, `y` read and
/// written with `.L2::evict_first`, `z` written with a `createpolicy`
/// policy (`.L2::cache_hint`) — zero_cost checks the qualifiers in the
/// PTX and the SASS.
#[kernel]
pub fn probe_eviction_hints(
    x: GlobalSlice<F32x4>,
    w: GlobalSlice<F32x4>,
    y: OwnedSlice<F32x4>,
    z: OwnedSlice<F32x4>,
) {
    let keep = CachePolicy::evict_last();
    let x = x.prefix(y.len());
    let w = w.prefix(y.len());
    let z = z.prefix(y.len());
    for e in y.grid_stride(&this_grid()) {
        let i = e.index();
        let v = x.load_hint(i, L2EvictLast) + w.load_hint(i, L1NoAllocate);
        e.store_hint(v + e.load_hint(L2EvictFirst), L2EvictFirst);
    }
    for e in z.grid_stride(&this_grid()) {
        e.store_hint(x.load_hint(e.index(), keep), keep);
    }
}

/// A register-tiled matrix product's full tiles: `c = a · b`, each thread
/// an 8 × 8 tile of `c` under [`ThreadTiles<8, 8>`], its rows of `a` and
/// its row of `b` checked once per `k`, the loops over the tile written
/// out with [`unroll!`](cooperative_groups::unroll!), the accumulator 64
/// registers, stored by `store_all` — no local memory (zero_cost checks
/// the SASS). Threads whose tile is cut by the edge return.
#[kernel]
pub fn probe_thread_tile_gemm(
    a: Pitched<f32>,
    b: Pitched<f32>,
    c: OwnedPitched<f32, ThreadTiles<8, 8>>,
) {
    let Some(t) = c.tile(&this_grid()) else {
        return;
    };
    if !t.is_full() {
        return;
    }
    let kk = a.width();
    let mut acc = [[0.0f32; 8]; 8];
    for k in 0..kk {
        let bk = b.row(k).slice(t.x0(), 8);
        let mut av = [0.0f32; 8];
        let mut bv = [0.0f32; 8];
        unroll!(i in 0..8 => {
            av[i] = a.load(k, t.y0() + i);
            bv[i] = bk.load(i);
        });
        unroll!(i in 0..8 => {
            unroll!(j in 0..8 => {
                acc[i][j] += av[i] * bv[j];
            });
        });
    }
    t.store_all(&acc);
}

/// The warp MMA: `c = a·b` for one 16 × 16 × 8 tile per warp (`a` 16 × 16,
/// `b` 16 × 8, row-major bf16 or f16, `c` `f32` under
/// [`WarpTiles<16, 8>`]): one `mma.sync.aligned.m16n8k16` per warp
/// (`HMMA.16816.F32.BF16` / `HMMA.16816.F32` in SASS; zero_cost checks it).
#[kernel(instances(bf16, f16))]
pub fn probe_mma<T: MmaElement<Acc = f32> + Pod>(
    a: GlobalSlice<T>,
    b: GlobalSlice<T>,
    c: OwnedPitched<f32, WarpTiles<16, 8>>,
) {
    let warp = tiled_partition::<32>(&this_thread_block());
    let a = a.prefix(256);
    let b = b.prefix(128);
    let fa = MatrixA::from_fn(&warp, |row, col| a.load(row * 16 + col));
    let fb = MatrixB::from_fn(&warp, |k, n| b.load(k * 8 + n));
    let acc = mma(&warp, &fa, &fb, Accumulator::zero(&warp));
    if let Some(tile) = c.warp_tile(&warp) {
        acc.store(&warp, &tile, 0, 0);
    }
}

/// The warp MMA's operands from shared memory: `a` (16 × 16) and `b` (16 ×
/// 8) staged in shared tiles with padded rows, then one `ldmatrix.x4`
/// (`LDSM.16.M88.4`) for A and one `ldmatrix.x2.trans` (`LDSM.16.MT88.2`)
/// for B, then `mma` (zero_cost checks the SASS).
#[kernel]
pub fn probe_mma_ldmatrix(
    a: GlobalSlice<bf16>,
    b: GlobalSlice<bf16>,
    c: OwnedPitched<f32, WarpTiles<16, 8>>,
) {
    const LD: usize = 24;
    let block = this_thread_block();
    let warp = tiled_partition::<32>(&block);
    let sa = shared_array!(bf16; 16 * LD, align 16);
    let sb = shared_array!(bf16; 16 * LD, align 16);
    let (a, b) = (a.prefix(256), b.prefix(128));
    let t = block.thread_rank() as usize % 32;
    unroll!(k in 0..8 => {
        let i = t + 32 * k;
        sa.store((i / 16) * LD + i % 16, a.load(i));
    });
    unroll!(k in 0..4 => {
        let i = t + 32 * k;
        sb.store((i / 8) * LD + i % 8, b.load(i));
    });
    block.sync();
    let fa = MatrixA::load_shared(&warp, &sa.as_slice(), 0, 0, LD);
    let fb = MatrixB::load_shared(&warp, &sb.as_slice(), 0, 0, LD);
    let acc = mma(&warp, &fa, &fb, Accumulator::zero(&warp));
    if let Some(tile) = c.warp_tile(&warp) {
        acc.store(&warp, &tile, 0, 0);
    }
}

/// One 16 × 32 × 8 warp MMA of 8-bit inputs (`a`, `b` row-major) into the
/// warp's tile of `c`.
#[inline(always)]
fn mma8_tile<T: MmaElement + Pod>(
    a: GlobalSlice<T>,
    b: GlobalSlice<T>,
    c: OwnedPitched<T::Acc, WarpTiles<16, 8>>,
) where
    T::Acc: Pod,
{
    let warp = tiled_partition::<32>(&this_thread_block());
    let a = a.prefix(512);
    let b = b.prefix(256);
    let fa = MatrixA::from_fn(&warp, |row, col| a.load(row * 32 + col));
    let fb = MatrixB::from_fn(&warp, |k, n| b.load(k * 8 + n));
    let acc = mma(&warp, &fa, &fb, Accumulator::zero(&warp));
    if let Some(tile) = c.warp_tile(&warp) {
        acc.store(&warp, &tile, 0, 0);
    }
}

/// The warp MMA with 8-bit integer inputs (`m16n8k32`, `i32`
/// accumulators): one `IMMA.16832` (zero_cost checks it).
#[kernel(instances(i8, u8))]
pub fn probe_mma_int<T: MmaElement<Acc = i32> + Pod>(
    a: GlobalSlice<T>,
    b: GlobalSlice<T>,
    c: OwnedPitched<i32, WarpTiles<16, 8>>,
) {
    mma8_tile(a, b, c)
}

/// The warp MMA with 8-bit float inputs (`m16n8k32`, `f32` accumulators,
/// sm_89+): one tensor-core instruction (zero_cost checks it).
#[kernel(instances(e4m3, e5m2))]
pub fn probe_mma_fp8<T: MmaElement<Acc = f32> + Pod>(
    a: GlobalSlice<T>,
    b: GlobalSlice<T>,
    c: OwnedPitched<f32, WarpTiles<16, 8>>,
) {
    mma8_tile(a, b, c)
}
