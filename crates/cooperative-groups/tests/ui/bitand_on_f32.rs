// Bit operators exist only for integer types.
use cooperative_groups::ops::BitAnd;
use cooperative_groups::*;

fn main() {
    let tile = tiled_partition::<32>(&this_thread_block());
    let _r = reduce(&tile, 1.0f32, BitAnd);
}
