//! Launch shapes and kernel arguments, shared by the GPU and the simulator.

use std::ffi::c_void;

pub use cooperative_groups::Dim3;

/// How the grid is launched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaunchKind {
    /// `cuLaunchKernel`.
    Plain,
    /// `cuLaunchCooperativeKernel`: grid sync allowed; the whole grid must be
    /// co-resident, which is checked (occupancy) before launching.
    Cooperative,
    /// `cuLaunchKernelEx` with a cluster dimension (sm_90+).
    Cluster(Dim3),
}

/// Grid, block, dynamic shared memory and launch kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchConfig {
    /// Blocks in the grid.
    pub grid: Dim3,
    /// Threads in a block.
    pub block: Dim3,
    /// Dynamic shared memory per block, bytes.
    pub dynamic_smem_bytes: u32,
    /// Plain, cooperative or cluster.
    pub kind: LaunchKind,
}

impl LaunchConfig {
    /// A plain 1-D launch of `grid` blocks of `block` threads.
    pub fn linear(grid: u32, block: u32) -> Self {
        LaunchConfig {
            grid: Dim3::x(grid),
            block: Dim3::x(block),
            dynamic_smem_bytes: 0,
            kind: LaunchKind::Plain,
        }
    }

    /// The same launch with `bytes` of dynamic shared memory.
    pub fn with_dynamic_smem(mut self, bytes: u32) -> Self {
        self.dynamic_smem_bytes = bytes;
        self
    }

    /// The same launch, cooperative.
    pub fn cooperative(mut self) -> Self {
        self.kind = LaunchKind::Cooperative;
        self
    }

    /// The same launch in clusters of `cluster` blocks.
    pub fn clusters(mut self, cluster: Dim3) -> Self {
        self.kind = LaunchKind::Cluster(cluster);
        self
    }

    /// Checks what holds on every device: non-zero dims, ≤ 1024 threads per
    /// block and CUDA's per-dimension limits, grid a multiple of the cluster.
    pub fn validate_shape(&self) -> Result<(), String> {
        let (g, b) = (self.grid, self.block);
        if g.volume() == 0 {
            return Err(format!("grid {g} has a zero dimension"));
        }
        if b.volume() == 0 {
            return Err(format!("block {b} has a zero dimension"));
        }
        if b.volume() > 1024 {
            return Err(format!(
                "block {b} has {} threads; the limit is 1024",
                b.volume()
            ));
        }
        if b.x > 1024 || b.y > 1024 || b.z > 64 {
            return Err(format!(
                "block {b} exceeds the per-dimension limits (1024, 1024, 64)"
            ));
        }
        if g.x > i32::MAX as u32 || g.y > 65535 || g.z > 65535 {
            return Err(format!(
                "grid {g} exceeds the per-dimension limits (2^31-1, 65535, 65535)"
            ));
        }
        if let LaunchKind::Cluster(c) = self.kind {
            if c.volume() == 0 {
                return Err(format!("cluster {c} has a zero dimension"));
            }
            if g.x % c.x != 0 || g.y % c.y != 0 || g.z % c.z != 0 {
                return Err(format!("grid {g} is not a multiple of the cluster {c}"));
            }
            if c.volume() > 8 {
                return Err(format!(
                    "cluster {c} has {} blocks; the portable limit is 8",
                    c.volume()
                ));
            }
        }
        Ok(())
    }
}

/// A value that may be passed to a kernel: same size and meaning on host and
/// device (integers, floats, raw pointers).
///
/// # Safety
/// Implementors must be plain data whose bytes the kernel reads as-is.
pub unsafe trait KernelParam: Copy + 'static {}

macro_rules! params {
    ($($t:ty),*) => { $(
        // SAFETY: primitive plain data.
        unsafe impl KernelParam for $t {}
    )* };
}
params!(u8, u16, u32, u64, i8, i16, i32, i64, f32, f64);
// SAFETY: a pointer is a 64-bit address on both sides (device address on the GPU).
unsafe impl<T: 'static> KernelParam for *const T {}
// SAFETY: as above.
unsafe impl<T: 'static> KernelParam for *mut T {}

/// A kernel's argument tuple.
pub trait KernelArgs: Copy + 'static {
    /// Calls `f` with the `void*` array `cuLaunchKernel` wants.
    fn with_params<R>(&self, f: impl FnOnce(&mut [*mut c_void]) -> R) -> R;
}

macro_rules! args {
    ($($n:tt $t:ident),*) => {
        impl<$($t: KernelParam),*> KernelArgs for ($($t,)*) {
            #[allow(unused_mut)]
            fn with_params<R>(&self, f: impl FnOnce(&mut [*mut c_void]) -> R) -> R {
                let mut p = [$(&self.$n as *const $t as *mut c_void),*];
                f(&mut p)
            }
        }
    };
}
args!();
args!(0 A);
args!(0 A, 1 B);
args!(0 A, 1 B, 2 C);
args!(0 A, 1 B, 2 C, 3 D);
args!(0 A, 1 B, 2 C, 3 D, 4 E);
args!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F);
args!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G);
args!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H);
args!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I);
args!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J);
args!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J, 10 K);
args!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J, 10 K, 11 L);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_errors_name_the_limit() {
        let ok = LaunchConfig::linear(4, 128);
        assert!(ok.validate_shape().is_ok());
        let e = LaunchConfig::linear(4, 2048).validate_shape().unwrap_err();
        assert!(e.contains("1024"), "{e}");
        let e = LaunchConfig::linear(0, 32).validate_shape().unwrap_err();
        assert!(e.contains("zero"), "{e}");
        let e = LaunchConfig::linear(5, 32)
            .clusters(Dim3::x(2))
            .validate_shape()
            .unwrap_err();
        assert!(e.contains("multiple"), "{e}");
        let e = LaunchConfig::linear(16, 32)
            .clusters(Dim3::x(16))
            .validate_shape()
            .unwrap_err();
        assert!(e.contains("limit is 8"), "{e}");
    }

    #[test]
    fn params_point_at_each_field() {
        let args = (7u32, 2.5f32, 0x1234usize as *mut u8);
        args.with_params(|p| {
            assert_eq!(p.len(), 3);
            // SAFETY: each pointer points at the field of the matching type.
            unsafe {
                assert_eq!(*(p[0] as *const u32), 7);
                assert_eq!(*(p[1] as *const f32), 2.5);
                assert_eq!(*(p[2] as *const *mut u8), 0x1234usize as *mut u8);
            }
        });
    }
}
