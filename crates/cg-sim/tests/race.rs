//! The race detector: kernels whose accesses are ordered (clean) and the
//! same kernels with the ordering removed (a `DataRace` naming both lines).

mod common;

use std::cell::Cell;

use cg_sim::lane::{self, AtomicKind, MemOrder, MemScope, Scope, ShflMode};
use cg_sim::{LaunchConfig, Report, SimDevice, SimError, launch, launch_on};
use common::tid;

const FULL: u32 = u32::MAX;

// Source lines of the accesses a test expects in its report: a kernel
// calls `mark(i, line!() + 1)` on the line before access `i`.
// (Per test thread: lanes run on the thread that launched them.)
thread_local! {
    static LINES: [Cell<u32>; 2] = const { [Cell::new(0), Cell::new(0)] };
}

fn mark(i: usize, line: u32) {
    LINES.with(|l| l[i].set(line));
}

fn marked(i: usize) -> u32 {
    LINES.with(|l| l[i].get())
}

/// A shared `u32` array of `n` words, the same for every lane of a block.
fn smem(n: usize) -> *mut u32 {
    lane::static_shared("race_test_words", n * 4, 4).cast()
}

/// A weak store the detector sees (as the library's accessors report them).
#[track_caller]
fn st(p: *mut u32, i: usize, v: u32) {
    // SAFETY: tests index inside their arrays.
    let q = unsafe { p.add(i) };
    // SAFETY: as above.
    unsafe { q.write_volatile(v) };
    lane::mem_access(q.cast(), 4, true);
}

/// A weak load the detector sees.
#[track_caller]
fn ld(p: *mut u32, i: usize) -> u32 {
    // SAFETY: as `st`.
    let q = unsafe { p.add(i) };
    // SAFETY: as above.
    let v = unsafe { q.read_volatile() };
    lane::mem_access(q.cast(), 4, false);
    v
}

/// A strong store with an ordering (`st.relaxed`/`st.release`).
#[track_caller]
fn st_strong(p: *mut u32, v: u32, o: MemOrder, s: MemScope) {
    // SAFETY: a valid word.
    unsafe { p.write_volatile(v) };
    lane::mem_atomic(p.cast(), 4, AtomicKind::Store, o, s);
}

/// A strong load (`ld.relaxed`/`ld.acquire`); yields so spin loops progress.
#[track_caller]
fn ld_strong(p: *mut u32, o: MemOrder, s: MemScope) -> u32 {
    // SAFETY: a valid word.
    let v = unsafe { p.read_volatile() };
    lane::mem_atomic(p.cast(), 4, AtomicKind::Load, o, s);
    v
}

fn race(r: Result<cg_sim::LaunchStats, SimError>) -> Report {
    match r {
        Err(SimError::DataRace(r)) => {
            assert_eq!(r.race_accesses().len(), 2, "{r}");
            r
        }
        Err(e) => panic!("expected a data race, got:\n{e}"),
        Ok(_) => panic!("expected a data race, the launch was clean"),
    }
}

fn clean(r: Result<cg_sim::LaunchStats, SimError>) {
    if let Err(e) = r {
        panic!("expected no race, got:\n{e}");
    }
}

/// Asserts the report names both marked lines, in order (earlier first).
fn names_lines(r: &Report, first: usize, second: usize) {
    let (first, second) = (marked(first), marked(second));
    let lines: Vec<u32> = r.race_accesses().iter().map(|a| a.location.line).collect();
    assert_eq!(lines, [first, second], "{r}");
    assert!(
        r.race_accesses()
            .iter()
            .all(|a| a.location.file.ends_with("race.rs")),
        "{r}"
    );
}

/// Every thread writes its word, then reads its neighbour's: ordered by
/// `bar.sync 0`, a race without it.
fn neighbour_exchange(sync: bool) -> Result<cg_sim::LaunchStats, SimError> {
    launch(&LaunchConfig::new(2, 96), &|| {
        let s = smem(96);
        let t = tid() as usize;
        mark(1, line!() + 1);
        st(s, t, t as u32);
        if sync {
            lane::sync_threads();
        }
        mark(0, line!() + 1);
        let _ = ld(s, (t + 33) % 96);
    })
}

