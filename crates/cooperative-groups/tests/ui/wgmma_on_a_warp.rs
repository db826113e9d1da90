// The warpgroup MMA takes an aligned 128-thread tile, not a warp.
use cooperative_groups::prelude::*;
use cooperative_groups::wgmma::Accumulator;
use cooperative_groups::kernel;

#[kernel]
pub fn k() {
    let warp = tiled_partition::<32>(&this_thread_block());
    let _ = Accumulator::<8>::zero(&warp);
}

fn main() {}
