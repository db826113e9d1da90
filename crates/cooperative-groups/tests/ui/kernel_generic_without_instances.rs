// A generic kernel without `instances(…)` has no PTX entry to make.
use cooperative_groups::kernel;

#[kernel]
pub fn sized<const N: u32>(out: *mut u32) {
    unsafe { *out = N };
}

fn main() {}
