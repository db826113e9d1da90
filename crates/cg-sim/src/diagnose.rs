//! Turning the simulator's state into reports: misuse at a call, and the
//! analysis of a stall (no lane can run) into a misuse or a deadlock.

use std::collections::HashMap;

use crate::report::{BlockedGroup, Report, SourceLocation, mask_lanes, to_ranges};
use crate::types::bar_name;
use crate::types::{BarCount, LaneState, Loc, Step, Wait};
use crate::types::{bits, kind_name};
use crate::unit::Core;
use crate::{Dim3, SimError};

/// Describes what a blocked lane waits at.
pub(crate) fn describe(wait: &Wait) -> String {
    match *wait {
        Wait::None => "running".into(),
        Wait::Warp(op) => format!("{} mask {:#010x}", kind_name(op.kind), op.mask),
        Wait::ActiveMask => "activemask".into(),
        Wait::Bar { id, count } => bar_name(id, count, true),
        Wait::BlockUniform { what, value } => {
            format!("block-wide check of `{what}` (passed {value}; the block's threads disagree)")
        }
        Wait::Cluster => "barrier.cluster.wait".into(),
        Wait::Grid => "grid sync".into(),
        Wait::Mbarrier { addr, phase } => {
            format!("mbarrier wait (the barrier at {addr:#x}, phase {phase})")
        }
        Wait::Spin => "spin-wait (yield_now)".into(),
        Wait::Misuse => "stopped by the misuse".into(),
        Wait::Race => "stopped at the data race".into(),
    }
}

impl Core {
    fn block_dim3(&self, b: u32) -> Dim3 {
        self.blocks[b as usize].idx.into()
    }

    /// Lane `me` misused a primitive at `loc`: record the report (the first
    /// one wins) and stop the lane.
    pub fn misuse(&mut self, me: u32, loc: Loc, msg: String) -> Step {
        self.lanes.block(me, Wait::Misuse, loc);
        if self.error.is_none() {
            let l = &self.lanes[me as usize];
            let summary = format!(
                "{msg} (block {} thread {})",
                self.block_dim3(l.block),
                Dim3::from(l.tid)
            );
            let report = Report {
                summary,
                location: Some(loc.into()),
                blocked: self.blocked_groups(),
                accesses: None,
                notes: Vec::new(),
            };
            self.error = Some(SimError::Misuse(report));
        }
        Step::Wait
    }

    /// Every blocked lane, grouped by block, operation and call site.
    pub fn blocked_groups(&self) -> Vec<BlockedGroup> {
        let mut index: HashMap<(u32, String, Loc), usize> = HashMap::new();
        let mut groups: Vec<(u32, String, Loc, Vec<u32>)> = Vec::new();
        for l in &self.lanes.all {
            let spinning = l.state == LaneState::Runnable && matches!(l.wait, Wait::Spin);
            if l.state != LaneState::Blocked && !spinning {
                continue;
            }
            let op = describe(&l.wait);
            let key = (l.block, op.clone(), l.loc);
            let i = *index.entry(key).or_insert_with(|| {
                groups.push((l.block, op, l.loc, Vec::new()));
                groups.len() - 1
            });
            groups[i].3.push(l.linear);
        }
        groups
            .into_iter()
            .map(|(b, operation, loc, threads)| BlockedGroup {
                block: self.block_dim3(b),
                threads: to_ranges(threads),
                operation,
                location: loc.into(),
            })
            .collect()
    }

    /// A block-wide check whose threads disagreed, reported now that
    /// nothing else can run (some threads never reached it).
    pub fn disagreeing_check(&mut self) -> Option<SimError> {
        let b = self
            .blocks
            .iter()
            .position(|blk| blk.checks.disagreeing().is_some())?;
        let i = self.blocks[b].checks.disagreeing()?;
        self.uniform_misuse(b, i, None);
        self.error.take()
    }

    /// Nothing can run and nothing can complete: say why.
    pub fn stall_error(&self) -> SimError {
        stall_report(&[self.stall_part()])
    }

