//! What a block holds for its barriers: the 16 hardware barriers' phases
//! and the block-wide uniformity checks in progress. Below the unit that
//! holds it; the operations on it are `barrier`'s.

use std::collections::VecDeque;

use crate::types::{BarCount, Loc};

/// One of a block's 16 hardware barriers.
#[derive(Default)]
pub(crate) struct Barrier {
    /// Per warp of the block: lanes that arrived in the current phase.
    pub warp_masks: Vec<u32>,
    /// Warps that completed their arrival in the current phase.
    pub warps_arrived: u32,
    /// Count and first call site of the current phase.
    pub phase: Option<(BarCount, Loc)>,
    /// Lanes blocked in `bar.sync`.
    pub waiters: Vec<u32>,
}

/// Threads that passed one block-wide check with the same value.
pub(super) struct CheckGroup {
    pub(super) what: &'static str,
    pub(super) value: u64,
    /// The first of them's call site.
    pub(super) loc: Loc,
    /// Linear thread indices.
    pub(super) threads: Vec<u32>,
}

/// One block-wide uniformity check (the `k`-th of every thread) that some
/// live thread of the block has not reached yet.
pub(crate) struct CheckEntry {
    pub(super) groups: Vec<CheckGroup>,
    /// Live threads that have not arrived.
    pub(super) pending: u32,
    /// The first lane that disagreed: it and later arrivals are held until
    /// every live thread has arrived, then the check is reported.
    pub(super) odd: Option<u32>,
}

/// A block's pending block-wide checks, oldest first.
#[derive(Default)]
pub(crate) struct BlockChecks {
    /// The index (per thread) of `entries[0]`.
    pub(super) base: u32,
    pub(super) entries: VecDeque<CheckEntry>,
}

impl BlockChecks {
    /// Whether every live thread of the block has passed every check made.
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Threads arrived at the oldest pending check, and live threads of the
    /// block still to come, for stall reports.
    pub(crate) fn oldest(&self) -> Option<(usize, u32, &'static str)> {
        self.entries.front().map(|e| {
            (
                e.groups.iter().map(|g| g.threads.len()).sum(),
                e.pending,
                e.groups[0].what,
            )
        })
    }

    /// A check whose threads disagreed, if any (index into the pending ones).
    pub(crate) fn disagreeing(&self) -> Option<usize> {
        self.entries.iter().position(|e| e.odd.is_some())
    }
}
