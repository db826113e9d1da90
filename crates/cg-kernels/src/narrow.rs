//! Kernels of the 16-bit floats (`cooperative_groups::narrow`): one probe
//! per group of operations, whose PTX `cg-lab`'s `narrow_ptx` test pins
//! per SM (the instruction each operation lowers to), and a typed kernel
//! that reduces a `bf16` buffer per block (host buffers of `bf16` as
//! kernel parameters, on the simulator and the GPU).
//!
//! The semantic differential's case (`sem_half`, NVIDIA's `cg::reduce` and
//! `cg::inclusive_scan` on `__nv_bfloat16` and `__half`) is in
//! [`crate::semantics`].

use cooperative_groups::atomic::Relaxed;
use cooperative_groups::prelude::*;
use cooperative_groups::{
    AtomicSlice, GlobalSlice, OwnedSlice, PerBlock, bf16, bf16x2, f16, f16x2, kernel,
};

/// bf16 `+ - * fma min max` of two inputs, one output each: sm_90
/// `add/sub/mul/fma.rn.bf16`, `min/max.bf16`; sm_80 `fma.rn.bf16` for the
/// first four; sm_70 in software.
#[kernel]
pub fn probe_bf16_arith(x: GlobalSlice<bf16>, out: OwnedSlice<bf16>) {
    let grid = this_grid();
    let i = grid.thread_rank() as usize;
    let (a, b) = (x.load(2 * i), x.load(2 * i + 1));
    let r = [
        a.add_rn(b),
        a.sub_rn(b),
        a.mul_rn(b),
        a.fma_rn(b, a),
        a.hmin(b),
        a.hmax(b),
    ];
    for (k, e) in out.grid_stride(&grid).take(6).enumerate() {
        e.store(r[k]);
    }
}

/// f16 `+ - * fma min max`: `add/sub/mul/fma.rn.f16` on every SM,
/// `min/max.f16` on sm_80+.
#[kernel]
pub fn probe_f16_arith(x: GlobalSlice<f16>, out: OwnedSlice<f16>) {
    let grid = this_grid();
    let i = grid.thread_rank() as usize;
    let (a, b) = (x.load(2 * i), x.load(2 * i + 1));
    let r = [
        a.add_rn(b),
        a.sub_rn(b),
        a.mul_rn(b),
        a.fma_rn(b, a),
        a.hmin(b),
        a.hmax(b),
    ];
    for (k, e) in out.grid_stride(&grid).take(6).enumerate() {
        e.store(r[k]);
    }
}

/// The conversions: `f32 → bf16, f16` (`cvt.rn.bf16.f32` sm_80+,
/// `cvt.rn.f16.f32`), back (`cvt.f32.bf16` sm_90, `cvt.f32.f16`) and the
/// packed `cvt.rn.bf16x2.f32`, `cvt.rn.f16x2.f32` (sm_80+).
#[kernel]
pub fn probe_convert(x: GlobalSlice<f32>, out: OwnedSlice<u32>) {
    let grid = this_grid();
    let i = grid.thread_rank() as usize;
    let (a, b) = (x.load(2 * i), x.load(2 * i + 1));
    let h = f16::from_f32_rn(a);
    let g = bf16::from_f32_rn(b);
    let r = [
        (h.widen() + g.widen()).to_bits(),
        bf16x2::from_f32_rn(a, b).to_bits(),
        f16x2::from_f32_rn(a, b).to_bits(),
    ];
    for (k, e) in out.grid_stride(&grid).take(3).enumerate() {
        e.store(r[k]);
    }
}

/// The pairs: `add/fma.rn.f16x2`, `min.f16x2`; `add.rn.bf16x2` (sm_90;
/// `fma.rn.bf16x2` on sm_80), `fma.rn.bf16x2`, `max.bf16x2`.
#[kernel]
pub fn probe_pairs(x: GlobalSlice<u32>, out: OwnedSlice<u32>) {
    let grid = this_grid();
    let i = grid.thread_rank() as usize;
    let (a, b) = (x.load(2 * i), x.load(2 * i + 1));
    let (h, k) = (f16x2::from_bits(a), f16x2::from_bits(b));
    let (g, j) = (bf16x2::from_bits(a), bf16x2::from_bits(b));
    let r = [
        (h + k).to_bits(),
        h.fma_rn(k, h).to_bits(),
        h.hmin(k).to_bits(),
        (g + j).to_bits(),
        g.fma_rn(j, g).to_bits(),
        g.hmax(j).to_bits(),
    ];
    for (n, e) in out.grid_stride(&grid).take(6).enumerate() {
        e.store(r[n]);
    }
}

