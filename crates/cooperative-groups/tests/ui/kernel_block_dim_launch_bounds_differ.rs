use cooperative_groups::{OwnedSlice, kernel};

// Beside block_dim, launch_bounds names the block's own thread count.
#[kernel(block_dim(128), launch_bounds(256, 4))]
pub fn k(out: OwnedSlice<u32>) {
    let _ = out;
}

fn main() {}
