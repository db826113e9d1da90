//! Device-wide reduce and inclusive scan written with the library: the
//! `device_wide` experiment of `cg-lab compare`, against CUB's
//! `DeviceReduce::Sum` and `DeviceScan::InclusiveSum`.
//!
//! * **Reduce** ([`device_reduce_i32`], [`device_reduce_f32`]): one
//!   cooperative launch of as many blocks as are co-resident. Each warp
//!   sums chunks of 128 contiguous 16-byte vectors (2 KiB, four loads in
//!   flight per lane), the grid's warps taking every chunk in turn (2 KiB
//!   runs for DRAM: 0.972 / 0.984 → 0.998 / 1.002 of CUB at 2^28 against a
//!   grid stride of single vectors, H200 run
//!   `2026-12-03-reduce-chunks-ab-7a4873f`), then [`GridGroup::reduce`](cooperative_groups::GridGroup::reduce)
//!   — the block reduction, one value per block in the module's scratch,
//!   one grid barrier — gives every thread the total; thread 0 of the grid
//!   stores it. The input is read once; nothing else touches memory.
//! * **Inclusive scan** ([`device_scan_i32`], [`device_scan_f32`]): single
//!   pass with a decoupled look-back (Merrill & Garland, "Single-pass
//!   Parallel Prefix Scan with Decoupled Look-back", 2016; CUB's
//!   `ScanTileState`). One block per tile of [`SCAN_TILE`] elements, tile
//!   `blockIdx.x` (blocks are dispatched in index order, which CUB relies
//!   on too). Each warp copies its part of the tile ([`SCAN_VECS`]
//!   16-byte vectors per lane, warp-striped: every copy instruction of a
//!   warp covers 512 contiguous bytes) into dynamic shared memory with
//!   [`memcpy_async`](cooperative_groups::memcpy_async()), so no register
//!   holds data while it is in flight, and an SM keeps more tiles' loads
//!   in flight than with the elements in registers (measured against such
//!   variants at commit 9d5769e: H200 run `2026-12-01-device_wide-9d5769e`,
//!   folder `variants/`; one bulk copy per warp on an mbarrier instead was
//!   3–5 % slower: run `2026-12-04-scan-bulk-ab-319df28`). Each lane sums
//!   its vectors, the warp scans the lanes' sums of each round (`inclusive_scan` on a
//!   32-thread tile), the warps' totals go through shared memory, and the
//!   last warp publishes the tile's aggregate, looks back over the tile
//!   states of the preceding tiles 32 at a time (summing aggregates until
//!   a tile with its inclusive prefix), and publishes the tile's inclusive
//!   prefix; then every lane reads its vectors again, scans them with its
//!   offset and stores them as 16-byte vectors. The input is read once and
//!   the output written once.
//!
//! A tile's state is one 64-bit word: the value's bits in the low half,
//! and in the high half the launch's `epoch` times 4 plus the status (1:
//! aggregate, 2: inclusive prefix). A state of another epoch counts as not
//! yet written, so the states need no reset between launches (the host
//! passes a new epoch each launch; CUB clears them with an extra kernel).
//! Flag and value travel in one word, so relaxed device-scope atomics
//! ([`AtomicRef`] `store`/`load` with [`Relaxed`]) suffice: no other data
//! is published with the flag.
//!
//! The H200 runs named here left the tree;
//! `git show f66ff74:docs/results/h200/runs/<run>/` lists one.

use cooperative_groups::atomic::{AtomicRef, Device, Relaxed};
use cooperative_groups::intrinsics::block_idx;
use cooperative_groups::prelude::*;
use cooperative_groups::{ShflValue, kernel, shared_array, this_grid};

/// Threads per block of the reduce kernels.
pub const BLOCK: u32 = 256;
/// Threads per block of the scan kernels.
pub const SCAN_BLOCK: u32 = 256;
/// 16-byte vectors per thread of the scan.
pub const SCAN_VECS: usize = 8;
/// Elements per thread of the scan.
pub const SCAN_ITEMS: usize = 4 * SCAN_VECS;
/// Elements per tile (block) of the scan.
pub const SCAN_TILE: usize = SCAN_BLOCK as usize * SCAN_ITEMS;
/// Dynamic shared memory per block of the scan kernels (the tile).
pub const SCAN_SMEM_BYTES: u32 = (SCAN_TILE * 4) as u32;

