//! `cg-lab sync`: what one `sync()` costs on every kind of group, the
//! library's against NVIDIA's `cooperative_groups` in the same run.
//!
//! Each case is one group (a tile of 1–1024 threads, the block, the
//! block's split barrier, mbarriers (per 64-thread tile, or the block),
//! a cluster, the grid) in one block size. Both
//! sides run the same loop (`crates/cg-kernels/src/sync.rs`,
//! `reference/cuda/sync.cu`): a double-buffered exchange with the next
//! rank, one `sync()` per iteration, verified against the host's sum.
//! Per case and side, interleaved (`R C`, then `C R`, …):
//!
//! * **latency**: one block per SM (a cluster per 8 SMs, or the grid
//!   itself), thread 0 of every block timing the loop with `clock64()`:
//!   cycles per iteration (median over blocks), and the launch's CUDA-event
//!   time ÷ iterations in ns;
//! * **throughput**: 16 blocks per SM (the scheduler keeps as many resident
//!   as fit): group syncs per µs over the whole GPU.
//!
//! Without a GPU the Rust kernels run on the simulator at small shapes and
//! are verified; nothing is timed.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use cg_kernels::sync as k;
use cg_runtime::{Backend, Buffer, Dim3, Function, Gpu, LaunchConfig, Module, tools};
use clap::Args;
use cooperative_groups::Kernel;

use crate::backend_choice::BackendArgs;
use crate::output::write_atomic;
use crate::progress::Progress;
use crate::results::{Platform, SyncRow};
use crate::stats::Summary;

/// Flags of `cg-lab sync`.
#[derive(Args, Debug)]
pub struct SyncArgs {
    /// Block sizes for the tiles of 64–1024 threads, the block, the split
    /// barrier and the mbarriers (comma-separated, powers of two in
    /// 128..=1024)
    #[arg(long, value_delimiter = ',', default_values_t = [128u32, 256, 512, 1024], value_parser = block_pow2)]
    blocks: Vec<u32>,
    /// Only these groups (comma-separated: tile, block, split, mbarrier,
    /// cluster, grid); default: all
    #[arg(long, value_delimiter = ',', value_name = "GROUPS", value_parser = group_name)]
    only: Vec<String>,
    /// Syncs per launch (tiles, block, split, mbarrier, cluster)
    #[arg(long, default_value_t = 4096, value_parser = crate::cli::positive)]
    iters: u32,
    /// Syncs per launch of the grid
    #[arg(long, default_value_t = 512, value_parser = crate::cli::positive)]
    grid_iters: u32,
    /// Timed rounds (each samples every case on both sides)
    #[arg(long, default_value_t = 11, value_parser = crate::cli::positive)]
    runs: u32,
    /// Untimed launches of every case and side before the rounds
    #[arg(long, default_value_t = 1, value_parser = crate::cli::non_negative)]
    warmup: u32,
    #[command(flatten)]
    backend: BackendArgs,
    /// Output directory (default: `results/<gpu>/`)
    #[arg(long)]
    out: Option<PathBuf>,
}

const GROUPS: [&str; 6] = ["tile", "block", "split", "mbarrier", "cluster", "grid"];

impl SyncArgs {
    /// What every accepted `cg-lab sync` command line satisfies (the CLI
    /// fuzz test's oracle).
    #[cfg(test)]
    pub(crate) fn check_accepted(&self) {
        assert!(
            self.blocks
                .iter()
                .all(|b| b.is_power_of_two() && (128..=1024).contains(b))
        );
        assert!(self.only.iter().all(|g| GROUPS.contains(&g.as_str())));
        assert!(self.iters >= 1 && self.grid_iters >= 1 && self.runs >= 1);
    }
}

fn block_pow2(s: &str) -> Result<u32, String> {
    let v: u32 = s
        .trim()
        .parse()
        .map_err(|_| format!("must be an integer (got `{s}`)"))?;
    if !v.is_power_of_two() || !(128..=1024).contains(&v) {
        return Err(format!("must be a power of two in [128, 1024] (got {v})"));
    }
    Ok(v)
}

fn group_name(s: &str) -> Result<String, String> {
    if GROUPS.contains(&s) {
        Ok(s.to_string())
    } else {
        Err(format!(
            "no group named `{s}` (known: {})",
            GROUPS.join(", ")
        ))
    }
}

