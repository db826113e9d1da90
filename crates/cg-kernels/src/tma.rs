//! The tensor-copy experiment of `cg-lab compare --only tma`: 2-D tiles of
//! an `f32` matrix moved by the Tensor Memory Accelerator (sm_90), with a
//! C++ twin of each kernel (`reference/cuda/tma.cu`, `cuda::ptx`).
//!
//! * [`tma_copy`] copies the matrix tile by tile: a tile load completing on
//!   an mbarrier, then a tile store of the same shared tile.
//! * [`tma_transpose`] writes the transpose: each tile is loaded, turned
//!   in shared memory along diagonals (thread `l` of a warp reads row `l`
//!   at column `(l + j) % 32` and writes it to column `l`: no bank
//!   conflict on either side, the tiles dense as the copy engine wants
//!   them), and stored at the mirrored coordinates.
//!   [`tma_transpose_swizzled`] does the same with both maps' tiles in
//!   the copy engine's 128-byte swizzle (`tile_index` finds the elements).
//!
//! * [`bulk_copy`] copies a flat array with 1-D bulk copies, a window per
//!   block: a bulk load completing on an mbarrier, a bulk store.
//!
//! Blocks take tiles `blockIdx.x, + gridDim.x, …` with two stages: the
//! load of the next tile is in flight while the block works on this one,
//! and a tile's store is in flight while the block turns the next.

use cooperative_groups::global::PerBlock;
use cooperative_groups::intrinsics::{block_idx, grid_dim};
use cooperative_groups::prelude::*;
use cooperative_groups::tma::{
    Swizzle32B, Swizzle64B, Swizzle128B, TensorMap1d, TensorMap1dMut, TensorMap2d, TensorMap2dMut,
    TensorMap3d, TensorMap3dMut, TensorMap4d, TensorMap5d, TensorMap5dMut, TileLayout, TileStore,
};
use cooperative_groups::{Chunked, GlobalSlice, OwnedSlice, kernel};
#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
use cooperative_groups::{SharedArray, ThreadBlock, mbarrier::MbarrierArray};

/// Threads per block of the copy.
pub const COPY_BLOCK: u32 = 128;
/// Threads per block of the transpose: 8 warps, each turning 4 diagonals
/// of a 32 × 32 tile.
pub const TRANSPOSE_BLOCK: u32 = 256;
/// The tile side, elements.
pub const TILE: u32 = 32;

/// The experiment's maps: `f32` tiles of 32 × 32.
pub type Tiles<'a> = TensorMap2d<'a, f32, TILE, TILE>;
/// The experiment's output maps.
pub type TilesMut<'a> = TensorMap2dMut<'a, f32, TILE, TILE>;
/// The swizzled transpose's maps: the same tiles in the 128-byte swizzle.
pub type SwizzledTiles<'a> = TensorMap2d<'a, f32, TILE, TILE, Swizzle128B>;
/// The swizzled transpose's output maps.
pub type SwizzledTilesMut<'a> = TensorMap2dMut<'a, f32, TILE, TILE, Swizzle128B>;

const TILE_LEN: usize = (TILE * TILE) as usize;

/// Copies `src` to `dst` (the same shape) tile by tile, two stages: the
/// next tile's load in flight while the block stores this one.
#[kernel]
pub fn tma_copy(src: Tiles, dst: TilesMut) {
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    {
        let block = this_thread_block().with_threads::<COPY_BLOCK>();
        let full = cooperative_groups::mbarrier!(&block, 1; 2);
        let buf = cooperative_groups::shared_array!(f32; 2 * TILE_LEN, align 128);
        copy_tiles(&block, &src, &dst, full, buf);
    }
    #[cfg(all(target_arch = "nvptx64", not(target_feature = "sm_90")))]
    {
        let _ = (src, dst);
        panic!("tensor copies need sm_90")
    }
}

