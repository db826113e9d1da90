//! The C-02 lab: builds the variants of a run, verifies each at `reps = 1`,
//! times them interleaved (GPU only), and assembles the [`Report`](crate::results::Report).

use anyhow::{Context, Result, bail};
use cg_kernels::c02::{
    BLOCK_REDUCE, BLOCK_SCAN, CLUSTER_DSMEM, COALESCED_ODD, LastBlockArgs, REDUCE_INTRINSIC,
    REDUCE_TILE32, ReduceArgs, block_reduce_sized, block_scan_sized, cg_reduce_kernel,
    cg_scan_kernel, last_block_reduce_sized,
};
use cg_runtime::{Backend, Buffer, Dim3, LaunchConfig};
use cooperative_groups::Kernel;

use crate::cli::{LabArgs, Mode};
use crate::data;
use crate::partial::Recorder;
use crate::progress::Progress;
use crate::report::csv_out::Extra;
use crate::results::Row;
use crate::stats::Summary;
use crate::timing::{Timed, time_interleaved};

/// One configuration of the lab.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// A tile reduce: `intrinsic`, `tile32` or `cg_reduce` at `tile`.
    Reduce {
        /// Which kernel.
        tag: ReduceTag,
        /// Tile size.
        tile: u32,
    },
    /// Odd count through `coalesced_threads()`.
    Coalesced,
    /// Cluster DSMEM neighbour read, `size` blocks per cluster.
    Cluster {
        /// Blocks per cluster.
        size: u32,
    },
    /// Whole-block `reduce(&block, v, Plus)` (the twin of CUB `BlockReduce`).
    BlockReduce,
    /// Whole-block `inclusive_scan(&block, v, Plus)` over block-sized chunks
    /// (the twin of CUB `BlockScan::InclusiveSum`).
    BlockScan,
    /// [`Variant::BlockReduce`] with the block's size declared
    /// (`with_threads`), as CUB's `BLOCK_DIM_X` (blocks of 128–1024, powers
    /// of two).
    BlockReduceSized,
    /// [`Variant::BlockScan`] with the block's size declared.
    BlockScanSized,
    /// `inclusive_scan(&tile, v, Plus)` on tiles of `tile` threads over
    /// block-sized chunks (the twin of `cg::inclusive_scan` on a tile).
    TileScan {
        /// Tile size.
        tile: u32,
    },
    /// The whole input summed in one launch, the last block to draw an
    /// atomic ticket finishing it (`last_block_reduce_B`, blocks of 128–1024
    /// threads; the twin of NVIDIA's `threadFenceReduction` pattern).
    LastBlock,
}

/// Which implementation of a variant runs: the Rust kernel, or its C++
/// twin from the reference module (`cg-lab compare`).
#[derive(Clone, Copy)]
pub enum Side<'m> {
    /// The `#[kernel]` of `cg-kernels`.
    Rust,
    /// The `extern "C"` kernel of `reference/cuda` with this name, loaded in
    /// this module.
    Cpp(&'m cg_runtime::Module, &'m str),
}

/// The three reduce strategies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceTag {
    /// Hand-written PTX.
    Intrinsic,
    /// `ThreadBlockTile<32>` shuffles.
    Tile32,
    /// Library `reduce`.
    CgReduce,
}

impl Variant {
    /// The seed's tag.
    pub fn tag(&self) -> &'static str {
        match self {
            Variant::Reduce {
                tag: ReduceTag::Intrinsic,
                ..
            } => "intrinsic",
            Variant::Reduce {
                tag: ReduceTag::Tile32,
                ..
            } => "tile32",
            Variant::Reduce {
                tag: ReduceTag::CgReduce,
                ..
            } => "cg_reduce",
            Variant::Coalesced => "coalesced",
            Variant::Cluster { .. } => "cluster",
            Variant::BlockReduce => "block_reduce",
            Variant::BlockScan => "block_scan",
            Variant::BlockReduceSized => "block_reduce_sized",
            Variant::BlockScanSized => "block_scan_sized",
            Variant::TileScan { .. } => "cg_scan",
            Variant::LastBlock => "last_block",
        }
    }

    /// The `tile` column (cluster: the cluster size).
    pub fn tile(&self) -> u32 {
        match *self {
            Variant::Reduce { tile, .. } | Variant::TileScan { tile } => tile,
            Variant::Coalesced => 32,
            Variant::Cluster { size } => size,
            Variant::BlockReduce
            | Variant::BlockScan
            | Variant::BlockReduceSized
            | Variant::BlockScanSized
            | Variant::LastBlock => 0,
        }
    }
}