/// The group whose `sync` a case times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Group {
    /// `tiled_partition::<N>`.
    Tile(u32),
    /// `this_thread_block()`.
    Block,
    /// The block's `barrier_wait(barrier_arrive())`.
    Split,
    /// An mbarrier: per 64-thread tile (`Some(_)`, the variant) or the
    /// whole block (`None`, every thread arrives).
    Mbarrier(Option<MbarTile>),
    /// `this_cluster()` of this many blocks.
    Cluster(u32),
    /// `this_grid()` of `blocks_per_sm · SMs` blocks (0: full residency).
    Grid(u32),
}

impl Group {
    fn kind(self) -> &'static str {
        match self {
            Group::Tile(_) => "tile",
            Group::Block => "block",
            Group::Split => "split",
            Group::Mbarrier(_) => "mbarrier",
            Group::Cluster(_) => "cluster",
            Group::Grid(_) => "grid",
        }
    }
}

/// How a 64-thread tile syncs on its mbarrier in the `mbarrier` cases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MbarTile {
    /// Lane 0 of each warp arrives and waits on its token, between two
    /// warp barriers.
    Lane0,
    /// Every thread arrives and waits.
    All,
    /// Lane 0 arrives after a warp barrier; every lane waits on the parity.
    Parity,
}

/// One case: a group in a block size, both sides' kernels.
struct Case {
    group: Group,
    block: u32,
    rust: Kernel<k::SyncArgs>,
    cpp: String,
    /// Blocks of the latency launch (the grid's: the group itself).
    grid: u32,
    /// Blocks of the throughput launch (`None`: the grid, which has none).
    wide: Option<u32>,
    /// Group size in threads (clusters and grids: blocks).
    size: u32,
    /// What the Rust side lowers to.
    lowering: String,
}

/// The Rust tile kernel for `n` threads in blocks of `block`: the one with
/// the smallest declared block bound that fits.
fn tile_kernel(n: u32, block: u32) -> Option<Kernel<k::SyncArgs>> {
    let all = [
        (1, 1024, k::SYNC_TILE_1_1024),
        (2, 1024, k::SYNC_TILE_2_1024),
        (4, 1024, k::SYNC_TILE_4_1024),
        (8, 1024, k::SYNC_TILE_8_1024),
        (16, 1024, k::SYNC_TILE_16_1024),
        (32, 1024, k::SYNC_TILE_32_1024),
        (64, 128, k::SYNC_TILE_64_128),
        (64, 256, k::SYNC_TILE_64_256),
        (64, 1024, k::SYNC_TILE_64_1024),
        (128, 256, k::SYNC_TILE_128_256),
        (128, 1024, k::SYNC_TILE_128_1024),
        (256, 256, k::SYNC_TILE_256_256),
        (256, 1024, k::SYNC_TILE_256_1024),
        (512, 1024, k::SYNC_TILE_512_1024),
        (1024, 1024, k::SYNC_TILE_1024_1024),
    ];
    all.into_iter()
        .filter(|&(t, max, _)| t == n && block <= max)
        .min_by_key(|&(_, max, _)| max)
        .map(|(_, _, kern)| kern)
}

/// What a tile's `sync` lowers to in this library (see
/// `cooperative_groups`' `group::barrier`).
fn tile_lowering(n: u32, block: u32) -> String {
    match n {
        1 => "nothing (one thread)".into(),
        2..=32 => "bar.warp.sync".into(),
        _ if n >= block => "bar.sync 0".into(),
        64 if block > 512 => {
            "mbarrier per tile: every thread arrive + try_wait (no named barrier left)".into()
        }
        _ => format!("named barrier (bar.sync id, {n})"),
    }
}

