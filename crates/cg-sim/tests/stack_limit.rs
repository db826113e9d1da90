//! A cooperative launch too large for the process's memory mappings fails
//! cleanly. (Its own test binary: it briefly holds thousands of stacks.)

use cg_sim::{LaunchConfig, MAX_LIVE_STACKS, SimDevice, SimError, lane, launch_on};

#[test]
fn too_many_resident_lanes_is_a_clean_error() {
    let dev = SimDevice {
        sm_count: 64,
        stack_size: 16 * 1024,
        ..SimDevice::default()
    };
    let blocks = (MAX_LIVE_STACKS / 1024 + 1) as u32;
    let cfg = LaunchConfig::new(blocks, 1024).with_cooperative(true);
    let e = launch_on(&dev, &cfg, &|| lane::grid_sync()).unwrap_err();
    assert!(
        matches!(&e, SimError::InvalidLaunch(m) if m.contains("too many simulated lanes")),
        "{e}"
    );
    // Everything was released: a normal launch still works.
    launch_on(&dev, &LaunchConfig::new(2, 1024), &|| lane::sync_threads()).unwrap();
}
