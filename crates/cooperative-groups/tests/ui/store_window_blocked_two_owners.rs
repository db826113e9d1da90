// Issue 55, hole 5: a `PerBlock<W>` window is striped over the block
// (element `j` belongs to thread `j mod 32` here), but a `Direct` store
// writes it blocked (thread 0 writes elements 0..4): threads 0 and 1 would
// both write element 1. Only the stores whose writes are striped over the
// block (`Striped`, `Transpose`) take a window.
use cooperative_groups::prelude::*;
use cooperative_groups::primitives::{BlockStore, Direct};
use cooperative_groups::{OwnedSlice, PerBlock, kernel};

#[kernel]
pub fn two_owners(out: OwnedSlice<u32, PerBlock<128>>) {
    let block = this_thread_block().with_threads::<32>();
    if let Some(e) = out.window(&block).mine(0) {
        e.store(1);
    }
    let items = [2; 4];
    BlockStore::<u32, 32, 4, Direct>::without_storage(&block)
        .store_window(out.window(&block), items);
}

fn main() {}
