//! Prints the simulator's reports for a few deliberately broken kernels.
//!
//! `cargo run -p cg-sim --example reports`

use cg_sim::lane::{self, ShflMode};
use cg_sim::{LaunchConfig, launch};

fn main() {
    let kernels: [(&str, LaunchConfig, &dyn Fn()); 4] = [
        (
            "shuffle in a divergent branch",
            LaunchConfig::new(1, 64),
            &|| {
                if lane::lane_id() < 16 {
                    lane::shfl(ShflMode::Down, u32::MAX, 1, 1, 0x1f);
                }
                lane::sync_threads();
            },
        ),
        (
            "barrier reached by a subset",
            LaunchConfig::new(1, 64),
            &|| {
                if lane::thread_idx()[0] < 32 {
                    lane::sync_threads();
                } else {
                    lane::barrier_sync(1, 64);
                }
            },
        ),
        ("non-uniform argument", LaunchConfig::new(1, 32), &|| {
            let width = if lane::lane_id() < 8 { 16 } else { 32 };
            lane::check_uniform(lane::Scope::Warp(u32::MAX), "width", width);
        }),
        ("kernel panic", LaunchConfig::new(2, 32), &|| {
            let v = [1, 2, 3];
            let i = lane::thread_idx()[0] as usize;
            std::hint::black_box(v[i]);
        }),
    ];
    for (name, cfg, k) in kernels {
        println!("== {name}\n{}\n", launch(&cfg, k).unwrap_err());
    }
}
