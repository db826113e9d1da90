use cooperative_groups::{OwnedSlice, kernel};

#[kernel(launch_bounds(2048))]
pub fn k(out: OwnedSlice<u32>) {
    let _ = out;
}

fn main() {}
