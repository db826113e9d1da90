//! [`LaunchConfig`]: how a kernel is launched, on the GPU or the simulator.

use core::fmt;

use crate::Dim3;

/// How to launch a kernel: the fields of CUDA's `cudaLaunchConfig_t` and its
/// launch attributes that this project uses, the same for the GPU
/// (`cg-runtime`) and the simulator (`cg-sim`).
///
/// ```
/// use cg_isa::{Dim3, LaunchConfig};
///
/// let plain = LaunchConfig::linear(4, 128);
/// let grid = LaunchConfig::new(132, 256).with_cooperative(true);
/// let clusters = LaunchConfig::new(8, 64).with_cluster(2);
/// assert_eq!(plain, LaunchConfig::new(4, 128));
/// assert!(grid.cooperative && grid.cluster.is_none());
/// assert_eq!(clusters.cluster_dim(), Dim3::x(2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LaunchConfig {
    /// Blocks in the grid (`gridDim`).
    pub grid: Dim3,
    /// Threads in a block (`blockDim`).
    pub block: Dim3,
    /// Blocks in a cluster (`cudaLaunchAttributeClusterDimension`, sm_90), or
    /// `None` for a launch without the attribute (each block then is a
    /// cluster of one).
    pub cluster: Option<Dim3>,
    /// Dynamic shared memory per block, in bytes (`dynamicSmemBytes`).
    pub dynamic_smem_bytes: u32,
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
            cluster: None,
            dynamic_smem_bytes: 0,
            cooperative: false,
        }
    }

    /// A plain one-dimensional launch of `grid` blocks of `block` threads
    /// ([`new`](Self::new) with `u32`s).
    pub const fn linear(grid: u32, block: u32) -> Self {
        LaunchConfig {
            grid: Dim3::x(grid),
            block: Dim3::x(block),
            cluster: None,
            dynamic_smem_bytes: 0,
            cooperative: false,
        }
    }

    /// The same launch in clusters of `cluster` blocks.
    pub fn with_cluster(mut self, cluster: impl Into<Dim3>) -> Self {
        self.cluster = Some(cluster.into());
        self
    }

    /// The same launch with `bytes` of dynamic shared memory per block.
    pub const fn with_dynamic_smem(mut self, bytes: u32) -> Self {
        self.dynamic_smem_bytes = bytes;
        self
    }

    /// The same launch, cooperative (grid sync allowed) or not.
    pub const fn with_cooperative(mut self, cooperative: bool) -> Self {
        self.cooperative = cooperative;
        self
    }

    /// The blocks of a cluster: [`cluster`](Self::cluster), or `(1, 1, 1)`
    /// without clusters.
    pub const fn cluster_dim(&self) -> Dim3 {
        match self.cluster {
            Some(c) => c,
            None => Dim3::x(1),
        }
    }

    /// Checks the rules that hold on every device: no zero dimension, at
    /// most 1024 threads per block and CUDA's per-dimension limits, the grid
    /// a multiple of the cluster, at most 8 blocks per cluster (the portable
    /// cluster size). Limits of a particular device (shared memory,
    /// co-residency) are the launcher's to check.
    pub fn validate_shape(&self) -> Result<(), ShapeError> {
        let (g, b) = (self.grid, self.block);
        let c = self.cluster_dim();
        for (what, d) in [("grid", g), ("block", b), ("cluster", c)] {
            if d.volume() == 0 {
                return Err(ShapeError::ZeroDimension(what, d));
            }
        }
        if b.volume() > 1024 {
            return Err(ShapeError::BlockTooLarge(b));
        }
        if b.x > 1024 || b.y > 1024 || b.z > 64 {
            return Err(ShapeError::BlockDimension(b));
        }
        if g.x > i32::MAX as u32 || g.y > 65535 || g.z > 65535 {
            return Err(ShapeError::GridDimension(g));
        }
        if g.volume() > MAX_GRID_BLOCKS {
            return Err(ShapeError::TooManyBlocks(g));
        }
        if !(g.x.is_multiple_of(c.x) && g.y.is_multiple_of(c.y) && g.z.is_multiple_of(c.z)) {
            return Err(ShapeError::NotClusterMultiple {
                grid: g,
                cluster: c,
            });
        }
        if c.volume() > 8 {
            return Err(ShapeError::ClusterTooLarge(c));
        }
        Ok(())
    }
}

/// The most blocks a grid may have: `u32::MAX`.
///
/// CUDA allows grids of up to (2^31 − 1) · 65535 · 65535 blocks, but block
/// ranks here are 32-bit ([`Dim3::linear`], the device library's
/// `grid.block_rank()` and the per-block and per-tile windows of its
/// output slices, as CUDA's own `grid.block_rank()`): in a larger grid two
/// blocks would get one rank, and so one window of an output each. The
/// launchers refuse such a grid instead ([`ShapeError::TooManyBlocks`]),
/// which costs the kernels nothing.
pub const MAX_GRID_BLOCKS: u64 = u32::MAX as u64;

