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
use cooperative_groups::{SharedArray, ShflValue, kernel, shared_array};

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
/// one element each); if `partial_sums` is not null, the block's last
/// thread writes the block's total to `partial_sums[block]`.
#[kernel]
pub fn shfl_scan_test(data: *mut i32, partial_sums: *mut i32) {
    let block = this_thread_block();
    let tile = tiled_partition::<32>(&block);
    let sums = shared_array!(u32; 32);
    let id = (block.group_index().x * block.num_threads() + block.thread_rank()) as usize;
    let (lane, warp) = (tile.thread_rank(), tile.meta_group_rank());
    // SAFETY: the launch covers `data` with one thread per element.
    let mut value = tile_scan(&tile, unsafe { *data.add(id) } as u32);
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
    // SAFETY: as above.
    unsafe { *data.add(id) = value as i32 };
    if !partial_sums.is_null() && block.thread_rank() == block.num_threads() - 1 {
        // SAFETY: `partial_sums` has a slot per block.
        unsafe { *partial_sums.add(block.group_index().x as usize) = value as i32 };
    }
}

/// Adds `partial_sums[block]` to the `B` elements of `data` that block
/// covers (`data` starts one block into the scanned array, so block `b`
/// adds the total of blocks `0..=b`); elements at or past `len` are left.
#[kernel]
pub fn uniform_add(data: *mut i32, partial_sums: *const i32, len: u32) {
    let buf = shared_array!(i32; 1);
    let block = this_thread_block();
    let id = block.group_index().x * block.num_threads() + block.thread_rank();
    if block.thread_rank() == 0 {
        // SAFETY: `partial_sums` has a slot per block.
        buf.store(0, unsafe {
            *partial_sums.add(block.group_index().x as usize)
        });
    }
    block.sync();
    if id < len {
        // SAFETY: id < len, the length of `data`.
        unsafe {
            let p = data.add(id as usize);
            *p = (*p).wrapping_add(buf.load(0));
        }
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
/// `integral` (4·B `U4`s). Before writing, groups of four threads swap
/// their `U4`s with `shfl_xor` so that each store instruction writes
/// consecutive addresses. `B` must be a multiple of 4.
#[kernel]
pub fn shfl_intimage_rows(img: *const U4, integral: *mut U4) {
    let cta = this_thread_block();
    let tile = tiled_partition::<32>(&cta);
    let id = cta.thread_rank();
    let row = cta.group_index().x;
    // SAFETY: `img` has `B` U4s per block.
    let data = unsafe { *img.add((row * cta.num_threads() + id) as usize) };
    let mut r = get_prefix_sum(data, &cta, &tile);

    // Thread t of a group of four holds words 4t..4t+3 of the group's 16
    // U4s in r[0..4]; after the swaps r[k] of thread t is U4 number
    // k·4 + (t ^ k) of the group (then the xor-1 swaps pair them again).
    let id_mask = id & 3;
    let id_swizzle = (id + 2) & 3;
    let id_shift = (id >> 2) << 4;
    let out = row * cta.num_threads() * 4;
    r[1] = tile.shfl_xor(r[1], 1);
    r[2] = tile.shfl_xor(r[2], 2);
    r[3] = tile.shfl_xor(r[3], 3);
    // SAFETY: (all four stores) `integral` has 4·B U4s per row; each index
    // lies in the group's 16 and every U4 is written once.
    unsafe {
        *integral.add((out + id_mask + id_shift) as usize) = elem(&r, id_mask);
        *integral.add((out + id_swizzle + id_shift + 8) as usize) = elem(&r, id_swizzle);
    }
    for v in r.iter_mut() {
        *v = tile.shfl_xor(*v, 1);
    }
    // SAFETY: as above, the other two of the four stores.
    unsafe {
        *integral.add((out + id_mask + id_shift + 4) as usize) = elem(&r, id_mask);
        *integral.add((out + id_swizzle + id_shift + 12) as usize) = elem(&r, id_swizzle);
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
pub fn shfl_vertical_shfl(img: *mut u32, width: u32, height: u32) {
    // sums[x][y] at x·9 + y (a padded row: the transposed reads hit
    // distinct banks).
    let sums = shared_array!(u32; 32 * 9);
    let at = |x: u32, y: u32| (x * 9 + y) as usize;
    let block = this_thread_block();
    let tile8 = tiled_partition::<8>(&block);
    let t = block.thread_index();
    let rows = block.group_dim().y;
    let col = block.group_index().x * block.group_dim().x + t.x;
    let mut step_sum = 0u32;
    sums.store(at(t.x, t.y), 0);
    block.sync();
    for step in 0..height / rows {
        let i = ((t.y + step * rows) * width + col) as usize;
        // SAFETY: row < height and col < width (the launch covers the
        // width; the loop the height).
        let mut sum = unsafe { *img.add(i) };
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
        // SAFETY: as the load.
        unsafe { *img.add(i) = sum };
    }
}
