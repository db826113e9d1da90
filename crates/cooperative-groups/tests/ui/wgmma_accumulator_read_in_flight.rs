// An accumulator in flight is the tensor core's: its elements cannot be
// read until the wait gives it back.
use cooperative_groups::prelude::*;
use cooperative_groups::tma::Swizzle128B;
use cooperative_groups::wgmma::{Accumulator, SmemMatrix};
use cooperative_groups::{bf16, kernel, shared_array};

#[kernel]
pub fn k() {
    let block = this_thread_block();
    let wg = tiled_partition::<128>(&block);
    let sa = shared_array!(bf16; 64 * 64, align 1024);
    let sb = shared_array!(bf16; 8 * 64, align 1024);
    let (fa, fb) = (sa.as_slice(), sb.as_slice());
    let a = SmemMatrix::<bf16, Swizzle128B>::k_major(&fa, 64);
    let b = SmemMatrix::<bf16, Swizzle128B>::k_major(&fb, 8);
    let in_flight = Accumulator::<8>::zero(&wg).begin(&wg).mma(&wg, &a, &b).commit();
    for (_r, _c, _v) in in_flight.elements(&wg) {}
}

fn main() {}
