//! The virtual device: the limits a launch is checked against.

use crate::{LaunchConfig, SimError};

/// A small virtual GPU: the limits the simulator checks launch shapes
/// against, and the size of each lane's coroutine stack.
///
/// The defaults model one H100/H200-class SM, replicated on 4 SMs. The SM
/// count only bounds cooperative launches: every block of one must be
/// co-resident, so every lane of the grid holds a coroutine stack at once,
/// and Linux limits a process to about 65 000 memory mappings (each guarded
/// stack takes two; see [`MAX_LIVE_STACKS`](crate::MAX_LIVE_STACKS)). With
/// 4 SMs a cooperative grid holds at most 8192 threads, so a few such
/// launches can run in parallel test threads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimDevice {
    /// A name for reports.
    pub name: String,
    /// Streaming multiprocessors.
    pub sm_count: u32,
    /// Resident threads per SM.
    pub max_threads_per_sm: u32,
    /// Resident blocks per SM.
    pub max_blocks_per_sm: u32,
    /// Shared memory per SM, in bytes.
    pub smem_per_sm: usize,
    /// Shared memory (static + dynamic) one block may use, in bytes: 48 KiB
    /// by default, as on a GPU before `cudaFuncSetAttribute` raises it.
    pub max_smem_per_block: usize,
    /// Threads in a block.
    pub max_threads_per_block: u32,
    /// Blocks in a cluster (8 is the portable maximum on sm_90).
    pub max_cluster_size: u32,
    /// Bytes of stack for each lane's coroutine (one guard page is added).
    pub stack_size: usize,
    /// Run the data-race detector (on by default; the environment variable
    /// `CG_SIM_RACE=0` also turns it off). A race ends the launch with
    /// [`SimError::DataRace`](crate::SimError::DataRace).
    pub race_check: bool,
    /// Schedule spin-waiting lanes last (off by default): a lane that calls
    /// [`lane::yield_now`](crate::lane::yield_now) polls again only when
    /// no other lane can run, instead of in turn. Every lane then runs as
    /// far as it can between two polls of a spinner, as when the spinning
    /// warp is descheduled on a GPU; handshakes that only work if the
    /// spinner sees a value before it is overwritten fail under it.
    pub spin_last: bool,
    /// Worker threads for [`launch_parallel`](crate::launch_parallel)
    /// (1 by default; 0: one per core). The environment variable
    /// `CG_SIM_THREADS` overrides it. See the crate's README ("Several
    /// cores") for what a parallel launch guarantees.
    pub workers: usize,
}

impl Default for SimDevice {
    fn default() -> Self {
        SimDevice {
            name: "cg-sim virtual device".into(),
            sm_count: 4,
            max_threads_per_sm: 2048,
            max_blocks_per_sm: 32,
            smem_per_sm: 228 * 1024,
            max_smem_per_block: 48 * 1024,
            max_threads_per_block: 1024,
            max_cluster_size: 8,
            stack_size: 256 * 1024,
            race_check: true,
            spin_last: false,
            workers: 1,
        }
    }
}

fn invalid(msg: String) -> SimError {
    SimError::InvalidLaunch(msg)
}

