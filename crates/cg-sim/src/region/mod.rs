//! The global memory a launch's typed parameters may reach: one region per
//! parameter, registered by the launcher, checked on every typed access and
//! named in reports.

pub(crate) mod state;

use self::state::Region;
use crate::report::{Report, SourceLocation};
use crate::types::{Loc, Step, Wait};
use crate::unit::Core;
use crate::{Dim3, SimError};

/// How many loads of one address in a row make a lane give up its turn:
/// a plain-load spin loop must let the lane it waits for run (or end as a
/// livelock report), a loop that merely rereads one value loses nothing.
const SPIN_LOADS: u32 = 64;

impl Core {
    /// The registered region holding `addr`, if any.
    pub(crate) fn region_of(&self, addr: usize) -> Option<&Region> {
        self.regions
            .iter()
            .find(|r| r.contains(addr, 0) && addr < r.addr + r.bytes)
    }

    /// Whether `len` bytes at `addr` lie inside one registered region.
    pub(crate) fn in_regions(&self, addr: usize, len: usize) -> bool {
        self.regions.iter().any(|r| r.contains(addr, len))
    }

    /// Whether `len` bytes at `addr` lie inside one writable region.
    pub(crate) fn in_writable_region(&self, addr: usize, len: usize) -> bool {
        self.regions
            .iter()
            .any(|r| r.writable && r.contains(addr, len))
    }

    /// A typed write of `len` bytes at `addr` by lane `me`: `Done(1)` inside
    /// a writable region; the misuse report (naming the parameter and the
    /// writing line `loc`) when the bytes lie only in read-only ones — a
    /// parameter borrowed shared by the host, which it may read while the
    /// kernel runs; `Done(0)` in none (the caller reports a view used
    /// outside its launch).
    pub(crate) fn region_write(&mut self, me: u32, addr: usize, len: usize, loc: Loc) -> Step {
        if self.in_writable_region(addr, len) {
            return Step::Done(1);
        }
        let Some(r) = self.regions.iter().find(|r| r.contains(addr, len)) else {
            return Step::Done(0);
        };
        let what = if r.name.is_empty() {
            format!("the read-only global parameter at {:#x}", r.addr)
        } else {
            format!("`{}`, a read-only parameter", r.name)
        };
        let msg = format!(
            "write of {len} bytes into {what}: its launcher registered it for reads only (the \
             host may read it while the kernel runs)"
        );
        self.misuse(me, loc, msg)
    }

    /// Counts lane `me`'s load of `addr`: `true` when it has loaded the same
    /// address [`SPIN_LOADS`] times in a row (it should give up its turn).
    pub(crate) fn repeated_load(&mut self, me: u32, addr: usize) -> bool {
        let l = &mut self.lanes[me as usize];
        if l.last_load == addr {
            l.load_repeats = l.load_repeats.saturating_add(1);
        } else {
            l.last_load = addr;
            l.load_repeats = 0;
        }
        l.load_repeats >= SPIN_LOADS
    }

    /// An index outside a typed parameter: the report, and lane `me` stops.
    pub(crate) fn out_of_bounds(
        &mut self,
        me: u32,
        base: usize,
        index: usize,
        len: usize,
        write: bool,
        loc: Loc,
    ) -> Step {
        self.lanes.block(me, Wait::Misuse, loc);
        if self.error.is_none() {
            let l = &self.lanes[me as usize];
            let what = match self.region_of(base) {
                Some(r) if !r.name.is_empty() => format!("`{}`", r.name),
                _ => format!("the global parameter at {base:#x}"),
            };
            let verb = if write { "write" } else { "read" };
            let summary = format!(
                "out-of-bounds {verb}: index {index} of {what}, whose length is {len} \
                 (block {} thread {})",
                Dim3::from(self.blocks[l.block as usize].idx),
                Dim3::from(l.tid),
            );
            self.error = Some(SimError::OutOfBounds(Report {
                summary,
                location: Some(SourceLocation::from(loc)),
                blocked: Vec::new(),
                accesses: None,
                notes: vec![
                    "on the GPU the same access traps: the launch fails with CUDA_ERROR_LAUNCH_FAILED".into(),
                ],
            }));
        }
        Step::Wait
    }
}
