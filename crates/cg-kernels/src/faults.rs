//! A kernel that never ends unless the host sets its flag: what the GPU
//! watchdog of `cg-runtime` (and `cg-lab verify --watchdog-test`) must stop.
//! Never launch it on the simulator, which has no watchdog for a spin loop.

use cooperative_groups::kernel;

/// Every thread spins until `*flag` is non-zero.
#[kernel]
pub fn spin_until_set(flag: *const u32) {
    // SAFETY: the launcher passes one readable word; a volatile read keeps
    // the loop from being folded away.
    while unsafe { core::ptr::read_volatile(flag) } == 0 {
        core::hint::spin_loop();
    }
}
