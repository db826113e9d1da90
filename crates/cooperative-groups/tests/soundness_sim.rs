//! Safe code never reaches memory the simulator does not own (issue 55):
//! each test makes one of the attacks that used to corrupt the simulator's
//! heap or crash it, and checks that the launch ends with a report naming
//! the misuse and the line of this file that made it.
//!
//! * A typed write into a parameter its launcher registered read-only is a
//!   report, not a silent write (forging a region at all needs `unsafe`:
//!   `tests/ui/region_*.rs`).

use cg_sim::{LaunchConfig, Region, SimDevice, SimError};
use cooperative_groups::atomic::Relaxed;
use cooperative_groups::{AtomicSlice, OwnedSlice, this_thread_block};

/// This file, to read the line a report points at.
const SOURCE: &str = include_str!("soundness_sim.rs");

/// `e` is a misuse report whose summary contains `what`, at a line of this
/// file whose code contains `code` (the `#[track_caller]` chain from the
/// library's entry point down to the simulator is unbroken).
fn assert_misuse_at(e: &SimError, what: &str, code: &str) {
    assert!(matches!(e, SimError::Misuse(_)), "expected a misuse: {e}");
    let r = e.report().expect("a misuse has a report");
    assert!(r.summary.contains(what), "the report names `{what}`: {e}");
    let loc = r
        .location
        .as_ref()
        .unwrap_or_else(|| panic!("no location: {e}"));
    assert_eq!(loc.file, file!(), "the report names this file: {e}");
    let line = SOURCE
        .lines()
        .nth(loc.line as usize - 1)
        .unwrap_or_default();
    assert!(
        line.contains(code),
        "the report points at line {} (`{}`), not at `{code}`: {e}",
        loc.line,
        line.trim()
    );
}

// ---- typed writes into read-only parameters ----------------------------------

#[test]
fn a_store_into_a_read_only_parameter_is_reported() {
    let input = [7u32; 32];
    // SAFETY: `input` outlives the launch, and nothing writes it while the
    // launch runs (the write below is stopped by the report).
    let read_only = unsafe { Region::new("input", input.as_ptr() as usize, 4 * 32, 4, false) };
    assert!(!read_only.writable());
    let kernel = || {
        // SAFETY: (the kernel's bug) a writable view of the memory the
        // launch lent read-only.
        let out: OwnedSlice<u32> =
            unsafe { OwnedSlice::from_raw_parts(input.as_ptr().cast_mut(), 32) };
        let i = this_thread_block().thread_rank() as usize;
        // SAFETY: `i` is below the length, and no other thread writes it.
        unsafe { out.store_unchecked(i, 0) };
    };
    // SAFETY: `read_only` names `input`, alive and unwritten for the launch.
    let e = unsafe {
        cg_sim::launch_with(
            &SimDevice::default(),
            &LaunchConfig::new(1, 32),
            &[read_only],
            &kernel,
        )
    }
    .expect_err("a store into a read-only parameter");
    assert_misuse_at(
        &e,
        "write of 4 bytes into `input`, a read-only parameter",
        "out.store_unchecked(i, 0)",
    );
    assert!(input.iter().all(|&x| x == 7), "nothing was written");
}

#[test]
fn an_atomic_on_a_read_only_parameter_is_reported() {
    let counts = [0u32; 4];
    // SAFETY: `counts` outlives the launch, and nothing writes it while the
    // launch runs (the atomic below is stopped by the report).
    let read_only = unsafe { Region::new("counts", counts.as_ptr() as usize, 16, 4, false) };
    let kernel = || {
        // SAFETY: (the kernel's bug) an atomic view of memory the launch
        // lent read-only.
        let c: AtomicSlice<u32> =
            unsafe { AtomicSlice::from_raw_parts(counts.as_ptr().cast_mut(), 4) };
        c.at(1).fetch_add(1, Relaxed);
    };
    // SAFETY: `read_only` names `counts`, alive and unwritten for the launch.
    let e = unsafe {
        cg_sim::launch_with(
            &SimDevice::default(),
            &LaunchConfig::new(1, 32),
            &[read_only],
            &kernel,
        )
    }
    .expect_err("an atomic on a read-only parameter");
    assert_misuse_at(&e, "into `counts`, a read-only parameter", "c.at(1)");
    assert!(counts.iter().all(|&x| x == 0), "nothing was written");
}