    /// What a stall report says about this unit's lanes: the whole report
    /// when the unit is the launch's ([`Core::stall_error`]), one part of
    /// it when the unit is one cluster of a cooperative launch run in
    /// segments (`coop::launch_coop`), whose stall the launching thread
    /// reports over every cluster's part, as the one unit of the whole grid
    /// would have reported it.
    pub(crate) fn stall_part(&self) -> StallPart {
        let (warps, blocks, clusters) = self.stall_notes();
        StallPart {
            stuck: self
                .lanes
                .all
                .iter()
                .filter(|l| l.state == LaneState::Blocked)
                .count(),
            groups: self.blocked_groups(),
            warp_misuse: self.warp_misuse(),
            notes: [warps, blocks, clusters],
            grid_waiting: !self.grid.waiters.is_empty(),
            blocks_arrived: self.grid.blocks_arrived,
            blocks: self.blocks.len() as u32,
            exited: self
                .blocks
                .iter()
                .filter(|b| b.live == 0)
                .map(|b| Dim3::from(b.idx))
                .collect(),
        }
    }

    /// A warp collective that can never complete because a lane of its
    /// mask exited or waits at a different collective or mask: the
    /// summary and the line of the first such lane, in warp order.
    fn warp_misuse(&self) -> Option<(String, SourceLocation)> {
        for warp in &self.lanes.warps {
            let base = warp.base as usize;
            for j in bits(warp.waiting) {
                let l = &self.lanes[base + j as usize];
                let Wait::Warp(op) = l.wait else { continue };
                let need = op.mask & warp.existing;
                let summary = if need & warp.exited != 0 {
                    format!(
                        "{} with mask {:#010x} waits for lanes {} that have exited",
                        kind_name(op.kind),
                        op.mask,
                        mask_lanes(need & warp.exited)
                    )
                } else {
                    let odd = bits(need).map(|k| &self.lanes[base + k as usize]).find(|o| {
                        matches!(o.wait, Wait::Warp(p) if p.kind != op.kind || p.mask != op.mask)
                    });
                    let Some(o) = odd else { continue };
                    format!(
                        "mismatched warp collectives: lane {j} waits at {} but lane {} of its mask waits at {} ({})",
                        describe(&l.wait),
                        o.lane_id,
                        describe(&o.wait),
                        o.loc
                    )
                };
                let summary = format!(
                    "{summary} (block {} thread {})",
                    self.block_dim3(l.block),
                    Dim3::from(l.tid)
                );
                return Some((summary, SourceLocation::from(l.loc)));
            }
        }
        None
    }

