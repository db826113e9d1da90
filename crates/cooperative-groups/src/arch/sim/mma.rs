//! Warp matrix multiply-accumulate on the simulator: the lanes exchange
//! their fragments with the simulator's warp shuffles (so a missing,
//! exited or diverged lane is reported as for any warp collective), then
//! each lane computes its four results from the whole matrices.
//!
//! Rounding: each product of two 16-bit floats is exact, their sum and the
//! accumulator's value are added in `f64` and rounded to `f32` once. The
//! tensor core's internal order and rounding are not documented; results
//! agree bit for bit whenever the sum is exactly representable (integers
//! and short binary fractions, the tests' inputs), and otherwise differ by
//! the rounding of the partial sums (a few ulp of the largest term).

use super::super::mma_layout::{MmaKind, mma_a_coord, mma_b_coord, mma_c_coord};
use super::{ShflMode, lane_id, shfl};

/// The value of an input element's bits (16 or 8 of them) of `kind`.
pub(super) fn widen(bits: u32, kind: MmaKind) -> f64 {
    match kind {
        MmaKind::Bf16 => f32::from_bits(bits << 16) as f64,
        MmaKind::F16 => half::f16::from_bits(bits as u16).to_f64(),
        MmaKind::E4m3 => half::f16::from_bits(super::e4m3x2_to_f16x2(bits as u16) as u16).to_f64(),
        MmaKind::E5m2 => half::f16::from_bits(super::e5m2x2_to_f16x2(bits as u16) as u16).to_f64(),
        MmaKind::S8 => bits as u8 as i8 as f64,
        MmaKind::U8 => bits as u8 as f64,
    }
}

/// Row `row` of A times column `col` of B, exactly (every product of two
/// inputs and their sum over at most 32 terms fit `f64`'s significand for
/// the integer kinds; for the float kinds the products are exact and the
/// sum is rounded to `f64`), gathered from the warp's fragments with
/// shuffles: the `(row, col)` of each of the caller's four results.
#[track_caller]
fn dots(kind: MmaKind, a: [u32; 4], b: [u32; 2]) -> [f64; 4] {
    let e = kind.per_reg();
    let bits = 32 / e as u32;
    let mask = if bits == 32 {
        u32::MAX
    } else {
        (1 << bits) - 1
    };
    let k = 8 * e;
    let mut am = [[0.0f64; 32]; 16];
    let mut bm = [[0.0f64; 8]; 32];
    for src in 0..32u32 {
        for (r, &reg) in a.iter().enumerate() {
            let w = shfl(ShflMode::Idx, u32::MAX, reg, src, 0x1f);
            for h in 0..e {
                let (row, col) = mma_a_coord(src, e * r + h, e);
                am[row][col] = widen((w >> (bits * h as u32)) & mask, kind);
            }
        }
        for (r, &reg) in b.iter().enumerate() {
            let w = shfl(ShflMode::Idx, u32::MAX, reg, src, 0x1f);
            for h in 0..e {
                let (kk, n) = mma_b_coord(src, e * r + h, e);
                bm[kk][n] = widen((w >> (bits * h as u32)) & mask, kind);
            }
        }
    }
    let lane = lane_id();
    let mut out = [0.0f64; 4];
    for (i, o) in out.iter_mut().enumerate() {
        let (row, col) = mma_c_coord(lane, i);
        *o = (0..k).map(|kk| am[row][kk] * bm[kk][col]).sum();
    }
    out
}

/// `mma.sync.aligned.m16n8k{16,32}.row.col.f32.…f32` on the calling warp
/// (see the module's note on rounding).
#[track_caller]
pub fn mma_m16n8_f32(kind: MmaKind, a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
    let s = dots(kind, a, b);
    core::array::from_fn(|i| (s[i] + c[i] as f64) as f32)
}

/// `mma.sync.aligned.m16n8k32.row.col.s32.{s8,u8}…s32` on the calling
/// warp: exact, the sum wrapping modulo 2^32 as the instruction without
/// `.satfinite` does.
#[track_caller]
pub fn mma_m16n8k32_s32(kind: MmaKind, a: [u32; 4], b: [u32; 2], c: [i32; 4]) -> [i32; 4] {
    let s = dots(kind, a, b);
    core::array::from_fn(|i| (s[i] as i64).wrapping_add(c[i] as i64) as i32)
}

/// The address lane `src` passes (two 32-bit shuffles).
#[track_caller]
fn address_of(row: *const u8, src: u32) -> *const u8 {
    let p = row as usize as u64;
    let lo = shfl(ShflMode::Idx, u32::MAX, p as u32, src, 0x1f) as u64;
    let hi = shfl(ShflMode::Idx, u32::MAX, (p >> 32) as u32, src, 0x1f) as u64;
    (lo | hi << 32) as usize as *const u8
}

/// Reads `N` bytes at `p` as a little-endian word, noted for the race
/// detector at the caller's line.
///
/// # Safety
/// `p` is valid for `N` bytes of reads.
#[track_caller]
unsafe fn read_noted<const N: usize>(p: *const u8) -> u32 {
    super::note_load(p, N);
    let mut b = [0u8; 4];
    // SAFETY: the caller's contract.
    unsafe { core::ptr::copy_nonoverlapping(p, b.as_mut_ptr(), N) };
    u32::from_le_bytes(b)
}

/// `ldmatrix…x4.shared.b16` (see the GPU backend's): the row addresses
/// travel between lanes as shuffles, as on the hardware.
///
/// # Safety
/// As the GPU backend's.
#[track_caller]
pub unsafe fn ldmatrix_x4(row: super::SharedAddr) -> [u32; 4] {
    let lane = lane_id();
    let mut r = [0u32; 4];
    for (j, r) in r.iter_mut().enumerate() {
        let p = address_of(row, 8 * j as u32 + lane / 4);
        // SAFETY: lane `8j + l/4`'s row: 16 valid bytes (the contract).
        *r = unsafe { read_noted::<4>(p.wrapping_add(4 * (lane % 4) as usize)) };
    }
    r
}

/// `ldmatrix…x2.trans.shared.b16` (see the GPU backend's).
///
/// # Safety
/// As the GPU backend's.
#[track_caller]
pub unsafe fn ldmatrix_x2_trans(row: super::SharedAddr) -> [u32; 2] {
    let lane = lane_id();
    let (g, t) = (lane / 4, lane % 4);
    let mut r = [0u32; 2];
    for (j, r) in r.iter_mut().enumerate() {
        let lo = address_of(row, 8 * j as u32 + 2 * t);
        let hi = address_of(row, 8 * j as u32 + 2 * t + 1);
        // SAFETY: rows of lanes `8j + 2t` and `+1`: 16 valid bytes each.
        *r = unsafe {
            read_noted::<2>(lo.wrapping_add(2 * g as usize))
                | read_noted::<2>(hi.wrapping_add(2 * g as usize)) << 16
        };
    }
    r
}
