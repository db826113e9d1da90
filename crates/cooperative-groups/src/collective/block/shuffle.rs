//! `shfl` on multi-warp groups: a broadcast through the shared scratch
//! (the source rank uniform over the group).

use super::exchange;
use crate::arch;
use crate::group::barrier;
use crate::group::shape::Multi;
use crate::value::ShflValue;

/// Broadcast from rank `src` of a multi-warp group (`src` uniform).
#[inline(always)]
#[track_caller]
pub(crate) fn multi_shfl<T: ShflValue>(m: Multi, v: T, src: u32) -> T {
    // The source must be the same for the whole group; the simulator checks
    // it warp by warp (free on the GPU).
    arch::check_uniform_warp(m.warp_seg().mask(), "shfl source rank", src as u64);
    let src = src & (m.max_warps * 32 - 1);
    if src >= m.n {
        return v;
    }
    if m.rank() == src {
        exchange::put(&m, v);
    }
    barrier::sync(&m);
    let r = exchange::get(&m, src / 32);
    barrier::sync(&m);
    r
}
