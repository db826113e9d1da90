//! A block's mbarrier objects, by address: each one's phase and counts.
//! Below the unit that holds them; the operations are `mbarrier`'s.

use std::collections::HashMap;

use crate::types::Loc;

/// One mbarrier object.
pub(super) struct Mbar {
    /// Completed phases since `init`.
    pub(super) phase: u64,
    /// Arrivals each phase expects (lowered by `arrive_drop` from the next
    /// phase on).
    pub(super) expected: u32,
    /// `expected` from the next phase on.
    pub(super) next_expected: u32,
    /// Arrivals the current phase still expects.
    pub(super) pending: u32,
    /// The current phase's transaction count (bytes expected minus bytes
    /// completed; it may dip below zero when a completion comes first).
    pub(super) tx: i64,
    /// Where it was initialised, and the current phase's first arrival.
    pub(super) init_loc: Loc,
    pub(super) first_arrival: Option<Loc>,
    /// Lanes blocked until the phase they wait for completes.
    pub(super) waiters: Vec<(u32, u64)>,
    /// Lanes a completed phase released that have not yet run again: on
    /// the GPU they are still polling, and would miss the completion if
    /// the barrier were re-initialised now.
    pub(super) returning: u32,
    /// Bytes of the bulk copies issued on the current phase (their sum
    /// must stay in the transaction count's range: on the GPU they are all
    /// expected before any completes).
    pub(super) bulk_bytes: u64,
    /// Initialisations of this word so far (tokens carry it, so that a
    /// token from before a re-initialisation is caught).
    pub(super) generation: u64,
}

/// Bits of a simulator token that hold the phase (the rest: the
/// generation).
pub(super) const PHASE_BITS: u32 = 40;

/// A block's mbarrier objects, by address.
#[derive(Default)]
pub(crate) struct Mbarriers {
    pub(super) objects: HashMap<usize, Mbar>,
}

impl Mbarriers {
    /// The current phase of the object at `addr`, if there is one.
    pub(crate) fn objects_phase(&self, addr: usize) -> Option<u64> {
        self.objects.get(&addr).map(|m| m.phase)
    }
}