/// Parameters of the reduce kernels: `(input, out, n)`; `out[0]` gets the sum.
pub type ReduceArgs<T> = (*const T, *mut T, u32);
/// Parameters of the scan kernels: `(input, output, tile_states, n, epoch)`;
/// `tile_states` holds one `u64` per tile ([`scan_tiles`]); `epoch` must
/// differ from the previous launch's on the same states and be non-zero.
pub type ScanArgs<T> = (*const T, *mut T, *mut u64, u32, u32);

/// Tiles (blocks) of a scan of `n` elements.
pub const fn scan_tiles(n: u32) -> u32 {
    (n as usize).div_ceil(SCAN_TILE) as u32
}

/// The 32-bit element types of the experiment.
pub trait Elem: Copy + ShflValue + Default {
    /// The sum.
    fn add(self, o: Self) -> Self;
    /// The bits, for the tile state.
    fn to_bits32(self) -> u32;
    /// From [`to_bits32`](Self::to_bits32)'s bits.
    fn from_bits32(b: u32) -> Self;
}

impl Elem for i32 {
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        self.wrapping_add(o)
    }
    #[inline(always)]
    fn to_bits32(self) -> u32 {
        self as u32
    }
    #[inline(always)]
    fn from_bits32(b: u32) -> Self {
        b as i32
    }
}

impl Elem for f32 {
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        self + o
    }
    #[inline(always)]
    fn to_bits32(self) -> u32 {
        self.to_bits()
    }
    #[inline(always)]
    fn from_bits32(b: u32) -> Self {
        f32::from_bits(b)
    }
}

/// Four elements, 16-byte aligned (one vector load or store).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
pub(crate) struct V4<T>(pub [T; 4]);

// SAFETY: `repr(C)` around `[i32; 4]`: 16 bytes at alignment 16, no
// padding, any bytes are a value.
unsafe impl cooperative_groups::Pod for V4<i32> {}
// SAFETY: as for `V4<i32>`: `[f32; 4]`, 16 bytes, no padding.
unsafe impl cooperative_groups::Pod for V4<f32> {}
// SAFETY: as for `V4<i32>`: `[u32; 4]`, 16 bytes, no padding.
unsafe impl cooperative_groups::Pod for V4<u32> {}

/// Reads the 16-byte vector at element `i` (a multiple of 4).
///
/// # Safety
/// `p + i .. p + i + 4` must be readable and `p` 16-byte aligned.
#[inline(always)]
unsafe fn load4<T: Elem>(p: *const T, i: usize) -> [T; 4] {
    // SAFETY: the caller's contract.
    unsafe { p.add(i).cast::<V4<T>>().read().0 }
}

/// Sum of `n` elements; thread 0 of the grid writes it to `out[0]`.
/// Cooperative launch, blocks of [`BLOCK`] threads.
#[inline(always)]
fn reduce_body<T: Elem>(input: *const T, out: *mut T, n: u32) {
    let grid = this_grid();
    // Indices as `u32` (`n` is): a 64-bit index takes two registers and
    // two instructions per add or compare. No index below wraps: each
    // loop stops before `vecs` (or `n`), and the grid's threads number
    // fewer than 2^31.
    let threads = grid.num_threads() as u32;
    let me = grid.thread_rank() as u32;
    let (warp, lane) = (me / 32, me % 32);
    let aligned = (input as usize).is_multiple_of(16);
    let vecs = if aligned { n / 4 } else { 0 };
    let mut acc = [T::default(); 4];
    // Each warp sums chunks of 128 contiguous 16-byte vectors (2 KiB, four
    // loads in flight per lane, each a 512-byte row of the warp), the
    // grid's warps taking every `threads / 32`-th chunk: DRAM sees 2 KiB
    // runs where a grid stride of single vectors gave it 512-byte ones.
    let chunks = vecs / 128;
    let mut c = warp;
    while c < chunks {
        for (k, a) in acc.iter_mut().enumerate() {
            // SAFETY: vector `128c + 32k + lane` of chunk `c < chunks`:
            // inside the input's `vecs` vectors, aligned.
            let v = unsafe { load4(input, 4 * (128 * c + 32 * k as u32 + lane) as usize) };
            *a = a.add((v[0].add(v[1])).add(v[2].add(v[3])));
        }
        c += threads / 32;
    }
    let mut i = 128 * chunks + me;
    while i < vecs {
        // SAFETY: `i < vecs`: inside the input, aligned.
        let v = unsafe { load4(input, 4 * i as usize) };
        acc[0] = acc[0].add((v[0].add(v[1])).add(v[2].add(v[3])));
        i += threads;
    }
    let mut j = 4 * vecs + me;
    while j < n {
        // SAFETY: `j < n`.
        acc[1] = acc[1].add(unsafe { input.add(j as usize).read() });
        j += threads;
    }
    let mine = (acc[0].add(acc[1])).add(acc[2].add(acc[3]));
    let total = grid.reduce(mine, |a: T, b: T| a.add(b));
    if me == 0 {
        // SAFETY: the launcher passes one writable element.
        unsafe { out.write(total) };
    }
}