/// [`tma_copy`] with four stages: three loads in flight.
#[kernel]
pub fn tma_copy_4(src: Tiles, dst: TilesMut) {
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    {
        let block = this_thread_block().with_threads::<COPY_BLOCK>();
        let full = cooperative_groups::mbarrier!(&block, 1; 4);
        let buf = cooperative_groups::shared_array!(f32; 4 * TILE_LEN, align 128);
        copy_tiles(&block, &src, &dst, full, buf);
    }
    #[cfg(all(target_arch = "nvptx64", not(target_feature = "sm_90")))]
    {
        let _ = (src, dst);
        panic!("tensor copies need sm_90")
    }
}

/// The copy with `K` stages (`K` barriers, `K` tiles of `buf`). Trip `i`
/// stores stage `i % K`, whose barrier completes once per use (trip `i`
/// waits for its `i / K`-th phase); its `store_tile` waits for every
/// earlier store's reads, so after it the previous trip's stage is free
/// and the load of trip `i + K - 1` goes there: `K - 1` loads in flight.
#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
#[inline(always)]
fn copy_tiles<const K: usize, const LEN: usize>(
    block: &ThreadBlock<COPY_BLOCK>,
    src: &Tiles,
    dst: &TilesMut,
    full: MbarrierArray<K>,
    buf: SharedArray<f32, LEN>,
) {
    const { assert!(LEN == K * TILE_LEN) };
    let leader = block.thread_rank() == 0;
    let tiles_x = src.tiles_x();
    let tiles = tiles_x * src.tiles_y();
    let step = grid_dim().x;
    let rd = leader.then(|| src.tiles());
    let wr = dst.tiles_mut(block);
    let at = |t: u32| ((t % tiles_x * TILE) as i32, (t / tiles_x * TILE) as i32);
    let issue = |t: u32, s: usize| {
        if let (Some(rd), true) = (&rd, t < tiles) {
            let (x, y) = at(t);
            // SAFETY: one 4 KiB copy in flight on the stage's phase.
            unsafe {
                full.get(s)
                    .arrive_copy_tile(buf.slice(s * TILE_LEN, TILE_LEN), rd, x, y)
            }
            .discard();
        }
    };
    let first = block_idx().x;
    for j in 0..K - 1 {
        issue(first + j as u32 * step, j);
    }
    let mut t = first;
    let mut trip = 0usize;
    let mut last: Option<TileStore> = None;
    while t < tiles {
        let s = trip % K;
        full.get(s).wait_parity(((trip / K) & 1) as u32);
        let (x, y) = at(t);
        // SAFETY: each tile is stored by the one block that loaded it; a
        // stage is refilled only after the next `store_tile`, which waits
        // for this store's reads before its barrier; `wait_read` below.
        let st = unsafe { wr.store_tile(block, buf.slice(s * TILE_LEN, TILE_LEN), x, y) };
        if let Some(prev) = last.replace(st) {
            prev.discard();
        }
        // The previous trip's stage: its store has read it.
        issue(t + (K as u32 - 1) * step, (trip + K - 1) % K);
        t += step;
        trip += 1;
    }
    if let Some(st) = last {
        st.wait_read(block);
    }
}

/// Writes the transpose of `src` (`width × height`) into `dst`
/// (`height × width`).
#[kernel]
pub fn tma_transpose(src: Tiles, dst: TilesMut) {
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    {
        let block = this_thread_block().with_threads::<TRANSPOSE_BLOCK>();
        let full = cooperative_groups::mbarrier!(&block, 1; 2);
        let inb = cooperative_groups::shared_array!(f32; 2 * TILE_LEN, align 128);
        let outb = cooperative_groups::shared_array!(f32; 2 * TILE_LEN, align 128);
        transpose_tiles(&block, &src, &dst, full, inb, outb);
    }
    #[cfg(all(target_arch = "nvptx64", not(target_feature = "sm_90")))]
    {
        let _ = (src, dst);
        panic!("tensor copies need sm_90")
    }
}

