//! `any`, `all`, `ballot`: warp votes (`vote.sync`), with ballots returned
//! group-relative (bit `r` = the member of rank `r`).
//!
//! Multi-warp tiles have `any` and `all` (a vote per warp, one word per warp
//! through the shared scratch); `ballot` needs more bits than a `u32` there
//! and does not exist.

use super::block::vote::multi_vote;
use super::warp::vote;
use crate::group::shape::Shape;

/// `any` over any shape.
#[inline(always)]
#[track_caller]
pub(crate) fn any(shape: Shape, pred: bool) -> bool {
    match shape {
        Shape::Multi(m) => multi_vote(m, pred, false),
        _ => vote::any(&shape, pred),
    }
}

/// `all` over any shape.
#[inline(always)]
#[track_caller]
pub(crate) fn all(shape: Shape, pred: bool) -> bool {
    match shape {
        Shape::Multi(m) => multi_vote(m, pred, true),
        _ => vote::all(&shape, pred),
    }
}

/// `ballot` over a warp shape, group-relative.
#[inline(always)]
#[track_caller]
pub(crate) fn ballot(shape: Shape, pred: bool) -> u32 {
    vote::ballot(&shape, pred)
}
