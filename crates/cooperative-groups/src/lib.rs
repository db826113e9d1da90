//! # cooperative-groups
//!
//! CUDA Cooperative Groups for Rust kernels compiled by stock nightly `rustc`
//! to PTX, with the same kernels runnable on the CPU through the `cg-sim`
//! simulator.
//!
//! A kernel is a plain Rust function marked [`#[kernel]`](kernel). On
//! `nvptx64` it becomes a PTX entry; on the host it becomes a function the
//! simulator runs once per lane, plus a launch descriptor (`NAME: Kernel<…>`).
//!
//! ## A complete kernel
//!
//! Each warp-sized tile sums its values and each thread gets its running
//! (exclusive) offset inside the tile; the block then sums the tile totals
//! — a `reduce` over the whole block, which CUDA's C++ API does not offer.
//!
//! ```
//! use cooperative_groups::prelude::*;
//! use cooperative_groups::{kernel, GlobalSlice, OwnedSlice, PerBlock};
//!
//! #[kernel]
//! pub fn tile_sums(input: GlobalSlice<u32>, offsets: OwnedSlice<u32>, totals: OwnedSlice<u32, PerBlock>) {
//!     let block = this_thread_block();
//!     let tile = tiled_partition::<32>(&block);
//!     let grid = this_grid();
//!     let x = input.load(grid.thread_rank() as usize); // ld.global.nc, bounds-checked
//!     let tile_sum = reduce(&tile, x, Plus); // redux.sync.add.u32 on sm_80+
//!     let offset = exclusive_scan(&tile, x, Plus); // 5 × shfl.sync.up
//!     // One contribution per tile (its rank-0 thread's), summed over the block.
//!     let mine = if tile.thread_rank() == 0 { tile_sum } else { 0 };
//!     let block_sum = reduce(&block, mine, Plus); // warp step, one bar.sync exchange
//!     if let Some(e) = offsets.at(&grid) {
//!         e.store(offset); // this thread's element: its rank in the grid
//!     }
//!     if let Some(e) = totals.leader(&block) {
//!         e.store(block_sum); // the block's element, by its thread 0
//!     }
//! }
//!
//! // Host side: the simulator runs the kernel on host slices here;
//! // `cg-runtime` launches the same descriptor on a GPU or the simulator
//! // with its buffers (`backend.launch(&TILE_SUMS, &cfg, (&input, &mut offsets, &mut totals))`).
//! let input: Vec<u32> = (0..256).collect();
//! let (mut offsets, mut totals) = (vec![0u32; 256], vec![0u32; 2]);
//! let cfg = cg_sim::LaunchConfig::new(2, 128);
//! cooperative_groups::host::run(&TILE_SUMS, &cfg, (&input[..], &mut offsets[..], &mut totals[..])).unwrap();
//! assert_eq!(offsets[33], 32); // thread 33 is rank 1 of its tile
//! assert_eq!(totals, [(0..128).sum::<u32>(), (128..256).sum::<u32>()]);
//! ```
//!
//! No `unsafe` anywhere: the parameters are typed (see [Safe
//! kernels](global)), each thread writes only the elements its identity
//! gives it, and every index is checked (a `trap` on the GPU, a report on
//! the simulator).
//!
//! ## Groups
//!
//! | CUDA | here | sync lowers to |
//! |---|---|---|
//! | `this_thread_block()` | [`this_thread_block`] → [`ThreadBlock`] | `bar.sync 0` |
//! | `__launch_bounds__(M)` | [`this_thread_block()`](this_thread_block)[`.with_max_threads::<M>()`](ThreadBlock::with_max_threads) → `ThreadBlock<M>` | (tiles' barrier ids become immediates, see [Named barriers](#named-barriers)) |
//! | a kernel written for `blockDim.x == B` | [`#[kernel(block_dim(B))]`](kernel) (`.reqntid B, 1, 1`: no other block shape launches) with [`.with_threads::<B>()`](ThreadBlock::with_threads) | (the size check and the rank's arithmetic fold away: `thread_rank()` is `%tid.x`) |
//! | `tiled_partition<N>(g)` | [`tiled_partition::<N>`](tiled_partition) → [`ThreadBlockTile<N>`] | `bar.warp.sync` (N ≤ 32), `bar.sync id, N` (N ≥ 64) |
//! | `tiled_partition(g, n)` | [`tiled_partition_dyn`] → [`DynamicTile`] | `bar.warp.sync` |
//! | `coalesced_threads()` | [`coalesced_threads`] → [`CoalescedGroup`] | `bar.warp.sync` |
//! | `labeled_partition(g, l)` | [`labeled_partition`] → [`CoalescedGroup`] | `bar.warp.sync` |
//! | `binary_partition(g, p)` | [`binary_partition`] → [`CoalescedGroup`] | `bar.warp.sync` |
//! | `this_cluster()` | [`this_cluster`] → [`ClusterGroup`] | `barrier.cluster.arrive/wait.aligned` (sm_90) |
//! | `this_grid()` | [`this_grid`] → [`GridGroup`] | block barrier + one atomic per block on a module-level word (cooperative launch) |
//!
//! Ranks and masks returned by collectives are group-relative. Tile sizes
//! are types: `tiled_partition::<3>`, `tiled_partition::<2048>`, `ballot` on
//! a 64-thread tile and `reduce(&t, 1.0f32, BitAnd)` do not compile.
//!
//! ## Collectives
//!
//! Shuffles (`shfl`, `shfl_up`, `shfl_down`, `shfl_xor` for any
//! [`ShflValue`] up to 32 bytes), votes (`any`, `all`, `ballot`), matches
//! (`match_any`, `match_all`, and `match_any_bits` for small labels by
//! ballots, as CUB ranks radix digits) are methods of the groups within a warp;
//! multi-warp tiles have `shfl` (broadcast), `any` and `all`. The free
//! functions [`reduce`], [`inclusive_scan`](fn@inclusive_scan), [`exclusive_scan`](fn@exclusive_scan),
//! [`invoke_one`] and [`invoke_one_broadcast`] take any group, the block
//! included, and an operator of [`ops`] or a closure, as CUDA takes
//! lambdas (`reduce(&tile, v, |a: i32, b: i32| a.max(b))`);
//! [`inclusive_scan!`] and [`exclusive_scan!`] with two arguments use
//! CUDA's default operator, the sum. Each item's documentation names the
//! PTX it lowers to. A `template <int N> __global__` kernel is
//! `#[kernel(instances(8, 16, 32))]` on a generic function (see [`kernel`]).
//!
//! ## Same results as CUDA, and where they differ by choice
//!
//! Every behaviour CUDA defines gives the same bits here: the shuffles take
//! their arguments as `__shfl_*_sync` does (a distance or lane mask's low 5
//! bits; `shfl_xor` past the tile follows the width rule, reading an
//! earlier tile's lane and keeping the own value for a later one), and
//! coalesced groups pick their source lane as NVIDIA's `coalesced_group`
//! does. `cg-lab verify` checks this word for word against NVIDIA's C++ on
//! a GPU (`reference/cuda/semantics.cu`; an H100's words are committed in
//! `docs/results/h100/current/verify/semantics.json` and the simulator is
//! checked against them on every CI run). The differences, each on purpose:
//!
//! | what | CUDA C++ | here | why |
//! |---|---|---|---|
//! | `exclusive_scan` at rank 0 | `T{}` (0 for every operator) | the operator's identity (`MAX` for `Less`, `!0` for `BitAnd`, …) | a value that composes: `identity ⊕ x == x` for every operator |
//! | `num_threads()` of a tile that a partial block cuts short | `N` | the threads that exist | collectives combine exactly the members that exist; ranks stay `0..num_threads()` |
//! | a shuffle source CUDA leaves undefined (a lane a partial warp lacks; an earlier tile's lane while the warp is not all present; a coalesced `shfl` past the last member when lane 31 is not a member) | whatever the register holds | the caller's own value | deterministic, and the same on the simulator |
//! | `shfl_xor` on coalesced groups and dynamic tiles; `shfl`, `any`, `all`, `reduce`, the scans on multi-warp tiles and the block | do not exist | provided | the same code paths serve every group |
//! | a `shfl` source rank | `int` | `u32` (`u32::MAX` is CUDA's `-1`: same bits, same result) | ranks are never negative elsewhere in the API |
//! | what a shuffle moves | any trivially copyable type | [`ShflValue`]: plain data without padding or invalid bit patterns | a safe function must not hand out padding or forged values |
//! | `grid.is_valid()` in a plain launch on a GPU | false, by definition; what NVIDIA's C++ reads (the driver's grid workspace) is true once the context has run a cooperative launch (driver 580, CUDA 13.0) | the same registers as NVIDIA's C++, so the same answer on the GPU; false on the simulator | bit-identical with NVIDIA's C++ on the GPU (the semantic differential's `grid_plain` case runs before any cooperative launch); the simulator answers CUDA's definition |
//! | a grid's block count | up to (2^31 − 1) · 65535 · 65535 | at most 2^32 − 1 blocks (`cg_isa::MAX_GRID_BLOCKS`; a larger grid is refused before it runs) | block ranks are 32-bit, as `grid.block_rank()` is: in a larger grid two blocks would share a rank, and so a window of an output |
//! | a tensor tile store | one thread's `cp.async.bulk.tensor` after the user's `fence.proxy.async` and `__syncthreads()` | [`TensorTilesMut::store_tile`](tma::TensorTilesMut::store_tile): a block collective doing all three, and waiting for the earlier stores' reads | the fence and the barrier cannot be forgotten, nor a source reused while the copy engine reads it |
//! | a tensor map | `CUtensorMap` of any shape, `void*` coordinates | [`TensorMap2d<T, BW, BH, L>`](tma::TensorMap2d): element type, box and tile layout (dense or a 32/64/128-byte swizzle) in the type; 1-D to 5-D ([`TensorMap1d`](tma::TensorMap1d), [`TensorMap3d`](tma::TensorMap3d), [`TensorMap4d`](tma::TensorMap4d), [`TensorMap5d`](tma::TensorMap5d)) | the shared tile's size, alignment and transaction bytes follow from the type, [`tile_index`](tma::TensorMap2d::tile_index) finds an element in any layout, and an x coordinate the copy engine would reject (not a multiple of 16 bytes) is a checked error instead of an illegal-instruction fault |
//! | `cg::less` / `cg::greater` on `__half`, `__nv_bfloat16` | the select `b < a ? b : a`: on zeros of two signs or a NaN the result depends on the operand order (two lanes of one `reduce` may differ) | [`Less`](ops::Less) / [`Greater`](ops::Greater) are `__hmin` / `__hmax` (`min.bf16`, …): a NaN operand ignored, `-0.0 < +0.0` | commutative, so every member gets the same bits; equal to CUDA's whenever no NaN or mixed-sign zero occurs |
//! | a 16-bit float `+` | `add.bf16` / `add.f16` (ptxas may fuse it with a multiply) | [`Float16::add_rn`] and `Plus` are `add.rn.bf16` / `add.rn.f16` (never fused) | Rust's arithmetic is not contracted behind the user's back; [`Float16::fma_rn`] is the fused form |
//! | `cg::reduce` on `__nv_bfloat162`, `__half2` | rejected (not trivially copyable in CUDA 13) | [`bf16x2`], [`f16x2`] are [`ShflValue`]s: `reduce`, the scans, shuffles | plain data |
//! | float `reduce` / scans over tiles of more than two warps | `cg::` combines the warp partials by a butterfly (reduce) or a Hillis–Steele scan | the partials in warp order (as CUB's `BlockReduce`) | one fold shared by every multi-warp group; up to two warps (and within a warp) the order is NVIDIA's |
//! | the warp's `mma` | inline PTX on registers the programmer lays out by `%laneid` | [`mma::mma`] on typed fragments ([`mma::MatrixA`], …) built from `(row, col)` and stored by their lanes; on the simulator the sum is rounded to `f32` once | the layout cannot be got wrong, a fragment cannot leave its lane; the tensor core's internal rounding is undocumented: bit-identical whenever the sums are exact in `f32` |
//!
//! ## Half precision
//!
//! [`f16`](struct@crate::f16) and [`bf16`] are the `half` crate's types (what cudarc and the
//! Rust numeric crates use, so host buffers and kernels share them), with
//! the packed pairs [`f16x2`] and [`bf16x2`]. All four are [`Pod`]
//! (runtime buffers, `GlobalSlice<bf16>` parameters) and [`ShflValue`];
//! [`Float16`] (in the prelude) gives each operation as one instruction
//! (`bf16::from_f32_rn` → `cvt.rn.bf16.f32`, `a.add_rn(b)` → `add.rn.bf16`,
//! `fma_rn`, `hmin`/`hmax`, …; software below sm_80, as NVIDIA's headers),
//! and [`reduce`] and the scans take them with [`Plus`](ops::Plus),
//! [`Less`](ops::Less) and [`Greater`](ops::Greater): a bf16 sum over a
//! tile is NVIDIA's `cg::reduce(tile, x, cg::plus<__nv_bfloat16>())` bit
//! for bit. Their atomics are CUDA's `atomicAdd` (`atom.add.noftz.bf16`,
//! …). The simulator rounds each operation once, as the GPU. Details:
//! [`narrow`].
//!
//! ## Named barriers
//!
//! Tiles of 64–512 threads sync with hardware named barriers: **the crate
//! reserves barrier ids 1–15**, so kernels that create such tiles must not
//! use `bar.sync 1..15` themselves. Ids are assigned from the block size so
//! that tiles of different sizes never share one; 64-thread tiles in blocks
//! of more than 512 threads (ids run out) sync on an `mbarrier` per tile in
//! shared memory (sm_80+; a pair of flags on sm_70), and their one-word
//! `reduce` swaps the warp partials in a single handshake — faster than
//! NVIDIA's atomics-based barrier (`sync()` 0.34× its time on the H200 in
//! 1024-thread blocks). Creating such a tile syncs the parent twice.
//! Details: the `group::barrier` module source.
//!
//! **Declare small blocks.** An id computed at run time makes ptxas reserve
//! all 16 barriers for the kernel, and then an SM holds at most 4 of its
//! blocks (H200) — harmless from 512 threads per block on, a quarter of the
//! SM's threads at 128. `this_thread_block().with_max_threads::<M>()`
//! (like `__launch_bounds__`) bounds the block at compile time; for `M ≤
//! 256` every tile `sync` names its barrier as an immediate and the kernel
//! reserves only what such a block can need (3 barriers for 64-thread tiles
//! of a 128-thread block). On the H200 this took `reduce` on 64- and
//! 128-thread tiles in 128-thread blocks from 1.6× to 0.87× and 0.83× of
//! NVIDIA's `cg::reduce`.
//!
//! ```
//! # use cooperative_groups::prelude::*;
//! # use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
//! # let sums: Vec<AtomicU32> = (0..2).map(|_| AtomicU32::new(0)).collect();
//! # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
//! # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 128), &|| {
//! # let x = this_thread_block().thread_rank();
//! let block = this_thread_block().with_max_threads::<128>();
//! let pair = tiled_partition::<64>(&block);     // bar.sync 1 or 2, 64
//! let sum = reduce(&pair, x, Plus);
//! # if pair.thread_rank() == 0 { sums[pair.meta_group_rank() as usize].store(sum, Relaxed) }
//! # }).unwrap();
//! # assert_eq!(sums[1].load(Relaxed), (64..128).sum::<u32>());
//! ```
//!
//! **Declare the block's size** when it is fixed:
//! `this_thread_block().with_threads::<N>()` (CUB's `BLOCK_DIM_X`; a block
//! of another size traps) makes the size a constant, and the block-wide
//! `reduce` and scans drop their branches on it. On the H200 the block
//! reduce went from 0.99–1.03× CUB's `BlockReduce` to 0.84–0.96×, the
//! block scan from 0.56–1.23× CUB's `BlockScan` to 0.44–1.04× (blocks of
//! 128–1024 threads).
//!
//! ## Misuse
//!
//! On the GPU a violated contract (a tile larger than the block, a dynamic
//! tile size that is not a power of two ≤ 32) traps. On the simulator every
//! function that can block is `#[track_caller]`: deadlocks, partitions made
//! by part of a group and non-uniform arguments are reported at the user's
//! source line.
//!
//! ## Layers
//! * `arch` (private): one set of primitives with two backends — LLVM's
//!   NVVM intrinsics (convergent, so LLVM never duplicates a collective into
//!   divergent branches) and inline PTX where no intrinsic exists, on
//!   `nvptx64`; calls into `cg-sim` on the host. All `unsafe` asm lives there,
//!   and so does every choice made by target (`cfg(target_arch)`), except the
//!   crate attributes, the panic handler and the host-only [`Kernel`]
//!   descriptor. The instruction vocabulary it shares with the simulator and
//!   the runtime (`ShflMode`, `ReduxOp`, `MemScope`, `MemOrder`, [`Dim3`])
//!   is the `cg-isa` crate's.
//! * `group`, `collective` (private, re-exported at the root): the handles
//!   and the collectives, written once against three shapes (aligned lanes
//!   of a warp, arbitrary lanes of a warp, whole warps of a block).
//! * [`ops`]: the reduction operators.
//! * [`intrinsics`]: CUDA's raw built-ins (`__shfl_sync`, `__ballot_sync`, …).
//! * [`shared`]: shared-memory arrays and dynamic shared memory.
//! * [`global`]: typed global memory — the kernel parameters that make a
//!   kernel safe (read-only slices, slices written by ownership, atomics,
//!   2-D views), and [Safe kernels](global) with every pattern.
//! * [`atomic`]: `atomicAdd` and friends.
//! * [`narrow`]: the 16-bit floats `f16`, `bf16` and their pairs.
//! * [`vector`]: aligned vectors (`F32x4` is `float4`), one 16-byte access
//!   each; [`cache`]: cache hints (`__ldcs`, `__stcs`, …) on the typed views.
//! * [`math`]: CUDA's math functions (`expf`, `sinf`, `erff`, …) in pure
//!   Rust within CUDA's ulp bounds, bit-identical on the GPU and the
//!   simulator, and method syntax (`x.exp()`) through [`math::FloatMath`]
//!   in the prelude.
//! * `memcpy_async` (private, re-exported): [`memcpy_async`](fn@memcpy_async), [`wait`],
//!   [`wait_prior`] — asynchronous copies global → shared (`cp.async`).
//! * [`primitives`]: CUB's warp and block primitives (loads, stores,
//!   exchanges, radix and merge sorts, histograms, …) above the
//!   collectives, with their [`TempStorage`](primitives::TempStorage)
//!   ([`temp_storage!`]).
#![no_std]
#![warn(missing_docs)]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(asm_experimental_arch, core_intrinsics, link_llvm_intrinsics)
)]
// A GPU build compiles a subset of the crate per SM: the simulator's
// checks vanish and the sm_90 API (bulk and tensor copies) does not exist
// before sm_90, so what only they use is unused there. The host build (the
// simulator's, clippy's) compiles and lints all of it.
#![cfg_attr(
    target_arch = "nvptx64",
    allow(internal_features, dead_code, unused_imports)
)]

