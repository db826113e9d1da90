//! Launch shapes: [`Dim3`] and [`LaunchConfig`].

use std::fmt;

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
    /// As a `[x, y, z]` array.
    pub const fn to_array(self) -> [u32; 3] {
        [self.x, self.y, self.z]
    }
    /// The index whose x-fastest linearisation inside `self` is `i`.
    pub(crate) const fn delinearize(self, i: u64) -> Dim3 {
        let x = self.x as u64;
        let y = self.y as u64;
        Dim3 {
            x: (i % x) as u32,
            y: (i / x % y) as u32,
            z: (i / (x * y)) as u32,
        }
    }
}

impl From<u32> for Dim3 {
    fn from(x: u32) -> Self {
        Dim3::x(x)
    }
}

impl From<(u32, u32, u32)> for Dim3 {
    fn from((x, y, z): (u32, u32, u32)) -> Self {
        Dim3::new(x, y, z)
    }
}

impl From<[u32; 3]> for Dim3 {
    fn from([x, y, z]: [u32; 3]) -> Self {
        Dim3::new(x, y, z)
    }
}

impl fmt::Display for Dim3 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{},{})", self.x, self.y, self.z)
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

impl LaunchConfig {
    /// A plain launch of `grid` blocks of `block` threads: no clusters, no
    /// dynamic shared memory, not cooperative.
    pub fn new(grid: impl Into<Dim3>, block: impl Into<Dim3>) -> Self {
        LaunchConfig {
            grid: grid.into(),
            block: block.into(),
            cluster: Dim3::x(1),
            dynamic_smem_bytes: 0,
            cooperative: false,
        }
    }
    /// The same launch with clusters of `cluster` blocks.
    pub fn with_cluster(mut self, cluster: impl Into<Dim3>) -> Self {
        self.cluster = cluster.into();
        self
    }
    /// The same launch with `bytes` of dynamic shared memory per block.
    pub fn with_dynamic_smem(mut self, bytes: usize) -> Self {
        self.dynamic_smem_bytes = bytes;
        self
    }
    /// The same launch, cooperative (grid sync allowed) or not.
    pub fn with_cooperative(mut self, cooperative: bool) -> Self {
        self.cooperative = cooperative;
        self
    }
}
