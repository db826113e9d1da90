//! What a crate outside this workspace names through `cg-runtime` alone: a
//! table of kernel descriptors (`Kernel`), a race report told apart from a
//! wrong result (`SimError`), and a simulated device sized for a grid
//! (`SimDevice`, `Backend::sim_with`).

use cg_runtime::{Backend, Kernel, LaunchConfig, RuntimeError, SimDevice, SimError};
use cooperative_groups::prelude::*;

#[cooperative_groups::kernel]
pub fn write_rank(out: *mut u32) {
    let grid = this_grid();
    grid.sync();
    // SAFETY: one output per thread.
    unsafe { *out.add(grid.thread_rank() as usize) = grid.thread_rank() as u32 };
}

#[cooperative_groups::kernel]
pub fn racy(out: *mut u32) {
    let s = cooperative_groups::shared_array!(u32; 1);
    s.store(0, this_thread_block().thread_rank());
    // SAFETY: one output per block.
    unsafe { *out = s.load(0) };
}

/// A table of cases, typed by the descriptors' argument tuple.
const CASES: [(&str, Kernel<(*mut u32,)>); 2] = [("ranks", WRITE_RANK), ("racy", RACY)];

#[test]
fn descriptors_errors_and_devices_by_their_runtime_names() {
    assert_eq!(CASES[0].1.name(), "write_rank");
    // 40 cooperative blocks of 256 threads do not fit the default device
    // (4 SMs of 8 such blocks)…
    let cfg = LaunchConfig::linear(40, 256).with_cooperative(true);
    let small = Backend::sim();
    let out = small.alloc::<u32>(40 * 256).unwrap();
    let e = small
        .launch(&CASES[0].1, &cfg, (out.as_ptr(),))
        .unwrap_err();
    assert!(e.to_string().contains("sm_count: 5,"), "{e}");
    // … and do fit one with as many SMs as an H200 has.
    let big = Backend::sim_with(SimDevice {
        sm_count: 132,
        ..SimDevice::default()
    });
    let out = big.alloc::<u32>(40 * 256).unwrap();
    big.launch(&CASES[0].1, &cfg, (out.as_ptr(),)).unwrap();
    assert!(
        out.to_vec()
            .unwrap()
            .iter()
            .enumerate()
            .all(|(i, &r)| r == i as u32)
    );
    // A race is a `SimError::DataRace`, not a wrong number.
    let out = small.alloc::<u32>(1).unwrap();
    match small.launch(&CASES[1].1, &LaunchConfig::linear(1, 64), (out.as_ptr(),)) {
        Err(RuntimeError::Sim(SimError::DataRace(r))) => {
            assert!(r.to_string().contains("names.rs"), "{r}")
        }
        other => panic!("expected a data race, got {other:?}"),
    }
}
