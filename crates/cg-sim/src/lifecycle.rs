//! A unit's life, composed from above: setting up its lanes, warps, blocks
//! and clusters (and the race detector's view of them), and a lane's exit,
//! which every subsystem hears through its own after-exit hook. Above the
//! subsystems, so that the unit below them never calls up into them.

use std::ops::Range;
use std::panic::Location;

use crate::Dim3;
use crate::async_copy::state::AsyncCopies;
use crate::cluster::state::Cluster;
use crate::lanes::{Lane, Warp};
use crate::mbarrier::state::Mbarriers;
use crate::shared::state::SharedMem;
use crate::types::{LaneState, Wait, WarpKind};
use crate::unit::{Block, Core, Grid};

impl Core {
    /// Sets up the lanes of clusters `clusters` (linear cluster indices) and
    /// queues them all; returns the lane count.
    pub fn setup_unit(&mut self, clusters: Range<u64>) -> usize {
        let g = &self.geom;
        let (cdim, bdim) = (g.cluster, g.block);
        let gic = Dim3::new(g.grid.x / cdim.x, g.grid.y / cdim.y, g.grid.z / cdim.z);
        let (tpb, wpb) = (g.threads_per_block, g.warps_per_block);
        let csize = cdim.volume() as u32;
        let nblocks = (clusters.end - clusters.start) as u32 * csize;
        let dyn_smem = g.dynamic_smem;
        self.lanes.all.clear();
        self.lanes.warps.clear();
        self.blocks.clear();
        self.clusters.clear();
        self.grid = Grid::default();
        self.lanes.queue.clear();
        self.lanes.spinners.clear();
        self.lanes.am_warps.clear();
        self.lanes.all.reserve(nblocks as usize * tpb as usize);
        let start_loc = Location::caller();
        for c in clusters {
            let cidx = gic.delinearize(c);
            let cslot = self.clusters.len() as u32;
            let first_block = self.blocks.len() as u32;
            self.clusters
                .push(Cluster::new(first_block, csize, csize * tpb));
            for rank in 0..csize {
                let cta = cdim.delinearize(rank as u64);
                let bslot = self.blocks.len() as u32;
                let first_lane = self.lanes.all.len() as u32;
                let first_warp = self.lanes.warps.len() as u32;
                self.blocks.push(Block {
                    idx: [
                        cidx.x * cdim.x + cta.x,
                        cidx.y * cdim.y + cta.y,
                        cidx.z * cdim.z + cta.z,
                    ],
                    cluster: cslot,
                    rank,
                    cta_idx: cta.to_array(),
                    first_warp,
                    nthreads: tpb,
                    nwarps: wpb,
                    live: tpb,
                    live_warps: wpb,
                    bars: Vec::new(),
                    checks: Default::default(),
                    grid_waiting: 0,
                    grid_arrived: false,
                    smem: SharedMem::new(dyn_smem),
                    copies: AsyncCopies::default(),
                    mbars: Mbarriers::default(),
                });
                for w in 0..wpb {
                    let n = (tpb - w * 32).min(32);
                    self.lanes.warps.push(Warp {
                        base: first_lane + w * 32,
                        block: bslot,
                        existing: if n == 32 { u32::MAX } else { (1 << n) - 1 },
                        exited: 0,
                        waiting: 0,
                        same: 0,
                        cur: (WarpKind::Sync, 0),
                        vals: [0; 32],
                        bc: [(0, 0); 32],
                        am_waiting: 0,
                    });
                }
                for t in 0..tpb {
                    let tid = bdim.delinearize(t as u64);
                    self.lanes.all.push(Lane {
                        tid: tid.to_array(),
                        linear: t,
                        block: bslot,
                        warp: first_warp + t / 32,
                        lane_id: t % 32,
                        state: LaneState::Runnable,
                        wait: Wait::None,
                        loc: start_loc,
                        result: 0,
                        cluster_pending: None,
                        checks: 0,
                        split_at: None,
                        last_load: 0,
                        load_repeats: 0,
                        grid_split_at: None,
                        #[cfg(not(all(
                            target_arch = "x86_64",
                            unix,
                            not(feature = "coroutine-lanes")
                        )))]
                        yielder: std::ptr::null(),
                    });
                }
            }
        }
        let n = self.lanes.all.len();
        self.unit = self.units;
        self.units += 1;
        self.setup_race();
        self.lanes.queue.extend(0..n as u32);
        self.lanes.live = n as u32;
        self.stats.blocks += nblocks as u64;
        n
    }

    /// A lane's kernel body returned: update every rendezvous it could
    /// complete by leaving (barrier 0, block checks, cluster and grid barriers).
    pub fn lane_exited(&mut self, i: u32) {
        let (w, b, bit) = {
            let l = &mut self.lanes[i as usize];
            l.state = LaneState::Exited;
            l.wait = Wait::None;
            (l.warp, l.block, 1u32 << l.lane_id)
        };
        self.lanes.live -= 1;
        self.stats.lanes += 1;
        let warp = &mut self.lanes.warps[w as usize];
        warp.exited |= bit;
        let warp_gone = warp.live() == 0;
        let blk = &mut self.blocks[b as usize];
        blk.live -= 1;
        if warp_gone {
            blk.live_warps -= 1;
        }
        self.barriers_after_exit(b, w);
        self.checks_after_exit(i);
        self.grid_after_exit(b);
        self.cluster_after_exit(i);
        self.async_after_exit(i);
        self.stores_after_exit(i);
    }
}
