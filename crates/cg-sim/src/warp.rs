//! Warp collectives (`shfl`, `vote`, `match`, `redux`, `bar.warp.sync`,
//! `elect`, warp uniformity checks) and the `activemask` convergence model.

use crate::report::mask_lanes;
use crate::types::{Loc, Step, Wait, WarpAt, WarpKind, WarpOp, bits, kind_name};
use crate::unit::Core;
use cg_isa::{ReduxOp, ShflMode};

/// The source lane of `shfl.sync` for `lane`, exactly as the PTX ISA
/// defines it; `None` when the source is out of range (the lane keeps its
/// own value).
pub fn shfl_source(mode: ShflMode, lane: u32, b: u32, c: u32) -> Option<u32> {
    let bval = b & 0x1f;
    let cval = c & 0x1f;
    let seg = (c >> 8) & 0x1f;
    let max_lane = (lane & seg) | (cval & !seg);
    let min_lane = lane & seg;
    let (j, ok) = match mode {
        ShflMode::Up => {
            let j = lane as i32 - bval as i32;
            (j, j >= max_lane as i32)
        }
        ShflMode::Down => {
            let j = lane + bval;
            (j as i32, j <= max_lane)
        }
        ShflMode::Bfly => {
            let j = lane ^ bval;
            (j as i32, j <= max_lane)
        }
        ShflMode::Idx => {
            let j = min_lane | (bval & !seg);
            (j as i32, j <= max_lane)
        }
    };
    ok.then_some(j as u32)
}

fn redux(op: ReduxOp, vals: impl Iterator<Item = u32>) -> u32 {
    match op {
        ReduxOp::Add => vals.fold(0u32, u32::wrapping_add),
        ReduxOp::MinU => vals.fold(u32::MAX, u32::min),
        ReduxOp::MaxU => vals.fold(0, u32::max),
        ReduxOp::MinS => vals.fold(i32::MAX, |a, v| a.min(v as i32)) as u32,
        ReduxOp::MaxS => vals.fold(i32::MIN, |a, v| a.max(v as i32)) as u32,
        ReduxOp::And => vals.fold(u32::MAX, |a, v| a & v),
        ReduxOp::Or => vals.fold(0, |a, v| a | v),
        ReduxOp::Xor => vals.fold(0, |a, v| a ^ v),
    }
}

impl Core {
    /// Lane `me` reaches a warp collective.
    pub fn warp_arrive(&mut self, me: u32, op: WarpOp, loc: Loc) -> Step {
        let (w, lid) = {
            let l = &self.lanes[me as usize];
            (l.warp as usize, l.lane_id)
        };
        let bit = 1u32 << lid;
        let warp = &self.lanes.warps[w];
        let need = op.mask & warp.existing;
        if op.mask & bit == 0 || need & warp.exited != 0 {
            return self.warp_arrival_misuse(me, op, loc);
        }
        self.stats.lane_collectives += 1;
        let at = WarpAt {
            kind: op.kind,
            mask: op.mask,
        };
        self.lanes.block(me, Wait::Warp(at), loc);
        let key = (op.kind, op.mask);
        let warp = &mut self.lanes.warps[w];
        warp.waiting |= bit;
        warp.vals[lid as usize] = op.a;
        warp.bc[lid as usize] = (op.bc as u32, (op.bc >> 32) as u32);
        // Every lane of the mask must wait at a collective of this kind and
        // mask: the lanes `same` counts, when it counts this collective.
        let ready = if warp.same != 0 && warp.cur == key {
            warp.same |= bit;
            warp.same
        } else if warp.same == 0 {
            warp.cur = key;
            let same = if warp.waiting == bit {
                bit
            } else {
                self.waiting_at(w, key)
            };
            self.lanes.warps[w].same = same;
            same
        } else {
            // Lanes of another collective wait too (a divergent warp):
            // find this one's among the waiting lanes. If the mask's lanes
            // are not all here, the lanes may still sort themselves out
            // (another group can complete), or this is a mismatch, left
            // for the stall analysis.
            self.waiting_at(w, key)
        };
        if need & !ready != 0 {
            return Step::Wait;
        }
        self.complete_warp(me, w, need, op, loc)
    }

