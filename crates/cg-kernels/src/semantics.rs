//! The semantic differential against NVIDIA's C++: kernels whose twins in
//! `reference/cuda/semantics.cu` (extern "C" `cpp_` + the same name) make
//! the same calls through `cooperative_groups` C++ — and, in the same case
//! table, the atomics of [`crate::atomics`] with their twins in
//! `reference/cuda/atomics.cu`. `cg-lab verify` builds
//! the C++ with nvcc, runs both on the GPU and compares every word; the
//! H200's words are committed and the simulator is checked against them on
//! every CI run.
//!
//! Each thread writes [`SEM_WORDS`] words at `out[global_thread * SEM_WORDS
//! ..]`. Where CUDA leaves a result undefined (a shuffle source that does
//! not exist or does not take part), both sides write [`UNDEFINED`] instead
//! of the value, after executing the call — so the comparison covers exactly
//! what CUDA defines. Which cases those are is decided here and in the C++
//! from the PTX ISA's `shfl.sync` rule and NVIDIA's `coalesced_group` code,
//! not from the library.

use cooperative_groups::intrinsics::{block_dim, block_idx, lane_id, thread_idx};
use cooperative_groups::kernel;
use cooperative_groups::prelude::*;
use cooperative_groups::{
    exclusive_scan_update, inclusive_scan_update, reduce_store_async, reduce_update_async,
};

/// Output words per thread.
pub const SEM_WORDS: usize = 64;

// The atomics cases run `crate::atomics`' kernels in this layout.
const _: () = assert!(crate::atomics::ATOMIC_WORDS == SEM_WORDS);

/// Written where CUDA does not define the result.
pub const UNDEFINED: u32 = 0xDEAD_BEEF;

#[inline(always)]
fn gtid() -> u32 {
    block_idx().x * block_dim().x + thread_idx().x
}

#[inline(always)]
fn put(out: *mut u32, j: usize, v: u32) {
    // SAFETY: the launcher allocates SEM_WORDS words per thread of the grid.
    unsafe { *out.add(gtid() as usize * SEM_WORDS + j) = v };
}

/// Lanes of the caller's warp that exist (the block's last warp may be
/// partial).
#[inline(always)]
fn warp_lanes() -> u32 {
    let base = thread_idx().x & !31;
    (block_dim().x - base).min(32)
}

/// The four `shfl.sync` modes.
#[derive(Clone, Copy)]
enum Mode {
    Idx,
    Up,
    Down,
    Bfly,
}

/// The source lane of `__shfl_*_sync(mask, v, b, width)` for `lane` by the
/// PTX ISA's rule, or `None` when the caller keeps its own value.
#[inline(always)]
fn source_lane(mode: Mode, lane: u32, b: u32, width: u32) -> Option<u32> {
    let b = b & 31;
    let seg = (32 - width) & 31;
    let min = lane & seg;
    let max = match mode {
        Mode::Up => min,
        _ => min | (31 & !seg),
    };
    let (j, ok) = match mode {
        Mode::Up => (lane.wrapping_sub(b), lane >= b && lane - b >= max),
        Mode::Down => (lane + b, lane + b <= max),
        Mode::Bfly => (lane ^ b, lane ^ b <= max),
        Mode::Idx => (min | (b & !seg), true),
    };
    ok.then_some(j)
}

/// CUDA defines a tile shuffle's result when its source is the caller, an
/// existing lane of the same tile, or — the width rule — a lane of an
/// earlier tile while the whole warp takes part (every kernel here runs
/// converged, so: when the warp is full).
#[inline(always)]
fn tile_defined(mode: Mode, lane: u32, b: u32, width: u32) -> bool {
    match source_lane(mode, lane, b, width) {
        None => true,
        Some(j) if j < (lane & !(width - 1)) => warp_lanes() == 32,
        Some(j) => j < warp_lanes(),
    }
}

#[inline(always)]
fn checked(defined: bool, v: u32) -> u32 {
    if defined { v } else { UNDEFINED }
}

