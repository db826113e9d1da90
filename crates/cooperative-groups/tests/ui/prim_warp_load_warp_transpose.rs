// WarpTranspose is the block load's per-warp exchange; a warp's own is
// Transpose.
use cooperative_groups::primitives::{WarpLoad, WarpTranspose};
use cooperative_groups::{temp_storage, this_thread_block, tiled_partition};

fn main() {
    let tile = tiled_partition::<32>(&this_thread_block());
    let temp = temp_storage!(WarpLoad<u32, 2, WarpTranspose>);
    let _ = WarpLoad::<u32, 2, WarpTranspose>::new(&tile, &temp);
}