    /// The misuse report of lane `me` reaching `op`: its mask leaves out
    /// the lane, or names lanes that have exited. Out of line: arrivals
    /// are the simulator's hottest path.
    #[cold]
    #[inline(never)]
    fn warp_arrival_misuse(&mut self, me: u32, op: WarpOp, loc: Loc) -> Step {
        let (w, lid) = {
            let l = &self.lanes[me as usize];
            (l.warp as usize, l.lane_id)
        };
        let msg = if op.mask & 1 << lid == 0 {
            format!(
                "{} called with mask {:#010x}, which does not contain the calling lane {lid}",
                kind_name(op.kind),
                op.mask
            )
        } else {
            let warp = &self.lanes.warps[w];
            format!(
                "{} with mask {:#010x} names lanes {} that have already exited",
                kind_name(op.kind),
                op.mask,
                mask_lanes(op.mask & warp.existing & warp.exited)
            )
        };
        self.misuse(me, loc, msg)
    }

    /// The lanes of warp `w` waiting at a collective of kind and mask `key`.
    fn waiting_at(&self, w: usize, key: (WarpKind, u32)) -> u32 {
        let warp = &self.lanes.warps[w];
        let base = warp.base as usize;
        bits(warp.waiting)
            .filter(|&j| {
                matches!(self.lanes[base + j as usize].wait,
                    Wait::Warp(o) if o.kind == key.0 && o.mask == key.1)
            })
            .fold(0, |m, j| m | 1 << j)
    }

    /// Completes the collective `op` of warp `w` over lanes `need`, every
    /// one of which waits at it; `me` (the last to arrive) runs on.
    #[inline(never)]
    fn complete_warp(&mut self, me: u32, w: usize, need: u32, op: WarpOp, loc: Loc) -> Step {
        let base = self.lanes.warps[w].base as usize;
        let b = self.lanes.warps[w].block as usize;
        if !self.blocks[b].checks.is_empty() {
            let lanes = bits(need).map(|j| (base + j as usize) as u32);
            if let Some(step) = self.check_order(lanes, Some(me), &|| kind_name(op.kind), loc) {
                return step;
            }
        }
        let warp = &mut self.lanes.warps[w];
        warp.waiting &= !need;
        warp.same &= !need;
        self.stats.collectives += 1;
        if let WarpKind::Shfl(mode) = op.kind {
            // The commonest collective, without the general path's copies:
            // each lane's result straight from the operands stored at the
            // arrivals, released in lane order as below.
            let mut mine = 0;
            for j in bits(need) {
                let warp = &self.lanes.warps[w];
                let (b, c) = warp.bc[j as usize];
                let src = match shfl_source(mode, j, b, c) {
                    Some(src) if need >> src & 1 == 1 => src,
                    _ => j,
                };
                let r = warp.vals[src as usize] as u32 as u64;
                let lane = (base + j as usize) as u32;
                if lane == me {
                    mine = r;
                } else {
                    self.lanes.release(lane, r);
                }
            }
            self.lanes.resume_self(me);
            return Step::Done(mine);
        }
        // The operands the lanes of `need` stored at their arrival.
        let warp = &self.lanes.warps[w];
        let (vals, bc) = (&warp.vals.clone(), &warp.bc.clone());
        let lanes_of = |m: u32| bits(m).map(|j| vals[j as usize] as u32);
        // Results shared by every lane, where the collective has one.
        let common = match op.kind {
            WarpKind::Ballot => Some(
                bits(need)
                    .filter(|&j| vals[j as usize] != 0)
                    .fold(0u64, |m, j| m | 1 << j),
            ),
            WarpKind::MatchAll => {
                let v0 = vals[need.trailing_zeros() as usize];
                Some(if bits(need).all(|j| vals[j as usize] == v0) {
                    need as u64
                } else {
                    0
                })
            }
            WarpKind::Redux(r) => Some(redux(r, lanes_of(need)) as u64),
            WarpKind::Elect => Some(need.trailing_zeros() as u64),
            WarpKind::Sync => {
                // The only warp collective that orders memory (PTX ISA
                // §9.7.15.2); see `race` for why the others do not.
                self.sync(|s| {
                    let lanes: Vec<u32> = bits(need).map(|j| (base + j as usize) as u32).collect();
                    s.all_to_all(&lanes)
                });
                Some(0)
            }
            WarpKind::Uniform(what) => {
                let v0 = vals[need.trailing_zeros() as usize];
                if bits(need).any(|j| vals[j as usize] != v0) {
                    let groups = value_groups(need, vals);
                    let msg = format!(
                        "non-uniform argument `{what}`: the lanes of mask {:#010x} passed different values ({groups})",
                        op.mask
                    );
                    return self.misuse(me, loc, msg);
                }
                Some(0)
            }
            WarpKind::Shfl(_) | WarpKind::MatchAny => None,
        };
        // Each lane's result, computed before any lane is released (which
        // needs `self` mutably).
        let mut res = [0u64; 32];
        for j in bits(need) {
            res[j as usize] = common.unwrap_or_else(|| match op.kind {
                WarpKind::Shfl(mode) => {
                    let (b, c) = bc[j as usize];
                    match shfl_source(mode, j, b, c) {
                        Some(src) if need >> src & 1 == 1 => vals[src as usize] as u32 as u64,
                        _ => vals[j as usize] as u32 as u64,
                    }
                }
                _ => bits(need)
                    .filter(|&k| vals[k as usize] == vals[j as usize])
                    .fold(0u64, |m, k| m | 1 << k),
            });
        }
        for j in bits(need) {
            let lane = (base + j as usize) as u32;
            if lane != me {
                self.lanes.release(lane, res[j as usize]);
            }
        }
        self.lanes.resume_self(me);
        Step::Done(res[(me as usize - base) & 31])
    }

