//! What a crate outside this workspace names through `cg-runtime` alone: a
//! table of kernel descriptors (`Kernel`), a race report told apart from a
//! wrong result (`SimError`), and a simulated device sized for a grid
//! (`SimDevice`, `Backend::sim_with`).

use cg_runtime::{Backend, Kernel, LaunchConfig, RuntimeError, SimDevice, SimError};
use cooperative_groups::prelude::*;

use cooperative_groups::OwnedSlice;

#[cooperative_groups::kernel]
pub fn write_rank(out: OwnedSlice<u32>) {
    let grid = this_grid();
    grid.sync();
    if let Some(e) = out.at(&grid) {
        e.store(grid.thread_rank() as u32);
    }
}

#[cooperative_groups::kernel]
pub fn racy(out: OwnedSlice<u32>) {
    let s = cooperative_groups::shared_array!(u32; 1);
    s.store(0, this_thread_block().thread_rank());
    if let Some(e) = out.at(&this_grid()) {
        e.store(s.load(0));
    }
}

/// A table of cases, typed by the descriptors' argument tuple.
const CASES: [(&str, Kernel<(OwnedSlice<u32>,)>); 2] = [("ranks", WRITE_RANK), ("racy", RACY)];

#[test]
fn descriptors_errors_and_devices_by_their_runtime_names() {
    assert_eq!(CASES[0].1.name(), "write_rank");
    // 40 cooperative blocks of 256 threads do not fit the default device
    // (4 SMs of 8 such blocks)…
    let cfg = LaunchConfig::linear(40, 256).with_cooperative(true);
    let small = Backend::sim();
    let mut out = small.alloc::<u32>(40 * 256).unwrap();
    let e = small.launch(&CASES[0].1, &cfg, (&mut out,)).unwrap_err();
    assert!(e.to_string().contains("sm_count: 5,"), "{e}");
    // … and do fit one with as many SMs as an H200 has.
    let big = Backend::sim_with(SimDevice {
        sm_count: 132,
        ..SimDevice::default()
    });
    let mut out = big.alloc::<u32>(40 * 256).unwrap();
    big.launch(&CASES[0].1, &cfg, (&mut out,)).unwrap();
    assert!(
        out.to_vec()
            .unwrap()
            .iter()
            .enumerate()
            .all(|(i, &r)| r == i as u32)
    );
    // A race is a `SimError::DataRace`, not a wrong number.
    let mut out = small.alloc::<u32>(64).unwrap();
    match small.launch(&CASES[1].1, &LaunchConfig::linear(1, 64), (&mut out,)) {
        Err(RuntimeError::Sim(SimError::DataRace(r))) => {
            assert!(r.to_string().contains("names.rs"), "{r}")
        }
        other => panic!("expected a data race, got {other:?}"),
    }
}