/// Device-wide sum of `n` `i32` (wrapping) into `out[0]`: grid-stride
/// loads and [`GridGroup::reduce`](cooperative_groups::GridGroup::reduce).
/// Cooperative launch, [`BLOCK`] threads per block.
#[kernel]
pub fn device_reduce_i32(input: *const i32, out: *mut i32, n: u32) {
    reduce_body::<i32>(input, out, n);
}

/// Device-wide sum of `n` `f32` into `out[0]` (see [`device_reduce_i32`]).
#[kernel]
pub fn device_reduce_f32(input: *const f32, out: *mut f32, n: u32) {
    reduce_body::<f32>(input, out, n);
}

/// Status of a tile state: the tile's aggregate.
const AGGREGATE: u32 = 1;
/// Status of a tile state: the tile's inclusive prefix.
const INCLUSIVE: u32 = 2;

/// The state word of `value` with `status` in launch `epoch`.
#[inline(always)]
fn pack<T: Elem>(epoch: u32, status: u32, value: T) -> u64 {
    ((epoch.wrapping_mul(4) | status) as u64) << 32 | value.to_bits32() as u64
}

/// The single-pass inclusive scan of one tile of `THREADS · 4 · VECS`
/// elements by a block of `THREADS` threads, staged in shared memory.
/// Warp `w` owns elements `[128·VECS·w, 128·VECS·(w + 1))` of the tile; in
/// round `k` lane `l` handles the 16-byte vector at `128k + 4l` of them.
/// The warp copies its part with `memcpy_async` (no registers hold data in
/// flight), each lane sums its vectors from shared memory, and after the
/// look-back reads them again, scans them and stores them. Needs
/// `THREADS · VECS · 16` bytes of dynamic shared memory. The loops over
/// the rounds have small bodies, so they unroll and the per-round offsets
/// stay in registers.
#[inline(always)]
fn scan_body_smem<T: Elem, const THREADS: u32, const VECS: usize>(
    input: *const T,
    output: *mut T,
    states: *mut u64,
    n: u32,
    epoch: u32,
) where
    V4<T>: cooperative_groups::Pod,
{
    let block = this_thread_block().with_threads::<THREADS>();
    let warp = tiled_partition::<32>(&block);
    let buf = cooperative_groups::dynamic_shared::<V4<T>>();
    // Indices as `u32` (`n` is): 64-bit adds and compares take two
    // instructions each. `base < n` (the grid has `ceil(n / tile)`
    // blocks); places in the tile are checked against `valid`.
    let tile_len = THREADS * 4 * VECS as u32;
    let base = block_idx().x * tile_len;
    let valid = n.saturating_sub(base).min(tile_len);
    let w = block.thread_rank() / 32;
    let lane = warp.thread_rank() as usize;
    let wloc = w * 128 * VECS as u32;
    let wbase = (base + wloc) as usize;
    let vbase = w as usize * 32 * VECS;
    let full = valid == tile_len && (input as usize).is_multiple_of(16);
    let mine = buf.slice(vbase, 32 * VECS);
    if full {
        // SAFETY: the warp's part of a whole tile, 16-byte aligned.
        let src =
            unsafe { core::slice::from_raw_parts(input.add(wbase).cast::<V4<T>>(), 32 * VECS) };
        cooperative_groups::memcpy_async(&warp, mine, src);
        cooperative_groups::wait(&warp);
    } else {
        for k in 0..VECS {
            let mut x = [T::default(); 4];
            for (j, xj) in x.iter_mut().enumerate() {
                let e = wloc + (128 * k + 4 * lane + j) as u32;
                if e < valid {
                    // SAFETY: `base + e < n`: inside the input.
                    *xj = unsafe { input.add(wbase + 128 * k + 4 * lane + j).read() };
                }
            }
            mine.store(32 * k + lane, V4(x));
        }
        warp.sync();
    }
    let sum = |a: T, b: T| a.add(b);
    let mut off = [T::default(); VECS];
    for (k, o) in off.iter_mut().enumerate() {
        let x = mine.load(32 * k + lane).0;
        *o = (x[0].add(x[1])).add(x[2].add(x[3]));
    }
    for o in off.iter_mut() {
        *o = inclusive_scan(&warp, *o, sum);
    }
    // off[k]: this lane's exclusive offset in round k within the warp.
    let mut carry = T::default();
    for (k, o) in off.iter_mut().enumerate() {
        let below = warp.shfl_up(*o, 1);
        let total = warp.shfl(*o, 31);
        *o = match (k, lane) {
            (0, 0) => T::default(),
            (0, _) => below,
            (_, 0) => carry,
            _ => carry.add(below),
        };
        carry = if k == 0 { total } else { carry.add(total) };
    }
    let p = tile_offset::<T, THREADS>(&block, &warp, carry, states, epoch);
    let scanned = |k: usize, o: T| {
        let x = mine.load(32 * k + lane).0;
        let o = match p {
            None => o,
            Some(p) => p.add(o),
        };
        let y0 = o.add(x[0]);
        let y1 = y0.add(x[1]);
        let y2 = y1.add(x[2]);
        [y0, y1, y2, y2.add(x[3])]
    };
    if full {
        for (k, &o) in off.iter().enumerate() {
            let y = scanned(k, o);
            // SAFETY: the tile is whole; the output 16-byte aligned like the input.
            unsafe {
                output
                    .add(wbase + 128 * k + 4 * lane)
                    .cast::<V4<T>>()
                    .write(V4(y))
            };
        }
    } else {
        for (k, &o) in off.iter().enumerate() {
            let y = scanned(k, o);
            for (j, &yj) in y.iter().enumerate() {
                let e = wloc + (128 * k + 4 * lane + j) as u32;
                if e < valid {
                    // SAFETY: `base + e < n`: inside the output.
                    unsafe { output.add(wbase + 128 * k + 4 * lane + j).write(yj) };
                }
            }
        }
    }
}

