use cooperative_groups::{OwnedSlice, kernel};

// 64 × 32 = 2048 threads: more than a block has.
#[kernel(block_dim(64, 32))]
pub fn k(out: OwnedSlice<u32>) {
    let _ = out;
}

fn main() {}
