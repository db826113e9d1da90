//! Measures the simulator's speed: lane-operations per second for warp
//! shuffles, block barriers, shared-memory accesses, global-memory accesses
//! and atomics, with the race detector on and off.
//!
//! `cargo run --release -p cg-sim --example speed [-- [reps] [workload...]]`
//!
//! Every workload runs 65 536 lanes (256 blocks x 256 threads); `reps`
//! (default 3) runs of each are interleaved (A B C … A B C …) and the
//! median is printed, as a rate over wall time and over the process's CPU
//! time (the latter is what to compare on a loaded machine). The launches
//! go through `launch_parallel`: `CG_SIM_THREADS=0` runs the blocks on
//! every core (the default is one worker). Workloads:
//! `shfl` (300 `shfl.sync.bfly` per lane), `bar` (100 `bar.sync 0`),
//! `shared` (200 plain shared accesses of the lane's own word), `global`
//! (100 typed global loads of the lane's own words and 100 stores), `atomic` (100 relaxed `.gpu`
//! RMWs on one word per warp).

use std::hint::black_box;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

use cg_sim::lane::{self, AtomicKind, MemOrder, MemScope, ShflMode};
use cg_sim::{LaunchConfig, Region, SimDevice, launch_parallel};

const BLOCKS: u32 = 256;
const THREADS: u32 = 256;
const LANES: usize = (BLOCKS * THREADS) as usize;

/// CPU time of the whole process (every worker thread), in seconds.
fn cpu_time() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant
    // that Linux and macOS define.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime");
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

struct Bufs {
    input: Vec<u32>,
    output: Vec<AtomicU32>,
    counters: Vec<AtomicU32>,
}

impl Bufs {
    fn regions(&self) -> [Region; 3] {
        let words = |v: usize| v * 4;
        // SAFETY: the buffers live as long as `self`, which outlives every
        // launch of these regions (`run` borrows it); the kernels only
        // read `input` and reach the others through their atomics.
        unsafe {
            [
                Region::new(
                    "input",
                    self.input.as_ptr() as usize,
                    words(self.input.len()),
                    4,
                    false,
                ),
                Region::new(
                    "output",
                    self.output.as_ptr() as usize,
                    words(self.output.len()),
                    4,
                    true,
                ),
                Region::new(
                    "counters",
                    self.counters.as_ptr() as usize,
                    words(self.counters.len()),
                    4,
                    true,
                ),
            ]
        }
    }
}

