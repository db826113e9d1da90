// An arrival token is consumed by its wait: waiting twice on one arrival
// does not compile.
use cooperative_groups::{mbarrier, this_thread_block};

fn kernel() {
    let block = this_thread_block();
    let bar = mbarrier!(&block, 64);
    let token = bar.arrive();
    token.wait();
    token.wait();
}

fn main() {
    kernel();
}
