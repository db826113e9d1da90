//! Histogram equalisation of an 8-bit grey image, in three kernels built
//! from the library's block primitives, as a user writes them:
//!
//! 1. [`tile_histograms`]: each block of [`BLOCK`] threads loads a tile of
//!    [`TILE`] pixels ([`BlockLoad`], [`ITEMS`] per thread, vectorised),
//!    counts them into [`BINS`] bins in shared memory ([`BlockHistogram`])
//!    and writes its histogram to its own window of the output (one row of
//!    `BINS` counts per tile: no atomics in global memory, nothing to zero
//!    between runs). The image's last tile may be partial: its missing
//!    pixels become the sample `BINS`, which counts in no bin.
//! 2. [`equalise_lut`]: one block of `BINS` threads, thread `v` for grey
//!    level `v`: it adds up bin `v` of every tile, the block scans the
//!    counts into the cumulative histogram ([`BlockScan`]), finds the
//!    first non-zero cumulative count ([`BlockReduce`] with [`Less`]) and
//!    writes the look-up table `lut[v] = round(255 · (cdf(v) − cdf_min) /
//!    (pixels − cdf_min))` (the identity for an image of one grey level).
//! 3. [`apply_lut`]: each block copies the table to shared memory, loads
//!    its tile, maps every pixel through the table and stores the tile
//!    ([`BlockStore`], vectorised: each thread its own [`ITEMS`] pixels of
//!    the output, a [`Chunked`] slice).
//!
//! Every kernel is safe: typed parameters, no `unsafe`.
#![no_std]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(abi_gpu_kernel, asm_experimental_arch)
)]

use cooperative_groups::ops::Less;
use cooperative_groups::prelude::*;
use cooperative_groups::primitives::{
    BlockHistogram, BlockLoad, BlockReduce, BlockScan, BlockStore, Vectorize,
};
use cooperative_groups::{Chunked, GlobalSlice, OwnedSlice, PerBlock, kernel, shared_array};

/// Threads per block of the tile kernels.
pub const BLOCK: u32 = 256;
/// Pixels per thread: 16 bytes, one vector load and store.
pub const ITEMS: usize = 16;
/// Pixels per tile (one block's).
pub const TILE: usize = BLOCK as usize * ITEMS;
/// Grey levels.
pub const BINS: usize = 256;
/// Tiles' histograms [`equalise_lut`] adds up per group of loads.
pub const ROWS: usize = 16;

type Load = BlockLoad<u8, BLOCK, ITEMS, Vectorize>;
type Histogram = BlockHistogram<u16, BLOCK, ITEMS, BINS>;
type Store = BlockStore<u8, BLOCK, ITEMS, Vectorize>;

/// The block's tile of `pixels`: all of it from the block's first pixel
/// on (the load reads the first `TILE`), and how many of them the tile
/// has.
#[inline(always)]
fn tile_of<'a>(pixels: &'a GlobalSlice<u8>, block: &ThreadBlock<BLOCK>) -> (&'a [u8], usize) {
    let px = pixels.as_slice();
    let first = (block.group_index().x as usize * TILE).min(px.len());
    let src = &px[first..];
    (src, src.len().min(TILE))
}

/// The block's pixels, blocked (thread `r` holds pixels `16r .. 16r +
/// 16` of the tile); those past the image's end are 0.
#[inline(always)]
fn load_tile(src: &[u8], valid: usize, block: &ThreadBlock<BLOCK>) -> [u8; ITEMS] {
    let load = Load::without_storage(block);
    // Uniform over the block: only the image's last tile is partial.
    if valid == TILE {
        load.load(src)
    } else {
        load.load_partial(src, valid, 0)
    }
}

