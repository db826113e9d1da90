// `cp.async` writes only the calling block's own shared memory: a slice of
// a peer block's mapped array (`SharedSlice<T, Peer>`) is no destination.
use cooperative_groups::prelude::*;
use cooperative_groups::{GlobalSlice, kernel, memcpy_async, shared_array, wait};

#[kernel]
pub fn copy(input: GlobalSlice<u32>) {
    let block = this_thread_block();
    let cluster = this_cluster();
    let a = shared_array!(u32; 32);
    cluster.sync();
    let peer = cluster.map_shared_array(a, 1 - cluster.block_rank());
    memcpy_async(&block, peer.as_slice(), input.as_slice());
    wait(&block);
    cluster.sync();
}

fn main() {}