/// Device-side inputs and outputs, allocated once per run.
pub struct Lab<'a> {
    backend: &'a Backend,
    args: &'a LabArgs,
    /// Blocks in the grid (reduce, coalesced).
    pub grid: u32,
    input_f32: Buffer<f32>,
    input_i32: Buffer<i32>,
    partial: Buffer<f32>,
    count: Buffer<u64>,
    cluster_out: Buffer<u32>,
    scan_out: Option<Buffer<f32>>,
    /// The last-block reduce's partials and total (`grid + 1` floats) and
    /// its ticket, allocated on first use.
    last_block: Option<(Buffer<f32>, Buffer<u32>)>,
}

impl<'a> Lab<'a> {
    /// Uploads the seed's inputs for `args.n` elements.
    pub fn new(backend: &'a Backend, args: &'a LabArgs) -> Result<Lab<'a>> {
        let grid = args.grid.unwrap_or_else(|| default_grid(backend));
        Ok(Lab {
            backend,
            args,
            grid,
            input_f32: backend.upload(&data::reduce_input(args.n))?,
            input_i32: backend.upload(&data::odd_input(args.n))?,
            partial: backend.alloc(grid as usize)?,
            count: backend.alloc(1)?,
            cluster_out: backend.alloc(grid as usize)?,
            scan_out: None,
            last_block: None,
        })
    }

    /// The variants of `mode`, split into the sweep group and the modes group.
    pub fn plan(&self, mode: Mode) -> (Vec<Variant>, Vec<Variant>, Vec<String>) {
        let a = self.args;
        let sweep: Vec<Variant> = (3..=10)
            .map(|k| 1u32 << k)
            .filter(|&t| t <= a.block)
            .map(|tile| Variant::Reduce {
                tag: ReduceTag::CgReduce,
                tile,
            })
            .collect();
        let mut skipped = Vec::new();
        let mut modes = vec![
            Variant::Reduce {
                tag: ReduceTag::Intrinsic,
                tile: 32,
            },
            Variant::Reduce {
                tag: ReduceTag::Tile32,
                tile: 32,
            },
            Variant::Reduce {
                tag: ReduceTag::CgReduce,
                tile: a.tile,
            },
            Variant::Coalesced,
        ];
        match self.cluster_support() {
            Ok(()) => modes.push(Variant::Cluster { size: a.clusize }),
            Err(why) => skipped.push(format!("cluster: {why}")),
        }
        let single = |v: Variant| (vec![], vec![v]);
        let (s, m) = match mode {
            Mode::Sweep => (sweep, vec![]),
            Mode::Modes => (vec![], modes),
            Mode::All => (sweep, modes),
            Mode::Intrinsic => single(Variant::Reduce {
                tag: ReduceTag::Intrinsic,
                tile: 32,
            }),
            Mode::Tile32 => single(Variant::Reduce {
                tag: ReduceTag::Tile32,
                tile: 32,
            }),
            Mode::CgReduce => single(Variant::Reduce {
                tag: ReduceTag::CgReduce,
                tile: a.tile,
            }),
            Mode::Coalesced => single(Variant::Coalesced),
            Mode::Cluster => match self.cluster_support() {
                Ok(()) => single(Variant::Cluster { size: a.clusize }),
                Err(_) => (vec![], vec![]),
            },
        };
        if !matches!(mode, Mode::Modes | Mode::All | Mode::Cluster) {
            skipped.clear();
        }
        (s, m, skipped)
    }

    /// Clusters need sm_90 (the simulator supports them).
    fn cluster_support(&self) -> Result<(), String> {
        match self.backend {
            Backend::Gpu(g) => g.cluster_support(),
            _ => Ok(()),
        }
    }

    /// Grid of the cluster mode: rounded down to a multiple of the cluster size.
    pub fn cluster_grid(&self, size: u32) -> u32 {
        (self.grid / size).max(1) * size
    }

    fn launch(&mut self, v: Variant, reps: u32, sync: bool) -> Result<()> {
        self.launch_side(v, Side::Rust, reps, sync)
    }

    /// Launches one side of `v`: output reset, then the kernel; waits only
    /// when `sync` (the timed path records events around an async launch).
    pub fn launch_side(&mut self, v: Variant, side: Side<'_>, reps: u32, sync: bool) -> Result<()> {
        let block = self.args.block;
        let n = self.args.n;
        match v {
            Variant::Reduce { tag, tile } => {
                self.launch_reduce_shaped(reduce_kernel(tag, tile, block), side, reps, sync)
            }
            Variant::BlockReduce => self.launch_reduce_shaped(Ok(BLOCK_REDUCE), side, reps, sync),
            Variant::BlockScan => self.launch_scan_shaped(Ok(BLOCK_SCAN), side, reps, sync),
            Variant::BlockReduceSized => {
                let k = block_reduce_sized(block).ok_or_else(|| no_sized(block));
                self.launch_reduce_shaped(k, side, reps, sync)
            }
            Variant::BlockScanSized => {
                let k = block_scan_sized(block).ok_or_else(|| no_sized(block));
                self.launch_scan_shaped(k, side, reps, sync)
            }
            Variant::TileScan { tile } => {
                let k = cg_scan_kernel(tile, block)
                    .ok_or_else(|| anyhow::anyhow!("no cg_scan kernel for tile {tile}"));
                self.launch_scan_shaped(k, side, reps, sync)
            }
            Variant::Coalesced => {
                let cfg = LaunchConfig::linear(self.grid, block);
                let args = (
                    self.input_i32.as_ptr() as *const i32,
                    self.count.as_ptr(),
                    n,
                );
                self.count.zero_async()?;
                // SAFETY: both sides take the same arguments, this lab's buffers on its
                // backend, sized for the experiment's `n`, grid and block.
                unsafe {
                    match side {
                        Side::Rust => run(self.backend, &COALESCED_ODD, &cfg, args, sync),
                        Side::Cpp(m, name) => self.run_cpp(m, name, &cfg, args, sync),
                    }
                }
            }
            Variant::LastBlock => {
                let k = last_block_reduce_sized(block).ok_or_else(|| no_sized(block));
                let cfg = LaunchConfig::linear(self.grid, block);
                let (out, ticket) = self.last_block_buffers()?;
                // Nothing is reset between launches: the kernel overwrites
                // every partial and the total, and its last ticket wraps the
                // counter back to 0.
                let args: LastBlockArgs = (self.input_f32.as_ptr(), out, n, ticket);
                // SAFETY: both sides take the same arguments, this lab's buffers on its
                // backend, sized for the experiment's `n`, grid and block.
                unsafe {
                    match side {
                        Side::Rust => run(self.backend, &k?, &cfg, args, sync),
                        Side::Cpp(m, name) => self.run_cpp(m, name, &cfg, args, sync),
                    }
                }
            }
            Variant::Cluster { size } => {
                let cfg = LaunchConfig::linear(self.cluster_grid(size), block)
                    .with_cluster(Dim3::x(size));
                let args = (self.cluster_out.as_ptr(),);
                self.cluster_out.zero_async()?;
                // SAFETY: both sides take the same arguments, this lab's buffers on its
                // backend, sized for the experiment's `n`, grid and block.
                unsafe {
                    match side {
                        Side::Rust => run(self.backend, &CLUSTER_DSMEM, &cfg, args, sync),
                        Side::Cpp(m, name) => self.run_cpp(m, name, &cfg, args, sync),
                    }
                }
            }
        }
    }

    /// The last-block reduce's output and ticket (allocated zeroed on first use).
    fn last_block_buffers(&mut self) -> Result<(*mut f32, *mut u32)> {
        if self.last_block.is_none() {
            let mut out = self.backend.alloc::<f32>(self.grid as usize + 1)?;
            let mut ticket = self.backend.alloc::<u32>(1)?;
            out.zero_async()?;
            ticket.zero_async()?;
            self.last_block = Some((out, ticket));
        }
        let (out, ticket) = self.last_block.as_ref().expect("allocated above");
        Ok((out.as_ptr(), ticket.as_ptr()))
    }

    /// Reduce-shaped variants: `(input, partial, n, reps)`.
    fn launch_reduce_shaped(
        &mut self,
        k: Result<Kernel<ReduceArgs>>,
        side: Side<'_>,
        reps: u32,
        sync: bool,
    ) -> Result<()> {
        let cfg = LaunchConfig::linear(self.grid, self.args.block);
        let args: ReduceArgs = (
            self.input_f32.as_ptr(),
            self.partial.as_ptr(),
            self.args.n,
            reps,
        );
        self.partial.zero_async()?;
        // SAFETY: both sides take the same arguments, this lab's buffers on its
        // backend, sized for the experiment's `n`, grid and block.
        unsafe {
            match side {
                Side::Rust => run(self.backend, &k?, &cfg, args, sync),
                Side::Cpp(m, name) => self.run_cpp(m, name, &cfg, args, sync),
            }
        }
    }

    /// Scan-shaped variants: `(input, out, n, reps)` over block-sized chunks.
    fn launch_scan_shaped(
        &mut self,
        k: Result<Kernel<ReduceArgs>>,
        side: Side<'_>,
        reps: u32,
        sync: bool,
    ) -> Result<()> {
        let n = self.args.n;
        let cfg = LaunchConfig::linear(self.grid, self.args.block);
        if self.scan_out.is_none() {
            self.scan_out = Some(self.backend.alloc(n as usize)?);
        }
        let out = self.scan_out.as_mut().expect("allocated above");
        let args: ReduceArgs = (self.input_f32.as_ptr(), out.as_ptr(), n, reps);
        out.zero_async()?;
        // SAFETY: both sides take the same arguments, this lab's buffers on its
        // backend, sized for the experiment's `n`, grid and block.
        unsafe {
            match side {
                Side::Rust => run(self.backend, &k?, &cfg, args, sync),
                Side::Cpp(m, name) => self.run_cpp(m, name, &cfg, args, sync),
            }
        }
    }

    /// Launches a function of the C++ reference module with the same
    /// arguments as its Rust twin.
    /// # Safety
    /// `args` must match the C++ kernel `name`'s parameters, with buffers as
    /// large as it reads and writes for `cfg`.
    unsafe fn run_cpp<A: cg_runtime::KernelArgs>(
        &self,
        module: &cg_runtime::Module,
        name: &str,
        cfg: &LaunchConfig,
        args: A,
        sync: bool,
    ) -> Result<()> {
        let Backend::Gpu(gpu) = self.backend else {
            bail!("the C++ reference runs on a GPU only")
        };
        let f = module.function(name)?;
        // SAFETY: forwarded contract.
        unsafe { gpu.launch_function(f, name, cfg, args) }?;
        if sync {
            gpu.synchronize()?;
        }
        Ok(())
    }

    /// Verifies `v` as the seed does (one launch at `reps = 1`) and also at
    /// the timed `reps` (the chained rounds must not change the result beyond
    /// the tolerance): both must match the host's expectation.
    pub fn verify(&mut self, v: Variant) -> Result<(bool, String)> {
        self.verify_side(v, Side::Rust)
    }

    /// [`Lab::verify`] for either side.
    pub fn verify_side(&mut self, v: Variant, side: Side<'_>) -> Result<(bool, String)> {
        let (ok1, what1) = self.verify_at(v, side, 1)?;
        let reps = self.args.reps;
        if reps == 1
            || !matches!(
                v,
                Variant::Reduce { .. }
                    | Variant::BlockReduce
                    | Variant::BlockScan
                    | Variant::BlockReduceSized
                    | Variant::BlockScanSized
                    | Variant::TileScan { .. }
            )
        {
            return Ok((ok1, what1));
        }
        let (ok_r, what_r) = self.verify_at(v, side, reps)?;
        Ok((
            ok1 && ok_r,
            format!("reps 1: {what1}; reps {reps}: {what_r}"),
        ))
    }

    /// One launch of `v` at `reps`, compared with the host's expectation.
    fn verify_at(&mut self, v: Variant, side: Side<'_>, reps: u32) -> Result<(bool, String)> {
        if v == Variant::LastBlock {
            // A stale total must not pass: zero the outputs (the expected
            // sum is not 0); the ticket must be 0 before the launch and is
            // checked to be 0 after.
            self.last_block_buffers()?;
            let (out, ticket) = self.last_block.as_mut().expect("allocated above");
            out.zero()?;
            ticket.zero()?;
        }
        self.launch_side(v, side, reps, true)?;
        let n = self.args.n;
        Ok(match v {
            Variant::Reduce { .. } | Variant::BlockReduce | Variant::BlockReduceSized => {
                let got: f64 = self.partial.to_vec()?.iter().map(|&x| x as f64).sum();
                let want = data::reduce_expected(n);
                let ok = (got - want).abs() <= 1e-3 * (1.0 + want.abs());
                (ok, format!("sum {got:.1} vs {want:.1}"))
            }
            Variant::Coalesced => {
                let got = self.count.to_vec()?[0];
                let want = data::odd_expected(n);
                (got == want, format!("odd {got} vs {want}"))
            }
            Variant::Cluster { size } => {
                let grid = self.cluster_grid(size);
                let got = self.cluster_out.to_vec()?;
                let bad = (0..grid)
                    .filter(|&b| got[b as usize] != data::cluster_expected(b, size))
                    .count();
                (
                    bad == 0,
                    format!(
                        "{} of {grid} blocks read their neighbour (clusize {size})",
                        grid as usize - bad
                    ),
                )
            }
            Variant::LastBlock => {
                let grid = self.grid as usize;
                let (out, ticket) = self.last_block.as_ref().expect("launched above");
                let out = out.to_vec()?;
                let ticket = ticket.to_vec()?[0];
                let got = out[grid] as f64;
                let want = data::reduce_expected(n);
                let partials: f64 = out[..grid].iter().map(|&x| x as f64).sum();
                let ok = (got - want).abs() <= 1e-3 * (1.0 + want.abs())
                    && (partials - want).abs() <= 1e-3 * (1.0 + want.abs())
                    && ticket == 0;
                (
                    ok,
                    format!(
                        "total {got:.1} vs {want:.1} (partials {partials:.1}, {grid} blocks), ticket {ticket} after"
                    ),
                )
            }
            Variant::BlockScan | Variant::BlockScanSized | Variant::TileScan { .. } => {
                let block = self.args.block;
                let seg = match v {
                    Variant::TileScan { tile } => tile,
                    _ => block,
                };
                let got = self.scan_out.as_ref().expect("launched above").to_vec()?;
                let want = data::tile_scan_expected(n, block, seg);
                // Chained rounds add s · 1e-30 to x: far below f32 resolution,
                // so every round's prefix sums are exact too.
                let bad = got.iter().zip(&want).filter(|(a, b)| a != b).count();
                let what = if seg == block {
                    format!("chunks of {block}")
                } else {
                    format!("tiles of {seg} in chunks of {block}")
                };
                (
                    bad == 0,
                    format!("{} of {n} prefix sums exact ({what})", n as usize - bad),
                )
            }
        })
    }

    /// Verifies every variant of a group, then (GPU only) times them
    /// interleaved; returns one row each, normalised within the group as
    /// `group` says. Each row goes to `rec` as soon as it is complete: on
    /// the simulator right after its verification; on a GPU after the
    /// group's timing (the rounds interleave the variants, so they finish
    /// together) — or, if the timing fails, untimed, so that the
    /// verification verdicts are saved with the error.
    pub fn measure(
        &mut self,
        variants: &[Variant],
        group: Extra,
        progress: &Progress,
        rec: &mut Recorder<'_, Row>,
    ) -> Result<Vec<Row>> {
        let mut rows = Vec::new();
        for &v in variants {
            let what = format!("{} tile {}", v.tag(), v.tile());
            progress.set_message(format!("verify {what}"));
            rec.begin(&what)?;
            let (verified, check) = self
                .verify(v)
                .with_context(|| format!("verifying {what}"))?;
            let row = self.row(v, verified, check);
            if self.backend.is_sim() {
                rec.push(row.clone());
            }
            rows.push(row);
            progress.inc(1);
        }
        if self.backend.is_sim() {
            return Ok(rows);
        }
        let a = self.args;
        let (warmup, runs, reps, min_ms) = (a.warmup, a.runs, a.reps, a.min_sample_ms);
        match time_interleaved(self, variants, warmup, runs, reps, min_ms, progress) {
            Ok(samples) => {
                for (r, s) in rows.iter_mut().zip(samples) {
                    r.time_ms = Some(Summary::of(&s));
                }
                normalise(&mut rows, group);
                rows.iter().for_each(|r| rec.push(r.clone()));
                Ok(rows)
            }
            Err(e) => {
                rows.into_iter().for_each(|r| rec.push(r));
                Err(e.context("timing"))
            }
        }
    }

    /// The row of `v` as verified (not yet timed).
    fn row(&self, v: Variant, verified: bool, check: String) -> Row {
        Row {
            tag: v.tag().to_string(),
            tile: v.tile(),
            block: self.args.block,
            grid: match v {
                Variant::Cluster { size } => self.cluster_grid(size),
                _ => self.grid,
            },
            reps: match v {
                Variant::Reduce { .. }
                | Variant::BlockReduce
                | Variant::BlockScan
                | Variant::BlockReduceSized
                | Variant::BlockScanSized
                | Variant::TileScan { .. } => self.args.reps,
                _ => 1,
            },
            n: self.args.n,
            time_ms: None,
            norm: None,
            ratio_vs_intrinsic: None,
            verified,
            check,
        }
    }
}

