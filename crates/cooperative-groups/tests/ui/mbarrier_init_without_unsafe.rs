// A barrier on a shared word the caller could also read and write is
// `unsafe` to make: only `mbarrier!` declares a word nothing else reaches.
use cooperative_groups::mbarrier::Mbarrier;
use cooperative_groups::{shared_array, this_thread_block};

fn kernel() {
    let block = this_thread_block();
    let word = shared_array!(u64; 1);
    let bar = Mbarrier::init_in(word, &block, 64);
    word.store(0, 0);
    bar.arrive_and_wait();
}

fn main() {
    kernel();
}
