//! `launch_parallel` on several worker threads gives byte for byte the
//! outputs, statistics and reports of the one-thread run: clean launches,
//! races inside a block and across blocks (either way round), a
//! release/acquire chain across blocks, misuse, deadlock, a panic, and
//! clusters.

use std::sync::atomic::{AtomicU32, Ordering};

use cg_sim::lane::{self, AtomicKind, MemOrder, MemScope, ShflMode};
use cg_sim::{LaunchConfig, Region, SimDevice, launch_parallel};

const BLOCKS: u32 = 16;
const THREADS: u32 = 64;
const N: usize = (BLOCKS * THREADS) as usize;

struct Out {
    data: Vec<AtomicU32>,
    counters: Vec<AtomicU32>,
}

impl Out {
    fn new() -> Out {
        Out {
            data: (0..N).map(|_| AtomicU32::new(0)).collect(),
            counters: (0..BLOCKS).map(|_| AtomicU32::new(0)).collect(),
        }
    }

    fn regions(&self) -> Vec<Region> {
        let region = |name, v: &[AtomicU32]| Region {
            name,
            addr: v.as_ptr() as usize,
            bytes: v.len() * 4,
            elem: 4,
            writable: true,
        };
        vec![
            region("data", &self.data),
            region("counters", &self.counters),
        ]
    }

    fn snapshot(&self) -> Vec<u32> {
        self.data
            .iter()
            .chain(&self.counters)
            .map(|v| v.load(Ordering::Relaxed))
            .collect()
    }

    fn store(&self, i: usize, v: u32) {
        self.data[i].store(v, Ordering::Relaxed);
        lane::mem_access(&self.data[i] as *const AtomicU32 as *const u8, 4, true);
    }

    fn load(&self, i: usize) -> u32 {
        lane::global_load(&self.data[i] as *const AtomicU32 as *const u8, 4);
        self.data[i].load(Ordering::Relaxed)
    }
}

fn gid() -> usize {
    (lane::block_idx()[0] * lane::block_dim()[0] + lane::thread_idx()[0]) as usize
}

/// A block's ordinary work: shuffles, a barrier, shared memory, atomics.
fn work(out: &Out) {
    let t = lane::thread_idx()[0];
    let b = lane::block_idx()[0];
    let mut v = t * 7 + b;
    for d in [16, 8, 4, 2, 1] {
        v = v.wrapping_add(lane::shfl(ShflMode::Bfly, u32::MAX, v, d, 0x1f));
    }
    let smem = lane::static_shared("tile", THREADS as usize * 4, 4) as *mut u32;
    // SAFETY: `tile` has THREADS words and t < THREADS.
    unsafe { smem.add(t as usize).write(v) };
    lane::mem_access(smem.wrapping_add(t as usize) as *const u8, 4, true);
    lane::sync_threads();
    let peer = (t + 1) % THREADS;
    lane::mem_access(smem.wrapping_add(peer as usize) as *const u8, 4, false);
    // SAFETY: as above; the barrier ordered the peer's write before this read.
    let w = unsafe { smem.add(peer as usize).read() };
    let c = &out.counters[b as usize];
    c.fetch_add(1, Ordering::Relaxed);
    lane::mem_atomic(
        c as *const AtomicU32 as *const u8,
        4,
        AtomicKind::Rmw,
        MemOrder::Relaxed,
        MemScope::Gpu,
    );
    out.store(gid(), v ^ w);
}

type Kernel = fn(&Out);