// Lets the macros' `::cooperative_groups::…` paths resolve inside this crate too.
extern crate self as cooperative_groups;

mod arch;
pub mod atomic;
pub mod cache;
pub mod cluster;
mod collective;
pub mod global;
pub mod grid;
mod group;
#[cfg(not(target_arch = "nvptx64"))]
pub mod host;
pub mod intrinsics;
#[cfg(not(target_arch = "nvptx64"))]
mod kernel_desc;
pub mod math;
#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_80"))]
pub mod mbarrier;
pub mod memcpy_async;
pub mod mma;
pub mod narrow;
pub mod ops;
mod panic;
#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_80"))]
pub mod pipeline;
mod pod;
pub mod primitives;
pub mod shared;
pub mod tma;
mod unroll;
mod value;
pub mod vector;
pub mod wgmma;

pub use cg_isa::Dim3;
pub use cg_macros::{kernel, shared_array};
pub use cluster::{ClusterArrivalToken, ClusterGroup, this_cluster};
pub use collective::invoke::{invoke_one, invoke_one_broadcast};
pub use collective::methods::WarpGroup;
pub use collective::reduce::reduce;
pub use collective::scan::{exclusive_scan, inclusive_scan};
pub use collective::update::{
    AtomicOp, exclusive_scan_update, inclusive_scan_update, reduce_store_async, reduce_update_async,
};
pub use global::{
    AtomicSlice, BlockRows, Chunked, Elem, GlobalSlice, KernelParam, OwnedPitched, OwnedSlice,
    PerBlock, PerThread, PerThread2d, PerTile, Pitched, SafeParam, ThreadRows, ThreadTiles,
    TileRows, WarpTiles, WarpgroupTiles,
};
pub use grid::{GridArrivalToken, GridGroup, this_grid};
pub use group::{
    BlockArrivalToken, CoalescedGroup, DynamicParent, DynamicTile, GroupCounts, MultiWarpTileSize,
    Size, StaticParent, ThreadBlock, ThreadBlockTile, ThreadGroup, TileSize, TiledParent,
    WarpTileSize, binary_partition, coalesced_threads, group_size, labeled_partition, num_threads,
    sync, this_thread_block, thread_rank, tiled_partition, tiled_partition_dyn,
};
#[cfg(not(target_arch = "nvptx64"))]
pub use kernel_desc::Kernel;
pub use memcpy_async::{AsyncCopyGroup, memcpy_async, memcpy_async_bytes, wait, wait_prior};
pub use narrow::{Float16, bf16, bf16x2, e4m3, e5m2, f16, f16x2};
pub use ops::ReduceOp;
pub use pod::Pod;
pub use shared::{DynamicShared, SharedArray, SharedSlice, dynamic_shared};
pub use unroll::unroll;
pub use value::{Label, MAX_SHFL_BYTES, MatchValue, ShflValue};

