// `backend.launch` is safe, so a kernel that dereferences a raw pointer
// parameter does not go through it: `launch_unchecked` (unsafe) does.
use cg_runtime::{Backend, LaunchConfig};

#[cooperative_groups::kernel]
pub fn store(out: *mut u32) {
    // SAFETY: what the launcher promises (a safe launch cannot).
    unsafe { *out = 7 };
}

fn main() {
    let backend = Backend::sim();
    let _ = backend.launch(&STORE, &LaunchConfig::linear(1, 1), (0x10 as *mut u32,));
}
