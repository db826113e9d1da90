//! `cg-lab info`: device facts, then the smoke kernel, verified exactly.

use anyhow::{Result, bail};
use cg_kernels::smoke::{SMOKE, SMOKE_MAX_BLOCK, smoke_dynamic_smem, smoke_expected};
use cg_runtime::{Backend, LaunchConfig};
use clap::Args;

use crate::backend_choice::BackendArgs;

/// Flags of `cg-lab info`.
#[derive(Args, Debug)]
pub struct InfoArgs {
    #[command(flatten)]
    pub(crate) backend: BackendArgs,
    /// Blocks of the smoke launch.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=65535))]
    pub(crate) grid: u32,
    /// Threads per block of the smoke launch (a multiple of 32, at most 1024).
    #[arg(long, default_value_t = 256)]
    pub(crate) block: u32,
    /// After the smoke test, check that a typed kernel's bounds check
    /// fires: a launch with an input one element short must fail (a trap
    /// on a GPU, which ends the process's context, so it comes last; an
    /// out-of-bounds report on the simulator).
    #[arg(long)]
    pub(crate) bounds: bool,
}

impl InfoArgs {
    /// The smoke kernel's block must be whole warps and fit its shared memory.
    pub fn validate(&self) -> Result<(), String> {
        if self.block == 0 || !self.block.is_multiple_of(32) || self.block > SMOKE_MAX_BLOCK {
            return Err(format!(
                "--block must be a multiple of 32 in [32, {SMOKE_MAX_BLOCK}] (got {})",
                self.block
            ));
        }
        Ok(())
    }
}

/// Prints the facts and runs the smoke test (`args` validated); an error
/// on any mismatch.
pub fn run(args: &InfoArgs) -> Result<()> {
    let backend = args.backend.open()?;
    print_facts(&backend);
    smoke(&backend, args.grid, args.block)?;
    if args.bounds {
        bounds(&backend)?;
    }
    Ok(())
}

/// The typed saxpy of `cg_kernels::typed` with an input as long as its
/// output (verified exactly), then one element short: the second launch
/// must fail at the kernel's one length check, before any store.
fn bounds(backend: &Backend) -> Result<()> {
    use cg_kernels::typed::PROBE_SAXPY_TYPED;
    let n = 4096usize;
    let xs: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let cfg = LaunchConfig::linear(8, 128);
    let x = backend.upload(&xs)?;
    let mut y = backend.upload(&vec![1.0f32; n])?;
    backend.launch(&PROBE_SAXPY_TYPED, &cfg, (2.0f32, &x, &mut y))?;
    let got = y.to_vec()?;
    if let Some(i) = (0..n).find(|&i| got[i] != 2.0 * xs[i] + 1.0) {
        bail!("bounds: the in-bounds saxpy is wrong at {i}: {}", got[i]);
    }
    let short = backend.upload(&xs[..n - 1])?;
    match backend.launch(&PROBE_SAXPY_TYPED, &cfg, (2.0f32, &short, &mut y)) {
        Ok(()) => bail!(
            "bounds: a typed kernel read past its input ({} of {n}) and the launch succeeded",
            n - 1
        ),
        Err(e) => {
            let first = e.to_string();
            let first = first.lines().next().unwrap_or_default();
            println!(
                "bounds            : saxpy over {n} elements verified; with an input of {} the launch failed as it must: {first}",
                n - 1
            );
            Ok(())
        }
    }
}

fn print_facts(backend: &Backend) {
    match backend {
        Backend::Gpu(gpu) => {
            let i = gpu.info();
            let (ma, mi) = i.compute_capability;
            println!("device            : {} (GPU {})", i.name, i.ordinal);
            println!(
                "compute capability: {ma}.{mi} (sm_{}), PTX loaded: sm_{}",
                i.sm(),
                gpu.ptx_sm()
            );
            println!("SMs               : {}", i.sm_count);
            println!("SM clock (max)    : {} MHz", i.sm_clock_mhz);
            println!(
                "memory            : {:.1} GiB, {} MHz, {}-bit bus",
                i.mem_bytes as f64 / (1u64 << 30) as f64,
                i.mem_clock_mhz,
                i.mem_bus_bits
            );
            if let Some(peak) = i.dram_peak_bytes_per_s() {
                println!("DRAM peak         : {:.2} TB/s", peak / 1e12);
            }
            println!("L2 cache          : {} MiB", i.l2_bytes >> 20);
            println!(
                "shared memory     : {} KiB per SM, {} KiB per block (opt-in)",
                i.smem_per_sm >> 10,
                i.max_smem_per_block_optin >> 10
            );
            println!("threads per SM    : {}", i.max_threads_per_sm);
            println!("cooperative launch: {}", yes(i.cooperative_launch));
            println!("cluster launch    : {}", yes(i.cluster_launch));
            println!("PCI bus id        : {}", i.pci_bus_id);
            println!(
                "driver            : {} (CUDA {}.{})",
                i.driver_version.as_deref().unwrap_or("unknown"),
                i.cuda_version.0,
                i.cuda_version.1
            );
        }
        Backend::Sim(dev) => {
            println!(
                "device            : cg-sim (CPU simulator), {} virtual SMs",
                dev.sm_count
            );
        }
    }
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// Launches the smoke kernel and compares every output word with the model.
fn smoke(backend: &Backend, grid: u32, block: u32) -> Result<()> {
    let threads = (grid * block) as usize;
    let mut out = backend.alloc::<u32>(threads)?;
    let cfg = LaunchConfig::linear(grid, block).with_dynamic_smem(smoke_dynamic_smem(block) as u32);
    backend.launch(&SMOKE, &cfg, (&mut out,))?;
    let got = out.to_vec()?;
    let mut bad = Vec::new();
    for b in 0..grid {
        for t in 0..block {
            let want = smoke_expected(b, t, block);
            let have = got[(b * block + t) as usize];
            if have != want {
                bad.push(format!("block {b} thread {t}: got {have}, expected {want}"));
            }
        }
    }
    let what = "lane id, shfl.sync.down, static + dynamic shared memory, bar.sync";
    if bad.is_empty() {
        let on = if backend.is_sim() { "simulator" } else { "GPU" };
        println!(
            "smoke             : verified {threads} threads ({grid} blocks × {block}) on the {on}: {what} — OK"
        );
        Ok(())
    } else {
        for line in bad.iter().take(10) {
            eprintln!("mismatch: {line}");
        }
        bail!(
            "smoke kernel FAILED: {} of {threads} words differ",
            bad.len()
        );
    }
}
