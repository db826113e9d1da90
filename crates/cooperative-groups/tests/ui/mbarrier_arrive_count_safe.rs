// Several arrivals at once can outnumber what a phase expects (undefined
// in the PTX ISA): `arrive_count` is `unsafe`.
use cooperative_groups::{mbarrier, this_thread_block};

fn kernel() {
    let block = this_thread_block();
    let bar = mbarrier!(&block, 4);
    bar.arrive_count(8).wait();
}

fn main() {
    kernel();
}
