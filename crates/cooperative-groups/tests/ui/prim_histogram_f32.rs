// A histogram's samples are unsigned integers: their value is the bin.
use cooperative_groups::primitives::BlockHistogram;
use cooperative_groups::{shared_array, this_thread_block};

fn main() {
    let block = this_thread_block().with_threads::<32>();
    let bins = shared_array!(u32; 16);
    BlockHistogram::<f32, 32, 1, 16>::without_storage(&block).histogram(&[1.0], &bins);
}
