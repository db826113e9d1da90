// Fragments are registers, not data: they cannot be put in shared memory
// for another thread to read.
use cooperative_groups::mma::Accumulator;
use cooperative_groups::prelude::*;
use cooperative_groups::{kernel, shared_array};

#[kernel]
pub fn k() {
    let s = shared_array!(Accumulator; 32);
    let warp = tiled_partition::<32>(&this_thread_block());
    s.store(0, Accumulator::zero(&warp));
}

fn main() {}