/// Every shuffle of a `thread_block_tile<N>` with in- and out-of-range
/// arguments: 12 `shfl`, 8 `shfl_up`, 8 `shfl_down`, 10 `shfl_xor`, one
/// 64-bit `shfl_xor` (two words), then `thread_rank`, `meta_group_rank`
/// and `meta_group_size` (not `num_threads`: a tile cut short by a partial
/// warp has its existing threads here, `N` in CUDA — a documented
/// difference).
///
/// A generic kernel: one PTX entry per tile size, `sem_tile_shfl_1` …
/// `sem_tile_shfl_32`, as the C++ twin's `template <unsigned N>`.
#[kernel(instances(1, 2, 4, 8, 16, 32))]
pub fn sem_tile_shfl<const N: u32>(out: *mut u32)
where
    Size<N>: WarpTileSize,
{
    let block = this_thread_block();
    let tile = tiled_partition::<N>(&block);
    let (lane, rank) = (lane_id(), tile.thread_rank());
    let v = gtid() * 7 + 3;
    let mut j = 0;
    let srcs = [
        0,
        1,
        N - 1,
        N,
        N + 1,
        31,
        32,
        33,
        63,
        u32::MAX,
        rank * 3 + 1,
        rank + 5,
    ];
    for b in srcs {
        let r = tile.shfl(v, b);
        put(out, j, checked(tile_defined(Mode::Idx, lane, b, N), r));
        j += 1;
    }
    let deltas = [0, 1, N - 1, N, 31, 32, 33, rank];
    for d in deltas {
        let r = tile.shfl_up(v, d);
        put(out, j, checked(tile_defined(Mode::Up, lane, d, N), r));
        j += 1;
    }
    for d in deltas {
        let r = tile.shfl_down(v, d);
        put(out, j, checked(tile_defined(Mode::Down, lane, d, N), r));
        j += 1;
    }
    let masks = [0, 1, N - 1, N, N + 1, 12, 31, 32, 33, rank * 5];
    for m in masks {
        let r = tile.shfl_xor(v, m);
        put(out, j, checked(tile_defined(Mode::Bfly, lane, m, N), r));
        j += 1;
    }
    let wide = (u64::from(gtid()) << 32) | u64::from(gtid() * 3 + 1);
    let r = tile.shfl_xor(wide, 5);
    let ok = tile_defined(Mode::Bfly, lane, 5, N);
    put(out, j, checked(ok, r as u32));
    put(out, j + 1, checked(ok, (r >> 32) as u32));
    put(out, j + 2, rank);
    put(out, j + 3, tile.meta_group_rank());
    put(out, j + 4, tile.meta_group_size());
}

/// The `(rank + 1)`-th set bit of `mask` from bit 0 (`fns(mask, 0, rank +
/// 1)`), or `u32::MAX`.
#[inline(always)]
fn nth_member(mask: u32, rank: u32) -> u32 {
    let mut m = mask;
    let mut k = 0;
    while m != 0 {
        let lane = m.trailing_zeros();
        if k == rank {
            return lane;
        }
        k += 1;
        m &= m - 1;
    }
    u32::MAX
}

/// The lane NVIDIA's `coalesced_group::shfl(v, src)` reads (its `lane & 31`).
#[inline(always)]
fn coalesced_source(mask: u32, src: u32) -> u32 {
    let lane = if src == 0 {
        mask.trailing_zeros()
    } else if mask == u32::MAX {
        src
    } else if src == u32::MAX {
        // `fns(mask, 0, src + 1)` with `src + 1 == 0`: bit 0 itself.
        if mask & 1 == 1 { 0 } else { u32::MAX }
    } else {
        nth_member(mask, src)
    };
    lane & 31
}

/// Every shuffle of a coalesced group with in- and out-of-range arguments:
/// 10 `shfl`, 8 `shfl_up`, 8 `shfl_down`, then rank and size (28 words
/// from word `at`).
#[inline(always)]
fn coalesced_shuffles(g: &CoalescedGroup, out: *mut u32, at: usize) {
    let (rank, size, mask) = (g.thread_rank(), g.num_threads(), g.lane_mask());
    let v = gtid() * 11 + 5;
    let mut j = at;
    let srcs = [
        0,
        1,
        size - 1,
        size,
        size + 1,
        31,
        32,
        33,
        rank * 3 + 1,
        u32::MAX,
    ];
    for s in srcs {
        let r = g.shfl(v, s);
        let ok = mask >> coalesced_source(mask, s) & 1 == 1;
        put(out, j, checked(ok, r));
        j += 1;
    }
    let deltas = [0, 1, size - 1, size, 31, 32, 33, rank];
    for d in deltas {
        put(out, j, g.shfl_up(v, d));
        j += 1;
    }
    for d in deltas {
        put(out, j, g.shfl_down(v, d));
        j += 1;
    }
    put(out, j, rank);
    put(out, j + 1, size);
}

