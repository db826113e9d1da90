// A closure operator must take and return the element type.
use cooperative_groups::prelude::*;

fn sum(tile: &ThreadBlockTile<32>, v: u32) -> u32 {
    reduce(tile, v, |a: f32, b: f32| a + b)
}

fn main() {}
