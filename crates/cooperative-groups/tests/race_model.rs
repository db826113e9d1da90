//! The race detector against the PTX memory model's litmus cases that an
//! earlier version got wrong, each with its twin: a release pattern that
//! ends in a relaxed store of the releasing thread, causality order's
//! observation step, and the block's split barrier (which publishes only
//! what a thread wrote before its `barrier_arrive`).

use cooperative_groups::atomic::{AcqRel, AtomicRef, Block, Relaxed, Release, fence};
use cooperative_groups::intrinsics::thread_idx;
use cooperative_groups::prelude::*;
use cooperative_groups::shared_array;

fn run(block: u32, kernel: &dyn Fn()) -> Result<cg_sim::LaunchStats, cg_sim::SimError> {
    let device = cg_sim::SimDevice {
        stack_size: 4 << 20,
        ..cg_sim::SimDevice::default()
    };
    cg_sim::launch_on(&device, &cg_sim::LaunchConfig::new(1, block), kernel)
}

fn race_lines(r: Result<cg_sim::LaunchStats, cg_sim::SimError>) -> Vec<u32> {
    match r {
        Err(cg_sim::SimError::DataRace(rep)) => {
            let mut l: Vec<u32> = rep
                .race_accesses()
                .iter()
                .map(|a| a.location.line)
                .collect();
            l.sort_unstable();
            l
        }
        Err(e) => panic!("expected a data race, got:\n{e}"),
        Ok(_) => panic!("expected a data race, the launch was clean"),
    }
}

/// PTX ISA §8.8: a release on M followed in program order by a strong
/// write on M is a release pattern; an acquire pattern that observes the
/// later write synchronises with the release.
fn release_then_relaxed(second_release: bool) -> Result<cg_sim::LaunchStats, cg_sim::SimError> {
    run(64, &|| {
        let buf = shared_array!(u32; 1);
        let flag = shared_array!(u32; 1);
        // SAFETY: a word of this block's shared memory, used only atomically.
        let f = unsafe { AtomicRef::<u32, Block>::from_ptr(flag.as_ptr()) };
        let t = thread_idx().x;
        if t == 0 {
            f.store(0, Relaxed);
        }
        this_thread_block().sync();
        match t {
            0 => {
                buf.store(0, 42);
                if second_release {
                    f.store(1, Relaxed); // no release before it: no pattern
                } else {
                    f.store(1, Release);
                }
                f.store(2, Relaxed);
            }
            32 => {
                while f.load(Relaxed) != 2 {
                    cooperative_groups::atomic::nanosleep(10);
                }
                fence(AcqRel, Block);
                assert_eq!(buf.load(0), 42);
            }
            _ => {}
        }
    })
}

#[test]
fn a_release_followed_by_a_relaxed_store_of_the_same_thread_publishes() {
    release_then_relaxed(false).unwrap_or_else(|e| panic!("{e}"));
    // Without the release, the same reads race.
    assert!(matches!(
        release_then_relaxed(true),
        Err(cg_sim::SimError::DataRace(_))
    ));
}

/// PTX ISA §8.9: a strong write precedes in causality order every access
/// that a read observing it precedes in base causality order (program
/// order here): a weak load after a relaxed load that read the value.
#[test]
fn a_strong_write_precedes_what_follows_its_observation() {
    let observed = |wait: bool| {
        run(64, &|| {
            let x = shared_array!(u32; 1);
            // SAFETY: a word of this block's shared memory.
            let a = unsafe { AtomicRef::<u32, Block>::from_ptr(x.as_ptr()) };
            let t = thread_idx().x;
            if t == 0 {
                a.store(0, Relaxed);
            }
            this_thread_block().sync();
            match t {
                0 => a.store(1, Relaxed),
                32 => {
                    if wait {
                        while a.load(Relaxed) != 1 {
                            cooperative_groups::atomic::nanosleep(10);
                        }
                    }
                    let _ = x.load(0);
                }
                _ => {}
            }
        })
    };
    observed(true).unwrap_or_else(|e| panic!("{e}"));
    // The weak load without the observing read races with the store.
    assert!(matches!(
        observed(false),
        Err(cg_sim::SimError::DataRace(_))
    ));
}

/// The observation carries on through a release/acquire chain: a third
/// thread that acquires what the observer released is ordered after the
/// observed write too.
#[test]
fn observation_order_continues_through_synchronisation() {
    run(96, &|| {
        let x = shared_array!(u32; 1);
        let flag = shared_array!(u32; 1);
        // SAFETY: words of this block's shared memory.
        let (a, f) = unsafe {
            (
                AtomicRef::<u32, Block>::from_ptr(x.as_ptr()),
                AtomicRef::<u32, Block>::from_ptr(flag.as_ptr()),
            )
        };
        let t = thread_idx().x;
        if t == 0 {
            a.store(0, Relaxed);
            f.store(0, Relaxed);
        }
        this_thread_block().sync();
        match t {
            0 => a.store(1, Relaxed),
            32 => {
                while a.load(Relaxed) != 1 {
                    cooperative_groups::atomic::nanosleep(10);
                }
                f.store(1, Release);
            }
            64 => {
                while f.load(cooperative_groups::atomic::Acquire) != 1 {
                    cooperative_groups::atomic::nanosleep(10);
                }
                let _ = x.load(0);
            }
            _ => {}
        }
    })
    .unwrap_or_else(|e| panic!("{e}"));
}

/// CUDA's split barrier publishes what a thread wrote before its
/// `barrier_arrive`; a write between the arrive and the wait is not
/// visible to other threads after their wait.
#[test]
fn the_split_barrier_publishes_only_what_precedes_the_arrive() {
    let split = |before: bool| {
        run(32, &|| {
            let block = this_thread_block();
            let mid = shared_array!(u32; 32);
            let rank = block.thread_rank() as usize;
            if before && rank == 0 {
                mid.store(5, 7);
            }
            let tok = block.barrier_arrive();
            if !before && rank == 0 {
                mid.store(5, 7); // line A
            }
            block.barrier_wait(tok);
            let _ = mid.load(5); // line B
        })
    };
    split(true).unwrap_or_else(|e| panic!("{e}"));
    let lines = race_lines(split(false));
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1] - lines[0], 3, "the write and the read: {lines:?}");
}

#[test]
fn a_block_collective_between_arrive_and_wait_is_misuse() {
    let r = run(64, &|| {
        let block = this_thread_block();
        let tok = block.barrier_arrive();
        let s = reduce(&block, 1u32, Plus);
        block.barrier_wait(tok);
        assert_eq!(s, 64);
    });
    match r {
        Err(cg_sim::SimError::Misuse(rep)) => {
            let text = rep.to_string();
            assert!(text.contains("barrier_arrive"), "{text}");
            assert!(text.contains("race_model.rs"), "{text}");
        }
        other => panic!("expected a misuse, got {other:?}"),
    }
    // A tile's collective is not the block's: allowed.
    run(64, &|| {
        let block = this_thread_block();
        let tile = tiled_partition::<32>(&block);
        let tok = block.barrier_arrive();
        let s = reduce(&tile, 1u32, Plus);
        block.barrier_wait(tok);
        assert_eq!(s, 32);
    })
    .unwrap_or_else(|e| panic!("{e}"));
}
