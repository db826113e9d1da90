//! `launch_parallel` on several worker threads gives byte for byte the
//! outputs, statistics and reports of the one-thread run: clean launches,
//! races inside a block and across blocks (either way round), a
//! release/acquire chain across blocks, misuse, deadlock, a panic, and
//! clusters; and so do cooperative launches with several grid barriers,
//! run in phases between them: races within a phase, accesses ordered by a
//! grid barrier, deadlocks at the grid barrier, misuse, a panic, clusters.

use std::sync::atomic::{AtomicU32, Ordering};

use cg_sim::lane::{self, AtomicKind, MemOrder, MemScope, ShflMode};
use cg_sim::{LaunchConfig, Region, SimDevice, launch_parallel};

const BLOCKS: u32 = 16;
const THREADS: u32 = 64;
const N: usize = (BLOCKS * THREADS) as usize;

struct Out {
    /// Two halves of `N` words (the cooperative kernels' two buffers).
    data: Vec<AtomicU32>,
    counters: Vec<AtomicU32>,
    /// Words the cooperative cases share between blocks.
    extra: Vec<AtomicU32>,
}

impl Out {
    fn new() -> Out {
        Out {
            data: (0..2 * N).map(|_| AtomicU32::new(0)).collect(),
            counters: (0..BLOCKS).map(|_| AtomicU32::new(0)).collect(),
            extra: (0..8).map(|_| AtomicU32::new(0)).collect(),
        }
    }

    fn regions(&self) -> Vec<Region> {
        // SAFETY: every launch of these regions runs while `self` lives
        // (the callers launch with `out.regions()` of an `out` they keep),
        // and the kernels reach the atomics only through `self`'s methods
        // and typed accesses of whole words.
        let region = |name, v: &[AtomicU32]| unsafe {
            Region::new(name, v.as_ptr() as usize, v.len() * 4, 4, true)
        };
        vec![
            region("data", &self.data),
            region("counters", &self.counters),
            region("extra", &self.extra),
        ]
    }

