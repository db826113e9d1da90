//! The user guide of cooperative-groups, `docs/guide/` (the chapters are
//! listed in `SUMMARY.md`, in mdBook's layout), compiled as this crate's
//! documentation: `cargo test -p cg-guide --doc` compiles and runs every
//! Rust block of every chapter with warnings denied, and the crate's tests
//! check that the reports and outputs the chapters show are what the code
//! shown next to them produces.
#![deny(warnings, missing_docs)]
#![doc(test(attr(deny(warnings))))]

pub mod reports;
pub mod safe_reports;

#[doc = include_str!("../introduction.md")]
pub mod introduction {}

#[doc = include_str!("../getting-started.md")]
pub mod getting_started {}

#[doc = include_str!("../porting-from-cuda.md")]
pub mod porting_from_cuda {}

#[doc = include_str!("../safe-kernels.md")]
pub mod safe_kernels {}
#[doc = include_str!("../cudarc.md")]
pub mod cudarc {}

#[doc = include_str!("../numbers.md")]
pub mod numbers {}

#[doc = include_str!("../simulator.md")]
pub mod simulator {}

#[doc = include_str!("../performance.md")]
pub mod performance {}

#[doc = include_str!("../lab.md")]
pub mod lab {}

#[doc = include_str!("../project.md")]
pub mod project {}

#[doc = include_str!("../math.md")]
pub mod math {}

#[doc = include_str!("../tensor-cores.md")]
pub mod tensor_cores {}

#[doc = include_str!("../troubleshooting.md")]
pub mod troubleshooting {}
