// Group handles are passed by reference, not copied (guide §4.4.3.2).
use cooperative_groups::*;

fn main() {
    let tile = tiled_partition::<32>(&this_thread_block());
    let _copy = tile.clone();
}