/// Every case of a run, in report order.
fn cases(args: &SyncArgs, sms: u32, cluster_ok: bool) -> Vec<Case> {
    let want = |g: &str| args.only.is_empty() || args.only.iter().any(|o| o == g);
    let cpp_tile = |n: u32| format!("cpp_sync_tile_{n}");
    let mut v = Vec::new();
    if want("tile") {
        for n in [1, 2, 4, 8, 16, 32] {
            v.push(Case {
                group: Group::Tile(n),
                block: 128,
                rust: tile_kernel(n, 128).expect("warp tiles exist"),
                cpp: cpp_tile(n),
                grid: sms,
                wide: Some(16 * sms),
                size: n,
                lowering: tile_lowering(n, 128),
            });
        }
    }
    for &b in &args.blocks {
        if want("tile") {
            for n in (6..=10).map(|s| 1u32 << s).filter(|&n| n <= b) {
                v.push(Case {
                    group: Group::Tile(n),
                    block: b,
                    rust: tile_kernel(n, b).expect("a kernel for every tile ≤ block"),
                    cpp: cpp_tile(n),
                    grid: sms,
                    wide: Some(16 * sms),
                    size: n,
                    lowering: tile_lowering(n, b),
                });
            }
        }
        if want("block") {
            v.push(Case {
                group: Group::Block,
                block: b,
                rust: k::SYNC_BLOCK,
                cpp: "cpp_sync_block".into(),
                grid: sms,
                wide: Some(16 * sms),
                size: b,
                lowering: "bar.sync 0".into(),
            });
        }
        if want("split") {
            v.push(Case {
                group: Group::Split,
                block: b,
                rust: k::SYNC_BLOCK_SPLIT,
                cpp: "cpp_sync_block_split".into(),
                grid: sms,
                wide: Some(16 * sms),
                size: b,
                lowering: "bar.sync 0 (in barrier_wait)".into(),
            });
        }
        if want("mbarrier") {
            for (variant, rust, cpp, lowering) in [
                (
                    MbarTile::Lane0,
                    k::SYNC_MBARRIER_TILE64,
                    "cpp_sync_mbarrier_tile64",
                    "mbarrier per tile (2 arrivals): bar.warp.sync, lane 0 arrive + try_wait, bar.warp.sync",
                ),
                (
                    MbarTile::All,
                    k::SYNC_MBARRIER_TILE64_ALL,
                    "cpp_sync_mbarrier_tile64_all",
                    "mbarrier per tile (64 arrivals): every thread arrive + try_wait",
                ),
                (
                    MbarTile::Parity,
                    k::SYNC_MBARRIER_TILE64_PARITY,
                    "cpp_sync_mbarrier_tile64_parity",
                    "mbarrier per tile (2 arrivals): bar.warp.sync, lane 0 arrive, every lane try_wait.parity",
                ),
            ] {
                v.push(Case {
                    group: Group::Mbarrier(Some(variant)),
                    block: b,
                    rust,
                    cpp: cpp.into(),
                    grid: sms,
                    wide: Some(16 * sms),
                    size: 64,
                    lowering: lowering.into(),
                });
            }
            v.push(Case {
                group: Group::Mbarrier(None),
                block: b,
                rust: k::SYNC_MBARRIER_BLOCK,
                cpp: "cpp_sync_mbarrier_block".into(),
                grid: sms,
                wide: Some(16 * sms),
                size: b,
                lowering: "mbarrier: every thread arrive + try_wait".into(),
            });
        }
    }
    if want("cluster") && cluster_ok {
        for c in [2, 4, 8] {
            let round = |x: u32| (x / c).max(1) * c;
            v.push(Case {
                group: Group::Cluster(c),
                block: 128,
                rust: k::SYNC_CLUSTER,
                cpp: "cpp_sync_cluster".into(),
                grid: round(sms),
                wide: Some(round(16 * sms)),
                size: c,
                lowering: "barrier.cluster.arrive + wait".into(),
            });
        }
    }
    if want("grid") {
        for per_sm in [1, 2, 4, 8, 0] {
            v.push(Case {
                group: Group::Grid(per_sm),
                block: 128,
                rust: k::SYNC_GRID,
                cpp: "cpp_sync_grid".into(),
                grid: per_sm * sms,
                wide: None,
                size: per_sm * sms,
                lowering: "block barrier + fenced counter (arrive) + acquire spin (wait)".into(),
            });
        }
    }
    v
}

/// The launch configuration of `case` over `blocks` blocks.
fn config(case: &Case, blocks: u32) -> LaunchConfig {
    let cfg = LaunchConfig::linear(blocks, case.block);
    match case.group {
        Group::Cluster(c) => cfg.with_cluster(Dim3::x(c)),
        Group::Grid(_) => cfg.with_cooperative(true),
        _ => cfg,
    }
}

