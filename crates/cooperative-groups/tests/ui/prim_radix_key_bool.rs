// Radix sorts take integer and float keys.
use cooperative_groups::primitives::BlockRadixSort;
use cooperative_groups::{temp_storage, this_thread_block};

fn main() {
    let block = this_thread_block().with_threads::<32>();
    let temp = temp_storage!(BlockRadixSort<u32, 32, 2>);
    let mut keys = [true; 2];
    BlockRadixSort::<bool, 32, 2>::new(&block, &temp).sort(&mut keys);
}
