//! The warpgroup MMA (`cooperative_groups::wgmma`, sm_90a): a probe that
//! checks the layouts against the host's product, and a TMA-fed GEMM.
//!
//! * [`probe_wgmma_bf16`] (and `_f16`) stage A (64 × 64) and B (`N` × 64) in the 128-byte
//!   swizzle by hand and multiplies them once: every element of the 64 ×
//!   `N` product is checked (exact inputs) on the GPU and the simulator.
//! * [`gemm_wgmma_bf16`]: `c = a · bᵀ` (`a` M × K, `b` N × K, both
//!   row-major bf16, `c` M × N `f32`), one block of two warpgroups per
//!   128 × 256 tile of `c` (each warpgroup 64 rows, sharing B's tile), the
//!   K tiles (64 wide) loaded by the copy engine into a four-stage ring in
//!   dynamic shared memory by a third, producer warpgroup (one thread),
//!   one batch of four `m64n256k16` per K tile and consumer warpgroup; a
//!   stage is refilled once the consumers' 8 warps let go of it
//!   (`wait_older`, a warp sync, then lane 0's arrival on its `empty`
//!   barrier).

use cooperative_groups::prelude::*;
use cooperative_groups::tma::{Swizzle128B, TensorMap2d};
use cooperative_groups::wgmma::{
    Accumulator, Shape, SmemMatrix, WgmmaElement, WgmmaShape, operands_written,
};
use cooperative_groups::{
    GlobalSlice, OwnedPitched, Pod, SharedSlice, WarpgroupTiles, bf16, f16, kernel,
};

/// Columns of B staged by the probe.
pub const PROBE_N: usize = 64;

/// The GEMM's tile of `c`: 128 rows (two warpgroups of 64) × 256
/// columns.
pub const GEMM_BM: usize = 128;
/// The GEMM's tile width.
pub const GEMM_BN: usize = 256;
/// The K tile: one 128-byte swizzle row of bf16.
pub const GEMM_BK: usize = 64;
/// Stages of the GEMM's ring.
pub const GEMM_STAGES: usize = 4;
/// Threads per block of the GEMM: two warpgroups that multiply, one that
/// loads.
pub const GEMM_THREADS: u32 = 384;
// `#[kernel(block_dim(…))]` takes a literal: it must say the same.
const _: () = assert!(GEMM_THREADS == 384);
/// Dynamic shared memory the GEMM needs: the ring, plus 1 KiB to align it
/// to the swizzle's period.
pub const GEMM_SMEM: u32 = (GEMM_STAGES * (GEMM_BM + GEMM_BN) * GEMM_BK * 2 + 1024) as u32;

/// The GEMM's A map: boxes of 64 (K) × 128 rows.
pub type GemmA<'a> = TensorMap2d<'a, bf16, 64, 128, Swizzle128B>;
/// The GEMM's B map: boxes of 64 (K) × 256 rows.
pub type GemmB<'a> = TensorMap2d<'a, bf16, 64, 256, Swizzle128B>;

/// Where element `(row, k)` of a 64-wide row-major tile lies in the
/// 128-byte swizzle, in elements of `T` (2 bytes).
#[inline(always)]
fn swizzled(row: usize, k: usize) -> usize {
    TensorMap2d::<'static, bf16, 64, 64, Swizzle128B>::tile_index(k as u32, row as u32)
}

/// `c = a · bᵀ` for one 64 × `PROBE_N` tile (`a` 64 × 64, `b` `PROBE_N` ×
/// 64, row-major), block of 128 threads: one `wgmma` batch of four
/// `m64n64k16`, bf16 inputs.
#[kernel]
pub fn probe_wgmma_bf16(
    a: GlobalSlice<bf16>,
    b: GlobalSlice<bf16>,
    c: OwnedPitched<f32, WarpgroupTiles<64, PROBE_N>>,
) {
    let sa = cooperative_groups::shared_array!(bf16; 64 * 64, align 1024);
    let sb = cooperative_groups::shared_array!(bf16; PROBE_N * 64, align 1024);
    probe_body(a, b, c, sa.as_slice(), sb.as_slice());
}

