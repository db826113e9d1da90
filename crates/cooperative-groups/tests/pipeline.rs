//! `pipeline!` on the simulator: rounds that wrap the stages many times,
//! and what goes wrong when the protocol is broken — a consumer that never
//! releases (the producer's acquire is a deadlock report, not a hang), a
//! pipeline that counts fewer producer commits than there are producers
//! (a consumer reads a stage before every producer wrote it: a race).

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use cg_sim::{LaunchConfig, SimError};
use cooperative_groups::{pipeline, shared_array, this_thread_block};

fn launch(block: u32, kernel: &(dyn Fn() + Sync)) -> Result<(), SimError> {
    cg_sim::launch(&LaunchConfig::new(1, block), kernel).map(|_| ())
}

/// One producer thread, 64 consumers, three stages, 20 rounds: every
/// consumer sees every round's value, in order.
#[test]
fn rounds_wrap_the_stages() {
    let sums: Vec<AtomicU32> = (0..64).map(|_| AtomicU32::new(0)).collect();
    launch(96, &|| {
        let block = this_thread_block();
        let pipe = pipeline!(&block, 64; 3);
        let buf = shared_array!(u32; 3);
        let t = block.thread_rank();
        if t == 0 {
            let mut p = pipe.producer();
            for round in 0..20u32 {
                let slot = p.acquire();
                buf.store(slot.stage(), round * round);
                slot.commit();
            }
        } else if t >= 32 {
            let mut c = pipe.consumer();
            let mut order = 0u32;
            for round in 0..20u32 {
                let slot = c.wait();
                let v = buf.load(slot.stage());
                slot.release();
                assert_eq!(v, round * round);
                order = order.wrapping_mul(31).wrapping_add(v);
            }
            sums[(t - 32) as usize].store(order, Relaxed);
        }
    })
    .unwrap();
    let want = (0..20u32).fold(0u32, |o, r| o.wrapping_mul(31).wrapping_add(r * r));
    assert!(sums.iter().all(|s| s.load(Relaxed) == want));
}

#[test]
fn a_consumer_that_never_releases_deadlocks_the_producer() {
    let e = launch(64, &|| {
        let block = this_thread_block();
        let pipe = pipeline!(&block, 32; 2);
        let buf = shared_array!(u32; 2);
        let t = block.thread_rank();
        if t == 0 {
            let mut p = pipe.producer();
            for round in 0..3u32 {
                let slot = p.acquire(); // the third waits for stage 0's release
                buf.store(slot.stage(), round);
                slot.commit();
            }
        } else if t >= 32 {
            let mut c = pipe.consumer();
            let slot = c.wait();
            let _ = buf.load(slot.stage());
            if t != 40 {
                slot.release();
            } else {
                let _ = slot; // thread 40 never releases stage 0
            }
        }
    })
    .unwrap_err();
    assert!(matches!(e, SimError::Deadlock(_)), "{e}");
    let r = e.report().unwrap();
    assert_eq!(r.location.as_ref().unwrap().file, file!(), "{e}");
}

#[test]
fn counting_fewer_commits_than_producers_is_a_race() {
    let e = launch(64, &|| {
        let block = this_thread_block();
        // 32 producers, but each fill counts one commit.
        let pipe = pipeline!(&block, 32; 2);
        let buf = shared_array!(u32; 32);
        let t = block.thread_rank() as usize;
        if t < 32 {
            let slot = pipe.producer().acquire();
            buf.store(t, 1);
            if t == 0 {
                slot.commit();
            } else {
                let _ = slot; // never committed
            }
        } else {
            let slot = pipe.consumer().wait();
            let _ = buf.load(t - 32);
            slot.release();
        }
    })
    .unwrap_err();
    assert!(matches!(e, SimError::DataRace(_)), "{e}");
}
