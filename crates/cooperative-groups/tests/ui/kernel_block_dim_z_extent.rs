use cooperative_groups::{OwnedSlice, kernel};

// A block's z extent is at most 64.
#[kernel(block_dim(1, 1, 128))]
pub fn k(out: OwnedSlice<u32>) {
    let _ = out;
}

fn main() {}