/// The sums of a group of `n` members after `iters` iterations of the
/// kernels' loop (host model): rank `r` stores `stored(sum_r, i, r)`, then
/// adds rank `(r + 1) mod n`'s word.
fn group_sums(n: u32, iters: u32) -> Vec<u32> {
    let mut sums = vec![0u32; n as usize];
    let mut words = vec![0u32; n as usize];
    for i in 0..iters {
        for (r, w) in words.iter_mut().enumerate() {
            *w = k::stored(sums[r], i, r as u32);
        }
        for (r, s) in sums.iter_mut().enumerate() {
            *s = s.wrapping_add(words[(r + 1) % n as usize]);
        }
    }
    sums
}

/// The sum every thread of a launch over `blocks` blocks must hold.
fn expected(case: &Case, blocks: u32, iters: u32) -> Vec<u32> {
    let b = case.block;
    let n = match case.group {
        Group::Tile(n) | Group::Cluster(n) => n,
        Group::Mbarrier(Some(_)) => 64,
        Group::Block | Group::Split | Group::Mbarrier(None) => b,
        Group::Grid(_) => blocks,
    };
    let sums = group_sums(n, iters);
    let mut out = vec![0u32; (blocks * b) as usize];
    for blk in 0..blocks {
        for t in 0..b {
            out[(blk * b + t) as usize] = match case.group {
                Group::Tile(n) => sums[(t % n) as usize],
                Group::Mbarrier(Some(_)) => sums[(t % 64) as usize],
                Group::Block | Group::Split | Group::Mbarrier(None) => sums[t as usize],
                Group::Cluster(c) if t == 0 => sums[(blk % c) as usize],
                Group::Grid(_) if t == 0 => sums[blk as usize],
                _ => 0,
            };
        }
    }
    out
}

/// The device buffers every launch writes.
struct Buffers {
    acc: Buffer<u32>,
    cycles: Buffer<u64>,
    scratch: Buffer<u32>,
}

impl Buffers {
    fn new(backend: &Backend, blocks: u32, threads: u32) -> Result<Buffers> {
        Ok(Buffers {
            acc: backend.alloc(blocks as usize * threads as usize)?,
            cycles: backend.alloc(blocks as usize)?,
            scratch: backend.alloc(2 * blocks as usize)?,
        })
    }

    fn args(&self, iters: u32) -> k::SyncArgs {
        (
            self.acc.as_ptr(),
            self.cycles.as_ptr(),
            self.scratch.as_ptr(),
            iters,
        )
    }
}

/// Compares the first `len` sums with the host's.
fn check(acc: &Buffer<u32>, want: &[u32]) -> Result<(bool, String)> {
    let got = acc.to_vec()?;
    let bad = want.iter().zip(&got).position(|(w, g)| w != g);
    Ok(match bad {
        None => (true, format!("{} sums equal to the host's", want.len())),
        Some(i) => (
            false,
            format!("thread {i}: sum {:#010x}, host {:#010x}", got[i], want[i]),
        ),
    })
}

/// Runs `cg-lab sync`.
pub fn run(args: &SyncArgs) -> Result<()> {
    let backend = args.backend.open()?;
    let platform = crate::results::platform(&backend);
    let out = crate::results::out_dir(args.out.as_deref(), &platform.slug);
    crate::preflight::check_out_dir(&out)?;
    let rows = match &backend {
        Backend::Gpu(gpu) => run_gpu(args, &backend, gpu)?,
        Backend::Sim(dev) => {
            println!(
                "no GPU: verifying the sync kernels on the simulator (small shapes); \
                 timings need a GPU"
            );
            run_sim(args, &backend, dev.sm_count)?
        }
    };
    let written = write_outputs(&rows, &platform, args, &out)?;
    println!("wrote {}", written.join(", "));
    let bad: Vec<String> = rows
        .iter()
        .filter(|r| !r.rust_verified || r.cpp_verified == Some(false))
        .map(|r| format!("{} {} block {} ({})", r.group, r.size, r.block, r.check))
        .collect();
    if !bad.is_empty() {
        bail!("verification FAILED: {}", bad.join("; "));
    }
    Ok(())
}

