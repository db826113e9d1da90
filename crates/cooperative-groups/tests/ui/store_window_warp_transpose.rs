// A `WarpTranspose` store writes warp-striped (warp `w` the 32 · ITEMS
// items from 32 · ITEMS · w, striped over its lanes), not the window's
// arrangement striped over the whole block: it takes no window either.
use cooperative_groups::prelude::*;
use cooperative_groups::primitives::{BlockStore, WarpTranspose};
use cooperative_groups::{OwnedSlice, PerBlock, kernel, temp_storage};

#[kernel]
pub fn warp_striped(out: OwnedSlice<u32, PerBlock<256>>) {
    let block = this_thread_block().with_threads::<64>();
    let temp = temp_storage!(BlockStore<u32, 64, 4, WarpTranspose>);
    BlockStore::<u32, 64, 4, WarpTranspose>::new(&block, &temp)
        .store_window(out.window(&block), [0; 4]);
}

fn main() {}
