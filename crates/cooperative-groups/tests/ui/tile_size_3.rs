// A tile size must be a power of two.
use cooperative_groups::*;

fn main() {
    let block = this_thread_block();
    let _tile = tiled_partition::<3>(&block);
}