/// The simulator: every Rust case once, at 2 blocks (clusters: 2, grid: 3)
/// and 6 iterations, verified.
fn run_sim(args: &SyncArgs, backend: &Backend, sms: u32) -> Result<Vec<SyncRow>> {
    let _ = sms;
    let iters = 6;
    let mut all = cases(args, 2, true);
    // One grid is enough here: the simulator's grid has no size to vary.
    all.retain(|c| !matches!(c.group, Group::Grid(n) if n != 1));
    for c in &mut all {
        c.grid = match c.group {
            Group::Cluster(n) => 2 * n,
            Group::Grid(_) => 3,
            _ => 2,
        };
        c.size = match c.group {
            Group::Grid(_) => c.grid,
            _ => c.size,
        };
    }
    let mut rows = Vec::new();
    for c in &all {
        let bufs = Buffers::new(backend, c.grid, c.block)?;
        // SAFETY: the sync kernels use one accumulator and cycle counter per
        // thread and a scratch per block: `bufs`, sized for this grid.
        unsafe { backend.launch_unchecked(&c.rust, &config(c, c.grid), bufs.args(iters)) }
            .with_context(|| format!("{} {} in blocks of {}", c.group.kind(), c.size, c.block))?;
        let (ok, what) = check(&bufs.acc, &expected(c, c.grid, iters))?;
        println!(
            "verified {:<7} size={:<4} block={:<4} rust {}",
            c.group.kind(),
            c.size,
            c.block,
            if ok { "OK" } else { "FAILED" }
        );
        rows.push(row(c, None, None, ok, None, what));
    }
    Ok(rows)
}

fn row(
    c: &Case,
    rust: Option<&Samples>,
    cpp: Option<&Samples>,
    rust_ok: bool,
    cpp_ok: Option<bool>,
    check: String,
) -> SyncRow {
    let sum = |s: Option<&Samples>, f: fn(&Samples) -> &Vec<f64>| {
        s.filter(|s| !f(s).is_empty()).map(|s| Summary::of(f(s)))
    };
    let rust_cycles = sum(rust, |s| &s.cycles);
    let cpp_cycles = sum(cpp, |s| &s.cycles);
    SyncRow {
        group: c.group.kind().into(),
        size: c.size,
        block: c.block,
        grid: c.grid,
        rust_lowering: c.lowering.clone(),
        rust_over_cpp: rust_cycles
            .zip(cpp_cycles)
            .map(|(r, c)| r.median / c.median),
        rust_cycles,
        cpp_cycles,
        rust_ns: sum(rust, |s| &s.ns),
        cpp_ns: sum(cpp, |s| &s.ns),
        rust_syncs_per_us: sum(rust, |s| &s.per_us),
        cpp_syncs_per_us: sum(cpp, |s| &s.per_us),
        rust_verified: rust_ok,
        cpp_verified: cpp_ok,
        check,
    }
}

/// One side's samples of one case.
#[derive(Default)]
struct Samples {
    cycles: Vec<f64>,
    ns: Vec<f64>,
    per_us: Vec<f64>,
}

/// A case's side, resolved for launching.
#[derive(Clone, Copy)]
enum Side {
    Rust,
    Cpp(Function),
}

