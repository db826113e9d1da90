//! `any` and `all` on multi-warp groups: a vote per warp, one word per
//! warp through the shared scratch. (`ballot` needs more bits than a `u32`
//! there and does not exist.)

use super::exchange;
use crate::arch;
use crate::group::barrier;
use crate::group::shape::{FULL, Multi};

/// Combines one vote per warp of a multi-warp group: `any` (`want_all ==
/// false`) or `all`.
#[inline(always)]
#[track_caller]
pub(crate) fn multi_vote(m: Multi, pred: bool, want_all: bool) -> bool {
    let warp = m.warp_seg();
    let mine = if want_all {
        arch::vote_all(FULL, pred)
    } else {
        arch::vote_any(FULL, pred)
    };
    if warp.rank() == 0 {
        exchange::put(&m, mine as u32);
    }
    barrier::sync(&m);
    // Lane-parallel: lane l looks at warps l, l + n, … of the group.
    let mut acc = want_all;
    let mut k = warp.lane;
    while k < m.warps() {
        let w: u32 = exchange::get(&m, k);
        acc = if want_all {
            acc & (w != 0)
        } else {
            acc | (w != 0)
        };
        k += warp.n;
    }
    let r = if want_all {
        arch::vote_all(FULL, acc)
    } else {
        arch::vote_any(FULL, acc)
    };
    barrier::sync(&m);
    r
}
