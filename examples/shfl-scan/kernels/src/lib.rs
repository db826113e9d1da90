//! shfl_scan: prefix sums built from `shfl_up` steps.
//!
//! * [`shfl_scan_test`] scans a block: each warp-sized tile scans its values
//!   in five `shfl_up` steps, the tiles' totals go through shared memory,
//!   the first tile scans them the same way, and every tile adds the total
//!   of the tiles before it. With [`uniform_add`] it scans any length in
//!   three launches (blocks, then the block totals, then a uniform add).
//! * [`shfl_intimage_rows`] and [`shfl_vertical_shfl`] build an integral
//!   image (summed-area table) of 8-bit pixels in two passes: rows, one
//!   block per row, each thread scanning 16 pixels (blocks of `width / 16`
//!   threads: 120 for 1920 pixels, so the last warp has only 24 lanes),
//!   then columns, in blocks of 32 × 8 threads walking down the image.
//!
//! Sums wrap on overflow, as the GPU's integer add does (the timing loops
//! scan their own output again and again).
#![no_std]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(abi_gpu_kernel, asm_experimental_arch)
)]

use cooperative_groups::prelude::*;
use cooperative_groups::{
    GlobalSlice, OwnedPitched, OwnedSlice, PerBlock, PerTile, Pod, SharedArray, ShflValue, kernel,
    shared_array,
};

/// Four 32-bit words, 16-byte aligned: one `ld/st.global.v4` (CUDA's
/// `uint4`).
#[repr(C, align(16))]
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct U4 {
    /// Word 0.
    pub x: u32,
    /// Word 1.
    pub y: u32,
    /// Word 2.
    pub z: u32,
    /// Word 3.
    pub w: u32,
}

// SAFETY: four `u32`s, `repr(C)`, 16 bytes: no padding, every bit pattern valid.
unsafe impl ShflValue for U4 {}
// SAFETY: as above (global memory holds it: the image's and the table's words).
unsafe impl Pod for U4 {
    const PADDING_FREE: bool = true;
}

/// Inclusive scan over the tile in log steps: at distance `d` each lane
/// adds the value `d` lanes below it (lanes below `d` keep theirs). The
/// lanes a partial warp lacks are never read: a lane's sources lie below it.
#[inline(always)]
fn tile_scan(tile: &ThreadBlockTile<32>, mut v: u32) -> u32 {
    let lane = tile.thread_rank();
    let mut d = 1;
    while d < 32 {
        let n = tile.shfl_up(v, d);
        // A select, not a branch: the lanes stay converged.
        v = v.wrapping_add(if lane >= d { n } else { 0 });
        d *= 2;
    }
    v
}

/// Scans the block's tiles' totals (`sums[0..tiles]`, written by each
/// full tile's last lane) in place with the first tile; the caller syncs
/// the block before and after.
#[inline(always)]
fn scan_tile_totals(tile: &ThreadBlockTile<32>, sums: &SharedArray<u32, 32>, tiles: u32) {
    if tile.meta_group_rank() == 0 {
        let lane = tile.thread_rank();
        let s = if lane < tiles {
            sums.load(lane as usize)
        } else {
            0
        };
        let s = tile_scan(tile, s);
        if lane < tiles {
            sums.store(lane as usize, s);
        }
    }
}

/// Scans `data[block·B .. block·B + B]` in place (B = the block's threads,
/// a multiple of 32, one element each); the block's total goes to
/// `partial_sums[block]` (written by its thread 0; an empty
/// `partial_sums` takes none, the original's null pointer).
#[kernel]
pub fn shfl_scan_test(data: OwnedSlice<i32>, partial_sums: OwnedSlice<i32, PerBlock>) {
    let block = this_thread_block();
    let tile = tiled_partition::<32>(&block);
    let sums = shared_array!(u32; 32);
    let Some(e) = data.at(&this_grid()) else {
        return;
    };
    let (lane, warp) = (tile.thread_rank(), tile.meta_group_rank());
    let mut value = tile_scan(&tile, e.load() as u32);
    // Only full tiles' totals are needed: a partial one is the last.
    if lane == 31 {
        sums.store(warp as usize, value);
    }
    block.sync();
    let full_tiles = block.num_threads() / 32;
    scan_tile_totals(&tile, &sums, full_tiles);
    block.sync();
    if warp > 0 {
        value = value.wrapping_add(sums.load(warp as usize - 1));
    }
    e.store(value as i32);
    // The block's total: the scanned total of its last tile.
    if let Some(p) = partial_sums.leader(&block) {
        p.store(sums.load(full_tiles as usize - 1) as i32);
    }
}

