// A kernel cannot keep its output view past its launch: a later launch
// would write, through it, memory that launch borrowed read-only.
use std::cell::Cell;

use cooperative_groups::prelude::*;
use cooperative_groups::{OwnedSlice, kernel};

thread_local! {
    static KEPT: Cell<Option<OwnedSlice<'static, u32>>> = const { Cell::new(None) };
}

#[kernel]
pub fn keep(out: OwnedSlice<u32>) {
    KEPT.with(|k| k.set(Some(out)));
    if let Some(e) = out.at(&this_grid()) {
        e.store(1);
    }
}

fn main() {}