/// What precedes a warp's elements, from [`tile_offsets`].
#[derive(Clone, Copy)]
pub(crate) struct TileOffsets<T> {
    /// The tiles before this one together (`None` in tile 0).
    pub prefix: Option<T>,
    /// The warps before the calling one in this tile (`None` in warp 0).
    pub warps_before: Option<T>,
    /// The whole tile.
    pub aggregate: T,
}

impl<T: Elem> TileOffsets<T> {
    /// Everything before the calling warp's elements: the tiles before
    /// this one and the warps before it in this tile (`None`: nothing).
    #[inline(always)]
    pub fn before_warp(&self) -> Option<T> {
        match (self.prefix, self.warps_before) {
            (Some(p), Some(b)) => Some(p.add(b)),
            (p, None) => p,
            (None, b) => b,
        }
    }
}

/// The block's part of the tile scan: every warp passes its total (the
/// same in all its lanes); the last warp publishes the tile's aggregate,
/// looks back and publishes the inclusive prefix. Returns, in every thread,
/// what precedes the calling warp's elements — the exclusive prefix of the
/// tile plus the totals of the warps before it — or `None` for warp 0 of
/// tile 0 (nothing precedes it). Two block barriers.
#[inline(always)]
pub(crate) fn tile_offset<T: Elem, const THREADS: u32>(
    block: &ThreadBlock<THREADS>,
    warp: &ThreadBlockTile<32>,
    warp_total: T,
    states: *mut u64,
    epoch: u32,
) -> Option<T> {
    tile_offsets(block, warp, warp_total, states, epoch).before_warp()
}

