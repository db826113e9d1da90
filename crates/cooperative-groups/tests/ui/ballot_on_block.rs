// The block has reduce and scans, but no lane-level collectives.
use cooperative_groups::*;

fn main() {
    let block = this_thread_block();
    let _m = block.ballot(true);
}
