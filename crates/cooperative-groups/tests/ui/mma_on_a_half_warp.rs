// The tensor core's instruction takes a whole warp: a tile of 16 threads
// is not a `ThreadBlockTile<32>`.
use cooperative_groups::mma::{Accumulator, mma, MatrixA, MatrixB};
use cooperative_groups::prelude::*;
use cooperative_groups::{bf16, kernel};

#[kernel]
pub fn k() {
    let warp = tiled_partition::<32>(&this_thread_block());
    let half = tiled_partition::<16>(&this_thread_block());
    let a = MatrixA::from_fn(&warp, |_, _| bf16::from_f32(1.0));
    let b = MatrixB::from_fn(&warp, |_, _| bf16::from_f32(1.0));
    let _ = mma(&half, &a, &b, Accumulator::zero(&warp));
}

fn main() {}