#[test]
fn block_barrier_orders_an_exchange() {
    clean(neighbour_exchange(true));
    let r = race(neighbour_exchange(false));
    // Lane 0 reads word 33 before thread 33 writes it (lanes run in order).
    names_lines(&r, 0, 1);
    assert!(r.summary.contains("shared `race_test_words`"), "{r}");
    assert!(r.summary.contains("element 33"), "{r}");
    assert!(r.to_string().contains("racing accesses"), "{r}");
}

/// A warp exchange through shared memory: lane `l` writes word `l`, then
/// reads word `l ^ 1`. A shuffle between them orders no memory; only
/// `bar.warp.sync` does.
fn warp_exchange(warp_sync: bool) -> Result<cg_sim::LaunchStats, SimError> {
    launch(&LaunchConfig::new(1, 64), &|| {
        let s = smem(64);
        let t = tid() as usize;
        mark(0, line!() + 1);
        st(s, t, 7 * t as u32);
        // Every lane meets every other in the shuffle: execution is
        // synchronised, memory is not.
        let _ = lane::shfl(ShflMode::Bfly, FULL, t as u32, 1, 0x1f);
        if warp_sync {
            lane::warp_sync(FULL);
        }
        mark(1, line!() + 1);
        let _ = ld(s, t ^ 1);
    })
}

#[test]
fn missing_warp_sync_in_a_warp_exchange_is_a_race() {
    clean(warp_exchange(true));
    let r = race(warp_exchange(false));
    names_lines(&r, 0, 1);
    assert!(
        r.notes
            .iter()
            .any(|n| n.contains("same warp") || n.contains("warp 0 of the block")),
        "{r}"
    );
}

/// Lane 0 of warp 0 writes a payload and raises a flag; lane 0 of warp 1
/// waits for the flag and reads the payload.
fn handshake(store: MemOrder, load: MemOrder) -> Result<cg_sim::LaunchStats, SimError> {
    launch(&LaunchConfig::new(1, 64), &|| {
        let s = smem(2);
        // SAFETY: `smem(2)` has two words.
        let flag = unsafe { s.add(1) };
        match tid() {
            32 => {
                while ld_strong(flag, load, MemScope::Cta) == 0xCDCD_CDCD {
                    lane::yield_now();
                }
                mark(1, line!() + 1);
                let _ = ld(s, 0);
            }
            0 => {
                mark(0, line!() + 1);
                st(s, 0, 42);
                st_strong(flag, 1, store, MemScope::Cta);
            }
            _ => {}
        }
    })
}

#[test]
fn release_acquire_handshake_is_clean_relaxed_is_a_race() {
    clean(handshake(MemOrder::Release, MemOrder::Acquire));
    clean(handshake(MemOrder::SeqCst, MemOrder::SeqCst));
    for (s, l) in [
        (MemOrder::Relaxed, MemOrder::Acquire),
        (MemOrder::Release, MemOrder::Relaxed),
        (MemOrder::Relaxed, MemOrder::Relaxed),
    ] {
        let r = race(handshake(s, l));
        names_lines(&r, 0, 1);
    }
}

/// The same handshake through fences: `fence.acq_rel; st.relaxed` and
/// `ld.relaxed; fence.acq_rel` are release and acquire patterns (§8.8).
#[test]
fn fence_patterns_synchronise() {
    let run = |fences: bool, scope: MemScope| {
        launch(&LaunchConfig::new(1, 64), &|| {
            let s = smem(2);
            // SAFETY: `smem(2)` has two words.
            let flag = unsafe { s.add(1) };
            match tid() {
                32 => {
                    while ld_strong(flag, MemOrder::Relaxed, scope) == 0xCDCD_CDCD {
                        lane::yield_now();
                    }
                    if fences {
                        lane::mem_fence(false, scope);
                    }
                    let _ = ld(s, 0);
                }
                0 => {
                    st(s, 0, 42);
                    if fences {
                        lane::mem_fence(true, scope);
                    }
                    st_strong(flag, 1, MemOrder::Relaxed, scope);
                }
                _ => {}
            }
        })
    };
    clean(run(true, MemScope::Cta));
    clean(run(true, MemScope::Gpu));
    race(run(false, MemScope::Cta));
}

