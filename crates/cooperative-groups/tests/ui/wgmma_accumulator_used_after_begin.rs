// `begin` hands the accumulator's registers to the tensor core: the
// accumulator cannot be used again until a wait returns it.
use cooperative_groups::prelude::*;
use cooperative_groups::wgmma::Accumulator;
use cooperative_groups::kernel;

#[kernel]
pub fn k() {
    let wg = tiled_partition::<128>(&this_thread_block());
    let acc = Accumulator::<8>::zero(&wg);
    let batch = acc.begin(&wg);
    let _ = acc.elements(&wg).count();
    let _ = batch.commit().wait();
}

fn main() {}