impl Lab<'_> {
    /// The GPU (timing runs on the GPU only; callers check the backend first).
    pub fn gpu(&self) -> &cg_runtime::Gpu {
        match self.backend {
            Backend::Gpu(g) => g,
            Backend::Sim(_) => unreachable!("timing runs on the GPU only"),
        }
    }
}

impl Timed for Lab<'_> {
    type Variant = Variant;

    fn gpu(&self) -> &cg_runtime::Gpu {
        Lab::gpu(self)
    }

    fn launch_async(&mut self, v: Variant, reps: u32) -> Result<()> {
        self.launch(v, reps, false)
    }
}

/// The Rust kernel of a reduce variant for blocks of `block` threads.
pub fn reduce_kernel(tag: ReduceTag, tile: u32, block: u32) -> Result<Kernel<ReduceArgs>> {
    Ok(match tag {
        ReduceTag::Intrinsic => REDUCE_INTRINSIC,
        ReduceTag::Tile32 => REDUCE_TILE32,
        ReduceTag::CgReduce => match cg_reduce_kernel(tile, block) {
            Some(k) => k,
            None => bail!("no cg_reduce kernel for tile {tile}"),
        },
    })
}

/// The error for a block size without sized block kernels.
fn no_sized(block: u32) -> anyhow::Error {
    anyhow::anyhow!("no block kernel of declared size {block} (128, 256, 512 or 1024)")
}