/// Everything a kernel usually needs: the group constructors, the
/// collectives, the operators, the group traits, CUDA's free functions of
/// a group ([`thread_rank`]`(&g)`, [`num_threads`], [`group_size`],
/// [`sync`]`(&g)`), and [`Size`] with its
/// bounds [`TileSize`], [`WarpTileSize`] (tiles within a warp) and
/// [`MultiWarpTileSize`] for helpers generic over tile sizes
/// (`where Size<N>: WarpTileSize`).
pub mod prelude {
    pub use crate::math::FloatMath;
    pub use crate::narrow::Float16;
    pub use crate::ops::{BitAnd, BitOr, BitXor, Greater, Less, Plus};
    pub use crate::{
        ClusterGroup, CoalescedGroup, DynamicTile, GridGroup, MultiWarpTileSize, Size, ThreadBlock,
        ThreadBlockTile, ThreadGroup, TileSize, WarpGroup, WarpTileSize, binary_partition,
        coalesced_threads, exclusive_scan, group_size, inclusive_scan, invoke_one,
        invoke_one_broadcast, labeled_partition, num_threads, reduce, sync, this_cluster,
        this_grid, this_thread_block, thread_rank, tiled_partition, tiled_partition_dyn,
    };
}

/// Items the macros expand to; not part of the public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::arch::hooks::*;
}
