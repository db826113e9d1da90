use cooperative_groups::{OwnedSlice, kernel};

// `sm_NN` limits MIN_BLOCKS to one SM's PTX, so it needs MIN_BLOCKS before it.
#[kernel(launch_bounds(256, sm_90))]
pub fn k(out: OwnedSlice<u32>) {
    let _ = out;
}

fn main() {}