/// Coalesced groups: the whole warp (words 0..28), then two divergent
/// groups (words 28..56; lanes with `(7·lane) mod 5 < 3` and the rest).
/// The branches are identical on purpose: each makes its own group.
#[allow(clippy::if_same_then_else)]
#[kernel]
pub fn sem_coalesced_shfl(out: *mut u32) {
    let all = coalesced_threads();
    coalesced_shuffles(&all, out, 0);
    if (lane_id() * 7) % 5 < 3 {
        let g = coalesced_threads();
        coalesced_shuffles(&g, out, 28);
    } else {
        let g = coalesced_threads();
        coalesced_shuffles(&g, out, 28);
    }
}

/// `labeled_partition` and `binary_partition` of a 32-thread tile: rank,
/// size, `meta_group_rank`, `meta_group_size` and a broadcast from rank 0
/// of each.
#[kernel]
pub fn sem_partitions(out: *mut u32) {
    let block = this_thread_block();
    let tile = tiled_partition::<32>(&block);
    let lane = lane_id();
    let v = gtid() * 13 + 1;
    let label = ((lane * 5) % 7) & 3;
    let l = labeled_partition(&tile, label);
    put(out, 0, l.thread_rank());
    put(out, 1, l.num_threads());
    put(out, 2, l.meta_group_rank());
    put(out, 3, l.meta_group_size());
    put(out, 4, l.shfl(v, 0));
    let b = binary_partition(&tile, lane.is_multiple_of(3));
    put(out, 5, b.thread_rank());
    put(out, 6, b.num_threads());
    put(out, 7, b.meta_group_rank());
    put(out, 8, b.meta_group_size());
    put(out, 9, b.shfl(v, 0));
}

/// Closures as operators (CUDA's lambdas) and the scans' default operator:
/// `reduce`/`inclusive_scan`/`exclusive_scan` on `thread_block_tile<8>`,
/// `<32>` and a coalesced group, a capturing closure, and a closure's
/// `exclusive_scan` at rank 0 (`T{}` in CUDA, `T::default()` here).
#[kernel]
pub fn sem_closures(out: *mut u32) {
    let block = this_thread_block();
    let v = ((gtid() * 7919) % 211) as i32 - 100;
    let cap = 50;
    let max = |a: i32, b: i32| a.max(b);
    let add = |a: i32, b: i32| a.wrapping_add(b);
    let capped = move |a: i32, b: i32| a.max(b).min(cap);
    let t8 = tiled_partition::<8>(&block);
    put(out, 0, reduce(&t8, v, max) as u32);
    put(out, 1, cooperative_groups::inclusive_scan!(&t8, v) as u32);
    put(out, 2, cooperative_groups::exclusive_scan!(&t8, v) as u32);
    put(out, 3, exclusive_scan(&t8, v, max) as u32);
    let t32 = tiled_partition::<32>(&block);
    put(out, 4, reduce(&t32, v, capped) as u32);
    put(out, 5, inclusive_scan(&t32, v, add) as u32);
    if !lane_id().is_multiple_of(3) {
        let g = coalesced_threads();
        put(out, 6, reduce(&g, v, max) as u32);
        put(out, 7, inclusive_scan(&g, v, add) as u32);
        put(out, 8, exclusive_scan(&g, v, max) as u32);
    } else {
        put(out, 6, UNDEFINED);
        put(out, 7, UNDEFINED);
        put(out, 8, UNDEFINED);
    }
}