/// Runs workload `name` once on `dev`; returns (lane-operations, wall s, cpu s).
fn run(name: &str, dev: &SimDevice, bufs: &Bufs) -> (u64, f64, f64) {
    let cfg = LaunchConfig::new(BLOCKS, THREADS);
    let regions = bufs.regions();
    let gid = || lane::block_idx()[0] * THREADS + lane::thread_idx()[0];
    let (ops, kernel): (u64, Box<dyn Fn() + Sync + '_>) = match name {
        "shfl" => (
            300,
            Box::new(|| {
                let mut v = lane::thread_idx()[0];
                for i in 0..300 {
                    v = v.wrapping_add(lane::shfl(ShflMode::Bfly, u32::MAX, v, 1 << (i % 5), 0x1f));
                }
                black_box(v);
            }),
        ),
        "bar" => (
            100,
            Box::new(|| {
                for _ in 0..100 {
                    lane::sync_threads();
                }
            }),
        ),
        "shared" => (
            200,
            Box::new(|| {
                let p = lane::static_shared("speed", THREADS as usize * 4, 4);
                // SAFETY: the buffer has THREADS words and thread_idx < THREADS.
                let mine = unsafe { p.add(lane::thread_idx()[0] as usize * 4) };
                for _ in 0..100 {
                    lane::mem_access(mine, 4, true);
                    lane::mem_access(mine, 4, false);
                }
            }),
        ),
        "global" => (
            200,
            Box::new(|| {
                let g = gid() as usize;
                for i in 0..100 {
                    // Four words of the lane's own, in turn.
                    // As the library's typed views do (`arch::sim`'s
                    // `ld_global`/`st_global`): the value's bytes as
                    // relaxed atomics, then the detector's record.
                    let src = &bufs.input[g * 4 + i % 4];
                    // SAFETY: `src` is a live `u32` of `bufs`, written by
                    // no one.
                    let v = unsafe { cg_sim::global_mem::load(src as *const u32) };
                    lane::global_load(src as *const u32 as *const u8, 4);
                    let dst = &bufs.output[g];
                    // SAFETY: `dst` is this lane's own word of `bufs`,
                    // accessed only atomically.
                    unsafe { cg_sim::global_mem::store(dst.as_ptr(), black_box(v)) };
                    lane::mem_access(dst as *const AtomicU32 as *const u8, 4, true);
                }
            }),
        ),
        "atomic" => (
            100,
            Box::new(|| {
                let c = &bufs.counters[(gid() / 32) as usize];
                for _ in 0..100 {
                    c.fetch_add(1, Ordering::Relaxed);
                    lane::mem_atomic(
                        c as *const AtomicU32 as *const u8,
                        4,
                        AtomicKind::Rmw,
                        MemOrder::Relaxed,
                        MemScope::Gpu,
                    );
                }
            }),
        ),
        other => panic!("unknown workload {other} (shfl, bar, shared, global, atomic)"),
    };
    let (t0, c0) = (Instant::now(), cpu_time());
    // SAFETY: `bufs` outlives the launch; its blocks read `input` and
    // reach the other buffers only through their atomics.
    unsafe { launch_parallel(dev, &cfg, &regions, &*kernel) }.expect("launch");
    let (wall, cpu) = (t0.elapsed().as_secs_f64(), cpu_time() - c0);
    (ops * LANES as u64, wall, cpu)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    let reps: usize = match args.peek().and_then(|a| a.parse().ok()) {
        Some(n) => {
            args.next();
            n
        }
        None => 3,
    };
    let mut names: Vec<String> = args.collect();
    if names.is_empty() {
        names = ["shfl", "bar", "shared", "global", "atomic"]
            .map(String::from)
            .to_vec();
    }
    let bufs = Bufs {
        input: (0..4 * LANES as u32).collect(),
        output: (0..LANES).map(|_| AtomicU32::new(0)).collect(),
        counters: (0..LANES / 32).map(|_| AtomicU32::new(0)).collect(),
    };
    let devices = [true, false].map(|race| SimDevice {
        race_check: race,
        ..SimDevice::default()
    });
    let configs: Vec<(&str, &SimDevice)> = names
        .iter()
        .flat_map(|n| devices.iter().map(move |d| (n.as_str(), d)))
        .collect();
    let mut samples = vec![(Vec::new(), Vec::new(), 0u64); configs.len()];
    for _ in 0..reps {
        for (i, (name, dev)) in configs.iter().enumerate() {
            let (ops, wall, cpu) = run(name, dev, &bufs);
            samples[i].0.push(ops as f64 / wall / 1e6);
            samples[i].1.push(ops as f64 / cpu / 1e6);
            samples[i].2 = ops;
        }
    }
    println!(
        "{LANES} lanes ({BLOCKS} blocks x {THREADS}), {} worker(s), median of {reps}, M lane-operations/s",
        devices[0].worker_count()
    );
    println!(
        "{:<8} {:<9} {:>10} {:>10}",
        "workload", "detector", "wall", "cpu"
    );
    for ((name, dev), (wall, cpu, _)) in configs.iter().zip(&mut samples) {
        println!(
            "{:<8} {:<9} {:>10.1} {:>10.1}",
            name,
            if dev.race_check { "on" } else { "off" },
            median(wall),
            median(cpu)
        );
    }
}
