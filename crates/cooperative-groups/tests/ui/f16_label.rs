// Labels are integers, as in CUDA: a 16-bit float is no label (though
// `match_any` compares its bits).
use cooperative_groups::*;

fn main() {
    let tile = tiled_partition::<32>(&this_thread_block());
    let _g = labeled_partition(&tile, f16::ONE);
}
