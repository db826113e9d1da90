// Lane-level collectives exist only on tiles within one warp.
use cooperative_groups::*;

fn main() {
    let tile = tiled_partition::<64>(&this_thread_block());
    let _mask = tile.ballot(true);
}