/// The GPU: build the C++ twins, verify both sides of every case, then
/// time them in interleaved rounds.
fn run_gpu(args: &SyncArgs, backend: &Backend, gpu: &Gpu) -> Result<Vec<SyncRow>> {
    let Some(nvcc) = tools::find_tool("nvcc") else {
        bail!(
            "`cg-lab sync` builds reference/cuda/sync.cu with nvcc, which was not found \
             (install the CUDA toolkit, put nvcc on PATH, or set CG_NVCC)"
        );
    };
    let sm = gpu.info().sm();
    let sms = gpu.info().sm_count;
    let build = std::env::temp_dir().join(format!("cg-lab-sync-{}", std::process::id()));
    eprintln!(
        "building reference/cuda/sync.cu with {} for sm_{sm} …",
        nvcc.display()
    );
    let (cubin, _) = crate::reference::build_cubin(&nvcc, sm, &build, crate::reference::SYNC_CU)?;
    let module: Module = gpu.load_image(&std::fs::read(&cubin)?)?;
    std::fs::remove_dir_all(&build).ok();
    let cluster_ok = gpu.cluster_support().is_ok() && gpu.ptx_sm() >= 90;
    let mut all = cases(args, sms, cluster_ok);
    if all.is_empty() {
        bail!(
            "--only: none of {} runs on this GPU (cluster needs sm_90+)",
            args.only.join(", ")
        );
    }
    // Grids: as many blocks per SM as both sides can keep resident.
    let grid_fn = module.function("cpp_sync_grid")?;
    let rust_grid_fn = gpu.kernels().kernel(&k::SYNC_GRID)?;
    let resident = gpu
        .max_coresident_blocks(grid_fn, Dim3::x(128), 0)?
        .min(gpu.max_coresident_blocks(rust_grid_fn, Dim3::x(128), 0)?);
    all.retain_mut(|c| match c.group {
        Group::Grid(0) => {
            c.grid = resident;
            c.size = resident;
            !matches!(resident / sms, 1 | 2 | 4 | 8) || resident % sms != 0
        }
        Group::Grid(_) => c.grid <= resident,
        _ => true,
    });
    let max_blocks = all
        .iter()
        .map(|c| c.wide.unwrap_or(c.grid).max(c.grid))
        .max()
        .unwrap_or(1);
    let bufs = Buffers::new(backend, max_blocks, 1024)?;
    let sides: Vec<[Side; 2]> = all
        .iter()
        .map(|c| Ok([Side::Rust, Side::Cpp(module.function(&c.cpp)?)]))
        .collect::<Result<_>>()?;

    // Verify both sides of every case, latency and throughput shapes.
    let mut verdicts = Vec::new();
    for (c, s) in all.iter().zip(&sides) {
        let iters = iters_of(args, c);
        let mut v = [true, true];
        let mut what = String::new();
        for (j, &side) in s.iter().enumerate() {
            for blocks in [Some(c.grid), c.wide].into_iter().flatten() {
                bufs.acc_zero()?;
                launch(gpu, c, side, blocks, &bufs, iters)?;
                gpu.synchronize()
                    .with_context(|| format!("{} {} block {}", c.group.kind(), c.size, c.block))?;
                let (ok, w) = check(&bufs.acc, &expected(c, blocks, iters))?;
                v[j] &= ok;
                if !ok || what.is_empty() {
                    what = format!("{} {blocks} blocks: {w}", ["rust", "c++"][j]);
                }
            }
        }
        println!(
            "verified {:<7} size={:<4} block={:<4} rust {} c++ {}",
            c.group.kind(),
            c.size,
            c.block,
            ok(v[0]),
            ok(v[1])
        );
        verdicts.push((v, what));
    }

    let progress = Progress::new((all.len() * 2) as u64 * args.runs as u64, false);
    let mut samples: Vec<[Samples; 2]> = all.iter().map(|_| Default::default()).collect();
    let start = gpu.event()?;
    let stop = gpu.event()?;
    for _ in 0..args.warmup {
        for (c, s) in all.iter().zip(&sides) {
            for &side in s {
                launch(gpu, c, side, c.grid, &bufs, iters_of(args, c))?;
            }
        }
    }
    gpu.synchronize()?;
    for round in 0..args.runs {
        progress.set_message(format!("round {}/{}", round + 1, args.runs));
        for (i, (c, s)) in all.iter().zip(&sides).enumerate() {
            let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
            for j in order {
                let iters = iters_of(args, c);
                start.record()?;
                launch(gpu, c, s[j], c.grid, &bufs, iters)?;
                stop.record()?;
                let ms = stop.elapsed_since(&start)? as f64;
                let mut cyc: Vec<f64> = bufs.cycles.to_vec()?[..c.grid as usize]
                    .iter()
                    .map(|&x| x as f64 / iters as f64)
                    .collect();
                cyc.sort_by(f64::total_cmp);
                samples[i][j].cycles.push(cyc[cyc.len() / 2]);
                samples[i][j].ns.push(ms * 1e6 / iters as f64);
                if let Some(wide) = c.wide {
                    start.record()?;
                    launch(gpu, c, s[j], wide, &bufs, iters)?;
                    stop.record()?;
                    let ms = stop.elapsed_since(&start)? as f64;
                    let groups = groups_per_block(c) * wide as f64;
                    samples[i][j]
                        .per_us
                        .push(groups * iters as f64 / (ms * 1e3));
                }
                progress.inc(1);
            }
        }
    }
    progress.finish();
    Ok(all
        .iter()
        .zip(&samples)
        .zip(verdicts)
        .map(|((c, s), (v, what))| row(c, Some(&s[0]), Some(&s[1]), v[0], Some(v[1]), what))
        .collect())
}