/// Why [`LaunchConfig::validate_shape`] refused a launch; its
/// [`Display`](fmt::Display) names the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// The grid, block or cluster (the `&str` says which) has a zero
    /// dimension.
    ZeroDimension(&'static str, Dim3),
    /// The block has more than 1024 threads.
    BlockTooLarge(Dim3),
    /// The block exceeds the per-dimension limits (1024, 1024, 64).
    BlockDimension(Dim3),
    /// The grid exceeds the per-dimension limits (2^31-1, 65535, 65535).
    GridDimension(Dim3),
    /// The grid has more than [`MAX_GRID_BLOCKS`] blocks: more than 32-bit
    /// block ranks number.
    TooManyBlocks(Dim3),
    /// The grid is not a multiple of the cluster in every dimension.
    NotClusterMultiple {
        /// The grid.
        grid: Dim3,
        /// The cluster.
        cluster: Dim3,
    },
    /// The cluster has more than 8 blocks, the portable limit.
    ClusterTooLarge(Dim3),
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ShapeError::ZeroDimension(what, d) => write!(f, "{what} {d} has a zero dimension"),
            ShapeError::BlockTooLarge(b) => {
                write!(f, "block {b} has {} threads; the limit is 1024", b.volume())
            }
            ShapeError::BlockDimension(b) => write!(
                f,
                "block {b} exceeds the per-dimension limits (1024, 1024, 64)"
            ),
            ShapeError::GridDimension(g) => write!(
                f,
                "grid {g} exceeds the per-dimension limits (2^31-1, 65535, 65535)"
            ),
            ShapeError::TooManyBlocks(g) => write!(
                f,
                "grid {g} has {} blocks; block ranks are 32-bit, so a grid has at most \
                 {MAX_GRID_BLOCKS} blocks (two blocks would share a rank, and a window of \
                 an output)",
                g.volume()
            ),
            ShapeError::NotClusterMultiple { grid, cluster } => {
                write!(f, "grid {grid} is not a multiple of the cluster {cluster}")
            }
            ShapeError::ClusterTooLarge(c) => write!(
                f,
                "cluster {c} has {} blocks; the portable limit is 8",
                c.volume()
            ),
        }
    }
}

impl core::error::Error for ShapeError {}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::string::ToString;

    use super::*;

    #[test]
    fn shape_errors_name_the_limit() {
        assert!(LaunchConfig::linear(4, 128).validate_shape().is_ok());
        assert!(
            LaunchConfig::new(16, (32, 32))
                .with_cluster(8)
                .validate_shape()
                .is_ok()
        );
        let e = |c: LaunchConfig| c.validate_shape().unwrap_err().to_string();
        assert!(e(LaunchConfig::linear(4, 2048)).contains("limit is 1024"));
        assert!(e(LaunchConfig::new(4, (1, 1, 65))).contains("(1024, 1024, 64)"));
        assert!(e(LaunchConfig::new((1, 65536), 32)).contains("65535"));
        assert_eq!(
            e(LaunchConfig::linear(0, 32)),
            "grid (0,1,1) has a zero dimension"
        );
        assert!(e(LaunchConfig::linear(4, 32).with_cluster(0)).starts_with("cluster (0,1,1)"));
        assert_eq!(
            e(LaunchConfig::linear(5, 32).with_cluster(2)),
            "grid (5,1,1) is not a multiple of the cluster (2,1,1)"
        );
        assert!(e(LaunchConfig::linear(16, 32).with_cluster(16)).contains("limit is 8"));
        // Each dimension legal, but 32-bit block ranks would wrap: blocks
        // (0, 3, 0) and (2^31 - 3, 0, 0) both have rank 2^31 - 3.
        let wraps = Dim3::new(i32::MAX as u32, 4, 1);
        assert_eq!(
            3u32.wrapping_mul(wraps.x),
            wraps.x - 2,
            "the wrap the check prevents"
        );
        assert_eq!(
            e(LaunchConfig::new(wraps, 1)),
            "grid (2147483647,4,1) has 8589934588 blocks; block ranks are 32-bit, so a grid has \
             at most 4294967295 blocks (two blocks would share a rank, and a window of an output)"
        );
        assert!(
            LaunchConfig::new((i32::MAX as u32, 2, 1), 1)
                .validate_shape()
                .is_ok()
        );
    }

    #[test]
    fn builders_set_one_field_each() {
        let c = LaunchConfig::new(3, 64);
        assert_eq!(c.cluster_dim(), Dim3::x(1));
        assert_eq!(c.with_dynamic_smem(512).dynamic_smem_bytes, 512);
        assert_eq!(c.with_cluster((1, 1, 1)).cluster, Some(Dim3::x(1)));
        assert!(c.with_cooperative(true).cooperative);
        assert_eq!(c.with_cooperative(true).with_cooperative(false), c);
    }
}
