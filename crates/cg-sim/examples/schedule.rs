//! Prints, for a set of kernels, the order in which their lanes ran (as a
//! count and a hash of every lane's steps), their statistics and their
//! reports: divergent warp collectives, named barriers and a partial
//! warp, spin-waits, a mismatch, a deadlock, a panic, a race, atomics, a
//! grid barrier and `launch_parallel` with one and two workers, under
//! every `spin_last` and race-detector setting.
//!
//! `cargo run --release -p cg-sim --example schedule`
//!
//! A change to the scheduler or to how lanes switch must print the same
//! bytes: diff the output of two builds.
use cg_sim::lane::{self, ShflMode};
use cg_sim::{LaunchConfig, SimDevice, launch_on, launch_parallel};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

static TRACE: Mutex<Vec<(u32, u32, u32, u64)>> = Mutex::new(Vec::new());

fn t(step: u32, v: u64) {
    let b = lane::block_idx()[0];
    let tid = lane::thread_idx()[0];
    TRACE.lock().unwrap().push((b, tid, step, v));
}

fn report(name: &str, r: Result<cg_sim::LaunchStats, cg_sim::SimError>) {
    let tr = std::mem::take(&mut *TRACE.lock().unwrap());
    let mut h: u64 = 1469598103934665603;
    for e in &tr {
        for x in [e.0 as u64, e.1 as u64, e.2 as u64, e.3] {
            h = (h ^ x).wrapping_mul(1099511628211);
        }
    }
    match r {
        Ok(s) => println!("== {name}: ok {s:?} trace {} {h:x}", tr.len()),
        Err(e) => println!("== {name}: err trace {} {h:x}\n{e}", tr.len()),
    }
}

fn main() {
    let flag = AtomicU32::new(0);
    let cnt = AtomicU32::new(0);
    for spin_last in [false, true] {
        for race in [true, false] {
            let dev = SimDevice {
                spin_last,
                race_check: race,
                ..SimDevice::default()
            };
            println!("##### spin_last {spin_last} race {race}");
            report(
                "divergent",
                launch_on(&dev, &LaunchConfig::new(2, 64), &|| {
                    let l = lane::lane_id();
                    t(0, 0);
                    if l < 16 {
                        let v = lane::shfl(ShflMode::Down, 0xffff, l, 1, 0x1f);
                        t(1, v as u64);
                    } else {
                        let v = lane::ballot(0xffff0000, l.is_multiple_of(3));
                        t(2, v as u64);
                    }
                    let v = lane::redux(lane::ReduxOp::Add, u32::MAX, l);
                    t(3, v as u64);
                    let m = lane::match_any(u32::MAX, (l % 4) as u64);
                    t(4, m as u64);
                    lane::sync_threads();
                    t(5, 0);
                }),
            );
            report(
                "named barriers, partial warp (deadlocks)",
                launch_on(&dev, &LaunchConfig::new(2, 80), &|| {
                    let tid = lane::thread_idx()[0];
                    t(0, 0);
                    if tid < 64 {
                        lane::barrier_arrive(1, 64);
                        t(1, 0);
                    } else {
                        t(2, 0);
                    }
                    if (32..64).contains(&tid) {
                        lane::barrier_sync(1, 64);
                    }
                    if tid < 32 {
                        lane::barrier_sync(1, 64);
                    }
                    t(3, 0);
                    if tid.is_multiple_of(7) {
                        return;
                    }
                    lane::sync_threads();
                    t(4, 0);
                    let m = lane::activemask();
                    t(5, m as u64);
                }),
            );
            flag.store(0, Ordering::Relaxed);
            report(
                "spin",
                launch_on(&dev, &LaunchConfig::new(1, 64), &|| {
                    let tid = lane::thread_idx()[0];
                    if tid == 37 {
                        for _ in 0..5 {
                            lane::warp_sync(u32::MAX);
                            t(1, 0);
                        }
                        flag.store(1, Ordering::Relaxed);
                    } else if tid >= 32 {
                        lane::warp_sync(u32::MAX);
                        lane::warp_sync(u32::MAX);
                        lane::warp_sync(u32::MAX);
                        lane::warp_sync(u32::MAX);
                        lane::warp_sync(u32::MAX);
                    } else {
                        let mut n = 0;
                        while flag.load(Ordering::Relaxed) == 0 {
                            n += 1;
                            lane::yield_now();
                        }
                        t(2, n);
                    }
                    let am = lane::activemask();
                    t(3, am as u64);
                }),
            );
            report(
                "mismatch",
                launch_on(&dev, &LaunchConfig::new(1, 32), &|| {
                    t(0, 0);
                    if lane::lane_id() < 8 {
                        lane::shfl(ShflMode::Idx, u32::MAX, 1, 0, 0x1f);
                    } else {
                        lane::ballot(u32::MAX, true);
                    }
                }),
            );
            report(
                "deadlock",
                launch_on(&dev, &LaunchConfig::new(1, 64), &|| {
                    t(0, 0);
                    if lane::thread_idx()[0] < 32 {
                        lane::sync_threads();
                    } else {
                        lane::barrier_sync(1, 64);
                    }
                }),
            );
            report(
                "panic",
                launch_on(&dev, &LaunchConfig::new(2, 64), &|| {
                    t(0, 0);
                    lane::sync_threads();
                    if lane::block_idx()[0] == 1 && lane::thread_idx()[0] == 40 {
                        panic!("boom {}", 40);
                    }
                    lane::shfl(ShflMode::Bfly, u32::MAX, 1, 1, 0x1f);
                    t(1, 0);
                }),
            );
            report(
                "race",
                launch_on(&dev, &LaunchConfig::new(1, 64), &|| {
                    let p = lane::static_shared("x", 4, 4);
                    t(0, 0);
                    lane::shfl(ShflMode::Bfly, u32::MAX, 1, 1, 0x1f);
                    lane::mem_access(p, 4, lane::thread_idx()[0] == 33);
                    lane::sync_threads();
                    lane::mem_access(p, 4, true);
                }),
            );
            cnt.store(0, Ordering::Relaxed);
            report(
                "atomic order",
                launch_on(&dev, &LaunchConfig::new(3, 96), &|| {
                    for _ in 0..3 {
                        let v = cnt.fetch_add(1, Ordering::Relaxed);
                        t(0, v as u64);
                        lane::shfl(ShflMode::Up, u32::MAX, v, 1, 0);
                        lane::sync_threads();
                    }
                }),
            );
            report(
                "grid",
                launch_on(
                    &dev,
                    &LaunchConfig::new(4, 64).with_cooperative(true),
                    &|| {
                        t(0, 0);
                        lane::grid_sync();
                        t(1, 0);
                        lane::grid_sync();
                        t(2, 0);
                    },
                ),
            );
            for workers in [1, 2] {
                let d = SimDevice {
                    workers,
                    ..dev.clone()
                };
                report(
                    &format!("parallel {workers}"),
                    // SAFETY: no regions: the kernel touches no memory
                    // through the simulator.
                    unsafe {
                        launch_parallel(&d, &LaunchConfig::new(8, 64), &[], &|| {
                            let v = lane::shfl(ShflMode::Bfly, u32::MAX, lane::lane_id(), 3, 0x1f);
                            lane::sync_threads();
                            std::hint::black_box(v);
                        })
                    },
                );
            }
        }
    }
}