/// Adds `partial_sums[block]` to the `B` elements of `data` that block
/// covers (`data` starts one block into the scanned array, so block `b`
/// adds the total of blocks `0..=b`).
#[kernel]
pub fn uniform_add(data: OwnedSlice<i32>, partial_sums: GlobalSlice<i32>) {
    let buf = shared_array!(i32; 1);
    let block = this_thread_block();
    if block.thread_rank() == 0 {
        buf.store(0, partial_sums.load(block.group_index().x as usize));
    }
    block.sync();
    if let Some(e) = data.at(&this_grid()) {
        e.update(|v| v.wrapping_add(buf.load(0)));
    }
}

/// The running sums of the four bytes of `w`, low byte first.
#[inline(always)]
fn byte_prefix(w: u32) -> [u32; 4] {
    let a = w & 0xff;
    let b = a + ((w >> 8) & 0xff);
    let c = b + ((w >> 16) & 0xff);
    [a, b, c, c + (w >> 24)]
}

/// The row prefix sums of the 16 pixels a thread holds, each as four
/// [`U4`]s: the thread's own running sums, then the warp's scan of the
/// threads' totals, then the block's scan of the warps' totals.
#[inline(always)]
fn get_prefix_sum(data: U4, cta: &ThreadBlock, tile: &ThreadBlockTile<32>) -> [U4; 4] {
    let sums = shared_array!(u32; 32);
    let mut r = [0u32; 16];
    for (k, w) in [data.x, data.y, data.z, data.w].into_iter().enumerate() {
        let p = byte_prefix(w);
        let carry = if k == 0 { 0 } else { r[4 * k - 1] };
        for j in 0..4 {
            r[4 * k + j] = p[j] + carry;
        }
    }
    // The warp's scan of the thread totals, added to all 16 sums.
    let lane = tile.thread_rank();
    let mut sum = r[15];
    let mut d = 1;
    while d < 32 {
        let n = tile.shfl_up(sum, d);
        let n = if lane >= d { n } else { 0 };
        for v in r.iter_mut() {
            *v = v.wrapping_add(n);
        }
        sum = sum.wrapping_add(n);
        d *= 2;
    }
    // The block's scan of the warp totals (the last lane that exists holds
    // its warp's total; the partial last warp's is not needed).
    let warp = tile.meta_group_rank();
    if lane == tile.num_threads() - 1 {
        sums.store(warp as usize, r[15]);
    }
    cta.sync();
    scan_tile_totals(tile, &sums, tile.meta_group_size());
    cta.sync();
    if warp > 0 {
        let before = sums.load(warp as usize - 1);
        for v in r.iter_mut() {
            *v = v.wrapping_add(before);
        }
    }
    let u = |k: usize| U4 {
        x: r[4 * k],
        y: r[4 * k + 1],
        z: r[4 * k + 2],
        w: r[4 * k + 3],
    };
    [u(0), u(1), u(2), u(3)]
}

/// `r[idx & 3]` by two levels of selects (a `match` here compiles to an
/// indirect branch, and the array index to local memory).
#[inline(always)]
fn elem(r: &[U4; 4], idx: u32) -> U4 {
    let odd = idx & 1 != 0;
    let lo = if odd { r[1] } else { r[0] };
    let hi = if odd { r[3] } else { r[2] };
    if idx & 2 != 0 { hi } else { lo }
}