/// [`probe_wgmma_bf16`] with f16 inputs.
#[kernel]
pub fn probe_wgmma_f16(
    a: GlobalSlice<f16>,
    b: GlobalSlice<f16>,
    c: OwnedPitched<f32, WarpgroupTiles<64, PROBE_N>>,
) {
    let sa = cooperative_groups::shared_array!(f16; 64 * 64, align 1024);
    let sb = cooperative_groups::shared_array!(f16; PROBE_N * 64, align 1024);
    probe_body(a, b, c, sa.as_slice(), sb.as_slice());
}

/// The probes' body: stage, multiply, store.
#[inline(always)]
fn probe_body<T: WgmmaElement + Pod>(
    a: GlobalSlice<T>,
    b: GlobalSlice<T>,
    c: OwnedPitched<f32, WarpgroupTiles<64, PROBE_N>>,
    sa: SharedSlice<T>,
    sb: SharedSlice<T>,
) where
    Shape<PROBE_N>: WgmmaShape,
{
    let block = this_thread_block();
    let (a, b) = (a.prefix(64 * 64), b.prefix(PROBE_N * 64));
    let t = block.thread_rank() as usize;
    for i in (t..64 * 64).step_by(128) {
        sa.store(swizzled(i / 64, i % 64), a.load(i));
    }
    for i in (t..PROBE_N * 64).step_by(128) {
        sb.store(swizzled(i / 64, i % 64), b.load(i));
    }
    operands_written(&block);
    let wg = tiled_partition::<128>(&block);
    let am = SmemMatrix::<T, Swizzle128B>::k_major(&sa, 64);
    let bm = SmemMatrix::<T, Swizzle128B>::k_major(&sb, PROBE_N);
    let acc = Accumulator::<PROBE_N>::zero(&wg)
        .begin(&wg)
        .mma(&wg, &am, &bm)
        .commit()
        .wait();
    if let Some(tile) = c.warpgroup_tile(&wg) {
        acc.store(&wg, &tile);
    }
}

