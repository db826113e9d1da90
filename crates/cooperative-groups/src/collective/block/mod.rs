//! The block layer: collectives over whole warps of one block
//! ([`Multi`](crate::group::shape::Multi): tiles of 64–1024 threads and the
//! block). Each is a step of the [warp layer](super::warp) inside every
//! warp, one value per warp through the shared scratch ([`exchange`]) and
//! the group's barrier; the block scan of 32-bit values rakes ([`rake`]).
//!
//! Builds on the warp layer, `arch`, `group` (shapes, barriers), `ops` and
//! `value`; the warp layer never imports it (CUB's `BlockReduce` on
//! `WarpReduce`).

pub(crate) mod exchange;
pub(crate) mod invoke;
pub(crate) mod rake;
pub(crate) mod reduce;
pub(crate) mod scan;
pub(crate) mod shuffle;
pub(crate) mod vote;