/// The grid group's identity and `is_valid()`, which CUDA defines as "the
/// grid can synchronize": run once in a plain launch (every thread 0) and
/// once in a cooperative one (every thread 1). A kernel that guards
/// `grid.sync()` with it depends on the plain launch's 0.
#[kernel]
pub fn sem_grid(out: *mut u32) {
    let grid = this_grid();
    put(out, 0, grid.is_valid() as u32);
    put(out, 1, grid.num_blocks());
    put(out, 2, grid.block_rank());
    put(out, 3, grid.thread_rank() as u32);
    put(out, 4, grid.num_threads() as u32);
    put(out, 5, grid.dim_blocks().x);
    put(out, 6, grid.block_index().x);
}

/// The collectives that finish in an atomic (CUDA 12): on
/// `thread_block_tile<8>` and `<32>`, targets in the words 32.. of each
/// tile's first thread; scans return their values in words 0.. of every
/// thread, and each scan runs twice on the same target (the second sees
/// the first's total).
#[kernel]
pub fn sem_updates(out: *mut u32) {
    use cooperative_groups::atomic::{AtomicRef, Device};
    let block = this_thread_block();
    let v = ((gtid() * 7919) % 211) as i32 - 100;
    let t8 = tiled_partition::<8>(&block);
    let t32 = tiled_partition::<32>(&block);
    let word = |tile_rank: u32, j: usize| {
        let first = (gtid() - tile_rank) as usize;
        // SAFETY: the word lies in the tile's first thread's row, which only
        // these atomics touch; the row is inside the output.
        unsafe { AtomicRef::<i32, Device>::from_ptr(out.add(first * SEM_WORDS + j).cast()) }
    };
    let r8 = t8.thread_rank();
    reduce_update_async(&t8, &word(r8, 32), v, Plus);
    reduce_update_async(&t8, &word(r8, 33), v, Greater);
    reduce_store_async(&t8, &word(r8, 34), v, Less);
    put(
        out,
        0,
        inclusive_scan_update(&t8, &word(r8, 35), v, Plus) as u32,
    );
    put(
        out,
        1,
        inclusive_scan_update(&t8, &word(r8, 35), v, Plus) as u32,
    );
    put(
        out,
        2,
        exclusive_scan_update(&t8, &word(r8, 36), v, Plus) as u32,
    );
    put(
        out,
        3,
        exclusive_scan_update(&t8, &word(r8, 36), v, Plus) as u32,
    );
    put(
        out,
        4,
        inclusive_scan_update(&t8, &word(r8, 37), v, Greater) as u32,
    );
    let r32 = t32.thread_rank();
    put(
        out,
        5,
        exclusive_scan_update(&t32, &word(r32, 38), v, BitXor) as u32,
    );
    reduce_update_async(&t32, &word(r32, 39), v, BitOr);
    reduce_update_async(&t32, &word(r32, 40), v, Plus);
}

/// The input of `sem_half` for thread `g`: values of many magnitudes
/// whose sums round (`(m / 7 - 60) · 2^e`), no NaN, no `-0.0`.
#[inline(always)]
fn half_input(g: u32) -> f32 {
    let m = (g.wrapping_mul(2_654_435_761) >> 8) % 1000;
    let e = (g % 5) as i32 - 2;
    (m as f32 / 7.0 - 60.0) * f32::from_bits(((127 + e) as u32) << 23)
}