fn ok(v: bool) -> &'static str {
    if v { "OK" } else { "FAILED" }
}

fn iters_of(args: &SyncArgs, c: &Case) -> u32 {
    match c.group {
        Group::Grid(_) => args.grid_iters,
        _ => args.iters,
    }
}

/// Groups that sync in one block (a cluster's blocks count as a fraction).
fn groups_per_block(c: &Case) -> f64 {
    match c.group {
        Group::Tile(n) => (c.block / n) as f64,
        Group::Mbarrier(Some(_)) => (c.block / 64) as f64,
        Group::Block | Group::Split | Group::Mbarrier(None) => 1.0,
        Group::Cluster(n) => 1.0 / n as f64,
        Group::Grid(_) => 0.0,
    }
}

impl Buffers {
    fn acc_zero(&self) -> Result<()> {
        match &self.acc {
            Buffer::Device(d) => Ok(d.zero()?),
            Buffer::Host(_) => Ok(()),
        }
    }
}

/// Enqueues one launch of `case`'s `side` over `blocks` blocks.
fn launch(gpu: &Gpu, c: &Case, side: Side, blocks: u32, bufs: &Buffers, iters: u32) -> Result<()> {
    let cfg = config(c, blocks);
    let a = bufs.args(iters);
    // SAFETY: both sides take the same buffers, sized for `blocks` blocks.
    unsafe {
        match side {
            Side::Rust => gpu.launch_unchecked(&c.rust, &cfg, a),
            Side::Cpp(f) => gpu.launch_function(f, &c.cpp, &cfg, a),
        }
    }
    .with_context(|| format!("{} {} in blocks of {}", c.group.kind(), c.size, c.block))
}

/// Writes `sync.csv`, `sync.md`, `sync.json` and (with timings) `sync.svg`.
fn write_outputs(
    rows: &[SyncRow],
    p: &Platform,
    args: &SyncArgs,
    out: &Path,
) -> Result<Vec<String>> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let mut written = Vec::new();
    let mut put = |name: &str, bytes: &[u8]| -> Result<()> {
        let path = out.join(name);
        write_atomic(&path, bytes)?;
        written.push(path.display().to_string());
        Ok(())
    };
    put("sync.csv", csv(rows).as_bytes())?;
    put("sync.md", markdown(rows, p, args).as_bytes())?;
    let json = serde_json::json!({ "platform": p, "iters": args.iters, "grid_iters": args.grid_iters, "runs": args.runs, "rows": rows });
    put("sync.json", serde_json::to_string_pretty(&json)?.as_bytes())?;
    if let Some(svg) = crate::report::sync_plot::draw(rows, &p.device)? {
        put("sync.svg", svg.as_bytes())?;
    }
    Ok(written)
}

fn med(s: &Option<Summary>) -> String {
    s.map(|s| format!("{:.1}", s.median)).unwrap_or_default()
}

/// The measured columns of a row, in the order both tables use: group,
/// size, block, grid, cycles, ratio, ns, syncs/µs (Rust, then C++).
fn measured_cells(r: &SyncRow) -> [String; 11] {
    [
        r.group.clone(),
        r.size.to_string(),
        r.block.to_string(),
        r.grid.to_string(),
        med(&r.rust_cycles),
        med(&r.cpp_cycles),
        r.rust_over_cpp
            .map(|x| format!("{x:.3}"))
            .unwrap_or_default(),
        med(&r.rust_ns),
        med(&r.cpp_ns),
        med(&r.rust_syncs_per_us),
        med(&r.cpp_syncs_per_us),
    ]
}

fn csv(rows: &[SyncRow]) -> String {
    let mut s = String::from(
        "group,size,block,grid,rust_cycles,cpp_cycles,rust_over_cpp,rust_ns,cpp_ns,\
         rust_syncs_per_us,cpp_syncs_per_us,rust_verified,cpp_verified,rust_lowering\n",
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{},{},{},\"{}\"",
            measured_cells(r).join(","),
            r.rust_verified,
            r.cpp_verified.map(|b| b.to_string()).unwrap_or_default(),
            r.rust_lowering
        );
    }
    s
}

