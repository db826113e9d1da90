//! `cg-sim`: a deterministic SIMT simulator for cooperative-groups kernels.
//!
//! (Implementation in progress: see `lane.rs` for the contract the
//! `cooperative-groups` arch layer relies on.)

pub mod lane;

/// A 3-D extent or index, as in CUDA's `dim3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dim3 {
    /// x extent.
    pub x: u32,
    /// y extent.
    pub y: u32,
    /// z extent.
    pub z: u32,
}

impl Dim3 {
    /// `(x, y, z)`.
    pub const fn new(x: u32, y: u32, z: u32) -> Self {
        Dim3 { x, y, z }
    }
    /// `(x, 1, 1)`.
    pub const fn x(x: u32) -> Self {
        Dim3 { x, y: 1, z: 1 }
    }
    /// `x * y * z`.
    pub const fn volume(&self) -> u64 {
        self.x as u64 * self.y as u64 * self.z as u64
    }
}

/// How to launch a kernel on the simulator: the same fields as a GPU launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchConfig {
    /// Blocks in the grid.
    pub grid: Dim3,
    /// Threads in a block.
    pub block: Dim3,
    /// Blocks in a cluster (`(1,1,1)` for no clusters).
    pub cluster: Dim3,
    /// Dynamic shared memory per block, in bytes.
    pub dynamic_smem_bytes: usize,
    /// A cooperative launch (`cuLaunchCooperativeKernel`): grid sync allowed,
    /// and the whole grid must be co-resident.
    pub cooperative: bool,
}