/// The 16-bit floats' collectives: `reduce` and the scans with `Plus` on
/// `bf16` (`cg::plus<__nv_bfloat16>`), `f16` (`cg::plus<__half>`) and
/// `bf16x2` (`cg::plus<__nv_bfloat162>`) on `thread_block_tile<8>`, `<32>`
/// and the two-warp `<64>`, and `Less`/`Greater` on `<32>` (`__hmin` /
/// `__hmax` here, `cg::less`/`cg::greater`'s select in C++: the same on
/// these inputs, which have neither NaNs nor `-0.0`). Word 13 is the
/// converted input itself (`cvt.rn.bf16.f32` against
/// `__float2bfloat16_rn`).
#[kernel]
pub fn sem_half(out: *mut u32) {
    use cooperative_groups::{bf16, bf16x2, f16};
    let block = this_thread_block();
    let x = half_input(gtid());
    let v = bf16::from_f32_rn(x);
    let h = f16::from_f32_rn(x);
    let p = bf16x2::new(v, bf16::from_f32_rn(-x * 0.75));
    let t8 = tiled_partition::<8>(&block);
    let t32 = tiled_partition::<32>(&block);
    let t64 = tiled_partition::<64>(&block);
    let b = |x: bf16| x.to_bits() as u32;
    put(out, 0, b(reduce(&t8, v, Plus)));
    put(out, 1, b(inclusive_scan(&t8, v, Plus)));
    put(out, 2, b(reduce(&t32, v, Plus)));
    put(out, 3, b(inclusive_scan(&t32, v, Plus)));
    put(out, 4, b(exclusive_scan(&t32, v, Plus)));
    put(out, 5, b(reduce(&t32, v, Less)));
    put(out, 6, b(reduce(&t32, v, Greater)));
    put(out, 7, b(reduce(&t64, v, Plus)));
    put(out, 8, b(inclusive_scan(&t64, v, Plus)));
    put(out, 9, reduce(&t32, h, Plus).to_bits() as u32);
    put(out, 10, inclusive_scan(&t32, h, Plus).to_bits() as u32);
    put(out, 11, reduce(&t64, h, Plus).to_bits() as u32);
    put(out, 12, reduce(&t32, p, Plus).to_bits());
    put(out, 13, b(v));
}

/// The cases: kernel, C++ twin, launch shape.
#[cfg(not(target_arch = "nvptx64"))]
pub mod cases {
    use cooperative_groups::Kernel;

    /// One case of the semantic differential.
    #[derive(Clone, Copy, Debug)]
    pub struct SemCase {
        /// Short name (unique; a kernel may run in several shapes).
        pub name: &'static str,
        /// The Rust kernel.
        pub kernel: Kernel<(*mut u32,)>,
        /// The `extern "C"` name of its C++ twin.
        pub cpp: &'static str,
        /// The file of `reference/cuda` that holds the twin (its stem).
        pub cpp_file: &'static str,
        /// Blocks.
        pub grid: u32,
        /// Threads per block.
        pub block: u32,
        /// What the case covers.
        pub note: &'static str,
        /// Launched cooperatively (`cuLaunchCooperativeKernel`; on the
        /// simulator a cooperative launch) rather than plainly.
        pub cooperative: bool,
    }

    macro_rules! case {
        ($name:literal, $k:ident, $cpp:literal, $block:literal, $note:literal) => {
            SemCase {
                name: $name,
                kernel: super::$k,
                cpp: $cpp,
                cpp_file: "semantics",
                grid: 2,
                block: $block,
                note: $note,
                cooperative: false,
            }
        };
    }

    /// An atomics case (`crate::atomics`, twins in `atomics.cu`).
    const fn atomics(
        name: &'static str,
        kernel: Kernel<(*mut u32,)>,
        cpp: &'static str,
        grid: u32,
        block: u32,
        note: &'static str,
    ) -> SemCase {
        SemCase {
            name,
            kernel,
            cpp,
            cpp_file: "atomics",
            grid,
            block,
            note,
            cooperative: false,
        }
    }

    /// Cases no GPU run has recorded NVIDIA's words for yet: `cg-lab
    /// verify` runs them on a GPU next to [`SEM_CASES`] (and writes them
    /// into `semantics.json`), while the check of the simulator against a
    /// committed reference names them as not yet measured until the
    /// reference has them. Move them into [`SEM_CASES`] once it does.
    pub const PENDING_CASES: &[SemCase] = &[];