    /// Lane `me` reads `activemask`: it waits until nothing else can run,
    /// then gets the lanes of its warp waiting at the same call site.
    pub fn activemask_arrive(&mut self, me: u32, loc: Loc) -> Step {
        let (w, bit) = {
            let l = &self.lanes[me as usize];
            (l.warp, 1u32 << l.lane_id)
        };
        self.lanes.block(me, Wait::ActiveMask, loc);
        let warp = &mut self.lanes.warps[w as usize];
        if warp.am_waiting == 0 {
            self.lanes.am_warps.push(w);
        }
        warp.am_waiting |= bit;
        Step::Wait
    }

    /// The convergence model, applied when no lane can run: in every warp
    /// with lanes waiting at `activemask`, the lanes waiting at the same call
    /// site form one active set. Only the set at the earliest source position
    /// (file, line, column) is released per warp and per stall: code after a
    /// branch or loop usually comes later in the file, so lanes still inside
    /// the branch catch up before the lanes waiting after it (min-PC
    /// reconvergence). Returns `false` if no lane was waiting.
    pub fn release_activemask(&mut self) -> bool {
        if self.lanes.am_warps.is_empty() {
            return false;
        }
        let mut warps = std::mem::take(&mut self.lanes.am_warps);
        warps.retain(|&w| {
            let warp = &self.lanes.warps[w as usize];
            let (base, waiting) = (warp.base as usize, warp.am_waiting);
            let pos = |j: u32| {
                let l = self.lanes[base + j as usize].loc;
                (l.file(), l.line(), l.column())
            };
            let first = bits(waiting)
                .map(pos)
                .min()
                .expect("listed warp has waiting lanes");
            let group = bits(waiting)
                .filter(|&j| pos(j) == first)
                .fold(0u32, |m, j| m | 1 << j);
            self.lanes.warps[w as usize].am_waiting &= !group;
            self.stats.collectives += 1;
            self.stats.lane_collectives += group.count_ones() as u64;
            for j in bits(group) {
                self.lanes.release((base + j as usize) as u32, group as u64);
            }
            self.lanes.warps[w as usize].am_waiting != 0
        });
        self.lanes.am_warps = warps;
        true
    }
}

/// `lanes 0-3 passed 7, lane 4 passed 9` for a misuse report.
fn value_groups(need: u32, vals: &[u64; 32]) -> String {
    let mut seen: Vec<(u64, u32)> = Vec::new();
    for j in bits(need) {
        let v = vals[j as usize];
        match seen.iter_mut().find(|(x, _)| *x == v) {
            Some((_, m)) => *m |= 1 << j,
            None => seen.push((v, 1 << j)),
        }
    }
    let parts: Vec<String> = seen
        .iter()
        .map(|(v, m)| {
            let word = if m.count_ones() == 1 { "lane" } else { "lanes" };
            format!("{word} {} passed {v}", mask_lanes(*m))
        })
        .collect();
    parts.join("; ")
}
