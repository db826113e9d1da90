//! `invoke_one` on multi-warp groups: rank 0 runs the closure; its result
//! goes to every member through the shared scratch.

use super::exchange;
use crate::group::barrier;
use crate::group::shape::Multi;
use crate::ops::OneCall;
use crate::value::ShflValue;

/// Whether the caller is the member that runs the closure (rank 0).
#[inline(always)]
pub(crate) fn chosen(m: &Multi) -> bool {
    m.rank() == 0
}

/// `invoke_one_broadcast` on a multi-warp group: rank 0 calls `f` and
/// stores its result between two barriers; every member loads it.
#[inline(always)]
#[track_caller]
pub(crate) fn invoke_one_broadcast<T: ShflValue, F: OneCall<T>>(m: Multi, f: F) -> T {
    if chosen(&m) {
        exchange::put(&m, f.call());
    }
    barrier::sync(&m);
    let r = exchange::get(&m, 0);
    barrier::sync(&m);
    r
}
