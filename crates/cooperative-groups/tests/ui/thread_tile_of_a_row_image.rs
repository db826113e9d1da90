// An image partitioned into rows per block has no per-thread tiles: a
// thread's 8 × 8 tile would overlap its block's rows.
use cooperative_groups::prelude::*;
use cooperative_groups::{BlockRows, OwnedPitched, kernel};

#[kernel]
pub fn fill(out: OwnedPitched<f32, BlockRows>) {
    if let Some(t) = out.tile(&this_grid()) {
        t.store(0, 0, 1.0);
    }
}

fn main() {}
