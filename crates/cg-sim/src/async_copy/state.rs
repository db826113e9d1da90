//! A block's asynchronous copies in flight (`cp.async` commit groups per
//! lane) and the shared memory bulk tensor stores still read. Below the
//! unit that holds them; the operations are `async_copy`'s and `tensor`'s.

use std::collections::{BTreeMap, HashMap, VecDeque};

use crate::types::Loc;

/// One copy in flight.
pub(crate) struct Pending {
    /// One past the last destination byte.
    pub(super) end: usize,
    /// The issuing lane (unit index).
    pub(crate) lane: u32,
    /// The global source's address (for the race detector).
    pub(super) src: usize,
    /// The source bytes, read at issue.
    pub(super) data: Vec<u8>,
    /// Where the copy was issued.
    pub(crate) loc: Loc,
    /// A bulk copy (`cp.async.bulk`): the mbarrier and phase whose
    /// completion lands it (`None`: a `cp.async`, landed by its lane's wait).
    pub(super) bulk: Option<(usize, u64)>,
}

/// One lane's copies: those not yet committed, and its committed groups,
/// oldest first (each a list of destination starts).
#[derive(Default)]
pub(super) struct LaneCopies {
    pub(super) open: Vec<usize>,
    pub(super) groups: VecDeque<Vec<usize>>,
}

/// A block's copies in flight.
#[derive(Default)]
pub(crate) struct AsyncCopies {
    /// By destination start (the ranges never overlap).
    pub(super) pending: BTreeMap<usize, Pending>,
    pub(super) lanes: HashMap<u32, LaneCopies>,
    /// Shared memory that bulk tensor stores still read (see
    /// `crate::tensor`): a few at a time, searched in full.
    pub(crate) reading: Vec<crate::async_copy::state::Reading>,
}

impl AsyncCopies {
    /// The first copy in flight that overlaps `[p, p + len)`.
    pub(crate) fn overlapping(&self, p: usize, len: usize) -> Option<&Pending> {
        let end = p + len.max(1);
        self.pending
            .range(..end)
            .next_back()
            .map(|(_, c)| c)
            .filter(|c| c.end > p)
    }
}

/// Shared memory a bulk tensor store still reads.
pub(crate) struct Reading {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) lane: u32,
    pub(crate) loc: Loc,
    /// Committed in a bulk group (`cp.async.bulk.commit_group`).
    pub(crate) committed: bool,
}
