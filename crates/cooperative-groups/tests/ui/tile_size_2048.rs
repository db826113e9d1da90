// A tile has at most 1024 threads (the largest block).
use cooperative_groups::*;

fn main() {
    let block = this_thread_block();
    let _tile = tiled_partition::<2048>(&block);
}
