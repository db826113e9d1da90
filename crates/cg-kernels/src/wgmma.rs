//! The warpgroup MMA (`cooperative_groups::wgmma`, sm_90a): a probe that
//! checks the layouts against the host's product, and a TMA-fed GEMM.
//!
//! * [`probe_wgmma_bf16`] (and `_f16`) stage A (64 × 64) and B (`N` × 64) in the 128-byte
//!   swizzle by hand and multiplies them once: every element of the 64 ×
//!   `N` product is checked (exact inputs) on the GPU and the simulator.
//! * [`gemm_wgmma_bf16`]: `c = a · bᵀ` (`a` M × K, `b` N × K, both
//!   row-major bf16, `c` M × N `f32`), one warpgroup per 64 × 256 tile of
//!   `c`, the K tiles (64 wide) loaded by the copy engine into a
//!   four-stage ring in dynamic shared memory, one batch of four
//!   `m64n256k16` per K tile, the next tile's load issued as soon as the
//!   older batch has read its stage (`wait_older`).

use cooperative_groups::prelude::*;
use cooperative_groups::tma::{Swizzle128B, TensorMap2d};
use cooperative_groups::wgmma::{Accumulator, Shape, SmemMatrix, WgmmaElement, WgmmaShape};
use cooperative_groups::{
    GlobalSlice, OwnedPitched, Pod, SharedSlice, WarpgroupTiles, bf16, f16, kernel,
};

/// Columns of B staged by the probe.
pub const PROBE_N: usize = 64;

/// The GEMM's tile of `c`: 64 rows (one warpgroup) × 256 columns.
pub const GEMM_BM: usize = 64;
/// The GEMM's tile width.
pub const GEMM_BN: usize = 256;
/// The K tile: one 128-byte swizzle row of bf16.
pub const GEMM_BK: usize = 64;
/// Stages of the GEMM's ring.
pub const GEMM_STAGES: usize = 4;
/// Dynamic shared memory the GEMM needs: the ring, plus 1 KiB to align it
/// to the swizzle's period.
pub const GEMM_SMEM: u32 = (GEMM_STAGES * (GEMM_BM + GEMM_BN) * GEMM_BK * 2 + 1024) as u32;

/// The GEMM's A map: boxes of 64 (K) × 64 rows.
pub type GemmA<'a> = TensorMap2d<'a, bf16, 64, 64, Swizzle128B>;
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
    block.sync();
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
/// 128 threads, [`GEMM_SMEM`] bytes of dynamic shared memory, one block per
/// 64 × 256 tile of `c`; K a multiple of 64.
#[kernel]
pub fn gemm_wgmma_bf16(a: GemmA, b: GemmB, c: OwnedPitched<f32, WarpgroupTiles<64, 256>>) {
    #[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
    {
        const A_LEN: usize = GEMM_BM * GEMM_BK;
        const B_LEN: usize = GEMM_BN * GEMM_BK;
        let block = this_thread_block();
        let wg = tiled_partition::<128>(&block);
        let full = cooperative_groups::mbarrier!(&block, 2; GEMM_STAGES);
        let smem = cooperative_groups::dynamic_shared::<bf16>();
        // The ring starts at the first 1024-byte boundary.
        let skip = (1024 - smem.as_ptr() as usize % 1024) % 1024 / 2;
        let ring = smem.slice(skip, GEMM_STAGES * (A_LEN + B_LEN));
        let a_stage = |s: usize| ring.slice(s * A_LEN, A_LEN);
        let b_stage = |s: usize| ring.slice(GEMM_STAGES * A_LEN + s * B_LEN, B_LEN);
        let Some(tile) = c.warpgroup_tile(&wg) else {
            return;
        };
        let (m0, n0) = (tile.y0() as i32, tile.x0() as i32);
        let k_tiles = a.width() as usize / GEMM_BK;
        let leader = block.thread_rank() == 0;
        let (ta, tb) = (a.tiles(), b.tiles());
        let load = |kt: usize, s: usize| {
            let x = (kt * GEMM_BK) as i32;
            // SAFETY: two copies (8 KiB and 32 KiB) in flight on the
            // stage's phase, which counts two arrivals; the stage's last
            // reader finished (`wait_older` and the block barrier).
            unsafe {
                full.get(s)
                    .arrive_copy_tile(a_stage(s), &ta, x, m0)
                    .discard();
                full.get(s)
                    .arrive_copy_tile(b_stage(s), &tb, x, n0)
                    .discard();
            }
        };
        if leader {
            for kt in 0..GEMM_STAGES.min(k_tiles) {
                load(kt, kt);
            }
        }
        let mut in_flight = Accumulator::<256>::zero(&wg).begin(&wg).commit();
        for kt in 0..k_tiles {
            let s = kt % GEMM_STAGES;
            full.get(s).wait_parity((kt / GEMM_STAGES) as u32 & 1);
            let (sa, sb) = (a_stage(s), b_stage(s));
            let am = SmemMatrix::<bf16, Swizzle128B>::k_major(&sa, GEMM_BM);
            let bm = SmemMatrix::<bf16, Swizzle128B>::k_major(&sb, GEMM_BN);
            in_flight = in_flight.resume().mma(&wg, &am, &bm).commit().wait_older();
            // The batch of K tile `kt - 1` is done: its stage takes K tile
            // `kt - 1 + STAGES`.
            let next = kt + GEMM_STAGES - 1;
            if kt > 0 && next < k_tiles {
                block.sync();
                if leader {
                    load(next, (kt - 1) % GEMM_STAGES);
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
