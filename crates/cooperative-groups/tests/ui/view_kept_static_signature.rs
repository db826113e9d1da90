// A signature that asks for a `'static` view (even through an alias) does
// not compile either: the body gets its parameters for one launch only.
use std::cell::Cell;

use cooperative_groups::{GlobalSlice, kernel};

type Forever = GlobalSlice<'static, u32>;

thread_local! {
    static KEPT: Cell<Option<Forever>> = const { Cell::new(None) };
}

#[kernel]
pub fn keep(input: Forever) {
    KEPT.with(|k| k.set(Some(input)));
}

fn main() {}
