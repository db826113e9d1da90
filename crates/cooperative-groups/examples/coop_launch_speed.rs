//! How long a safe cooperative launch takes on the simulator: its blocks
//! interleaved on the calling thread as before (`cg_sim::launch_with`,
//! what every cooperative safe launch did until they ran in phases), in
//! phases on one worker thread, and in phases on all of them:
//! `cargo run --release -p cooperative-groups --example coop_launch_speed
//! [REPS]`.
//!
//! The kernel (48 blocks of 256 threads, cooperative: a `SimDevice` of 12
//! SMs holds them; safe: a `GlobalSlice` in, two `OwnedSlice`s out) runs
//! 8 grid barriers; between two of them each block exchanges through
//! shared memory, reduces over a tile and the block, scans over a tile,
//! and reads the next block's element of what the phase before wrote. It
//! runs with the race detector on and off, each way, interleaved, and
//! prints the median wall time of each and the speed-ups.

use std::time::Instant;

use cooperative_groups::host::{HostArgs, Target, run_on};
use cooperative_groups::prelude::*;
use cooperative_groups::{GlobalSlice, OwnedSlice, kernel, shared_array};

const BLOCKS: u32 = 48;
const THREADS: u32 = 256;
const ROUNDS: u32 = 9;

#[kernel]
pub fn phases(input: GlobalSlice<u32>, a: OwnedSlice<u32>, b: OwnedSlice<u32>) {
    let block = this_thread_block();
    let grid = this_grid();
    let r = block.thread_rank() as usize;
    let i = grid.thread_rank() as usize;
    let tile = tiled_partition::<32>(&block);
    let s = shared_array!(u32; THREADS as usize);
    let mut x = input.load(i);
    for p in 0..ROUNDS {
        if p > 0 {
            grid.sync();
            // The next block's element of the last phase's output: ordered
            // by the grid barrier.
            let src = if p % 2 == 1 { a } else { b };
            x ^= src.load((i + THREADS as usize) % src.len());
        }
        s.store(r, x);
        block.sync();
        let left = s.load((r + 1) % THREADS as usize);
        let t = reduce(&tile, x ^ left, Plus);
        let sum = reduce(&this_thread_block().with_threads::<THREADS>(), t, Plus);
        let scan = inclusive_scan(&tile, x, Plus);
        x = sum.wrapping_add(scan).wrapping_mul(2_654_435_761);
        block.sync();
        let dst = if p % 2 == 0 { a } else { b };
        if let Some(e) = dst.at(&grid) {
            e.store(x);
        }
    }
}

/// How a setup runs the launch.
#[derive(Clone, Copy, PartialEq)]
enum Way {
    /// `launch_with`: the whole grid interleaved on the calling thread.
    Interleaved,
    /// `launch_parallel` (through `run_on`) with this many workers.
    Phases(usize),
}

fn main() {
    let reps: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3);
    let n = (BLOCKS * THREADS) as usize;
    let input: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(2_654_435_761))
        .collect();
    let cfg = cg_sim::LaunchConfig::new(BLOCKS, THREADS).with_cooperative(true);
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let ways = [Way::Interleaved, Way::Phases(1), Way::Phases(cores)];
    let setups: Vec<(bool, Way)> = [true, false]
        .into_iter()
        .flat_map(|race| ways.map(|w| (race, w)))
        .collect();
    let mut times = vec![Vec::new(); setups.len()];
    let mut first: Option<(Vec<u32>, Vec<u32>)> = None;
    for _ in 0..reps {
        for (k, &(race, way)) in setups.iter().enumerate() {
            let dev = cg_sim::SimDevice {
                race_check: race,
                workers: match way {
                    Way::Phases(w) => w,
                    Way::Interleaved => 1,
                },
                sm_count: 12,
                ..Default::default()
            };
            let (mut a, mut b) = (vec![0u32; n], vec![0u32; n]);
            let t = Instant::now();
            match way {
                Way::Phases(_) => {
                    run_on(&dev, &PHASES, &cfg, (&input[..], &mut a[..], &mut b[..]))
                        .expect("the launch");
                }
                Way::Interleaved => {
                    // What `launch_safe` did with every cooperative launch.
                    let mut to = Target::sim();
                    let params = (&input[..], &mut a[..], &mut b[..])
                        .into_params(PHASES.param_names(), &mut to)
                        .expect("the parameters");
                    let body = PHASES.host_fn();
                    // SAFETY: the regions and views of the three slices,
                    // borrowed until the launch returns.
                    unsafe { cg_sim::launch_with(&dev, &cfg, &to.regions, &|| body(params)) }
                        .expect("the launch");
                }
            }
            times[k].push(t.elapsed().as_secs_f64());
            match &first {
                None => first = Some((a, b)),
                Some(f) => assert!(f.0 == a && f.1 == b, "outputs differ between setups"),
            }
        }
    }
    println!(
        "{BLOCKS} blocks x {THREADS} threads, cooperative, {} grid barriers; {reps} interleaved runs, median wall time:",
        ROUNDS - 1
    );
    let median = |k: usize| {
        let mut t = times[k].clone();
        t.sort_by(f64::total_cmp);
        t[t.len() / 2]
    };
    for (k, &(race, way)) in setups.iter().enumerate() {
        let how = match way {
            Way::Interleaved => "interleaved (launch_with)".to_string(),
            Way::Phases(w) => format!("phases, {w} worker(s)"),
        };
        let base = k - k % ways.len();
        println!(
            "detector {:<3} {how:<26} {:.3} s  ({:.2}x the interleaved run, {:.2}x one worker)",
            if race { "on" } else { "off" },
            median(k),
            median(base) / median(k),
            median(base + 1) / median(k),
        );
    }
}
