// A static tile cannot be larger than its parent tile.
use cooperative_groups::*;

fn main() {
    let warp = tiled_partition::<32>(&this_thread_block());
    let _tile = tiled_partition::<64>(&warp);
}
