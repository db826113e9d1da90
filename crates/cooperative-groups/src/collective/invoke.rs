//! `invoke_one` and `invoke_one_broadcast`: one member runs a closure on
//! behalf of the group.
//!
//! Within a warp the member is chosen with `elect.sync` on sm_90 (and on the
//! simulator), else it is the lowest member; in multi-warp groups and the
//! block it is rank 0. Which member runs is unspecified, as in CUDA. The
//! closure must not synchronise or communicate with the group.

use super::{block, warp};
use crate::group::ThreadGroup;
use crate::group::shape::Shape;
use crate::ops::OneCall;
use crate::value::ShflValue;

/// `cg::invoke_one(group, f)`: exactly one member of `group` calls `f`.
///
/// Lowers to `elect.sync` + a predicated call on sm_90 for groups within a
/// warp (the lowest member's `setp` on older GPUs), and to `setp` on the
/// rank for multi-warp groups and the block. No barrier: synchronise
/// afterwards if other members need the closure's effects.
#[inline(always)]
#[track_caller]
pub fn invoke_one<G: ThreadGroup, F: FnOnce()>(group: &G, f: F) {
    let shape = group.shape();
    let chosen = match shape {
        Shape::Multi(m) => block::invoke::chosen(&m),
        _ => warp::invoke::chosen(&shape),
    };
    if chosen {
        f();
    }
}

/// `cg::invoke_one_broadcast(group, f)`: one member calls `f`; every member
/// gets its result.
///
/// Lowers to `invoke_one` plus, within a warp, one `shfl.sync.idx` per
/// 32-bit word of the result from the chosen lane; for multi-warp groups
/// and the block, a `st.shared` by rank 0 between two barriers and a
/// `ld.shared` by everyone.
#[inline(always)]
#[track_caller]
pub fn invoke_one_broadcast<G, T, F>(group: &G, f: F) -> T
where
    G: ThreadGroup,
    T: ShflValue,
    F: FnOnce() -> T,
{
    broadcast_one(group, f)
}

/// [`invoke_one_broadcast`] of any `OneCall` (closures, and the library's
/// own calls whose primitives must name the caller's line).
#[inline(always)]
#[track_caller]
pub(crate) fn broadcast_one<G, T, F>(group: &G, f: F) -> T
where
    G: ThreadGroup,
    T: ShflValue,
    F: OneCall<T>,
{
    match group.shape() {
        Shape::Multi(m) => block::invoke::invoke_one_broadcast(m, f),
        shape => warp::invoke::invoke_one_broadcast(&shape, f),
    }
}
