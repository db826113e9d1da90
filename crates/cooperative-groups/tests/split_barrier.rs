//! The block's split barrier on the simulator: every thread publishes a
//! value, arrives, does its own work, waits, then reads its neighbours'
//! values — all of them published before the neighbours' arrivals.

use cooperative_groups::intrinsics::thread_idx;
use cooperative_groups::prelude::*;
use cooperative_groups::{OwnedSlice, kernel, shared_array};

/// `out[t]` = own work (`3t`) plus the next two threads' published values.
#[kernel]
pub fn split_block(out: OwnedSlice<u32>) {
    let block = this_thread_block();
    let buf = shared_array!(u32; 256);
    let t = thread_idx().x;
    let n = block.num_threads();
    buf.store(t as usize, t * 10 + 1);
    let token = block.barrier_arrive();
    let own = t * 3;
    block.barrier_wait(token);
    let a = buf.load(((t + 1) % n) as usize);
    let b = buf.load(((t + 2) % n) as usize);
    if let Some(e) = out.at(&this_grid()) {
        e.store(own + a + b);
    }
}

#[test]
fn neighbours_values_are_visible_after_the_wait() {
    for block in [32u32, 100, 256] {
        let mut out = vec![0u32; block as usize];
        let device = cg_sim::SimDevice {
            stack_size: 4 << 20,
            ..cg_sim::SimDevice::default()
        };
        let cfg = cg_sim::LaunchConfig::new(1, block);
        cooperative_groups::host::run_on(&device, &SPLIT_BLOCK, &cfg, (&mut out[..],))
            .unwrap_or_else(|e| panic!("{e}"));
        for t in 0..block {
            let v = |k: u32| (k % block) * 10 + 1;
            assert_eq!(
                out[t as usize],
                3 * t + v(t + 1) + v(t + 2),
                "block {block}, thread {t}"
            );
        }
    }
}