/// [`tile_offset`] in its parts: the tiles before this one, the warps
/// before the calling one, and the whole tile (every thread gets all
/// three). Two block barriers.
#[inline(always)]
pub(crate) fn tile_offsets<T: Elem, const THREADS: u32>(
    block: &ThreadBlock<THREADS>,
    warp: &ThreadBlockTile<32>,
    warp_total: T,
    states: *mut u64,
    epoch: u32,
) -> TileOffsets<T> {
    let prefix_slot = shared_array!(u32; 1);
    let warp_totals = shared_array!(u32; 32);
    let w = (block.thread_rank() / 32) as usize;
    if warp.thread_rank() == 0 {
        warp_totals.store(w, warp_total.to_bits32());
    }
    block.sync();
    let (warps_before, aggregate) = warp_sums::<T, THREADS>(warp_totals, w);
    let last = (THREADS / 32) as usize - 1;
    if block_idx().x == 0 {
        resolve(warp, w == last, states, epoch, aggregate, prefix_slot);
        return TileOffsets {
            prefix: None,
            warps_before,
            aggregate,
        };
    }
    resolve(warp, w == last, states, epoch, aggregate, prefix_slot);
    block.sync();
    TileOffsets {
        prefix: Some(T::from_bits32(prefix_slot.load(0))),
        warps_before,
        aggregate,
    }
}

/// [`tile_offsets`] of two independent scans at once (e.g. a count with
/// `+` and an index with `max`, each with its own tile states): the last
/// warp looks back over `a_states`, the one before it over `b_states`,
/// concurrently. Two block barriers; needs at least two warps.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn tile_offsets2<A: Elem, B: Elem, const THREADS: u32>(
    block: &ThreadBlock<THREADS>,
    warp: &ThreadBlockTile<32>,
    a_total: A,
    b_total: B,
    a_states: *mut u64,
    b_states: *mut u64,
    epoch: u32,
) -> (TileOffsets<A>, TileOffsets<B>) {
    const { assert!(THREADS >= 64, "two looking-back warps") };
    let a_slot = shared_array!(u32; 1);
    let b_slot = shared_array!(u32; 1);
    let a_totals = shared_array!(u32; 32);
    let b_totals = shared_array!(u32; 32);
    let w = (block.thread_rank() / 32) as usize;
    if warp.thread_rank() == 0 {
        a_totals.store(w, a_total.to_bits32());
        b_totals.store(w, b_total.to_bits32());
    }
    block.sync();
    let (a_before, a_aggregate) = warp_sums::<A, THREADS>(a_totals, w);
    let (b_before, b_aggregate) = warp_sums::<B, THREADS>(b_totals, w);
    let last = (THREADS / 32) as usize - 1;
    resolve(warp, w == last, a_states, epoch, a_aggregate, a_slot);
    resolve(warp, w == last - 1, b_states, epoch, b_aggregate, b_slot);
    let first = block_idx().x == 0;
    if !first {
        block.sync();
    }
    let prefix = |slot: cooperative_groups::SharedArray<u32, 1>| (!first).then(|| slot.load(0));
    (
        TileOffsets {
            prefix: prefix(a_slot).map(A::from_bits32),
            warps_before: a_before,
            aggregate: a_aggregate,
        },
        TileOffsets {
            prefix: prefix(b_slot).map(B::from_bits32),
            warps_before: b_before,
            aggregate: b_aggregate,
        },
    )
}

/// The warps' totals (in `totals`, by warp) before warp `w`, and all of
/// them: in warp order, `None` for warp 0.
#[inline(always)]
fn warp_sums<T: Elem, const THREADS: u32>(
    totals: cooperative_groups::SharedArray<u32, 32>,
    w: usize,
) -> (Option<T>, T) {
    let mut before: Option<T> = None;
    let mut aggregate = T::from_bits32(totals.load(0));
    for i in 1..(THREADS / 32) as usize {
        if i == w {
            before = Some(aggregate);
        }
        aggregate = aggregate.add(T::from_bits32(totals.load(i)));
    }
    (before, aggregate)
}

/// The tile-state protocol of the block's tile, by the warp `resolver` is
/// true in: tile 0 publishes its aggregate as its inclusive prefix; a
/// later tile publishes its aggregate, looks back, publishes its inclusive
/// prefix and leaves its exclusive prefix in `slot` (read after a block
/// barrier).
#[inline(always)]
fn resolve<T: Elem>(
    warp: &ThreadBlockTile<32>,
    resolver: bool,
    states: *mut u64,
    epoch: u32,
    aggregate: T,
    slot: cooperative_groups::SharedArray<u32, 1>,
) {
    if !resolver {
        return;
    }
    let tile = block_idx().x as usize;
    let lane = warp.thread_rank();
    if tile == 0 {
        if lane == 31 {
            publish(states, 0, pack(epoch, INCLUSIVE, aggregate));
        }
        return;
    }
    if lane == 31 {
        publish(states, tile, pack(epoch, AGGREGATE, aggregate));
    }
    let exclusive = look_back::<T>(warp, states, tile, epoch);
    if lane == 31 {
        publish(
            states,
            tile,
            pack(epoch, INCLUSIVE, exclusive.add(aggregate)),
        );
    }
    if lane == 0 {
        slot.store(0, exclusive.to_bits32());
    }
}

