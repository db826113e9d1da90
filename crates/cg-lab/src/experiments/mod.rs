//! The experiments of `cg-lab compare` that run on the harness
//! ([`crate::harness`]), one file each, and their registration.

use anyhow::Result;

use crate::cli::LabArgs;
use crate::harness::experiment::{Experiment, Options};
use crate::harness::run::run;

pub mod device_histogram;
pub mod device_radix_sort;
pub mod device_select;
pub mod device_wide;
pub mod gemm;
pub mod math;
pub mod memcpy_async;
pub mod memory;
pub mod primitives;

/// One registered experiment: its `--only` name and how to run it.
pub struct Entry {
    /// `--only` name ([`Experiment::NAME`]).
    pub name: &'static str,
    /// [`run`] for the experiment's type.
    pub run: fn(&LabArgs, &Options<'_>) -> Result<()>,
}

/// The entry of `E`.
const fn entry<E: Experiment>() -> Entry {
    Entry {
        name: E::NAME,
        run: run::<E>,
    }
}

/// Every experiment on the harness, in the order `compare` runs them when
/// named in `--only`. A new experiment is one more line here.
pub const EXPERIMENTS: &[Entry] = &[
    entry::<device_wide::DeviceWide>(),
    entry::<device_histogram::DeviceHistogram>(),
    entry::<device_select::DeviceSelect>(),
    entry::<device_radix_sort::DeviceRadixSort>(),
    entry::<primitives::Primitives>(),
    entry::<memcpy_async::MemcpyAsync>(),
    entry::<gemm::Gemm>(),
    entry::<memory::Memory>(),
    entry::<math::MathSpeed>(),
];

#[cfg(test)]
mod tests {
    use crate::harness::golden::check_experiment;

    #[test]
    fn device_histogram_writes_the_golden_files() {
        check_experiment::<super::device_histogram::DeviceHistogram>();
    }

    #[test]
    fn device_wide_writes_the_golden_files() {
        check_experiment::<super::device_wide::DeviceWide>();
    }

    #[test]
    fn device_select_writes_the_golden_files() {
        check_experiment::<super::device_select::DeviceSelect>();
    }

    #[test]
    fn device_radix_sort_writes_the_golden_files() {
        check_experiment::<super::device_radix_sort::DeviceRadixSort>();
    }

    #[test]
    fn primitives_writes_the_golden_files() {
        check_experiment::<super::primitives::Primitives>();
    }

    #[test]
    fn memcpy_async_writes_the_golden_files() {
        check_experiment::<super::memcpy_async::MemcpyAsync>();
    }

    #[test]
    fn gemm_writes_the_golden_files() {
        super::gemm::check_golden();
    }

    #[test]
    fn memory_writes_the_golden_files() {
        check_experiment::<super::memory::Memory>();
    }

    #[test]
    fn math_writes_the_golden_files() {
        check_experiment::<super::math::MathSpeed>();
    }
}
