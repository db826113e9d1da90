//! The user guide of cooperative-groups, `docs/guide/` (the chapters are
//! listed in `SUMMARY.md`, in mdBook's layout), compiled as this crate's
//! documentation: `cargo test -p cg-guide --doc` compiles and runs every
//! Rust block of every chapter with warnings denied, and the crate's tests
//! check that the reports and outputs the chapters show are what the code
//! shown next to them produces.
#![deny(warnings, missing_docs)]
#![doc(test(attr(deny(warnings))))]

pub mod reports;

#[doc = include_str!("../porting-from-cuda.md")]
pub mod porting_from_cuda {}

#[doc = include_str!("../simulator.md")]
pub mod simulator {}
