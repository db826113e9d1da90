//! `mbarrier!` on the simulator: phases with tokens and parities, split
//! producer/consumer roles, `arrive_and_drop`, several arrivals at once,
//! transaction counts; the race detector ordering through arrivals and
//! waits (and not without them); and each misuse the PTX ISA leaves
//! undefined reported at this file's line — re-creating a barrier whose
//! phase is in progress, too many arrivals, a stale token, a token of
//! another barrier, transaction bytes that never come (a deadlock naming
//! the wait, not a hang).

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use cg_sim::{LaunchConfig, SimError};
use cooperative_groups::{mbarrier, shared_array, this_thread_block};

fn launch(blocks: u32, block: u32, kernel: &(dyn Fn() + Sync)) -> Result<(), SimError> {
    let dev = cg_sim::SimDevice {
        stack_size: 4 << 20,
        ..Default::default()
    };
    cg_sim::launch_on(&dev, &LaunchConfig::new(blocks, block), kernel).map(|_| ())
}

fn out(n: usize) -> Vec<AtomicU32> {
    (0..n).map(|_| AtomicU32::new(u32::MAX)).collect()
}

/// The report's location is a line of this file, and its text says `what`.
fn assert_reported_here(e: &SimError, what: &str) -> u32 {
    let msg = e.to_string();
    assert!(msg.contains(what), "{msg}");
    let r = e.report().unwrap_or_else(|| panic!("no report: {e}"));
    let loc = r.location.as_ref().expect("a location");
    assert_eq!(loc.file, file!(), "{msg}");
    loc.line
}

/// Every thread arrives and waits, eight phases in a row, each publishing
/// a word per thread that a neighbour reads after the phase: the sums are
/// right and the race detector sees every read ordered after its write.
#[test]
fn arrive_and_wait_orders_every_phase() {
    let got = out(2 * 96);
    launch(2, 96, &|| {
        let block = this_thread_block();
        let bar = mbarrier!(&block, 96);
        let buf = shared_array!(u32; 2 * 96);
        let t = block.thread_rank() as usize;
        let mut sum = 0u32;
        for phase in 0..8usize {
            let half = (phase % 2) * 96;
            buf.store(half + t, (t * 10 + phase) as u32);
            bar.arrive_and_wait();
            sum += buf.load(half + (t + 1) % 96);
        }
        let b = cooperative_groups::intrinsics::block_idx().x as usize;
        got[b * 96 + t].store(sum, Relaxed);
    })
    .unwrap();
    for (i, v) in got.iter().enumerate() {
        let n = (i % 96 + 1) % 96;
        let want: u32 = (0..8).map(|p| (n * 10 + p) as u32).sum();
        assert_eq!(v.load(Relaxed), want, "thread {i}");
    }
}

/// Producers arrive without waiting; consumers wait on the parity of the
/// phase, several phases in a row (a second barrier tells the producers
/// that the consumers are done with the buffer).
#[test]
fn producers_and_consumers_on_two_barriers() {
    let got = out(32);
    launch(1, 64, &|| {
        let block = this_thread_block();
        let full = mbarrier!(&block, 32);
        let empty = mbarrier!(&block, 32);
        let buf = shared_array!(u32; 32);
        let t = block.thread_rank();
        let mut acc = 0u32;
        for round in 0..5u32 {
            if t < 32 {
                if round > 0 {
                    empty.wait_parity((round - 1) & 1);
                }
                buf.store(t as usize, t + 100 * round);
                full.arrive().discard();
            } else {
                full.wait_parity(round & 1);
                acc += buf.load((t - 32) as usize);
                empty.arrive().discard();
            }
        }
        if t >= 32 {
            got[(t - 32) as usize].store(acc, Relaxed);
        }
    })
    .unwrap();
    for (i, v) in got.iter().enumerate() {
        assert_eq!(v.load(Relaxed), 5 * i as u32 + 100 * (1 + 2 + 3 + 4));
    }
}

