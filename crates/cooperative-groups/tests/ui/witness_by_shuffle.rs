// A witness cannot travel to another lane: it is not a shuffle value.
use cooperative_groups::prelude::*;
use cooperative_groups::{OwnedSlice, kernel};

#[kernel]
pub fn pass_on(out: OwnedSlice<u32>) {
    let tile = tiled_partition::<32>(&this_thread_block());
    if let Some(e) = out.at(&this_grid()) {
        let theirs = tile.shfl(e, 0);
        theirs.store(1);
    }
}

fn main() {}
