//! Collective operations (guide §4.4.6): shuffles, votes, matches, `reduce`,
//! the scans and `invoke_one`, written once against the three group shapes
//! of [`group::shape`](crate::group).
//!
//! Every collective is a small `#[inline(always)]` function around the arch
//! layer's instructions: rustc's inline asm is not `convergent`, and keeping
//! each collective in straight-line code that LLVM has no reason to
//! duplicate is what keeps it from being tail-duplicated into two branches.

/// Evaluates `$body` with `$seg` (a [`Seg`](crate::group::shape::Seg)
/// variable) rebound to synchronise the whole warp when all 32 lanes are
/// present ([`Seg::whole_warp_here`](crate::group::shape::Seg::whole_warp_here)),
/// and with the segment's own mask otherwise: two copies of a shuffle-only
/// body, one with a constant `membermask`.
///
/// Exact because every lane of the warp then runs the same straight-line
/// body: a segment's width is uniform over the block (a constant for static
/// tiles; checked for dynamic ones), loops depend only on it, and the
/// `activemask` read is itself convergent, so LLVM neither hoists it out of
/// a loop nor merges it across branches. Only for shuffles: `redux`,
/// `vote` and `match` combine every lane of their mask, so they keep the
/// segment's mask.
macro_rules! with_warp_mask {
    ($seg:ident, $body:expr) => {
        if $crate::arch::likely($seg.whole_warp_here()) {
            let $seg = $seg.with_whole_warp();
            $body
        } else {
            $body
        }
    };
}

// The layers, one way: grid → dispatch (the files below) → block → warp.
pub(crate) mod block;
pub(crate) mod grid;
pub(crate) mod warp;

pub(crate) mod invoke;
pub(crate) mod match_;
pub(crate) mod methods;
pub(crate) mod reduce;
pub(crate) mod scan;
pub(crate) mod shuffle;
pub(crate) mod update;
pub(crate) mod vote;