/// A token's `test_wait` is false before the phase completes and true
/// after; `arrive_and_drop` lowers the count of later phases; several
/// arrivals at once and transaction bytes complete a phase together.
#[test]
fn tokens_drops_counts_and_transactions() {
    let got = out(64);
    launch(1, 64, &|| {
        let block = this_thread_block();
        let t = block.thread_rank();
        // Thread 0 arrives first; the phase needs all 64.
        let bar = mbarrier!(&block, 64);
        if t == 0 {
            let tok = bar.arrive();
            got[0].store(tok.test_wait() as u32, Relaxed);
            tok.wait();
        } else {
            bar.arrive_and_wait();
        }
        // Half the block drops out: the next phase completes with 32.
        let drop = mbarrier!(&block, 64);
        if t >= 32 {
            drop.arrive_and_drop();
        } else {
            drop.arrive_and_wait();
            drop.arrive_and_wait();
            got[1 + t as usize].store(1, Relaxed);
        }
        block.sync();
        // One thread arrives for a whole warp, and 256 bytes of
        // transactions complete the phase with it.
        let tx = mbarrier!(&block, 2);
        if t == 0 {
            // SAFETY: 256 bytes, completed below.
            let tok = unsafe { tx.arrive_expect_tx(256) };
            tok.wait();
            got[33].store(2, Relaxed);
        } else if t == 32 {
            // SAFETY: one arrival of the two the phase expects; the bytes
            // thread 0 expects.
            unsafe {
                tx.complete_tx(128);
                tx.complete_tx(128);
                tx.arrive_count(1).wait();
            }
        }
    })
    .unwrap();
    assert_eq!(
        got[0].load(Relaxed),
        0,
        "test_wait before the phase completed"
    );
    assert!(got[1..33].iter().all(|v| v.load(Relaxed) == 1));
    assert_eq!(got[33].load(Relaxed), 2);
}

/// A consumer that reads without waiting on the phase races with the
/// producer's write (the same kernel with the wait passes).
#[test]
fn a_read_without_the_wait_is_a_race() {
    for wait in [true, false] {
        let r = launch(1, 64, &|| {
            let block = this_thread_block();
            let bar = mbarrier!(&block, 32);
            let buf = shared_array!(u32; 32);
            let t = block.thread_rank();
            if t < 32 {
                buf.store(t as usize, t);
                bar.arrive().discard();
            } else {
                if wait {
                    bar.wait_parity(0);
                }
                let _ = buf.load((t - 32) as usize);
            }
        });
        match (wait, r) {
            (true, r) => r.unwrap(),
            (false, Err(e @ SimError::DataRace(_))) => {
                let msg = e.to_string();
                assert!(msg.contains("race"), "{msg}");
            }
            (false, r) => panic!("expected a data race, got {r:?}"),
        }
    }
}

/// Re-creating a barrier (the loop comes back to `mbarrier!`) while a
/// thread's arrival of the current phase is pending.
#[test]
fn reinit_while_a_phase_is_in_progress() {
    let e = launch(1, 64, &|| {
        let block = this_thread_block();
        for _ in 0..2 {
            let bar = mbarrier!(&block, 64);
            if block.thread_rank() == 0 {
                bar.arrive().discard();
            }
        }
    })
    .unwrap_err();
    assert_reported_here(
        &e,
        "re-initialised while its phase 0 is in progress (1 of 64 arrivals",
    );
}

/// More arrivals at once than the phase expects.
#[test]
fn too_many_arrivals() {
    let e = launch(1, 32, &|| {
        let block = this_thread_block();
        let bar = mbarrier!(&block, 4);
        if block.thread_rank() == 0 {
            // SAFETY: deliberately broken: the simulator reports it.
            unsafe { bar.arrive_count(5) }.discard();
        }
    })
    .unwrap_err();
    assert_reported_here(&e, "arrive of 5 when phase 0 expects 4 more");
}

/// Thread 0 keeps a token while the other threads run two more phases
/// (the count is 1, so each arrival completes a phase).
#[test]
fn a_stale_token() {
    let e = launch(1, 32, &|| {
        let block = this_thread_block();
        let bar = mbarrier!(&block, 1);
        let t = block.thread_rank();
        let held = (t == 0).then(|| bar.arrive());
        block.sync();
        if t == 1 || t == 2 {
            bar.arrive_and_wait();
        }
        block.sync();
        if let Some(tok) = held {
            tok.wait();
        }
    })
    .unwrap_err();
    assert_reported_here(&e, "stale token: it is of phase 0");
}

/// A token of one barrier waited on through another.
#[test]
fn a_token_of_another_barrier() {
    let e = launch(1, 32, &|| {
        let block = this_thread_block();
        let a = mbarrier!(&block, 32);
        let b = mbarrier!(&block, 32);
        let tok = a.arrive();
        b.wait(tok);
    })
    .unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("token of another barrier"), "{msg}");
}

/// Bytes expected that nothing completes: the waiters deadlock, and the
/// report names the wait's line.
#[test]
fn expected_bytes_that_never_come_are_a_deadlock() {
    let e = launch(1, 32, &|| {
        let block = this_thread_block();
        let bar = mbarrier!(&block, 32);
        // SAFETY: deliberately never completed: a deadlock report.
        let tok = unsafe { bar.arrive_expect_tx(64) };
        tok.wait();
    })
    .unwrap_err();
    assert!(matches!(e, SimError::Deadlock(_)), "{e}");
    assert_reported_here(&e, "mbarrier wait");
}

