// A fragment stays in the registers of the lane that holds it: a shuffle
// cannot move it to another lane.
use cooperative_groups::mma::{Accumulator, mma, MatrixA, MatrixB};
use cooperative_groups::prelude::*;
use cooperative_groups::{bf16, kernel};

#[kernel]
pub fn k() {
    let warp = tiled_partition::<32>(&this_thread_block());
    let a = MatrixA::from_fn(&warp, |_, _| bf16::from_f32(1.0));
    let b = MatrixB::from_fn(&warp, |_, _| bf16::from_f32(1.0));
    let acc = mma(&warp, &a, &b, Accumulator::zero(&warp));
    let _other = warp.shfl(acc, 0);
}

fn main() {}