impl SimDevice {
    /// The worker threads a [`launch_parallel`](crate::launch_parallel)
    /// uses: `CG_SIM_THREADS` if set (0: one per core), else
    /// [`workers`](Self::workers) (0: one per core); at least 1.
    pub fn worker_count(&self) -> usize {
        let n = std::env::var("CG_SIM_THREADS")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .unwrap_or(self.workers);
        if n == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            n
        }
    }

    /// Blocks of `block_threads` threads using `dynamic_smem` bytes that fit
    /// on one SM at once (0 if one block does not fit).
    pub fn blocks_per_sm(&self, block_threads: u32, dynamic_smem: usize) -> u32 {
        let warps = block_threads.div_ceil(32).max(1);
        let by_threads = self.max_threads_per_sm / (warps * 32);
        let by_smem = self
            .smem_per_sm
            .checked_div(dynamic_smem)
            .map_or(u32::MAX, |n| n.min(u32::MAX as usize) as u32);
        self.max_blocks_per_sm.min(by_threads).min(by_smem)
    }

    /// The largest grid a cooperative launch of this block shape may use:
    /// the blocks that can be co-resident on the whole device.
    pub fn max_cooperative_blocks(&self, block_threads: u32, dynamic_smem: usize) -> u64 {
        self.blocks_per_sm(block_threads, dynamic_smem) as u64 * self.sm_count as u64
    }

    /// Checks `cfg` against the device's limits, as the driver would.
    pub fn validate(&self, cfg: &LaunchConfig) -> Result<(), SimError> {
        let (g, b, c) = (cfg.grid, cfg.block, cfg.cluster_dim());
        let smem = cfg.dynamic_smem_bytes as usize;
        for (what, d) in [("grid", g), ("block", b), ("cluster", c)] {
            if d.x == 0 || d.y == 0 || d.z == 0 {
                return Err(invalid(format!(
                    "{what} dimensions {d} contain a zero: every dimension must be at least 1"
                )));
            }
        }
        if b.x > 1024 || b.y > 1024 || b.z > 64 {
            return Err(invalid(format!(
                "block dimensions {b} exceed the per-dimension limits (1024, 1024, 64)"
            )));
        }
        let threads = b.volume();
        if threads > self.max_threads_per_block as u64 {
            return Err(invalid(format!(
                "block {b} has {threads} threads, more than the device's {} threads per block",
                self.max_threads_per_block
            )));
        }
        if g.x > i32::MAX as u32 || g.y > 65535 || g.z > 65535 {
            return Err(invalid(format!(
                "grid dimensions {g} exceed the limits (2^31-1, 65535, 65535)"
            )));
        }
        // Block ranks are 32-bit (`Dim3::linear`): a larger grid would give
        // two blocks one rank, and one window of an output.
        if g.volume() > cg_isa::MAX_GRID_BLOCKS {
            return Err(invalid(cg_isa::ShapeError::TooManyBlocks(g).to_string()));
        }
        if g.x % c.x != 0 || g.y % c.y != 0 || g.z % c.z != 0 {
            return Err(invalid(format!(
                "grid {g} is not a multiple of the cluster dimensions {c}"
            )));
        }
        if c.volume() > self.max_cluster_size as u64 {
            return Err(invalid(format!(
                "cluster {c} has {} blocks, more than the device's maximum of {}",
                c.volume(),
                self.max_cluster_size
            )));
        }
        if smem > self.max_smem_per_block {
            return Err(invalid(format!(
                "{} bytes of dynamic shared memory per block exceed the device's maximum of {} bytes per block",
                smem, self.max_smem_per_block
            )));
        }
        let per_sm = self.blocks_per_sm(threads as u32, smem);
        if per_sm == 0 {
            return Err(invalid(format!(
                "one block of {threads} threads with {} bytes of dynamic shared memory does not fit on an SM \
                 ({} threads, {} bytes of shared memory)",
                smem, self.max_threads_per_sm, self.smem_per_sm
            )));
        }
        let resident = per_sm as u64 * self.sm_count as u64;
        if c.volume() > resident {
            return Err(invalid(format!(
                "a cluster of {} blocks cannot be co-resident: at most {resident} such blocks fit on the device",
                c.volume()
            )));
        }
        if cfg.cooperative && g.volume() > resident {
            return Err(invalid(format!(
                "cooperative launch of {} blocks exceeds the {resident} blocks that can be co-resident \
                 ({} SMs x {per_sm} blocks per SM for {threads} threads and {} bytes of dynamic shared memory per block, \
                 on {}); a larger simulated device holds more: `SimDevice {{ sm_count: {}, ..SimDevice::default() }}` \
                 (cg_runtime::Backend::sim_with, cg_sim::launch_on)",
                g.volume(),
                self.sm_count,
                smem,
                self.name,
                g.volume().div_ceil(per_sm as u64),
            )));
        }
        Ok(())
    }
}