/// Stores tile `tile`'s state word.
#[inline(always)]
fn publish(states: *mut u64, tile: usize, word: u64) {
    // SAFETY: the launcher allocates one state per tile; the word is only
    // accessed atomically.
    let s = unsafe { AtomicRef::<u64, Device>::from_ptr(states.add(tile)) };
    s.store(word, Relaxed);
}

/// The exclusive prefix of tile `tile` (> 0), by the calling warp: lane
/// `l` reads the state of tile `end - l` for windows `end = tile - 1,
/// tile - 33, …`, waits until the whole window is written in this epoch,
/// and sums the window down to its nearest inclusive prefix (lanes above it
/// contribute 0); the windows' sums accumulate until one held a prefix.
#[inline(always)]
fn look_back<T: Elem>(warp: &ThreadBlockTile<32>, states: *mut u64, tile: usize, epoch: u32) -> T {
    let lane = warp.thread_rank() as usize;
    let mut end = tile as isize - 1;
    let mut acc = T::default();
    loop {
        let idx = end - lane as isize;
        let (mut status, mut value) = (INCLUSIVE, T::default());
        loop {
            if idx >= 0 {
                // SAFETY: `0 <= idx < tile`: one of the launch's states.
                let s = unsafe { AtomicRef::<u64, Device>::from_ptr(states.add(idx as usize)) };
                let w = s.load(Relaxed);
                let hi = (w >> 32) as u32;
                status = if hi >> 2 == epoch & 0x3fff_ffff {
                    hi & 3
                } else {
                    0
                };
                value = T::from_bits32(w as u32);
            }
            if warp.all(status != 0) {
                break;
            }
        }
        // The lowest lane holding an inclusive prefix (the nearest tile).
        let inclusive = warp.ballot(status == INCLUSIVE);
        let stop = inclusive.trailing_zeros() as usize; // 32: none in the window
        let contrib = if lane <= stop { value } else { T::default() };
        let window = reduce(warp, contrib, |a: T, b: T| a.add(b));
        acc = window.add(acc);
        if inclusive != 0 {
            return acc;
        }
        end -= 32;
    }
}

/// Inclusive prefix sums of `n` `i32` (wrapping), single pass with
/// decoupled look-back: one block of [`BLOCK`] threads per tile of
/// [`SCAN_TILE`] elements (grid = [`scan_tiles`]`(n)`), plain launch.
///
/// Six blocks per SM on sm_90 (`launch_bounds(256, 6, sm_90)`: 40
/// registers, where ptxas chooses 46 unbounded and five blocks fit; at
/// 2^28 0.972–0.982 of CUB unbounded, 1.010–1.014 bounded). Older SMs
/// have less shared memory per SM (the 32 KiB tiles fit five blocks on
/// sm_80, three on sm_70) and would spill under the bound.
#[kernel(launch_bounds(256, 6, sm_90))]
pub fn device_scan_i32(input: *const i32, output: *mut i32, states: *mut u64, n: u32, epoch: u32) {
    scan_body_smem::<i32, SCAN_BLOCK, SCAN_VECS>(input, output, states, n, epoch);
}

/// Inclusive prefix sums of `n` `f32` (see [`device_scan_i32`]).
#[kernel(launch_bounds(256, 6, sm_90))]
pub fn device_scan_f32(input: *const f32, output: *mut f32, states: *mut u64, n: u32, epoch: u32) {
    scan_body_smem::<f32, SCAN_BLOCK, SCAN_VECS>(input, output, states, n, epoch);
}

/// Grid size for [`device_scan_i32`]/[`device_scan_f32`] (one block per tile).
pub fn scan_grid(n: u32) -> u32 {
    scan_tiles(n).max(1)
}

/// The sequential model of the scan kernels on `i32` (wrapping): the
/// inclusive prefix sums of `input` into `out`.
pub fn scan_model_i32(input: &[i32], out: &mut [i32]) {
    let mut acc = 0i32;
    for (o, &x) in out.iter_mut().zip(input) {
        acc = acc.wrapping_add(x);
        *o = acc;
    }
}
