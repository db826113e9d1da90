//! Measures the simulator's speed: lanes x warp collectives per second.
//!
//! `cargo run --release -p cg-sim --example speed [blocks] [threads] [shuffles]`
//! (defaults: 256 blocks of 256 threads = 65 536 lanes, 300 shuffles each).

use std::hint::black_box;
use std::time::Instant;

use cg_sim::lane::{self, ShflMode};
use cg_sim::{LaunchConfig, launch};

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let blocks = args.first().copied().unwrap_or(256);
    let threads = args.get(1).copied().unwrap_or(256);
    let shuffles = args.get(2).copied().unwrap_or(300);
    let cfg = LaunchConfig::new(blocks, threads);
    let t0 = Instant::now();
    let stats = launch(&cfg, &|| {
        let mut v = lane::thread_idx()[0];
        for i in 0..shuffles {
            v = v.wrapping_add(lane::shfl(ShflMode::Bfly, u32::MAX, v, 1 << (i % 5), 0x1f));
        }
        black_box(v);
    })
    .expect("launch");
    let secs = t0.elapsed().as_secs_f64();
    println!(
        "{} lanes x {shuffles} shuffles = {} lane-collectives in {secs:.2} s: {:.1} M lane-collectives/s, \
         {:.1} M context switches/s",
        stats.lanes,
        stats.lane_collectives,
        stats.lane_collectives as f64 / secs / 1e6,
        stats.context_switches as f64 / secs / 1e6
    );

    // Block barriers: every lane, 100 times.
    let t0 = Instant::now();
    let stats = launch(&cfg, &|| {
        for _ in 0..100 {
            lane::sync_threads();
        }
    })
    .expect("launch");
    let secs = t0.elapsed().as_secs_f64();
    println!(
        "{} lanes x 100 bar.sync = {:.1} M lane-barriers/s",
        stats.lanes,
        stats.lane_collectives as f64 / secs / 1e6
    );
}