fn cases() -> Vec<(&'static str, LaunchConfig, Kernel)> {
    let cfg = LaunchConfig::new(BLOCKS, THREADS);
    vec![
        ("clean", cfg, work),
        ("shared race in block 5", cfg, |out| {
            work(out);
            if lane::block_idx()[0] == 5 && lane::thread_idx()[0] < 2 {
                let p = lane::static_shared("flag", 4, 4);
                lane::mem_access(p, 4, true);
            }
        }),
        ("blocks 3 and 9 write one word", cfg, |out| {
            work(out);
            let b = lane::block_idx()[0];
            if (b == 3 || b == 9) && lane::thread_idx()[0] == 0 {
                out.store(0, b);
            }
        }),
        ("block 7 reads what block 2 wrote", cfg, |out| {
            let b = lane::block_idx()[0];
            if b == 2 && lane::thread_idx()[0] == 0 {
                out.store(1, 42);
            }
            if b == 7 && lane::thread_idx()[0] == 0 {
                std::hint::black_box(out.load(1));
            }
            work(out);
        }),
        ("block 2 reads what block 7 writes", cfg, |out| {
            let b = lane::block_idx()[0];
            if b == 2 && lane::thread_idx()[0] == 0 {
                std::hint::black_box(out.load(2));
            }
            if b == 7 && lane::thread_idx()[0] == 0 {
                out.store(2, 42);
            }
            work(out);
        }),
        (
            "a release/acquire chain from block 0 to block 1",
            cfg,
            |out| {
                let (b, t) = (lane::block_idx()[0], lane::thread_idx()[0]);
                let flag = &out.counters[0];
                let flag_p = flag as *const AtomicU32 as *const u8;
                if b == 0 && t == 0 {
                    out.store(3, 5);
                    flag.store(1, Ordering::Release);
                    lane::mem_atomic(
                        flag_p,
                        4,
                        AtomicKind::Store,
                        MemOrder::Release,
                        MemScope::Gpu,
                    );
                }
                if b == 1 && t == 0 {
                    std::hint::black_box(flag.load(Ordering::Acquire));
                    lane::mem_atomic(
                        flag_p,
                        4,
                        AtomicKind::Load,
                        MemOrder::Acquire,
                        MemScope::Gpu,
                    );
                    // Ordered after block 0's write by the chain (in unit
                    // order); the value read steers nothing, so the outputs do
                    // not depend on which block the workers ran first.
                    std::hint::black_box(out.load(3));
                }
            },
        ),
        ("misuse in block 6", cfg, |out| {
            work(out);
            if lane::block_idx()[0] == 6 {
                lane::shfl(ShflMode::Idx, 1, 0, 0, 0x1f);
            }
        }),
        ("deadlock in block 4", cfg, |out| {
            work(out);
            if lane::block_idx()[0] == 4 && lane::thread_idx()[0] < 32 {
                lane::barrier_sync(1, 64);
            }
        }),
        ("panic in block 11", cfg, |out| {
            work(out);
            if lane::block_idx()[0] == 11 && lane::thread_idx()[0] == 3 {
                panic!("block 11 gives up");
            }
        }),
        ("clusters of 2", cfg.with_cluster(2), |out| {
            work(out);
            lane::cluster_arrive();
            lane::cluster_wait();
        }),
    ]
}

/// Everything a launch leaves behind, as text and words.
fn run(workers: usize, cfg: &LaunchConfig, kernel: Kernel) -> (String, Vec<u32>) {
    let dev = SimDevice {
        workers,
        ..SimDevice::default()
    };
    let out = Out::new();
    let regions = out.regions();
    let r = launch_parallel(&dev, cfg, &regions, &|| kernel(&out));
    let text = match &r {
        Ok(stats) => format!("{stats:?}"),
        Err(e) => format!("{e}\n{e:?}"),
    };
    // After a failed launch, blocks after the failing one may have run.
    let words = if r.is_ok() {
        out.snapshot()
    } else {
        Vec::new()
    };
    (text, words)
}

#[test]
fn several_workers_give_the_one_thread_run_byte_for_byte() {
    for (name, cfg, kernel) in cases() {
        let one = run(1, &cfg, kernel);
        for workers in [2, 3, 8] {
            for _ in 0..2 {
                let many = run(workers, &cfg, kernel);
                assert_eq!(one.0, many.0, "{name}: report with {workers} workers");
                assert!(one.1 == many.1, "{name}: outputs with {workers} workers");
            }
        }
    }
}

#[test]
fn the_cases_fail_as_named() {
    let expect = [
        None,
        Some("data race"),
        Some("data race"),
        Some("data race"),
        Some("data race"),
        None,
        Some("mask"),
        Some("deadlock"),
        Some("block 11 gives up"),
        None,
    ];
    for ((name, cfg, kernel), want) in cases().into_iter().zip(expect) {
        let (text, _) = run(4, &cfg, kernel);
        match want {
            None => assert!(text.starts_with("LaunchStats"), "{name}: {text}"),
            Some(w) => assert!(text.contains(w), "{name}: {text}"),
        }
    }
}