/// [`tma_transpose`] with both maps' tiles in the copy engine's 128-byte
/// swizzle: the same diagonals, each element found through
/// `tile_index` (conflict-free on both sides in this layout too).
#[kernel]
pub fn tma_transpose_swizzled(src: SwizzledTiles, dst: SwizzledTilesMut) {
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    {
        let block = this_thread_block().with_threads::<TRANSPOSE_BLOCK>();
        let full = cooperative_groups::mbarrier!(&block, 1; 2);
        let inb = cooperative_groups::shared_array!(f32; 2 * TILE_LEN, align 1024);
        let outb = cooperative_groups::shared_array!(f32; 2 * TILE_LEN, align 1024);
        transpose_tiles(&block, &src, &dst, full, inb, outb);
    }
    #[cfg(all(target_arch = "nvptx64", not(target_feature = "sm_90")))]
    {
        let _ = (src, dst);
        panic!("tensor copies need sm_90")
    }
}

/// The transpose through two stages of `inb` (loads) and `outb` (stores)
/// whose tiles are laid out by `L`.
#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
#[inline(always)]
fn transpose_tiles<L: TileLayout>(
    block: &ThreadBlock<TRANSPOSE_BLOCK>,
    src: &TensorMap2d<f32, TILE, TILE, L>,
    dst: &TensorMap2dMut<f32, TILE, TILE, L>,
    full: MbarrierArray<2>,
    inb: SharedArray<f32, { 2 * TILE_LEN }>,
    outb: SharedArray<f32, { 2 * TILE_LEN }>,
) {
    let at_tile = TensorMap2d::<f32, TILE, TILE, L>::tile_index;
    let rank = block.thread_rank();
    let leader = rank == 0;
    let (lane, warp) = (rank % 32, rank / 32);
    let tiles_x = src.tiles_x();
    let tiles = tiles_x * src.tiles_y();
    let step = grid_dim().x;
    let rd = leader.then(|| src.tiles());
    let wr = dst.tiles_mut(block);
    let at = |t: u32| ((t % tiles_x * TILE) as i32, (t / tiles_x * TILE) as i32);
    let issue = |t: u32, s: usize| {
        if let (Some(rd), true) = (&rd, t < tiles) {
            let (x, y) = at(t);
            // SAFETY: one 4 KiB copy in flight on the stage's phase.
            unsafe {
                full.get(s)
                    .arrive_copy_tile(inb.slice(s * TILE_LEN, TILE_LEN), rd, x, y)
            }
            .discard();
        }
    };
    let mut t = block_idx().x;
    issue(t, 0);
    let mut trip = 0usize;
    let mut last: Option<TileStore> = None;
    while t < tiles {
        let s = trip & 1;
        // Into the stage the previous trip turned (read before its
        // store's barrier).
        issue(t + step, s ^ 1);
        full.get(s).wait_parity(((trip >> 1) & 1) as u32);
        let base = s * TILE_LEN;
        for k in 0..4 {
            let r = (lane + warp * 4 + k) % 32;
            outb.store(base + at_tile(lane, r), inb.load(base + at_tile(r, lane)));
        }
        let (x, y) = at(t);
        // SAFETY: tile (x, y) of `src` is the one block's, so is its
        // mirror in `dst`; `outb`'s stage `s` is written again two trips
        // on, after the next `store_tile` waited for this store's
        // reads; `wait_read` below.
        let st = unsafe { wr.store_tile(block, outb.slice(base, TILE_LEN), y, x) };
        if let Some(prev) = last.replace(st) {
            prev.discard();
        }
        t += step;
        trip += 1;
    }
    if let Some(st) = last {
        st.wait_read(block);
    }
}

/// Floats per block of [`bulk_copy`]: one 16 KiB window.
pub const BULK_TILE: usize = 4096;
/// Threads per block of [`bulk_copy`].
pub const BULK_BLOCK: u32 = 128;
/// The parameters of [`bulk_copy`]: the source, and the destination
/// owned by blocks in windows of [`BULK_TILE`].
pub type BulkArgs = (
    GlobalSlice<'static, f32>,
    OwnedSlice<'static, f32, PerBlock<BULK_TILE>>,
);

