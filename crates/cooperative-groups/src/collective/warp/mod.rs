//! The warp layer: collectives over lanes of one warp — aligned segments
//! ([`Seg`](crate::group::shape::Seg): static tiles of at most 32 threads,
//! dynamic tiles) and arbitrary lane sets
//! ([`Coal`](crate::group::shape::Coal): coalesced groups and partitions).
//! Everything here is `shfl.sync`, `redux.sync`, `vote.sync`, `match.sync`
//! and `elect.sync`; nothing touches shared memory or a block barrier.
//!
//! Imports only `arch`, `group::shape`, `ops` and `value` — never the block
//! layer or the dispatch files above it (CUB's `WarpReduce`/`WarpScan`
//! under `BlockReduce`/`BlockScan`).

pub(crate) mod invoke;
pub(crate) mod reduce;
pub(crate) mod scan;
pub(crate) mod shuffle;
pub(crate) mod vote;
