// Warp primitives take tiles of at most 32 threads.
use cooperative_groups::primitives::WarpExchange;
use cooperative_groups::{temp_storage, this_thread_block, tiled_partition};

fn main() {
    let tile = tiled_partition::<64>(&this_thread_block());
    let temp = temp_storage!(WarpExchange<u32, 2, 32>);
    let _ = WarpExchange::<u32, 2, 64>::new(&tile, &temp);
}