/// Copies `src` to `dst` (the same length) with 1-D bulk copies, one
/// window of [`BULK_TILE`] floats per block (launch `⌈n / BULK_TILE⌉`
/// blocks of [`BULK_BLOCK`]): thread 0 loads the window into shared memory
/// with one `cp.async.bulk` on an mbarrier (`Mbarrier::arrive_copy`), the
/// block waits for it and stores it back with one bulk store
/// (`Window::store_bulk`). A tail of `n % 4` floats goes by plain loads and
/// stores.
#[kernel]
pub fn bulk_copy(src: GlobalSlice<f32>, dst: OwnedSlice<f32, PerBlock<BULK_TILE>>) {
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    {
        let block = this_thread_block().with_threads::<BULK_BLOCK>();
        let full = cooperative_groups::mbarrier!(&block, 1);
        let buf = cooperative_groups::shared_array!(f32; BULK_TILE, align 128);
        let w = dst.window(&block);
        let (start, len) = (w.start(), w.len());
        if block.thread_rank() == 0 {
            let whole = len & !3;
            for i in whole..len {
                buf.store(i, src.load(start + i));
            }
            if whole > 0 {
                // SAFETY: one 16 KiB copy in flight on the phase.
                unsafe {
                    full.arrive_copy(buf.slice(0, whole), &src.as_slice()[start..start + whole])
                }
                .discard();
            } else {
                full.arrive().discard();
            }
        }
        full.wait_parity(0);
        // SAFETY: no thread touches the window or the buffer after the
        // store, which is waited for before the block exits.
        unsafe { w.store_bulk(&block, buf.as_slice()) }.wait_read(&block);
    }
    #[cfg(all(target_arch = "nvptx64", not(target_feature = "sm_90")))]
    {
        let _ = (src, dst);
        panic!("bulk copies need sm_90")
    }
}

/// Threads of [`tma_swizzle_probe`] (one block).
pub const PROBE_BLOCK: u32 = 128;
/// Words each thread of [`tma_swizzle_probe`] writes: the three tiles'
/// 128 + 256 + 512 words over [`PROBE_BLOCK`] threads.
pub const PROBE_WORDS: usize = 7;
/// Where [`tma_swizzle_probe`] loads each box: `(x, y)` in elements.
pub const PROBE_AT: (i32, i32) = (4, 3);

/// The swizzles' layouts as the copy engine writes them: one block loads
/// the box at [`PROBE_AT`] of each map (32-, 64- and 128-byte swizzles)
/// into shared memory and writes the three tiles out raw, word `k` of
/// the 896 by thread `k / PROBE_WORDS`. `cg-lab compare --only tma` runs it
/// on the GPU and on the simulator and requires the same words: the
/// simulator's layouts (and so `tile_index`) are the hardware's.
#[kernel]
pub fn tma_swizzle_probe(
    a: TensorMap2d<u32, 8, 16, Swizzle32B>,
    b: TensorMap2d<u32, 16, 16, Swizzle64B>,
    c: TensorMap2d<u32, 32, 16, Swizzle128B>,
    out: OwnedSlice<u32, Chunked<PROBE_WORDS>>,
) {
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    {
        let block = this_thread_block().with_threads::<PROBE_BLOCK>();
        let full = cooperative_groups::mbarrier!(&block, 3);
        // The tiles at words 0, 512 and 1024: each aligned to its period.
        let tiles = cooperative_groups::shared_array!(u32; 1536, align 1024);
        if block.thread_rank() == 0 {
            let (x, y) = PROBE_AT;
            // SAFETY: three copies (7 KiB) in flight on the phase, each the
            // phase's arrival.
            unsafe {
                full.arrive_copy_tile(tiles.slice(0, 128), &a.tiles(), x, y)
                    .discard();
                full.arrive_copy_tile(tiles.slice(512, 256), &b.tiles(), x, y)
                    .discard();
                full.arrive_copy_tile(tiles.slice(1024, 512), &c.tiles(), x, y)
                    .discard();
            }
        }
        full.wait_parity(0);
        let mine = out.chunk(&this_grid());
        for j in 0..PROBE_WORDS {
            let k = block.thread_rank() as usize * PROBE_WORDS + j;
            let at = match k {
                0..128 => k,
                128..384 => 512 + k - 128,
                _ => 1024 + k - 384,
            };
            mine.store(j, tiles.load(at));
        }
    }
    #[cfg(all(target_arch = "nvptx64", not(target_feature = "sm_90")))]
    {
        let _ = (a, b, c, out);
        panic!("tensor copies need sm_90")
    }
}

