//! Collective operations (guide §4.4.6): shuffles, votes, matches, `reduce`,
//! the scans and `invoke_one`, written once against the three group shapes
//! of [`group::shape`](crate::group).
//!
//! Every collective is a small `#[inline(always)]` function around the arch
//! layer's instructions: rustc's inline asm is not `convergent`, and keeping
//! each collective in straight-line code that LLVM has no reason to
//! duplicate is what keeps it from being tail-duplicated into two branches.

pub(crate) mod exchange;
pub(crate) mod invoke;
pub(crate) mod match_;
pub(crate) mod reduce;
pub(crate) mod scan;
pub(crate) mod shuffle;
pub(crate) mod value;
pub(crate) mod vote;
