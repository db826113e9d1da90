// A shuffle moves raw words: types with invalid bit patterns (bool, char,
// references) or padding are not `ShflValue`.
use cooperative_groups::*;

fn main() {
    let tile = tiled_partition::<32>(&this_thread_block());
    let _b = tile.shfl(true, 0);
}
