//! The device layer: collectives over the whole grid of a cooperative
//! launch ([`GridGroup::reduce`](crate::GridGroup::reduce),
//! [`inclusive_scan`](crate::GridGroup::inclusive_scan),
//! [`exclusive_scan`](crate::GridGroup::exclusive_scan)).
//!
//! Each is the block collective of the dispatch layer, one value per block
//! through a global scratch ([`scratch`]), one grid barrier, and a fold of
//! the published block values by every block that needs them:
//!
//! 1. every block reduces (or scans) its threads' values (`reduce`,
//!    `inclusive_scan`, `exclusive_scan` on the `ThreadBlock`);
//! 2. one thread stores the block's aggregate in slot `block_rank` of the
//!    scratch half of the current barrier phase;
//! 3. the grid barrier (`grid.sync()`: release add, acquire spin);
//! 4. the block's threads fold the aggregates it needs (all of them for a
//!    reduction, those of the lower-ranked blocks for a scan), each thread a
//!    contiguous run in rank order, then one block reduction.
//!
//! The fold's order depends only on the number of blocks and the block
//! size, so a float result is the same bits in every block and every run
//! of the same launch shape.
//!
//! Builds on the dispatch layer (`reduce`, `scan`), `arch`, `group`, `ops`
//! and `value`; nothing below imports it (CUB's `DeviceReduce` on
//! `BlockReduce`).

pub(crate) mod reduce;
pub(crate) mod scan;
pub(crate) mod scratch;
