// Labels are integers, as in CUDA.
use cooperative_groups::*;

fn main() {
    let tile = tiled_partition::<32>(&this_thread_block());
    let _g = labeled_partition(&tile, 1.5f32);
}