/// A count of zero is refused when the barrier is made.
#[test]
fn a_zero_count_panics() {
    let e = launch(1, 32, &|| {
        let block = this_thread_block();
        let _ = mbarrier!(&block, 0);
    })
    .unwrap_err();
    assert!(e.to_string().contains("1..=2^20-1"), "{e}");
}

/// One barrier per 64-thread tile of a 1024-thread block (no named
/// barrier left for them): lane 0 of each warp arrives for its warp, both
/// warps wait on the token; each tile's sums are right, race-free.
#[test]
fn one_barrier_per_tile() {
    let got = out(1024);
    launch(1, 1024, &|| {
        let block = this_thread_block();
        let bars = mbarrier!(&block, 2; 16);
        let buf = shared_array!(u32; 1024);
        let t = block.thread_rank();
        let bar = bars.get(t as usize / 64);
        let warp = cooperative_groups::tiled_partition::<32>(&block);
        let mut sum = 0;
        for i in 0..4 {
            buf.store(t as usize, t * 7 + i);
            warp.sync();
            if warp.thread_rank() == 0 {
                bar.arrive().wait();
            }
            warp.sync();
            let partner = t / 64 * 64 + (t % 64 + 32) % 64;
            sum += buf.load(partner as usize);
            warp.sync();
            if warp.thread_rank() == 0 {
                bar.arrive().wait();
            }
            warp.sync();
        }
        got[t as usize].store(sum, Relaxed);
    })
    .unwrap();
    for (t, v) in got.iter().enumerate() {
        let p = (t / 64 * 64 + (t % 64 + 32) % 64) as u32;
        assert_eq!(
            v.load(Relaxed),
            (0..4).map(|i| p * 7 + i).sum::<u32>(),
            "thread {t}"
        );
    }
}

/// More barriers than the block has threads is refused.
#[test]
fn an_array_larger_than_the_block_panics() {
    let e = launch(1, 32, &|| {
        let block = this_thread_block();
        let _ = mbarrier!(&block, 1; 33);
    })
    .unwrap_err();
    assert!(
        e.to_string().contains("at most one barrier per thread"),
        "{e}"
    );
}

/// A bulk copy (`arrive_copy`) by one thread fills a buffer for the whole
/// block, phase after phase (double-buffered): every thread reads the
/// stage after waiting on its phase, race-free.
#[test]
fn bulk_copies_land_when_their_phase_completes() {
    let input: Vec<u32> = (0..4 * 256).map(|i| i * 3 + 1).collect();
    let got = out(128);
    launch(1, 128, &|| {
        let block = this_thread_block();
        let full = mbarrier!(&block, 1; 2);
        let buf = shared_array!(u32; 2 * 256);
        let t = block.thread_rank() as usize;
        let mut sum = 0u32;
        for stage in 0..4usize {
            let half = stage % 2;
            if t == 0 {
                // SAFETY: one copy of 1 KiB in flight per phase.
                unsafe {
                    full.get(half).arrive_copy(
                        buf.slice(256 * half, 256),
                        &input[256 * stage..256 * stage + 256],
                    )
                }
                .discard();
            }
            full.get(half).wait_parity(((stage / 2) & 1) as u32);
            sum += buf.load(256 * half + t) + buf.load(256 * half + t + 128);
            // Everyone is done with this half before thread 0 refills it.
            block.sync();
        }
        got[t].store(sum, Relaxed);
    })
    .unwrap();
    for (t, v) in got.iter().enumerate() {
        let want: u32 = (0..4)
            .map(|s| input[256 * s + t] + input[256 * s + t + 128])
            .sum();
        assert_eq!(v.load(Relaxed), want, "thread {t}");
    }
}

/// Reading a bulk copy's destination before its phase completes.
#[test]
fn reading_a_bulk_copy_before_its_phase() {
    let input = vec![7u32; 64];
    let e = launch(1, 32, &|| {
        let block = this_thread_block();
        let bar = mbarrier!(&block, 2);
        let buf = shared_array!(u32; 64);
        if block.thread_rank() == 0 {
            // SAFETY: one 256-byte copy in flight.
            unsafe { bar.arrive_copy(buf.as_slice(), &input) }.discard();
            let _ = buf.load(3);
        }
    })
    .unwrap_err();
    assert_reported_here(&e, "a bulk copy (this thread");
}

/// A bulk copy needs 16-byte granules.
#[test]
fn a_bulk_copy_of_12_bytes_panics() {
    let input = vec![1u32; 3];
    let e = launch(1, 32, &|| {
        let block = this_thread_block();
        let bar = mbarrier!(&block, 32);
        let buf = shared_array!(u32; 4);
        // SAFETY: the copy is refused before it is issued.
        unsafe { bar.arrive_copy(buf.as_slice(), &input) }.wait();
    })
    .unwrap_err();
    assert!(e.to_string().contains("multiple of 16 bytes"), "{e}");
}