/// Named barrier 1 over warps 0 and 1 orders their exchange; warp 2, not a
/// participant, is not ordered by it.
#[test]
fn named_barrier_orders_its_participants_only() {
    let run = |reader: u32| {
        launch(&LaunchConfig::new(1, 96), &|| {
            let s = smem(96);
            let t = tid();
            if t < 64 {
                mark(0, line!() + 1);
                st(s, t as usize, t);
                lane::barrier_sync(1, 64);
            }
            if t == reader {
                mark(1, line!() + 1);
                let _ = ld(s, 0);
            }
            lane::sync_threads();
        })
    };
    clean(run(40));
    let r = race(run(70));
    names_lines(&r, 0, 1);
}

/// `bar.arrive` releases but does not acquire: producer/consumer on two
/// barriers as in the PTX ISA's example.
#[test]
fn bar_arrive_releases_without_acquiring() {
    let run = |consumer_writes_back: bool| {
        launch(&LaunchConfig::new(1, 64), &|| {
            let s = smem(64);
            let t = tid() as usize;
            if t < 32 {
                st(s, t, 5);
                lane::barrier_arrive(0, 64);
                if consumer_writes_back {
                    // The producer never waits on barrier 0: the consumer's
                    // write below is not ordered after this read.
                    let _ = ld(s, t + 32);
                }
            } else {
                lane::barrier_sync(0, 64);
                let _ = ld(s, t - 32);
                if consumer_writes_back {
                    st(s, t, 6);
                }
            }
        })
    };
    clean(run(false));
    race(run(true));
}

/// The simulator's block-wide uniformity check is a rendezvous of the
/// simulator only: it orders no memory.
#[test]
fn uniformity_check_is_no_happens_before_edge() {
    let r = race(launch(&LaunchConfig::new(1, 64), &|| {
        let s = smem(64);
        let t = tid() as usize;
        st(s, t, 1);
        lane::check_uniform(Scope::Block, "test", 0);
        lane::check_uniform(Scope::Warp(FULL), "test", 0);
        let _ = ld(s, 63 - t);
    }));
    assert_eq!(r.race_accesses().len(), 2);
}

/// Atomics whose scopes do not contain each other's threads are not
/// morally strong: two blocks' `.cta` atomics on one global word race,
/// `.gpu` ones do not.
#[test]
fn atomic_scopes_decide_moral_strength() {
    let word = std::cell::Cell::new(0u32);
    let p = word.as_ptr() as usize;
    let run = |scope: MemScope| {
        launch(&LaunchConfig::new(2, 32).with_cooperative(true), &|| {
            if tid() == 0 {
                let q = p as *mut u32;
                // SAFETY: `word` outlives the launch.
                unsafe { q.write(q.read() + 1) };
                lane::mem_atomic(q.cast(), 4, AtomicKind::Rmw, MemOrder::Relaxed, scope);
            }
        })
    };
    clean(run(MemScope::Gpu));
    let r = race(run(MemScope::Cta));
    assert!(r.summary.contains("global address"), "{r}");
    assert!(r.notes.iter().any(|n| n.contains("morally strong")), "{r}");
}