/// Each large tile's cost ÷ the block barrier's, same side, same block
/// size, same run: `(block, tile, rust ratio, c++ ratio)`.
pub fn large_tile_ratios(rows: &[SyncRow]) -> Vec<(u32, u32, f64, f64)> {
    let mut v = Vec::new();
    for r in rows.iter().filter(|r| r.group == "tile" && r.size >= 64) {
        let Some(b) = rows
            .iter()
            .find(|b| b.group == "block" && b.block == r.block)
        else {
            continue;
        };
        if let (Some(rt), Some(ct), Some(rb), Some(cb)) =
            (r.rust_cycles, r.cpp_cycles, b.rust_cycles, b.cpp_cycles)
        {
            v.push((
                r.block,
                r.size,
                rt.median / rb.median,
                ct.median / cb.median,
            ));
        }
    }
    v
}

fn markdown(rows: &[SyncRow], p: &Platform, args: &SyncArgs) -> String {
    let mut s = format!(
        "# What one `sync()` costs: cooperative-groups (Rust) and NVIDIA's `cooperative_groups`\n\n\
         {}\n\n`{}`\n\n",
        p.line(),
        p.command
    );
    let timed = rows.iter().any(|r| r.rust_cycles.is_some());
    if !timed {
        s += "Verified on the simulator only (no timings without a GPU).\n\n";
    } else {
        let _ = writeln!(
            s,
            "Each iteration: store a word that depends on the last one loaded, `sync()`, load \
             the partner's word (double-buffered, so iterations cannot overlap; the sums are \
             verified against the host's). **cycles**: `clock64()` around {} \
             iterations ({} for the grid) in thread 0 of every block, one block per SM (grids: \
             the grid itself), median over blocks, then median of {} interleaved rounds. \
             **ns**: CUDA-event time of that launch ÷ iterations. **syncs/µs**: group syncs \
             per µs over the GPU with 16 blocks per SM.\n",
            args.iters, args.grid_iters, args.runs
        );
    }
    s += "| group | size | block | grid | Rust cycles | C++ cycles | Rust ÷ C++ | Rust ns | C++ ns | Rust syncs/µs | C++ syncs/µs | verified | Rust lowers to |\n";
    s += "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n";
    for r in rows {
        let verified = match (r.rust_verified, r.cpp_verified) {
            (true, Some(true)) => "both",
            (true, None) => "Rust",
            _ => "**FAILED**",
        };
        let _ = writeln!(
            s,
            "| {} | {verified} | {} |",
            measured_cells(r).join(" | "),
            r.rust_lowering
        );
    }
    let ratios = large_tile_ratios(rows);
    if !ratios.is_empty() {
        s += "\n## Tiles of 64–1024 threads ÷ the block barrier (same block size, same side)\n\n";
        s += "| block | tile | Rust | C++ |\n|---:|---:|---:|---:|\n";
        for (b, t, r, c) in &ratios {
            let _ = writeln!(s, "| {b} | {t} | {r:.2}× | {c:.2}× |");
        }
        let worst = ratios.iter().map(|x| x.2).fold(0.0, f64::max);
        let worst_cpp = ratios.iter().map(|x| x.3).fold(0.0, f64::max);
        let _ = writeln!(
            s,
            "\nLargest: Rust {worst:.2}× the block barrier, C++ {worst_cpp:.2}×."
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_follows_the_loop_by_hand() {
        // Two members, two iterations: words w(i, r) = i·K + r.
        let w = |i: u32, r: u32| k::word(i, r);
        let (s0, s1) = (w(0, 1), w(0, 0));
        let want = [s0.wrapping_add(s1 ^ w(1, 1)), s1.wrapping_add(s0 ^ w(1, 0))];
        assert_eq!(group_sums(2, 2), want);
        // One member reads its own word: sum doubles, mixed each round.
        assert_eq!(group_sums(1, 1), vec![w(0, 0)]);
    }

    #[test]
    fn every_tile_has_a_kernel_in_every_block_it_fits() {
        for block in [128u32, 256, 512, 1024] {
            for n in (0..=10).map(|s| 1u32 << s).filter(|&n| n <= block) {
                assert!(tile_kernel(n, block).is_some(), "tile {n} block {block}");
            }
        }
        // The smallest bound that fits: a 64-thread tile in a block of 128
        // reserves the named barriers of blocks of at most 128 threads.
        assert_eq!(tile_kernel(64, 128).unwrap().name(), "sync_tile_64_128");
        assert_eq!(tile_kernel(64, 512).unwrap().name(), "sync_tile_64_1024");
    }
}