/// Words each thread of [`tma_rank_probe`] writes: the 4-D tile's 256,
/// the 5-D tile's 256, the 1-D tile's 64, then zeros.
pub const RANK_PROBE_WORDS: usize = 5;
/// Where [`tma_rank_probe`] loads its 1-D box (its first 16 elements
/// outside the source) and stores it (its last 28 outside the
/// destination's 100).
pub const RANK_PROBE_1D_AT: (i32, i32) = (-16, 64);
/// Where [`tma_rank_probe`] loads its 4-D box, loads its 5-D box, and
/// stores the 5-D box (each partly outside its tensor).
pub const RANK_PROBE_AT: ([i32; 4], [i32; 5], [i32; 5]) =
    ([16, 2, 1, 1], [8, 1, 1, 2, 1], [0, 2, 0, 1, 1]);

/// 4-D and 5-D tensor copies as the copy engine does them: one block of
/// [`PROBE_BLOCK`] threads loads the 16 × 2 × 4 × 2 box of `a` (64-byte
/// swizzle) and the dense 8 × 4 × 2 × 2 × 2 box of `b` at
/// [`RANK_PROBE_AT`] (zeros outside the tensors), writes both tiles out
/// raw, adds [`VOLUME_BUMP`] to the dense tile in shared memory and stores
/// it into `out`; the same for the 64-element row of the 1-D map `c` at
/// [`RANK_PROBE_1D_AT`], stored into `out1`. `cg-lab compare --only tma`
/// runs it on the GPU and on the simulator and requires the same words,
/// raw and in `out` and `out1`.
#[kernel]
pub fn tma_rank_probe(
    a: TensorMap4d<u32, 16, 2, 4, 2, Swizzle64B>,
    b: TensorMap5d<u32, 8, 4, 2, 2, 2>,
    c: TensorMap1d<u32, 64>,
    out: TensorMap5dMut<u32, 8, 4, 2, 2, 2>,
    out1: TensorMap1dMut<u32, 64>,
    raw: OwnedSlice<u32, Chunked<RANK_PROBE_WORDS>>,
) {
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    {
        let block = this_thread_block().with_threads::<PROBE_BLOCK>();
        let full = cooperative_groups::mbarrier!(&block, 3);
        let swizzled = cooperative_groups::shared_array!(u32; 256, align 512);
        let dense = cooperative_groups::shared_array!(u32; 256, align 128);
        let row = cooperative_groups::shared_array!(u32; 64, align 128);
        let (at4, at5, store_at) = RANK_PROBE_AT;
        let (at1, store_at1) = RANK_PROBE_1D_AT;
        if block.thread_rank() == 0 {
            // SAFETY: three copies (2.25 KiB) in flight on the phase, each
            // the phase's arrival.
            unsafe {
                full.arrive_copy_tile_4d(swizzled.as_slice(), &a.tiles(), at4)
                    .discard();
                full.arrive_copy_tile_5d(dense.as_slice(), &b.tiles(), at5)
                    .discard();
                full.arrive_copy_tile_1d(row.as_slice(), &c.tiles(), [at1])
                    .discard();
            }
        }
        full.wait_parity(0);
        let mine = raw.chunk(&this_grid());
        for j in 0..RANK_PROBE_WORDS {
            let k = block.thread_rank() as usize * RANK_PROBE_WORDS + j;
            let word = match k {
                0..256 => swizzled.load(k),
                256..512 => dense.load(k - 256),
                512..576 => row.load(k - 512),
                _ => 0,
            };
            mine.store(j, word);
        }
        block.sync();
        let r = block.thread_rank() as usize;
        for k in [r, r + 128] {
            dense.store(k, dense.load(k) + VOLUME_BUMP);
        }
        if r < 64 {
            row.store(r, row.load(r) + VOLUME_BUMP);
        }
        // SAFETY: the only stores into `out` and `out1` of a one-block
        // launch; `dense` and `row` are not written again.
        unsafe {
            out.tiles_mut(&block)
                .store_tile(&block, dense.as_slice(), store_at)
                .discard();
            out1.tiles_mut(&block)
                .store_tile(&block, row.as_slice(), [store_at1])
                .wait_read(&block);
        }
    }
    #[cfg(all(target_arch = "nvptx64", not(target_feature = "sm_90")))]
    {
        let _ = (a, b, c, out, out1, raw);
        panic!("tensor copies need sm_90")
    }
}

