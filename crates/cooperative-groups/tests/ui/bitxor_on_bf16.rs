// The 16-bit floats take Plus, Less and Greater; bit operators exist only
// for integers (as for f32).
use cooperative_groups::ops::BitXor;
use cooperative_groups::*;

fn main() {
    let tile = tiled_partition::<32>(&this_thread_block());
    let _r = reduce(&tile, bf16::ONE, BitXor);
}