    fn snapshot(&self) -> Vec<u32> {
        self.data
            .iter()
            .chain(&self.counters)
            .chain(&self.extra)
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

    fn store_extra(&self, i: usize, v: u32) {
        self.extra[i].store(v, Ordering::Relaxed);
        lane::mem_access(&self.extra[i] as *const AtomicU32 as *const u8, 4, true);
    }

    fn load_extra(&self, i: usize) -> u32 {
        lane::global_load(&self.extra[i] as *const AtomicU32 as *const u8, 4);
        self.extra[i].load(Ordering::Relaxed)
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
    run_body(workers, cfg, &|out| kernel(out))
}

/// `body` launched with `launch_parallel` on `workers` workers: the
/// report (or the statistics) as text, and the output words of a clean
/// launch.
fn run_body(
    workers: usize,
    cfg: &LaunchConfig,
    body: &(dyn Fn(&Out) + Sync),
) -> (String, Vec<u32>) {
    let dev = SimDevice {
        workers,
        ..SimDevice::default()
    };
    let out = Out::new();
    let regions = out.regions();
    // SAFETY: the regions are `out`'s, alive for the launch, whose blocks
    // reach them only through `out`'s atomics.
    let r = unsafe { launch_parallel(&dev, cfg, &regions, &|| body(&out)) };
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

/// The report and outputs of `launch(workers)` with 2, 3 and 8 workers
/// (twice each) are byte for byte those with one.
fn same_on_every_worker_count(name: &str, launch: impl Fn(usize) -> (String, Vec<u32>)) {
    let one = launch(1);
    for workers in [2, 3, 8] {
        for _ in 0..2 {
            let many = launch(workers);
            assert_eq!(one.0, many.0, "{name}: report with {workers} workers");
            assert!(one.1 == many.1, "{name}: outputs with {workers} workers");
        }
    }
}

#[test]
fn several_workers_give_the_one_thread_run_byte_for_byte() {
    for (name, cfg, kernel) in cases() {
        same_on_every_worker_count(name, |w| run(w, &cfg, kernel));
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

// ---- cooperative launches ----------------------------------------------

/// What a case adds at the end of phase `p` of [`phases`] (before grid
/// barrier `p + 1`); `false` makes the thread return there.
type Hook = fn(&Out, u32) -> bool;

fn bt() -> (u32, u32) {
    (lane::block_idx()[0], lane::thread_idx()[0])
}

/// A cooperative kernel of four phases, three grid barriers: the block's
/// work (which writes the first half of `data`), then three rounds that
/// each read the next block's element of the half written before the last
/// grid barrier and write the thread's own element of the other half;
/// `hook(out, p)` at the end of each phase.
fn phases(out: &Out, hook: Hook) {
    work(out);
    for p in 1..=3u32 {
        if !hook(out, p - 1) {
            return;
        }
        lane::grid_sync();
        let (src, dst) = if p % 2 == 1 { (0, N) } else { (N, 0) };
        let next = (gid() + THREADS as usize) % N;
        let v = out.load(src + next);
        out.store(dst + gid(), v.wrapping_mul(3).wrapping_add(p));
    }
    hook(out, 3);
}

fn coop_cases() -> Vec<(&'static str, LaunchConfig, Hook)> {
    let cfg = LaunchConfig::new(BLOCKS, THREADS).with_cooperative(true);
    vec![
        ("clean", cfg, |_, _| true),
        (
            "phase 1: block 9 reads what block 2 writes",
            cfg,
            |out, p| {
                match (p, bt()) {
                    (1, (2, 0)) => out.store_extra(0, 7),
                    (1, (9, 0)) => {
                        std::hint::black_box(out.load_extra(0));
                    }
                    _ => {}
                }
                true
            },
        ),
        (
            "phase 1: block 2 reads what block 7 writes",
            cfg,
            |out, p| {
                match (p, bt()) {
                    (1, (2, 0)) => {
                        std::hint::black_box(out.load_extra(1));
                    }
                    (1, (7, 0)) => out.store_extra(1, 7),
                    _ => {}
                }
                true
            },
        ),
        ("phase 2: blocks 3 and 12 write one word", cfg, |out, p| {
            if p == 2 && matches!(bt(), (3, 5) | (12, 5)) {
                out.store_extra(2, lane::block_idx()[0]);
            }
            true
        }),
        (
            "writes before a grid barrier, reads after it (no race)",
            cfg,
            |out, p| {
                match (p, bt()) {
                    // Either way round: a later block's write read by an
                    // earlier block, and an earlier block's by a later one.
                    (0, (9, 1)) => out.store_extra(3, 11),
                    (0, (2, 1)) => out.store_extra(4, 22),
                    (1, (2, 1)) => out.store_extra(5, out.load_extra(3) + 1),
                    (1, (9, 1)) => out.store_extra(6, out.load_extra(4) + 1),
                    // And overwritten by another block after the next one.
                    (2, (14, 0)) => out.store_extra(3, out.load_extra(5)),
                    _ => {}
                }
                true
            },
        ),
        (
            "phase 1: a release/acquire chain from block 0 to block 1",
            cfg,
            |out, p| {
                if p != 1 {
                    return true;
                }
                let flag = &out.extra[7];
                let flag_p = flag as *const AtomicU32 as *const u8;
                match bt() {
                    (0, 0) => {
                        out.store_extra(0, 5);
                        flag.store(1, Ordering::Release);
                        lane::mem_atomic(
                            flag_p,
                            4,
                            AtomicKind::Store,
                            MemOrder::Release,
                            MemScope::Gpu,
                        );
                    }
                    (1, 0) => {
                        std::hint::black_box(flag.load(Ordering::Acquire));
                        lane::mem_atomic(
                            flag_p,
                            4,
                            AtomicKind::Load,
                            MemOrder::Acquire,
                            MemScope::Gpu,
                        );
                        // Ordered by the chain (blocks in order within the
                        // phase); the value read steers nothing.
                        std::hint::black_box(out.load_extra(0));
                    }
                    _ => {}
                }
                true
            },
        ),
        (
            "phase 2: fence.sc pairs from block 4 to block 6",
            cfg,
            |out, p| {
                if p != 2 {
                    return true;
                }
                let flag = &out.extra[7];
                let flag_p = flag as *const AtomicU32 as *const u8;
                match bt() {
                    (4, 0) => {
                        out.store_extra(1, 5);
                        lane::mem_fence(true, MemScope::Gpu);
                        flag.store(1, Ordering::Relaxed);
                        lane::mem_atomic(
                            flag_p,
                            4,
                            AtomicKind::Store,
                            MemOrder::Relaxed,
                            MemScope::Gpu,
                        );
                    }
                    (6, 0) => {
                        std::hint::black_box(flag.load(Ordering::Relaxed));
                        lane::mem_atomic(
                            flag_p,
                            4,
                            AtomicKind::Load,
                            MemOrder::Relaxed,
                            MemScope::Gpu,
                        );
                        lane::mem_fence(true, MemScope::Gpu);
                        std::hint::black_box(out.load_extra(1));
                    }
                    _ => {}
                }
                true
            },
        ),
        ("block 5 skips the last grid barrier", cfg, |_, p| {
            !(p == 2 && lane::block_idx()[0] == 5)
        }),
        ("half of block 5 syncs the grid once more", cfg, |_, p| {
            if p == 3 && lane::block_idx()[0] == 5 && lane::thread_idx()[0] < 32 {
                lane::grid_sync();
            }
            true
        }),
        (
            "phase 1: half of block 4 waits at a named barrier",
            cfg,
            |_, p| {
                if p == 1 && bt().0 == 4 && bt().1 < 32 {
                    lane::barrier_sync(1, 64);
                }
                true
            },
        ),
        ("phase 2: misuse in block 6", cfg, |_, p| {
            if p == 2 && lane::block_idx()[0] == 6 {
                lane::shfl(ShflMode::Idx, 1, 0, 0, 0x1f);
            }
            true
        }),
        (
            "phase 1: a grid barrier wait without its arrive",
            cfg,
            |_, p| {
                if p == 1 && bt() == (3, 7) {
                    lane::grid_barrier_wait();
                }
                true
            },
        ),
        (
            "phase 1: half of block 4 passes a block-wide check",
            cfg,
            |_, p| {
                if p == 1 && bt().0 == 4 && bt().1 < 32 {
                    lane::check_uniform(lane::Scope::Block, "k", 1);
                }
                true
            },
        ),
        (
            "phase 1: half of block 4 disagrees at a block-wide check",
            cfg,
            |_, p| {
                if p == 1 && bt().0 == 4 && bt().1 < 32 {
                    lane::check_uniform(lane::Scope::Block, "k", (bt().1 % 2) as u64);
                }
                true
            },
        ),
        ("phase 2: panic in block 11", cfg, |_, p| {
            if p == 2 && bt() == (11, 3) {
                panic!("block 11 gives up");
            }
            true
        }),
        ("clusters of 2", cfg.with_cluster(2), |_, _| {
            lane::cluster_arrive();
            lane::cluster_wait();
            true
        }),
    ]
}

/// [`run`] of a cooperative case.
fn run_coop(workers: usize, cfg: &LaunchConfig, hook: Hook) -> (String, Vec<u32>) {
    run_body(workers, cfg, &|out| phases(out, hook))
}

#[test]
fn cooperative_launches_on_several_workers_give_the_one_thread_run_byte_for_byte() {
    for (name, cfg, hook) in coop_cases() {
        same_on_every_worker_count(name, |w| run_coop(w, &cfg, hook));
    }
}

#[test]
fn the_cooperative_cases_end_as_named() {
    let expect: [&[&str]; 16] = [
        &["LaunchStats"],
        &[
            "data race on `extra`[0]",
            "block (2,0,0) thread (0,0,0)",
            "block (9,0,0)",
        ],
        &[
            "data race on `extra`[1]",
            "ld (weak)",
            "block (2,0,0)",
            "st (weak)",
        ],
        &["data race on `extra`[2]", "block (3,0,0) thread (5,0,0)"],
        &["LaunchStats"],
        &["LaunchStats"],
        &["LaunchStats"],
        &[
            "live threads are blocked",
            "grid sync: 15 of 16 blocks arrived",
            "block (5,0,0) has exited entirely",
        ],
        &[
            "32 live threads are blocked",
            "grid sync: 1 of 16 blocks arrived",
            "block (0,0,0) has exited entirely",
        ],
        &[
            "live threads are blocked",
            "bar.sync 1, 64",
            "grid sync: 15 of 16 blocks arrived",
        ],
        &["mask", "block (6,0,0)"],
        &[
            "grid.barrier_wait() without a grid.barrier_arrive()",
            "block (3,0,0) thread (7,0,0)",
        ],
        &["passed the block-wide `k`", "grid sync"],
        &["non-uniform argument `k`", "grid sync"],
        &["block 11 gives up"],
        &["LaunchStats"],
    ];
    for ((name, cfg, hook), want) in coop_cases().into_iter().zip(expect) {
        let (text, words) = run_coop(4, &cfg, hook);
        for w in want {
            assert!(text.contains(w), "{name}: no {w:?} in\n{text}");
        }
        if want == ["LaunchStats"] {
            // Every element of the last round was written (phase 3: the
            // second half).
            assert!(words[N..2 * N].iter().all(|&v| v != 0), "{name}");
        }
    }
}

/// The same cases as one unit of the whole grid ([`launch_with`]'s
/// interleaved schedule) end the same way: clean, a race, a deadlock,
/// a misuse or a panic, with the same outputs for the clean ones.
#[test]
fn the_cooperative_cases_end_as_the_interleaved_run() {
    let kind = |t: &str| {
        ["LaunchStats", "data race", "deadlock", "misuse", "panicked"]
            .into_iter()
            .find(|k| t.to_lowercase().contains(k))
            .unwrap_or("?")
    };
    for (name, cfg, hook) in coop_cases() {
        let (text, words) = run_coop(2, &cfg, hook);
        let out = Out::new();
        let regions = out.regions();
        // SAFETY: the regions are `out`'s, alive for the launch.
        let r = unsafe {
            cg_sim::launch_with(&SimDevice::default(), &cfg, &regions, &|| {
                phases(&out, hook)
            })
        };
        let one = match &r {
            Ok(stats) => format!("{stats:?}"),
            Err(e) => format!("{e}\n{e:?}"),
        };
        assert_eq!(kind(&text), kind(&one), "{name}:\n{text}\n---\n{one}");
        if r.is_ok() {
            assert!(words == out.snapshot(), "{name}: outputs");
        }
    }
}