/// Block `b` counts the grey levels of tile `b` of `pixels` into row `b`
/// of `hists` (`BINS` counts per tile; grid: one block of [`BLOCK`]
/// threads per tile).
#[kernel]
pub fn tile_histograms(pixels: GlobalSlice<u8>, hists: OwnedSlice<u32, PerBlock<BINS>>) {
    let block = this_thread_block().with_threads::<BLOCK>();
    let bins = shared_array!(u32; BINS);
    let (src, valid) = tile_of(&pixels, &block);
    let px = load_tile(src, valid, &block);
    // Missing pixels are the sample `BINS`: counted in no bin.
    let first = block.thread_rank() as usize * ITEMS;
    let mut samples = [0u16; ITEMS];
    for (i, s) in samples.iter_mut().enumerate() {
        *s = if first + i < valid {
            px[i] as u16
        } else {
            BINS as u16
        };
    }
    Histogram::without_storage(&block).histogram(&samples, &bins);
    block.sync();
    // BLOCK = BINS: thread `v` writes bin `v`.
    if let Some(e) = hists.window(&block).mine(0) {
        e.store(bins.load(block.thread_rank() as usize));
    }
}

/// The equalisation table of an image of `pixels` pixels from its tiles'
/// histograms (`hists`, `BINS` counts per tile): `lut[v]` for grey level
/// `v`. Grid: one block of `BINS` threads.
#[kernel]
pub fn equalise_lut(hists: GlobalSlice<u32>, pixels: u32, lut: OwnedSlice<u8>) {
    let block = this_thread_block().with_threads::<{ BINS as u32 }>();
    let v = block.thread_rank() as usize;
    // Thread `v` adds up column `v`: each row's loads are coalesced. A
    // thread's loads are all it does, so what bounds the kernel is how
    // many are in flight: rows go ROWS at a time, one bounds check per
    // group of rows (`v < BINS` is known, so the loads inside carry none)
    // and ROWS loads issued before the first add waits (one row at a
    // time, a check per load, this kernel took 7× the C++ twin's three
    // kernels on the H200; the twin is written the same way).
    let v = v % BINS;
    let tiles = hists.len() / BINS;
    let mut count = 0u32;
    let mut t = 0;
    while t + ROWS <= tiles {
        let rows = hists.slice(t * BINS, ROWS * BINS);
        let mut k = 0;
        while k < ROWS {
            count += rows.load(k * BINS + v);
            k += 1;
        }
        t += ROWS;
    }
    while t < tiles {
        count += hists.load(t * BINS + v);
        t += 1;
    }
    let [cdf] = BlockScan::new(&block).inclusive_sum(&[count]);
    // The cumulative count at the first level that occurs.
    let first = if count > 0 { cdf } else { u32::MAX };
    let cdf_min = BlockReduce::new(&block).reduce(&[first], Less);
    let range = pixels.saturating_sub(cdf_min) as u64;
    let above = cdf.saturating_sub(cdf_min) as u64;
    // One grey level (`range == 0`): the identity.
    let level = (above * 255 + range / 2)
        .checked_div(range)
        .map_or(v as u8, |l| l as u8);
    if let Some(e) = lut.at(&this_grid()) {
        e.store(level);
    }
}

/// `out[i] = lut[pixels[i]]`, a tile per block (grid: one block of
/// [`BLOCK`] threads per tile; `lut` holds `BINS` levels).
///
/// The pixels stay blocked from the load to the store: thread `r` of block
/// `b` maps pixels `b · TILE + 16r ..` and stores them into its own chunk
/// of `out` (`Chunked<ITEMS>`: grid thread `t` owns elements `16t ..
/// 16t + 16`, the same ones), one 16-byte vector store per thread as CUB's
/// `BLOCK_STORE_VECTORIZE` in the twin.
#[kernel]
pub fn apply_lut(
    pixels: GlobalSlice<u8>,
    lut: GlobalSlice<u8>,
    out: OwnedSlice<u8, Chunked<ITEMS>>,
) {
    let block = this_thread_block().with_threads::<BLOCK>();
    // The table in shared memory, a word per level (no bank conflicts
    // between neighbouring levels' bytes).
    let table = shared_array!(u32; BINS);
    let r = block.thread_rank() as usize;
    table.store(r, lut.load(r) as u32);
    let (src, valid) = tile_of(&pixels, &block);
    let px = load_tile(src, valid, &block);
    block.sync();
    let mapped = px.map(|p| table.load(p as usize) as u8);
    Store::without_storage(&block).store_chunk(out.chunk(&this_grid()), mapped);
}
