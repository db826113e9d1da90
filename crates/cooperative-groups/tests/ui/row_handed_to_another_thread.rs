// A row's handle names the calling member's elements: it cannot travel to
// another lane through a shuffle.
use cooperative_groups::prelude::*;
use cooperative_groups::{OwnedPitched, TileRows, kernel};

#[kernel]
pub fn fill(out: OwnedPitched<u32, TileRows<32>>) {
    let warp = tiled_partition::<32>(&this_thread_block());
    if let Some(row) = out.row(&warp) {
        let other = warp.shfl(row, 0);
        if let Some(e) = other.mine(0) {
            e.store(1);
        }
    }
}

fn main() {}
