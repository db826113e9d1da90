// A transposing load exchanges through shared memory: it has no
// constructor without storage.
use cooperative_groups::primitives::{BlockLoad, Transpose};
use cooperative_groups::this_thread_block;

fn main() {
    let block = this_thread_block().with_threads::<64>();
    let _ = BlockLoad::<u32, 64, 4, Transpose>::without_storage(&block);
}
