//! How long a safe launch takes on the simulator with its blocks on one
//! worker thread and on all of them: `cargo run --release -p
//! cooperative-groups --example safe_launch_speed [REPS]`.
//!
//! The kernel (2048 blocks of 256 threads, safe: a `GlobalSlice` in, an
//! `OwnedSlice` out) exchanges through shared memory, reduces over a tile
//! and the block and scans over a tile per thread; it runs with the race
//! detector on and off, one worker and one per core (`CG_SIM_THREADS`
//! semantics: `SimDevice::workers`), interleaved, and prints the median
//! wall time of each.

use std::time::Instant;

use cooperative_groups::host::run_on;
use cooperative_groups::prelude::*;
use cooperative_groups::{GlobalSlice, OwnedSlice, kernel, shared_array};

const BLOCKS: u32 = 2048;
const THREADS: u32 = 256;

#[kernel]
pub fn mix(input: GlobalSlice<u32>, out: OwnedSlice<u32>) {
    let block = this_thread_block();
    let grid = this_grid();
    let r = block.thread_rank() as usize;
    let x = input.load(grid.thread_rank() as usize);
    let s = shared_array!(u32; THREADS as usize);
    s.store(r, x);
    block.sync();
    let left = s.load((r + 1) % THREADS as usize);
    let tile = tiled_partition::<32>(&block);
    let t = reduce(&tile, x ^ left, Plus);
    let sum = reduce(&block.with_threads::<THREADS>(), t, Plus);
    let scan = inclusive_scan(&tile, x, Plus);
    if let Some(e) = out.at(&grid) {
        e.store(sum.wrapping_add(scan));
    }
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
    let cfg = cg_sim::LaunchConfig::new(BLOCKS, THREADS);
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let setups: Vec<(bool, usize)> = [true, false]
        .into_iter()
        .flat_map(|race| [(race, 1), (race, cores)])
        .collect();
    let mut times = vec![Vec::new(); setups.len()];
    let mut first: Option<Vec<u32>> = None;
    for _ in 0..reps {
        for (k, &(race, workers)) in setups.iter().enumerate() {
            let dev = cg_sim::SimDevice {
                race_check: race,
                workers,
                ..Default::default()
            };
            let mut out = vec![0u32; n];
            let t = Instant::now();
            run_on(&dev, &MIX, &cfg, (&input[..], &mut out[..])).expect("the launch");
            times[k].push(t.elapsed().as_secs_f64());
            match &first {
                None => first = Some(out),
                Some(f) => assert!(*f == out, "outputs differ between setups"),
            }
        }
    }
    println!("{BLOCKS} blocks x {THREADS} threads, {reps} interleaved runs, median wall time:");
    for (k, &(race, workers)) in setups.iter().enumerate() {
        let mut t = times[k].clone();
        t.sort_by(f64::total_cmp);
        println!(
            "detector {:<3} workers {workers:<3} {:.3} s",
            if race { "on" } else { "off" },
            t[t.len() / 2]
        );
    }
}