    /// Who waits for whom: the notes on warps, on blocks (their barriers
    /// and checks) and on clusters; the grid's are [`stall_report`]'s.
    fn stall_notes(&self) -> (Vec<String>, Vec<String>, Vec<String>) {
        let mut notes = Vec::new();
        for warp in &self.lanes.warps {
            let base = warp.base as usize;
            let mut seen = 0u32;
            for j in bits(warp.waiting) {
                if seen >> j & 1 == 1 {
                    continue;
                }
                let l = &self.lanes[base + j as usize];
                let Wait::Warp(op) = l.wait else { continue };
                let need = op.mask & warp.existing;
                let here = bits(warp.waiting)
                    .filter(|&k| {
                        matches!(self.lanes[base + k as usize].wait,
                            Wait::Warp(p) if p.kind == op.kind && p.mask == op.mask)
                    })
                    .fold(0u32, |m, k| m | 1 << k);
                seen |= here;
                let missing = need & !here;
                if missing != 0 {
                    let first = self.lanes[base].linear;
                    let threads = to_ranges(bits(missing).map(|k| first + k));
                    notes.push(format!(
                        "in block {} warp {}, {} at {} waits for lanes {} (threads {}), which are not at this collective",
                        self.block_dim3(warp.block),
                        first / 32,
                        describe(&l.wait),
                        l.loc,
                        mask_lanes(missing),
                        crate::report::fmt_ranges(&threads),
                    ));
                }
            }
        }
        let warps = std::mem::take(&mut notes);
        for blk in &self.blocks {
            for (id, bar) in blk.bars.iter().enumerate() {
                let Some((count, loc)) = bar.phase else {
                    continue;
                };
                let expected = match count {
                    BarCount::All => blk.live_warps,
                    BarCount::Threads(n) => n / 32,
                };
                notes.push(format!(
                    "in block {}, barrier {id} ({} first reached at {loc}) has {} of the {expected} warp arrivals it needs \
                     (a warp arrives when all its non-exited lanes have reached the barrier)",
                    Dim3::from(blk.idx),
                    bar_name(id as u32, count, true),
                    bar.warps_arrived,
                ));
            }
            if let Some((arrived, pending, what)) = blk.checks.oldest() {
                notes.push(format!(
                    "in block {}, {arrived} threads passed the block-wide check of `{what}` and {pending} live \
                     threads have not reached it",
                    Dim3::from(blk.idx),
                ));
            }
        }
        let blocks = std::mem::take(&mut notes);
        for cl in &self.clusters {
            if !cl.waiters.is_empty() {
                notes.push(format!(
                    "the cluster of block {} has {} of its {} live threads arrived at the cluster barrier",
                    Dim3::from(self.blocks[cl.first_block as usize].idx),
                    cl.arrived,
                    cl.live
                ));
            }
        }
        (warps, blocks, notes)
    }
}

/// One unit's share of a stall report ([`Core::stall_part`]).
pub(crate) struct StallPart {
    /// Blocked lanes.
    stuck: usize,
    groups: Vec<BlockedGroup>,
    warp_misuse: Option<(String, SourceLocation)>,
    /// Notes on warps, blocks and clusters.
    notes: [Vec<String>; 3],
    /// Lanes wait at the grid barrier; blocks arrived there, of `blocks`.
    grid_waiting: bool,
    blocks_arrived: u32,
    blocks: u32,
    /// Blocks whose every thread exited.
    exited: Vec<Dim3>,
}

impl StallPart {
    /// The blocked lane groups (in block and thread order).
    pub(crate) fn groups(&self) -> &[BlockedGroup] {
        &self.groups
    }
}

/// The report of a stall over `parts`, the units' shares in unit order
/// (one, or the clusters of a cooperative launch run in segments): the
/// first warp collective that can never complete is a misuse, anything
/// else a deadlock; the notes list the warps', then the blocks', then the
/// clusters' and last the grid barrier's.
pub(crate) fn stall_report(parts: &[StallPart]) -> SimError {
    let blocked: Vec<BlockedGroup> = parts.iter().flat_map(|p| p.groups.clone()).collect();
    let mut notes: Vec<String> = (0..3)
        .flat_map(|k| parts.iter().flat_map(move |p| p.notes[k].iter().cloned()))
        .collect();
    if parts.iter().any(|p| p.grid_waiting) {
        notes.push(format!(
            "grid sync: {} of {} blocks arrived",
            parts.iter().map(|p| p.blocks_arrived).sum::<u32>(),
            parts.iter().map(|p| p.blocks).sum::<u32>()
        ));
        for b in parts.iter().flat_map(|p| &p.exited) {
            notes.push(format!(
                "block {b} has exited entirely: the grid barrier can never complete"
            ));
        }
    }
    if let Some((summary, location)) = parts.iter().find_map(|p| p.warp_misuse.clone()) {
        return SimError::Misuse(Report {
            summary,
            location: Some(location),
            blocked,
            accesses: None,
            notes,
        });
    }
    let stuck: usize = parts.iter().map(|p| p.stuck).sum();
    SimError::Deadlock(Report {
        summary: format!(
            "{stuck} live threads are blocked and none can make progress (the GPU would hang here)"
        ),
        location: blocked.first().map(|g| g.location.clone()),
        blocked,
        accesses: None,
        notes,
    })
}
