//! Warpgroup matrix multiply-accumulate on the simulator. Each thread
//! reads the operand rows its accumulator elements need from shared memory
//! through the descriptors (the same layout and swizzle arithmetic the
//! tensor core applies to the addresses, noted for the race detector at
//! the caller's line) and adds the products as the warp MMA's simulation
//! does: exact products, the sum and the accumulator added in `f64` and
//! rounded to `f32` once. The multiply completes when it is issued, so the
//! commit and the wait only check that every lane of each warp takes part.

use super::super::SmemDesc;
use super::super::mma_layout::MmaKind;
use super::super::wgmma_layout::{desc_offset, desc_swizzle, wgmma_d_coord};
use super::mma::widen;
use super::{ShflMode, note_load, shfl};

/// A warp-wide step: a lane missing from it (a partial or diverged warp)
/// is reported as for every warp collective.
#[track_caller]
fn whole_warp() {
    shfl(ShflMode::Idx, u32::MAX, 0, 0, 0x1f);
}

/// `wgmma.fence`: a warp-wide step.
#[track_caller]
pub fn wgmma_fence() {
    whole_warp()
}

/// `wgmma.fence` for an accumulator: a warp-wide step.
#[track_caller]
pub fn wgmma_fence_for<const R: usize>(d: &mut [f32; R]) {
    let _ = d;
    whole_warp()
}

/// `fence.proxy.async.shared::cta`: the simulator has one proxy.
pub fn wgmma_operand_fence() {}

/// `wgmma.commit_group`: a warp-wide step.
#[track_caller]
pub fn wgmma_commit() {
    whole_warp()
}

/// `wgmma.wait_group`: a warp-wide step (the multiplies are complete).
#[track_caller]
pub fn wgmma_wait<const N: u32, const R: usize>(d: &mut [f32; R]) {
    let _ = d;
    whole_warp()
}

/// Element `(row, k)` of the K-major operand `m`, `elem` bytes each, read
/// where the swizzle puts it (the XOR acts on the address, as on the GPU).
#[track_caller]
fn element(m: SmemDesc, row: usize, k: usize, elem: usize, kind: MmaKind) -> f64 {
    let at = m.start as usize + desc_offset(m.layout, row, k, elem);
    let p = desc_swizzle(m.layout).apply(at) as *const u8;
    note_load(p, elem);
    let mut b = [0u8; 2];
    // SAFETY: the caller's contract (`wgmma_f32`): the operand lies in the
    // block's shared memory.
    unsafe { core::ptr::copy_nonoverlapping(p, b.as_mut_ptr(), elem) };
    widen(u16::from_le_bytes(b) as u32, kind)
}

/// `wgmma.mma_async…m64nNk{16,32}.f32` for thread `thread` of the
/// warpgroup (see the module's note on rounding).
///
/// # Safety
/// As the GPU backend's.
#[track_caller]
pub unsafe fn wgmma_f32<const R: usize>(
    kind: MmaKind,
    d: &mut [f32; R],
    a: SmemDesc,
    b: SmemDesc,
    thread: u32,
) {
    whole_warp();
    let elem = 4 / kind.per_reg();
    let k = 32 / elem;
    for (i, d) in d.iter_mut().enumerate() {
        let (row, col) = wgmma_d_coord(thread, i);
        let sum: f64 = (0..k)
            .map(|kk| element(a, row, kk, elem, kind) * element(b, col, kk, elem, kind))
            .sum();
        *d = (sum + *d as f64) as f32;
    }
}