/// `reduce` and `inclusive_scan` of bf16 on a 32-thread tile: `5 ×
/// (shfl.sync.bfly.b32 + add.rn.bf16)` and `5 × (shfl.sync.up.b32 +
/// add.rn.bf16)` on sm_90 — the instructions of NVIDIA's `cg::reduce` /
/// `cg::inclusive_scan` with `cg::plus<__nv_bfloat16>`. The block's size
/// is declared (128 threads), as it must be for the tile's `reduce` to be
/// the bare tree: in a block of unknown size a tile may be cut short, and
/// the library keeps a second path for that case (a scan and a broadcast).
#[kernel]
pub fn probe_bf16_tile_reduce_scan(x: GlobalSlice<bf16>, out: OwnedSlice<bf16>) {
    let grid = this_grid();
    let tile = tiled_partition::<32>(&this_thread_block().with_threads::<128>());
    let v = x.load(grid.thread_rank() as usize);
    let s = reduce(&tile, v, Plus);
    let p = inclusive_scan(&tile, v, Plus);
    if let Some(e) = out.at(&grid) {
        e.store(s.add_rn(p));
    }
}

/// Each block's bf16 sum of its threads' elements (a `reduce` over the
/// block: warp butterflies, then the warp partials in warp order), in
/// `sums[block]`: `GlobalSlice<bf16>` and `OwnedSlice<bf16>` launched with
/// host buffers of `half::bf16`.
#[kernel]
pub fn bf16_block_sums(input: GlobalSlice<bf16>, sums: OwnedSlice<bf16, PerBlock>) {
    let block = this_thread_block();
    let x = input.load(this_grid().thread_rank() as usize);
    let s = reduce(&block, x, Plus);
    if let Some(e) = sums.leader(&block) {
        e.store(s);
    }
}

/// The pair atomics: `fetch_add` and `red_add` of an `f16x2`
/// (`atom`/`red.relaxed.gpu.global.add.noftz.f16x2`) and of a `bf16x2`
/// (`.bf16x2` on sm_90, a `cas.b32` loop below), the old values summed
/// into `out` — CUDA's `atomicAdd` on `__half2` and `__nv_bfloat162`.
#[kernel]
pub fn probe_pair_atomics(
    x: GlobalSlice<u32>,
    h: AtomicSlice<f16x2>,
    b: AtomicSlice<bf16x2>,
    out: OwnedSlice<u32>,
) {
    let grid = this_grid();
    let v = x.load(grid.thread_rank() as usize);
    let old_h = h.at(0).fetch_add(f16x2::from_bits(v), Relaxed);
    h.at(1).red_add(f16x2::from_bits(v), Relaxed);
    let old_b = b.at(0).fetch_add(bf16x2::from_bits(v), Relaxed);
    b.at(1).red_add(bf16x2::from_bits(v), Relaxed);
    if let Some(e) = out.at(&grid) {
        e.store(old_h.to_bits() ^ old_b.to_bits());
    }
}

/// The scalar half atomics: `fetch_add` and `red_add` of an `f16`
/// (`atom`/`red.relaxed.gpu.global.add.noftz.f16`, sm_70+) and of a `bf16`
/// (`.bf16` on sm_90, a `cas.b16` loop below): CUDA's `atomicAdd` on
/// `__half*` and `__nv_bfloat16*`.
#[kernel]
pub fn probe_half_atomics(
    x: GlobalSlice<u32>,
    h: AtomicSlice<f16>,
    b: AtomicSlice<bf16>,
    out: OwnedSlice<u32>,
) {
    let grid = this_grid();
    let v = x.load(grid.thread_rank() as usize);
    let (vh, vb) = (f16::from_bits(v as u16), bf16::from_bits((v >> 16) as u16));
    let old_h = h.at(0).fetch_add(vh, Relaxed);
    h.at(1).red_add(vh, Relaxed);
    let old_b = b.at(0).fetch_add(vb, Relaxed);
    b.at(1).red_add(vb, Relaxed);
    if let Some(e) = out.at(&grid) {
        e.store(old_h.to_bits() as u32 | (old_b.to_bits() as u32) << 16);
    }
}

/// The 8-bit floats: `cvt.rn.satfinite.e4m3x2.f32`,
/// `cvt.rn.satfinite.e5m2x2.f32` and back `cvt.rn.f16x2.e4m3x2`,
/// `cvt.rn.f16x2.e5m2x2` (sm_89+: the sm_90 build; software below).
#[kernel]
pub fn probe_fp8(x: GlobalSlice<f32>, out: OwnedSlice<u32>) {
    use cooperative_groups::{e4m3, e5m2};
    let grid = this_grid();
    let i = grid.thread_rank() as usize;
    let (a, b) = (x.load(2 * i), x.load(2 * i + 1));
    let p = e4m3::pair_from_f32_satfinite(a, b);
    let q = e5m2::pair_from_f32_satfinite(a, b);
    let r = [
        e4m3::pair_to_f16x2(p).to_bits(),
        e5m2::pair_to_f16x2(q).to_bits(),
    ];
    for (k, e) in out.grid_stride(&grid).take(2).enumerate() {
        e.store(r[k]);
    }
}
