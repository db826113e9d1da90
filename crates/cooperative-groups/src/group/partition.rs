//! [`labeled_partition`] and [`binary_partition`]: split a warp group by a
//! per-thread value into [`CoalescedGroup`]s.

use super::coalesced::CoalescedGroup;
use super::shape::{Shape, lanes_below};
use super::violation;
use crate::arch;
use crate::collective::methods::WarpGroup;
use crate::value::Label;

/// The `membermask` operand, the exact member lanes and the caller's lane.
#[inline(always)]
fn operands(shape: Shape) -> (u32, u32, u32) {
    match shape {
        Shape::Seg(s) => (s.op_mask, s.mask(), s.lane),
        Shape::Coal(c) => (c.mask, c.mask, c.lane),
        Shape::Multi(_) => violation!("partitions of a multi-warp group do not exist"),
    }
}

/// `cg::labeled_partition(group, label)`: the members of `group` that passed
/// the same `label` as the caller.
///
/// `meta_group_size()` is the number of distinct labels and
/// `meta_group_rank()` the number of groups whose lowest lane is below this
/// group's — as NVIDIA's implementation numbers them (measured on the H200:
/// `docs/results/h200/current/verify/semantics.md`, case `partitions`).
///
/// Lowers to `match.any.sync.b32` (`.b64` for 64-bit labels) plus one
/// `vote.sync.ballot.b32` for the meta-group numbering.
#[inline(always)]
#[track_caller]
pub fn labeled_partition<G: WarpGroup, L: Label>(group: &G, label: L) -> CoalescedGroup {
    let (op_mask, members, lane) = operands(group.shape());
    let (bits, wide) = label.match_bits();
    let mask = arch::match_any(op_mask, bits, wide) & members;
    let leader = mask.trailing_zeros();
    let leaders = arch::ballot(op_mask, lane == leader) & members;
    CoalescedGroup::from_parts(
        mask,
        lane,
        (leaders & lanes_below(leader)).count_ones(),
        leaders.count_ones(),
    )
}

/// `cg::binary_partition(group, pred)`: the members of `group` that passed
/// the same `pred` as the caller.
///
/// As in CUDA, `meta_group_rank()` is `pred as u32` and `meta_group_size()`
/// is 2 — unless every member passed the same predicate, in which case the
/// result is the whole group with rank 0 of 1.
///
/// Lowers to one `vote.sync.ballot.b32`.
#[inline(always)]
#[track_caller]
pub fn binary_partition<G: WarpGroup>(group: &G, pred: bool) -> CoalescedGroup {
    let (op_mask, members, lane) = operands(group.shape());
    let set = arch::ballot(op_mask, pred) & members;
    if set == members || set == 0 {
        CoalescedGroup::from_parts(members, lane, 0, 1)
    } else {
        let mask = if pred { set } else { members & !set };
        CoalescedGroup::from_parts(mask, lane, pred as u32, 2)
    }
}
