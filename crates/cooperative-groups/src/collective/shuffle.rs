//! `shfl`, `shfl_up`, `shfl_down`, `shfl_xor`: the groups' shuffle methods
//! dispatched to the [warp layer](super::warp::shuffle) (tiles, dynamic
//! tiles, coalesced groups) or the [block layer](super::block::shuffle)
//! (multi-warp tiles, `shfl` only).

use super::block::shuffle::multi_shfl;
use super::warp::shuffle::{
    coal_shfl, coal_shfl_down, coal_shfl_up, coal_shfl_xor, seg_shfl, seg_shfl_down, seg_shfl_up,
    seg_shfl_xor,
};
use crate::group::shape::Shape;
use crate::value::ShflValue;

/// `shfl` over any shape.
#[inline(always)]
#[track_caller]
pub(crate) fn shfl<T: ShflValue>(shape: Shape, v: T, src: u32) -> T {
    match shape {
        Shape::Seg(s) => seg_shfl(s, v, src),
        Shape::Coal(c) => coal_shfl(c, v, src),
        Shape::Multi(m) => multi_shfl(m, v, src),
    }
}

/// `shfl_up` over a warp shape.
#[inline(always)]
#[track_caller]
pub(crate) fn shfl_up<T: ShflValue>(shape: Shape, v: T, d: u32) -> T {
    match shape {
        Shape::Seg(s) => seg_shfl_up(s, v, d),
        Shape::Coal(c) => coal_shfl_up(c, v, d),
        Shape::Multi(_) => unreachable!("shfl_up exists only on groups within one warp"),
    }
}

/// `shfl_down` over a warp shape.
#[inline(always)]
#[track_caller]
pub(crate) fn shfl_down<T: ShflValue>(shape: Shape, v: T, d: u32) -> T {
    match shape {
        Shape::Seg(s) => seg_shfl_down(s, v, d),
        Shape::Coal(c) => coal_shfl_down(c, v, d),
        Shape::Multi(_) => unreachable!("shfl_down exists only on groups within one warp"),
    }
}

/// `shfl_xor` over a warp shape.
#[inline(always)]
#[track_caller]
pub(crate) fn shfl_xor<T: ShflValue>(shape: Shape, v: T, lane_mask: u32) -> T {
    match shape {
        Shape::Seg(s) => seg_shfl_xor(s, v, lane_mask),
        Shape::Coal(c) => coal_shfl_xor(c, v, lane_mask),
        Shape::Multi(_) => unreachable!("shfl_xor exists only on groups within one warp"),
    }
}
