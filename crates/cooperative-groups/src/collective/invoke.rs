//! `invoke_one` and `invoke_one_broadcast`: one member runs a closure on
//! behalf of the group.
//!
//! Within a warp the member is chosen with `elect.sync` on sm_90 (and on the
//! simulator), else it is the lowest member; in multi-warp groups and the
//! block it is rank 0. Which member runs is unspecified, as in CUDA. The
//! closure must not synchronise or communicate with the group.

use super::exchange;
use super::shuffle::shfl_words;
use super::value::{ShflValue, zeroed};
use crate::arch::{self, ShflMode};
use crate::group::shape::Shape;
use crate::group::{ThreadGroup, barrier};

/// The lane that runs the closure, for a warp shape (the same for every
/// member), and the `membermask` operand.
#[inline(always)]
#[track_caller]
fn leader(shape: &Shape) -> (u32, u32) {
    let (mask, lowest) = match shape {
        Shape::Seg(s) => (s.op_mask, s.base()),
        Shape::Coal(c) => (c.mask, c.mask.trailing_zeros()),
        Shape::Multi(_) => unreachable!("not a group within one warp"),
    };
    (if arch::HAS_ELECT { elect(mask) } else { lowest }, mask)
}

#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
#[inline(always)]
#[track_caller]
fn elect(mask: u32) -> u32 {
    arch::elect(mask)
}

#[cfg(all(target_arch = "nvptx64", not(target_feature = "sm_90")))]
#[inline(always)]
fn elect(_: u32) -> u32 {
    // `HAS_ELECT` is false on this target: never called.
    arch::trap()
}

/// The caller's lane, for a warp shape.
#[inline(always)]
fn lane(shape: &Shape) -> u32 {
    match shape {
        Shape::Seg(s) => s.lane,
        Shape::Coal(c) => c.lane,
        Shape::Multi(m) => m.lane(),
    }
}

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
        Shape::Multi(m) => m.rank() == 0,
        _ => leader(&shape).0 == lane(&shape),
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
    match group.shape() {
        Shape::Multi(m) => {
            if m.rank() == 0 {
                exchange::put(&m, f());
            }
            barrier::sync(&m);
            let r = exchange::get(&m, 0);
            barrier::sync(&m);
            r
        }
        shape => {
            let (chosen, mask) = leader(&shape);
            let mut v = zeroed::<T>();
            if chosen == lane(&shape) {
                v = f();
            }
            shfl_words(ShflMode::Idx, mask, v, chosen, 0x1f)
        }
    }
}
