// A block primitive needs the block's size as a type: `with_threads::<N>()`.
use cooperative_groups::primitives::BlockExchange;
use cooperative_groups::{temp_storage, this_thread_block};

fn main() {
    let block = this_thread_block();
    let temp = temp_storage!(BlockExchange<u32, 128, 4>);
    let _ = BlockExchange::<u32, 128, 4>::new(&block, &temp);
}