/// The horizontal pass: block `b` turns row `b` of `img` (`B` [`U4`]s =
/// 16·B pixels, one byte each) into its prefix sums, row `b` of
/// `integral` (4·B `U4`s). Each tile of four threads owns 16 consecutive
/// `U4`s of the row (`PerTile<4, 16>`), striped: thread `m` of the tile
/// writes `U4`s `m, m + 4, m + 8, m + 12`, so each of its four stores
/// writes, across the warp, consecutive addresses. The tile's threads hold
/// the `U4`s in the other order (thread `t`: `4t .. 4t + 4`): a 4 × 4
/// transpose by three `shfl_xor` rounds first. `B` must be a multiple of 4.
#[kernel]
pub fn shfl_intimage_rows(img: GlobalSlice<U4>, integral: OwnedSlice<U4, PerTile<4, 16>>) {
    let cta = this_thread_block();
    let tile = tiled_partition::<32>(&cta);
    let quad = tiled_partition::<4>(&cta);
    let row = cta.group_index().x;
    let data = img.load((row * cta.num_threads() + cta.thread_rank()) as usize);
    let r = get_prefix_sum(data, &cta, &tile);
    // Thread m holds U4s 4m..4m+3 as r[0..4]; col[j] becomes thread
    // (m ^ j)'s r[m], U4 number 4·(m ^ j) + m (each partner sends the
    // register its receiver needs).
    let m = quad.thread_rank();
    let col = [
        elem(&r, m),
        tile.shfl_xor(elem(&r, m ^ 1), 1),
        tile.shfl_xor(elem(&r, m ^ 2), 2),
        tile.shfl_xor(elem(&r, m ^ 3), 3),
    ];
    let window = integral.window(&quad);
    for k in 0..4 {
        // U4 number 4k + m of the tile's 16: the window's element m + 4k,
        // the thread's k-th.
        if let Some(e) = window.mine(k) {
            e.store(elem(&col, m ^ k as u32));
        }
    }
}

/// The vertical pass, in place: blocks of 32 × 8 threads, block `b` owns
/// columns `32b..32b+32` and walks down in steps of 8 rows. Each step the
/// block loads its 8 × 32 values into shared memory, the 8-lane tiles
/// (four per warp, one column each) scan the columns with `shfl_up`, and
/// each thread adds the sum of the rows above it in the step and the
/// column's total of the steps before. `width` must be a multiple of 32,
/// `height` of 8; the block must be 32 × 8.
#[kernel]
pub fn shfl_vertical_shfl(img: OwnedPitched<u32>) {
    // sums[x][y] at x·9 + y (a padded row: the transposed reads hit
    // distinct banks).
    let sums = shared_array!(u32; 32 * 9);
    let at = |x: u32, y: u32| (x * 9 + y) as usize;
    let block = this_thread_block();
    let tile8 = tiled_partition::<8>(&block);
    let t = block.thread_index();
    let rows = block.group_dim().y;
    let mut step_sum = 0u32;
    sums.store(at(t.x, t.y), 0);
    block.sync();
    // The thread's elements: its column, every `rows`-th row (one block
    // tall grid: a grid-stride walk down the image).
    for e in img.rows(&this_grid()) {
        let mut sum = e.load();
        sums.store(at(t.x, t.y), sum);
        block.sync();
        // Tile k (of 8 lanes, lane j) scans column k's 8 rows.
        let (j, k) = (t.x % 8, t.x / 8 + t.y * 4);
        let mut partial = sums.load(at(k, j));
        let mut d = 1;
        while d < 8 {
            let n = tile8.shfl_up(partial, d);
            partial = partial.wrapping_add(if tile8.thread_rank() >= d { n } else { 0 });
            d *= 2;
        }
        sums.store(at(k, j), partial);
        block.sync();
        if t.y > 0 {
            sum = sum.wrapping_add(sums.load(at(t.x, t.y - 1)));
        }
        sum = sum.wrapping_add(step_sum);
        step_sum = step_sum.wrapping_add(sums.load(at(t.x, rows - 1)));
        block.sync();
        e.store(sum);
    }
}
