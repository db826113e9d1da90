// A kernel with a raw pointer parameter is `unsafe`: no safe call runs it.
use cooperative_groups::kernel;

#[kernel]
pub fn store(out: *mut u32) {
    // SAFETY: the launcher's promise (which a safe launch cannot make).
    unsafe { *out = 7 };
}

fn main() {
    let cfg = cg_sim::LaunchConfig::new(1, 1);
    let _ = cooperative_groups::host::run(&STORE, &cfg, (0x10 as *mut u32,));
    let _ = STORE.host_fn();
}
