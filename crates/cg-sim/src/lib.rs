//! `cg-sim`: a deterministic SIMT simulator for cooperative-groups kernels.
//!
//! [`launch`] runs a kernel body — the same closure for every lane, reading
//! its indices through [`lane`] — on CPU lanes with real warp semantics:
//!
//! * every lane is a coroutine on the calling OS thread, resumed in a fixed
//!   round-robin order, so the same input gives the same interleaving and
//!   the same output;
//! * warp collectives complete when every lane of the mask has reached a
//!   collective of the same kind with the same mask; block barriers count
//!   whole warps (sm_70+ semantics: exited threads do not block); cluster
//!   and grid barriers span their blocks;
//! * `activemask` follows a convergence model: when no lane can run, the
//!   lanes of a warp waiting at the same call site form the active set;
//! * when no lane can make progress, or a primitive is misused, the launch
//!   returns a [`SimError`] whose [`Report`] lists every blocked lane group
//!   with its operation, mask and source line.
//!
//! Blocks run one cluster at a time (one block at a time without clusters),
//! or, with [`launch_parallel`], one cluster at a time on each of several
//! worker threads, with the same reports and race verdicts;
//! a cooperative launch keeps the whole grid resident so that grid sync
//! works (all its lanes interleaved on the calling thread, or, with
//! [`launch_parallel`], in phases between grid barriers whose clusters run
//! one after another or on the workers), and is refused, like on a GPU, if
//! the grid could not be co-resident on the [`SimDevice`].
//!
//! ```
//! use cg_sim::{lane, launch, LaunchConfig};
//! use std::sync::atomic::{AtomicU32, Ordering};
//!
//! let out: Vec<AtomicU32> = (0..64).map(|_| AtomicU32::new(0)).collect();
//! launch(&LaunchConfig::new(2, 32), &|| {
//!     let t = lane::thread_idx()[0];
//!     // Sum of the warp's thread indices via a butterfly reduction.
//!     let mut v = t;
//!     for d in [16, 8, 4, 2, 1] {
//!         v += lane::shfl(lane::ShflMode::Bfly, u32::MAX, v, d, 0x1f);
//!     }
//!     out[(lane::block_idx()[0] * 32 + t) as usize].store(v, Ordering::Relaxed);
//! })
//! .unwrap();
//! assert!(out.iter().all(|v| v.load(Ordering::Relaxed) == (0..32).sum::<u32>()));
//! ```

#![warn(missing_docs)]

mod async_copy;
mod barrier;
mod cluster;
mod coop;
mod device;
mod diagnose;
#[cfg(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes")))]
mod fiber;
pub mod global_mem;
pub mod lane;
mod lanes;
mod launch;
mod lifecycle;
mod mbarrier;
#[cfg(unix)]
mod overflow;
mod race;
mod region;
mod report;
mod sched;
mod shared;
mod stack;
mod tensor;
mod types;
mod unit;
mod warp;

pub use cg_isa::{Dim3, LaunchConfig};
pub use device::SimDevice;
pub use launch::{launch, launch_on, launch_parallel, launch_with};
pub use mbarrier::MBARRIER_MAX;
pub use region::state::Region;
pub use report::{BlockedGroup, LaunchStats, Report, SimError, SourceLocation};
pub use shared::state::POISON;
pub use stack::MAX_LIVE_STACKS;
pub use tensor::{TensorAt, TensorBox};