    /// Every case.
    pub const SEM_CASES: &[SemCase] = &[
        case!(
            "tile1_shfl",
            SEM_TILE_SHFL_1,
            "cpp_sem_tile_shfl_1",
            64,
            "tile<1>: shfl, up, down, xor"
        ),
        case!(
            "tile2_shfl",
            SEM_TILE_SHFL_2,
            "cpp_sem_tile_shfl_2",
            64,
            "tile<2>: shfl, up, down, xor"
        ),
        case!(
            "tile4_shfl",
            SEM_TILE_SHFL_4,
            "cpp_sem_tile_shfl_4",
            64,
            "tile<4>: shfl, up, down, xor"
        ),
        case!(
            "tile8_shfl",
            SEM_TILE_SHFL_8,
            "cpp_sem_tile_shfl_8",
            64,
            "tile<8>: shfl, up, down, xor"
        ),
        case!(
            "tile16_shfl",
            SEM_TILE_SHFL_16,
            "cpp_sem_tile_shfl_16",
            64,
            "tile<16>: shfl, up, down, xor"
        ),
        case!(
            "tile32_shfl",
            SEM_TILE_SHFL_32,
            "cpp_sem_tile_shfl_32",
            64,
            "tile<32>: shfl, up, down, xor"
        ),
        case!(
            "tile4_shfl_b52",
            SEM_TILE_SHFL_4,
            "cpp_sem_tile_shfl_4",
            52,
            "tile<4>, partial warp (20 lanes)"
        ),
        case!(
            "tile8_shfl_b44",
            SEM_TILE_SHFL_8,
            "cpp_sem_tile_shfl_8",
            44,
            "tile<8>, partial warp and tile (12 lanes)"
        ),
        case!(
            "tile16_shfl_b40",
            SEM_TILE_SHFL_16,
            "cpp_sem_tile_shfl_16",
            40,
            "tile<16>, partial warp and tile (8 lanes)"
        ),
        case!(
            "tile32_shfl_b48",
            SEM_TILE_SHFL_32,
            "cpp_sem_tile_shfl_32",
            48,
            "tile<32>, partial warp (16 lanes)"
        ),
        case!(
            "coalesced_shfl",
            SEM_COALESCED_SHFL,
            "cpp_sem_coalesced_shfl",
            64,
            "coalesced: full warp, two divergent groups"
        ),
        case!(
            "coalesced_shfl_b48",
            SEM_COALESCED_SHFL,
            "cpp_sem_coalesced_shfl",
            48,
            "coalesced, partial warp (16 lanes)"
        ),
        case!(
            "closures",
            SEM_CLOSURES,
            "cpp_sem_closures",
            64,
            "lambdas as operators, default-operator scans"
        ),
        case!(
            "closures_b40",
            SEM_CLOSURES,
            "cpp_sem_closures",
            40,
            "lambdas and scans, partial warp (8 lanes)"
        ),
        case!(
            "updates",
            SEM_UPDATES,
            "cpp_sem_updates",
            64,
            "reduce_update/store_async, scan_update"
        ),
        case!(
            "partitions",
            SEM_PARTITIONS,
            "cpp_sem_partitions",
            64,
            "labeled/binary partition: ranks, meta group"
        ),
        atomics(
            "atomic_private",
            crate::atomics::ATOMIC_PRIVATE,
            "cpp_atomic_private",
            4,
            128,
            "every atomic op × type × order on private words",
        ),
        atomics(
            "atomic_private_b96",
            crate::atomics::ATOMIC_PRIVATE,
            "cpp_atomic_private",
            3,
            96,
            "the same, 96-thread blocks",
        ),
        atomics(
            "atomic_contended",
            crate::atomics::ATOMIC_CONTENDED,
            "cpp_atomic_contended",
            8,
            256,
            "commutative atomics on shared and global words",
        ),
        atomics(
            "atomic_contended_b100",
            crate::atomics::ATOMIC_CONTENDED,
            "cpp_atomic_contended",
            5,
            100,
            "the same, partial warps",
        ),
        case!(
            "half",
            SEM_HALF,
            "cpp_sem_half",
            64,
            "bf16/f16/bf16x2 reduce and scans: tiles of 8, 32, the block as a 64-thread tile"
        ),
        case!(
            "half_b128",
            SEM_HALF,
            "cpp_sem_half",
            128,
            "the same, two 64-thread tiles per block"
        ),
        SemCase {
            name: "grid_plain",
            kernel: super::SEM_GRID,
            cpp: "cpp_sem_grid",
            cpp_file: "semantics",
            grid: 2,
            block: 64,
            note: "grid: is_valid() and ranks, plain launch",
            cooperative: false,
        },
        SemCase {
            name: "grid_cooperative",
            kernel: super::SEM_GRID,
            cpp: "cpp_sem_grid",
            cpp_file: "semantics",
            grid: 2,
            block: 64,
            note: "grid: is_valid() and ranks, cooperative launch",
            cooperative: true,
        },
    ];
}
