use cooperative_groups::{OwnedSlice, kernel};

#[kernel(launch_bounds(256, 2, 1))]
pub fn k(out: OwnedSlice<u32>) {
    let _ = out;
}

fn main() {}