/// Grid sync orders blocks of a cooperative launch; the cluster barrier
/// orders a cluster's distributed shared memory.
#[test]
fn grid_and_cluster_barriers_order_memory() {
    let word = std::cell::Cell::new(0u32);
    let p = word.as_ptr() as usize;
    let grid = |sync: bool| {
        launch(&LaunchConfig::new(2, 32).with_cooperative(true), &|| {
            let q = p as *mut u32;
            if lane::block_idx()[0] == 0 && tid() == 0 {
                st(q, 0, 1);
            }
            if sync {
                lane::grid_sync();
            }
            if lane::block_idx()[0] == 1 && tid() == 0 {
                let _ = ld(q, 0);
            }
        })
    };
    clean(grid(true));
    race(grid(false));
    let cluster = |sync: bool| {
        launch(&LaunchConfig::new(2, 32).with_cluster(2), &|| {
            let s = smem(1);
            let rank = lane::cluster_cta_rank();
            if rank == 1 && tid() == 0 {
                st(s, 0, 3);
            }
            if sync {
                lane::cluster_arrive();
                lane::cluster_wait();
            }
            if rank == 0 && tid() == 0 {
                let remote = lane::cluster_map_shared(s.cast(), 1).cast::<u32>();
                let _ = ld(remote, 0);
            }
        })
    };
    clean(cluster(true));
    race(cluster(false));
}

/// The switch: the same racy kernel runs clean with the detector off.
#[test]
fn detector_can_be_turned_off() {
    let dev = SimDevice {
        race_check: false,
        ..SimDevice::default()
    };
    let r = launch_on(&dev, &LaunchConfig::new(1, 64), &|| {
        assert!(!lane::race_check_enabled());
        let s = smem(64);
        let t = tid() as usize;
        st(s, t, 1);
        let _ = ld(s, 63 - t);
    });
    clean(r);
}

/// `cp.async`: the copy's write of shared memory is the issuing thread's,
/// visible to it at its `cp.async.wait_group` and to others only through a
/// later synchronisation (PTX ISA §9.7.9.25). Each thread copies one word
/// and reads another thread's word after its own wait: clean with a block
/// barrier after the wait, a race between the copy and the read without.
#[test]
fn async_copy_is_the_issuing_threads_write() {
    let src: Vec<u32> = (0..64).collect();
    let run = |barrier: bool| {
        launch(&LaunchConfig::new(1, 64), &|| {
            let s = smem(64);
            let t = tid() as usize;
            mark(0, line!() + 2);
            // SAFETY: word `t` of both arrays.
            unsafe { lane::async_copy(s.add(t).cast(), src.as_ptr().add(t).cast(), 4) };
            lane::async_commit();
            lane::async_wait(0);
            if barrier {
                lane::sync_threads();
            }
            mark(1, line!() + 1);
            let v = ld(s, 63 - t);
            if barrier {
                assert_eq!(v, 63 - t as u32);
            }
        })
    };
    clean(run(true));
    let r = race(run(false));
    // Thread 0 reads word 63 before thread 63 issues its copy.
    names_lines(&r, 1, 0);
    assert!(
        r.summary.contains("cp.async write of its destination"),
        "{r}"
    );
}

/// The copy reads its global source at any time between its issue and the
/// wait that delivers it: a write of the source (a visible one, here a
/// relaxed atomic store) by another thread after the issue but not
/// ordered before that wait races with the copy; after the wait and a
/// barrier it is clean.
#[test]
fn async_copy_source_written_during_the_copy_races() {
    let g = std::cell::UnsafeCell::new([7u32; 4]);
    let gp = g.get() as usize;
    let run = |during: bool| {
        launch(&LaunchConfig::new(1, 64), &|| {
            let s = smem(4);
            let src = gp as *mut u32;
            let t = tid();
            if t == 0 {
                mark(0, line!() + 2);
                // SAFETY: four words of both arrays.
                unsafe { lane::async_copy(s.cast(), src.cast(), 16) };
                lane::async_commit();
            }
            lane::sync_threads();
            if t == 32 && during {
                mark(1, line!() + 1);
                st_strong(src, 9, MemOrder::Relaxed, MemScope::Gpu);
            }
            if t == 0 {
                lane::async_wait(0);
            }
            lane::sync_threads();
            if t == 32 && !during {
                st_strong(src, 9, MemOrder::Relaxed, MemScope::Gpu);
            }
        })
    };
    clean(run(false));
    let r = race(run(true));
    // Thread 0's wait (which delivers the copy) runs before thread 32's
    // store: found at the store, which nothing orders after the wait.
    names_lines(&r, 0, 1);
    assert!(r.summary.contains("cp.async read of its source"), "{r}");
}
