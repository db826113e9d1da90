// An arrival token is consumed by barrier_wait: waiting twice does not compile.
use cooperative_groups::*;

fn main() {
    let block = this_thread_block();
    let token = block.barrier_arrive();
    block.barrier_wait(token);
    block.barrier_wait(token);
}