/// Launches on either backend; `sync = false` leaves a GPU launch in flight
/// (the timed path records events around it).
///
/// # Safety
/// `args` must meet `k`'s contract for `cfg` (the lab's buffers, sized for
/// the experiment's `n` and grid, on `backend`).
unsafe fn run<A: cg_runtime::KernelArgs, H: cg_runtime::HostArgs<A>>(
    backend: &Backend,
    k: &Kernel<A>,
    cfg: &LaunchConfig,
    args: H,
    sync: bool,
) -> Result<()> {
    // SAFETY: forwarded contract.
    unsafe {
        match backend {
            Backend::Gpu(g) if !sync => Ok(g.launch_unchecked(k, cfg, args)?),
            _ => Ok(backend.launch_unchecked(k, cfg, args)?),
        }
    }
}

/// SMs × 8, as the seed (the simulator's virtual SM count on the CPU).
pub fn default_grid(backend: &Backend) -> u32 {
    match backend {
        Backend::Gpu(g) => g.info().sm_count * 8,
        Backend::Sim(dev) => dev.sm_count * 8,
    }
}

/// Fills the ratio column of a group: `norm` (÷ the tile-32 median) on
/// sweep rows, `ratio_vs_intrinsic` (÷ the intrinsic median, reduces only)
/// on modes rows. Untimed rows (the simulator) get none.
pub fn normalise(rows: &mut [Row], group: Extra) {
    let median = |pred: &dyn Fn(&Row) -> bool| {
        rows.iter()
            .find(|r| pred(r))
            .and_then(|r| r.time_ms.map(|s| s.median))
    };
    match group {
        Extra::Norm => {
            if let Some(base) = median(&|r| r.tile == 32) {
                for r in rows.iter_mut() {
                    r.norm = r.time_ms.map(|s| s.median / base);
                }
            }
        }
        Extra::RatioVsIntrinsic => {
            if let Some(base) = median(&|r| r.tag == "intrinsic") {
                for r in rows
                    .iter_mut()
                    .filter(|r| r.tag != "coalesced" && r.tag != "cluster")
                {
                    r.ratio_vs_intrinsic = r.time_ms.map(|s| s.median / base);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        lab: LabArgs,
    }

    /// Lab flags for the simulator, 1000 elements, then `extra`.
    fn sim_args(extra: &[&str]) -> LabArgs {
        let base = ["cg-lab", "--backend", "sim", "--n", "1000"];
        Cli::parse_from(base.iter().chain(extra)).lab
    }

    /// The scan experiments of `compare` (the C++ side needs a GPU; the Rust
    /// side and the expectation run here): every tile of a 160-thread
    /// block (whose last 64- and 128-thread tiles are partial) and the
    /// block scan, verified at reps 1 and 3 on the simulator.
    #[test]
    fn scan_variants_verify_on_the_simulator() {
        let args = sim_args(&["--block", "160", "--grid", "2", "--reps", "3"]);
        let backend = Backend::sim();
        let mut lab = Lab::new(&backend, &args).unwrap();
        let mut variants: Vec<Variant> = [8, 16, 32, 64, 128]
            .map(|tile| Variant::TileScan { tile })
            .into();
        variants.push(Variant::BlockScan);
        for v in variants {
            let (ok, what) = lab.verify(v).unwrap();
            assert!(ok, "{v:?}: {what}");
            assert!(what.contains("1000 of 1000 prefix sums exact"), "{what}");
        }
    }

    /// The block reduce and scan of a declared size (`with_threads`) verify
    /// on the simulator; a block size without such kernels is refused.
    #[test]
    fn last_block_verifies_on_the_simulator_launch_after_launch() {
        let args = sim_args(&["--block", "128", "--grid", "5"]);
        let backend = Backend::sim();
        let mut lab = Lab::new(&backend, &args).unwrap();
        for _ in 0..2 {
            let (ok, what) = lab.verify(Variant::LastBlock).unwrap();
            assert!(ok && what.contains("ticket 0 after"), "{what}");
        }
        // Timed launches reset nothing: the ticket must come back to 0 by itself.
        lab.launch(Variant::LastBlock, 1, true).unwrap();
        let (_, ticket) = lab.last_block.as_ref().unwrap();
        assert_eq!(ticket.to_vec().unwrap(), [0]);
    }

    #[test]
    fn sized_block_variants_verify_on_the_simulator() {
        let args = sim_args(&["--block", "128", "--grid", "2", "--reps", "3"]);
        let backend = Backend::sim();
        let mut lab = Lab::new(&backend, &args).unwrap();
        for v in [Variant::BlockReduceSized, Variant::BlockScanSized] {
            let (ok, what) = lab.verify(v).unwrap();
            assert!(ok, "{v:?}: {what}");
        }
        let args = sim_args(&["--block", "160"]);
        let mut lab = Lab::new(&backend, &args).unwrap();
        assert!(
            lab.verify(Variant::LastBlock).is_err(),
            "no last-block kernel for 160"
        );
        let err = lab.verify(Variant::BlockScanSized).unwrap_err().to_string();
        assert!(
            err.contains("no block kernel of declared size 160"),
            "{err}"
        );
    }
}
