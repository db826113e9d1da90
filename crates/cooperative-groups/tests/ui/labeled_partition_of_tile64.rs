// Labeled and binary partitions split groups within one warp only.
use cooperative_groups::*;

fn main() {
    let tile = tiled_partition::<64>(&this_thread_block());
    let _g = labeled_partition(&tile, 3u32);
}