/// `c = a · bᵀ` with the warpgroup MMA (see the module's notes): blocks of
/// [`GEMM_THREADS`] threads, [`GEMM_SMEM`] bytes of dynamic shared memory,
/// a 1-D grid of one block per 128 × 256 tile of `c` (row-major order of
/// tiles); K a multiple of 64. Its block is declared (`.reqntid 384`):
/// the 154 registers a thread needs fit 384 threads, not a module-wide
/// bound for larger blocks.
#[kernel(block_dim(384))]
pub fn gemm_wgmma_bf16(a: GemmA, b: GemmB, c: OwnedPitched<f32, WarpgroupTiles<128, 256>>) {
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    {
        const A_LEN: usize = GEMM_BM * GEMM_BK;
        const B_LEN: usize = GEMM_BN * GEMM_BK;
        let block = this_thread_block();
        let wg = tiled_partition::<128>(&block);
        let warp = tiled_partition::<32>(&block);
        // A stage is full after the two copies' arrivals and bytes, empty
        // after each of the consumers' 8 warps let go of it.
        let full = cooperative_groups::mbarrier!(&block, 2; GEMM_STAGES);
        let empty = cooperative_groups::mbarrier!(&block, 8; GEMM_STAGES);
        let smem = cooperative_groups::dynamic_shared::<bf16>();
        // The ring starts at the first 1024-byte boundary.
        let skip = (1024 - smem.as_ptr() as usize % 1024) % 1024 / 2;
        let ring = smem.slice(skip, GEMM_STAGES * (A_LEN + B_LEN));
        let a_stage = |s: usize| ring.slice(s * A_LEN, A_LEN);
        let b_stage = |s: usize| ring.slice(GEMM_STAGES * A_LEN + s * B_LEN, B_LEN);
        let k_tiles = a.width() as usize / GEMM_BK;
        let w = block.thread_rank() as usize / 128;
        let lane0 = block.thread_rank().is_multiple_of(32);
        let Some(tile) = c.warpgroup_tile(&wg) else {
            if w < 2 {
                // A consumer whose 64 rows lie past M (M mod 128 in
                // 1..=64) reads nothing but still lets go of each stage:
                // the producer waits for all 8 consumer warps' arrivals
                // before it refills one. (Its arrival for a stage's use
                // follows that use's `full` phase, which follows the
                // stage's previous `empty` phase: it counts for the right
                // phase.)
                for kt in 0..k_tiles {
                    let s = kt % GEMM_STAGES;
                    full.get(s).wait_parity((kt / GEMM_STAGES) as u32 & 1);
                    if lane0 {
                        empty.get(s).arrive().discard();
                    }
                }
                return;
            }
            // Warpgroup 2 owns no rows: it is the producer, its thread 0
            // the one that issues the copies.
            if block.thread_rank() as usize == 2 * 128 {
                let tiles_x = c.width().div_ceil(GEMM_BN).max(1);
                let blk = cooperative_groups::intrinsics::block_idx().x as usize;
                let (m0, n0) = (
                    (blk / tiles_x * GEMM_BM) as i32,
                    (blk % tiles_x * GEMM_BN) as i32,
                );
                let (ta, tb) = (a.tiles(), b.tiles());
                for kt in 0..k_tiles {
                    let (s, use_) = (kt % GEMM_STAGES, kt / GEMM_STAGES);
                    if use_ > 0 {
                        empty.get(s).wait_parity((use_ - 1) as u32 & 1);
                    }
                    let x = (kt * GEMM_BK) as i32;
                    // SAFETY: two copies (16 KiB and 32 KiB) in flight on
                    // the stage's phase, which counts two arrivals; every
                    // consumer warp let go of the stage's previous use.
                    unsafe {
                        full.get(s)
                            .arrive_copy_tile(a_stage(s), &ta, x, m0)
                            .discard();
                        full.get(s)
                            .arrive_copy_tile(b_stage(s), &tb, x, n0)
                            .discard();
                    }
                }
            }
            return;
        };
        let mut in_flight = Accumulator::<256>::zero(&wg).begin(&wg).commit();
        for kt in 0..k_tiles {
            let s = kt % GEMM_STAGES;
            full.get(s).wait_parity((kt / GEMM_STAGES) as u32 & 1);
            let (sa, sb) = (a_stage(s), b_stage(s));
            let am = SmemMatrix::<bf16, Swizzle128B>::k_major(&sa, GEMM_BM).rows(64 * w, 64);
            let bm = SmemMatrix::<bf16, Swizzle128B>::k_major(&sb, GEMM_BN);
            in_flight = in_flight.resume().mma(&wg, &am, &bm).commit().wait_older();
            // The batch of K tile `kt - 1` is done: this warp lets go of
            // its stage. Each lane waited for its own part of the batch;
            // the warp's sync orders all 32 lanes' waits before lane 0's
            // arrival (a release for the warp), so the producer's next
            // copy into the stage comes after every lane's reads — without
            // it the memory model orders only lane 0's (the simulator
            // reports the race once the ring wraps, K > 256).
            if kt > 0 {
                warp.sync();
                if lane0 {
                    empty.get((kt - 1) % GEMM_STAGES).arrive().discard();
                }
            }
        }
        in_flight.wait().store(&wg, &tile);
    }
    #[cfg(all(target_arch = "nvptx64", not(target_feature = "sm_90")))]
    {
        let _ = (a, b, c);
        panic!("the wgmma GEMM needs sm_90a")
    }
}

