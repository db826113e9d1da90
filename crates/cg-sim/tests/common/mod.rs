//! Helpers shared by the simulator tests.
#![allow(dead_code)]

use std::cell::Cell;

use cg_sim::lane::{self, ShflMode};
use cg_sim::{LaunchConfig, SimError};

/// One output slot per thread of the grid (the kernel runs on one OS thread,
/// so plain `Cell`s are enough).
pub struct Out(pub Vec<Cell<u64>>);

impl Out {
    pub fn new(n: usize) -> Out {
        Out((0..n).map(|_| Cell::new(u64::MAX)).collect())
    }
    pub fn set(&self, i: usize, v: u64) {
        self.0[i].set(v);
    }
    pub fn get(&self, i: usize) -> u64 {
        self.0[i].get()
    }
    pub fn to_vec(&self) -> Vec<u64> {
        self.0.iter().map(Cell::get).collect()
    }
}

/// Linear thread index inside the block.
pub fn tid() -> u32 {
    let [x, y, z] = lane::thread_idx();
    let [bx, by, _] = lane::block_dim();
    x + y * bx + z * bx * by
}

/// Linear global thread index (blocks in x-fastest order).
pub fn gtid() -> usize {
    let [bx, by, bz] = lane::block_dim();
    let [gx, gy, _] = lane::grid_dim();
    let [x, y, z] = lane::block_idx();
    let block = (x + y * gx + z * gx * gy) as usize;
    block * (bx * by * bz) as usize + tid() as usize
}

/// The `c` operand of `shfl.sync` for a logical warp of `width` lanes.
pub const fn shfl_c(mode: ShflMode, width: u32) -> u32 {
    let seg = (32 - width) << 8;
    match mode {
        ShflMode::Up => seg,
        _ => seg | 0x1f,
    }
}

pub fn run(cfg: &LaunchConfig, kernel: &dyn Fn()) -> cg_sim::LaunchStats {
    match cg_sim::launch(cfg, kernel) {
        Ok(s) => s,
        Err(e) => panic!("launch failed:\n{e}"),
    }
}

pub fn fail(cfg: &LaunchConfig, kernel: &dyn Fn()) -> SimError {
    match cg_sim::launch(cfg, kernel) {
        Ok(_) => panic!("launch unexpectedly succeeded"),
        Err(e) => e,
    }
}
