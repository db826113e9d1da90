//! Launch shapes (the vocabulary crate's [`LaunchConfig`] and [`Dim3`]) and
//! kernel arguments, shared by the GPU and the simulator.

use std::ffi::c_void;

pub use cg_isa::{Dim3, LaunchConfig, ShapeError};

pub use cooperative_groups::host::{HostArg, HostArgs, SafeArgs, Target};
pub use cooperative_groups::{KernelParam, SafeParam};

/// A kernel's argument tuple.
pub trait KernelArgs: Copy + 'static {
    /// Calls `f` with the `void*` array `cuLaunchKernel` wants.
    fn with_params<R>(&self, f: impl FnOnce(&mut [*mut c_void]) -> R) -> R;
}

macro_rules! args {
    ($($n:tt $t:ident),*) => {
        impl<$($t: KernelParam + 'static),*> KernelArgs for ($($t,)*) {
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

    /// The runtime, the simulator and the library name one type each: a
    /// configuration goes to the simulator as it is.
    #[test]
    fn one_launch_vocabulary() {
        let cfg: cg_sim::LaunchConfig = LaunchConfig::linear(4, 64).with_cluster(2);
        let d: cooperative_groups::Dim3 = cfg.cluster_dim();
        assert_eq!(d, cg_sim::Dim3::x(2));
        assert!(cfg.validate_shape().is_ok());
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