/// Words each thread of [`tma_volume_probe`] writes: the swizzled tile's
/// 512, then the dense tile's 64, then zeros.
pub const VOLUME_PROBE_WORDS: usize = 5;
/// Where [`tma_volume_probe`] loads its dense box (partly outside the
/// source: 2 of its 4 rows and 1 of its 2 planes) and where it stores it
/// (partly outside the destination, which clips it).
pub const VOLUME_DENSE_AT: ([i32; 3], [i32; 3]) = ([-4, 6, 5], [16, 4, 3]);
/// What [`tma_volume_probe`] adds to each word of the dense tile between
/// its load and its store (written by the threads, so the store must see
/// generic-proxy writes).
pub const VOLUME_BUMP: u32 = 1000;

/// 3-D tensor copies as the copy engine does them: one block of
/// [`PROBE_BLOCK`] threads loads the 32 × 4 × 4 box at `(4, 2, 1)` of `a`
/// (128-byte swizzle) and the dense 8 × 4 × 2 box of `b` at
/// [`VOLUME_DENSE_AT`]`.0` (zeros outside the tensor), writes both tiles
/// out raw, adds [`VOLUME_BUMP`] to the dense tile in shared memory and
/// stores it into `out` at [`VOLUME_DENSE_AT`]`.1`. `cg-lab compare --only
/// tma` runs it on the GPU and on the simulator and requires the same
/// words, raw and in `out`.
#[kernel]
pub fn tma_volume_probe(
    a: TensorMap3d<u32, 32, 4, 4, Swizzle128B>,
    b: TensorMap3d<u32, 8, 4, 2>,
    out: TensorMap3dMut<u32, 8, 4, 2>,
    raw: OwnedSlice<u32, Chunked<VOLUME_PROBE_WORDS>>,
) {
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    {
        let block = this_thread_block().with_threads::<PROBE_BLOCK>();
        let full = cooperative_groups::mbarrier!(&block, 2);
        let tile = cooperative_groups::shared_array!(u32; 512, align 1024);
        let dense = cooperative_groups::shared_array!(u32; 64, align 128);
        if block.thread_rank() == 0 {
            let [x, y, z] = VOLUME_DENSE_AT.0;
            // SAFETY: two copies (2.25 KiB) in flight on the phase, each
            // the phase's arrival.
            unsafe {
                full.arrive_copy_tile_3d(tile.as_slice(), &a.tiles(), 4, 2, 1)
                    .discard();
                full.arrive_copy_tile_3d(dense.as_slice(), &b.tiles(), x, y, z)
                    .discard();
            }
        }
        full.wait_parity(0);
        let mine = raw.chunk(&this_grid());
        for j in 0..VOLUME_PROBE_WORDS {
            let k = block.thread_rank() as usize * VOLUME_PROBE_WORDS + j;
            let word = match k {
                0..512 => tile.load(k),
                512..576 => dense.load(k - 512),
                _ => 0,
            };
            mine.store(j, word);
        }
        block.sync();
        let r = block.thread_rank() as usize;
        if r < 64 {
            dense.store(r, dense.load(r) + VOLUME_BUMP);
        }
        let [x, y, z] = VOLUME_DENSE_AT.1;
        // SAFETY: the only store into `out` of a one-block launch; `dense`
        // is not written again.
        unsafe {
            out.tiles_mut(&block)
                .store_tile(&block, dense.as_slice(), x, y, z)
        }
        .wait_read(&block);
    }
    #[cfg(all(target_arch = "nvptx64", not(target_feature = "sm_90")))]
    {
        let _ = (a, b, out, raw);
        panic!("tensor copies need sm_90")
    }
}