/// Element `i` of a small-integer test operand, `((7i + salt) mod 5) − 2`:
/// exact in bf16 and f16, and every product and partial sum of a
/// K-long dot product is an integer of magnitude ≤ 4K, exact in `f32` for
/// K up to 2^22 — so the host's sum, the simulator's and the tensor
/// core's agree bit for bit whatever their order of additions.
#[cfg(not(target_arch = "nvptx64"))]
pub fn exact_small(i: usize, salt: usize) -> f32 {
    ((i * 7 + salt) % 5) as f32 - 2.0
}

/// Element `i` of the GEMM's A (row-major M × K) in the lab's checks.
#[cfg(not(target_arch = "nvptx64"))]
pub fn gemm_a(i: usize) -> bf16 {
    bf16::from_f32(exact_small(i, 1))
}

/// Element `i` of the GEMM's B (row-major N × K) in the lab's checks:
/// each value three times in a row, so that B's rows are not A's and a
/// swapped operand or transposed layout shows.
#[cfg(not(target_arch = "nvptx64"))]
pub fn gemm_b(i: usize) -> bf16 {
    bf16::from_f32(exact_small(i / 3, 2))
}

/// Elements a sampled check of a large product compares (a full host
/// product at 8192³ takes minutes).
pub const GEMM_SAMPLES: usize = 4096;

/// The `s`-th sampled element `(row, col)` of an `m × n` product: two
/// prime strides, so the samples fall in every tile and at every
/// position inside one.
#[cfg(not(target_arch = "nvptx64"))]
pub fn gemm_sample(s: usize, m: usize, n: usize) -> (usize, usize) {
    ((s * 7919 + 13) % m, (s * 104_729 + 7) % n)
}

/// Element `(i, j)` of `a · bᵀ` on the host (`a` row-major m × `k`, `b`
/// row-major n × `k`), summed in `f32` in index order: exact for the
/// inputs of [`gemm_a`] and [`gemm_b`].
#[cfg(not(target_arch = "nvptx64"))]
pub fn gemm_host(a: &[bf16], b: &[bf16], k: usize, i: usize, j: usize) -> f32 {
    let (ra, rb) = (&a[i * k..][..k], &b[j * k..][..k]);
    ra.iter()
        .zip(rb)
        .map(|(x, y)| x.to_f32() * y.to_f32())
        .sum()
}

/// What [`gemm_check`] found.
#[cfg(not(target_arch = "nvptx64"))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GemmCheck {
    /// Elements compared.
    pub checked: usize,
    /// Elements that differ from the host's.
    pub wrong: usize,
    /// The first of them: `(row, col, got, host)`.
    pub first: Option<(usize, usize, f32, f32)>,
}

/// Compares `c` (row-major `m × n`, `f32`) with the host's `a · bᵀ`,
/// exactly: at every element (`full`) or at the [`GEMM_SAMPLES`] of
/// [`gemm_sample`]. The one check of the GEMM, shared by the tests and
/// `cg-lab compare --only gemm`.
#[cfg(not(target_arch = "nvptx64"))]
pub fn gemm_check(
    a: &[bf16],
    b: &[bf16],
    c: &[f32],
    (m, n, k): (usize, usize, usize),
    full: bool,
) -> GemmCheck {
    let mut r = GemmCheck {
        checked: 0,
        wrong: 0,
        first: None,
    };
    let mut one = |i: usize, j: usize| {
        let (got, want) = (c[i * n + j], gemm_host(a, b, k, i, j));
        r.checked += 1;
        // Exactly equal (a NaN, e.g. a poisoned element left unwritten,
        // differs from everything).
        if got != want {
            r.wrong += 1;
            r.first.get_or_insert((i, j, got, want));
        }
    };
    if full {
        (0..m).for_each(|i| (0..n).for_each(|j| one(i, j)));
    } else {
        (0..GEMM_SAMPLES).for_each(|s| {
            let (i, j) = gemm_sample(s, m, n);
            one(i, j)
        });
    }
    r
}
