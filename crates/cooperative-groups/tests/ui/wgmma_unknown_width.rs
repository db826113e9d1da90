// The accumulator's width is one of the instruction's shapes.
use cooperative_groups::prelude::*;
use cooperative_groups::wgmma::Accumulator;
use cooperative_groups::kernel;

#[kernel]
pub fn k() {
    let wg = tiled_partition::<128>(&this_thread_block());
    let _ = Accumulator::<24>::zero(&wg);
}

fn main() {}
