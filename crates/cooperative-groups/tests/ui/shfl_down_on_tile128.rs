// Multi-warp tiles have shfl (a broadcast), any, all — not shfl_down.
use cooperative_groups::*;

fn main() {
    let tile = tiled_partition::<128>(&this_thread_block());
    let _v = tile.shfl_down(1u32, 1);
}
