//! Typed kernels on the simulator: the races CUDA code usually has in
//! global memory, each reported with both lines (and the parameter and
//! index), and its fixed twin clean; out-of-bounds accesses reported with
//! the parameter, the index and the length; a spin on a plain load ends as
//! a livelock report instead of a hang; a view kept past its launch is
//! stopped before it touches memory.

use std::cell::Cell;

use cg_sim::{LaunchConfig, SimError};
use cooperative_groups::atomic::{Acquire, Block, Device, Relaxed, Release};
use cooperative_groups::host::run;
use cooperative_groups::prelude::*;
use cooperative_groups::{AtomicSlice, Chunked, GlobalSlice, OwnedSlice, PerBlock, kernel};

fn race(r: Result<cg_sim::LaunchStats, SimError>) -> cg_sim::Report {
    match r {
        Err(SimError::DataRace(rep)) => rep,
        other => panic!("expected a data race, got {other:?}"),
    }
}

/// The line of this file that ends with `marker`.
fn marked(marker: &str) -> u32 {
    let src = include_str!("safe_kernels.rs");
    let i = src
        .lines()
        .position(|l| l.trim_end().ends_with(marker))
        .expect("marker");
    i as u32 + 1
}

fn lines(rep: &cg_sim::Report) -> Vec<u32> {
    let mut l: Vec<u32> = rep
        .race_accesses()
        .iter()
        .map(|a| a.location.line)
        .collect();
    l.sort_unstable();
    l
}

// ---- two blocks of a plain launch writing one word -------------------------

#[kernel]
pub fn one_word_from_every_block(out: OwnedSlice<u32>) {
    if this_thread_block().thread_rank() == 0 {
        // SAFETY: in bounds; the race (a test's) is the point.
        unsafe { out.store_unchecked(0, this_grid().block_rank()) };
    }
}

#[kernel]
pub fn one_word_per_block(out: OwnedSlice<u32, PerBlock>) {
    let block = this_thread_block();
    if let Some(e) = out.leader(&block) {
        e.store(this_grid().block_rank());
    }
}

#[test]
fn two_blocks_writing_one_word_race() {
    let mut out = [0u32; 4];
    let rep = race(run(
        &ONE_WORD_FROM_EVERY_BLOCK,
        &LaunchConfig::new(2, 32),
        (&mut out[..],),
    ));
    let text = rep.to_string();
    assert!(text.contains("`out`[0]"), "{text}");
    assert!(
        text.contains("block (0,0,0)") && text.contains("block (1,0,0)"),
        "{text}"
    );
    assert!(text.contains("different blocks"), "{text}");
    assert_eq!(lines(&rep).len(), 2);
    // The twin: one slot per block, written by its leader.
    run(
        &ONE_WORD_PER_BLOCK,
        &LaunchConfig::new(4, 32),
        (&mut out[..],),
    )
    .unwrap();
    assert_eq!(out, [0, 1, 2, 3]);
}

// ---- a block-scope atomic used across blocks --------------------------------

#[kernel]
pub fn count_block_scope(counter: AtomicSlice<u32, Block>) {
    counter.at(0).fetch_add(1, Relaxed);
}

#[kernel]
pub fn count_device_scope(counter: AtomicSlice<u32, Device>) {
    counter.at(0).fetch_add(1, Relaxed);
}

#[test]
fn a_block_scope_atomic_across_blocks_races() {
    let mut c = [0u32; 1];
    let rep = race(run(
        &COUNT_BLOCK_SCOPE,
        &LaunchConfig::new(2, 32),
        (&mut c[..],),
    ));
    let text = rep.to_string();
    assert!(text.contains("atom.relaxed.cta"), "{text}");
    assert!(text.contains("`counter`[0]"), "{text}");
    let mut c = [0u32; 1];
    run(
        &COUNT_DEVICE_SCOPE,
        &LaunchConfig::new(4, 32),
        (&mut c[..],),
    )
    .unwrap();
    assert_eq!(c, [128]);
    // Within one block the block scope is right.
    let mut c = [0u32; 1];
    run(&COUNT_BLOCK_SCOPE, &LaunchConfig::new(1, 64), (&mut c[..],)).unwrap();
    assert_eq!(c, [64]);
}

// ---- another block's output read without a grid barrier -------------------

#[kernel]
pub fn neighbours(
    sync: u32,
    partial: OwnedSlice<u32, PerBlock>,
    result: OwnedSlice<u32, PerBlock>,
) {
    let (block, grid) = (this_thread_block(), this_grid());
    let b = grid.block_rank();
    if let Some(e) = partial.leader(&block) {
        e.store(b * 10); // the write
    }
    if sync == 1 {
        grid.sync();
    }
    let next = ((b + 1) % grid.num_blocks()) as usize;
    let v = partial.load(next); // the read
    if let Some(e) = result.leader(&block) {
        e.store(v);
    }
}

#[test]
fn a_read_of_another_blocks_output_needs_a_grid_barrier() {
    let cfg = LaunchConfig::new(3, 32).with_cooperative(true);
    let (mut p, mut r) = ([0u32; 3], [0u32; 3]);
    let rep = race(run(&NEIGHBOURS, &cfg, (0u32, &mut p[..], &mut r[..])));
    assert!(rep.to_string().contains("`partial`["), "{rep}");
    assert_eq!(
        lines(&rep),
        [marked("// the write"), marked("// the read")],
        "{rep}"
    );
    run(&NEIGHBOURS, &cfg, (1u32, &mut p[..], &mut r[..])).unwrap();
    assert_eq!(r, [10, 20, 0]);
}

// ---- out of bounds ---------------------------------------------------------

#[kernel]
pub fn past_the_end(x: GlobalSlice<f32>, y: OwnedSlice<f32, Chunked<4>>, write: u32) {
    let chunk = y.chunk(&this_grid());
    if write == 1 {
        chunk.store(4, 1.0); // a fifth element of a chunk of four
    } else {
        chunk.store(0, x.load(x.len())); // one past the input
    }
}

#[test]
fn out_of_bounds_accesses_name_the_parameter_index_and_length() {
    let x = [1.0f32; 10];
    let mut y = [0.0f32; 16];
    let cfg = LaunchConfig::new(1, 4);
    for (write, want) in [
        (
            0u32,
            "out-of-bounds read: index 10 of `x`, whose length is 10",
        ),
        (1, "out-of-bounds write: index 4 of `y`, whose length is 16"),
    ] {
        match run(&PAST_THE_END, &cfg, (&x[..], &mut y[..], write)) {
            Err(SimError::OutOfBounds(rep)) => {
                let text = rep.to_string();
                assert!(text.contains(want), "{text}");
                assert!(text.contains("block (0,0,0) thread (0,0,0)"), "{text}");
                assert!(text.contains("safe_kernels.rs"), "{text}");
            }
            other => panic!("expected an out-of-bounds report, got {other:?}"),
        }
    }
}

// ---- a plain-load spin on a flag another block sets --------------------------

#[kernel]
pub fn plain_spin(flag: OwnedSlice<u32, PerBlock>) {
    let (block, grid) = (this_thread_block(), this_grid());
    if grid.block_rank() == 1 {
        if let Some(e) = flag.leader(&block) {
            e.store(1);
        }
    } else if block.thread_rank() == 0 {
        while flag.load(1) == 0 {} // spins on a plain load
    }
}

#[kernel]
pub fn atomic_spin(flag: AtomicSlice<u32>, data: OwnedSlice<u32, PerBlock>) {
    let (block, grid) = (this_thread_block(), this_grid());
    if block.thread_rank() != 0 {
        return;
    }
    if grid.block_rank() == 1 {
        if let Some(e) = data.leader(&block) {
            e.store(42);
        }
        flag.at(0).store(1, Release);
    } else {
        while flag.at(0).load(Acquire) == 0 {
            cooperative_groups::atomic::nanosleep(100);
        }
        assert_eq!(data.load(1), 42);
    }
}

/// `kernel` with `args` on the calling thread (`cg_sim::launch_with`),
/// whatever `CG_SIM_THREADS` says: its blocks communicate (a race), which
/// `launch_parallel`'s workers do not reproduce the same way (block 1 may
/// run while block 0 spins, and end its spin).
fn run_on_one_thread<A, H>(
    kernel: &cooperative_groups::Kernel<A>,
    cfg: &LaunchConfig,
    args: H,
) -> Result<cg_sim::LaunchStats, SimError>
where
    A: cooperative_groups::host::SafeArgs + cooperative_groups::host::KernelParams,
    H: cooperative_groups::host::HostArgs<A>,
{
    let mut to = cooperative_groups::host::Target::sim();
    let params = args
        .into_params(kernel.param_names(), &mut to)
        .map_err(SimError::InvalidLaunch)?;
    let body = kernel.host_fn();
    // SAFETY: the regions and views of `args`, which this call holds (and
    // with them their borrows) until the launch returns.
    unsafe {
        cg_sim::launch_with(&cg_sim::SimDevice::default(), cfg, &to.regions, &|| {
            body(params)
        })
    }
}

#[test]
fn a_spin_on_a_plain_load_is_a_livelock_not_a_hang() {
    let mut flag = [0u32; 2];
    let t = std::time::Instant::now();
    // On one thread, as the one-worker `run` does: with several workers a
    // worker may run block 1 while block 0 spins, and the launch then
    // reports the race on `flag` (the values a racing block reads are not
    // the one-thread run's; see cg-sim's README, "Several cores").
    match run_on_one_thread(&PLAIN_SPIN, &LaunchConfig::new(2, 32), (&mut flag[..],)) {
        Err(SimError::Deadlock(rep)) => {
            let text = rep.to_string();
            assert!(text.contains("livelock"), "{text}");
            assert!(text.contains("safe_kernels.rs"), "{text}");
        }
        other => panic!("expected a livelock report, got {other:?}"),
    }
    assert!(
        t.elapsed().as_secs() < 30,
        "the report came after {:?}",
        t.elapsed()
    );
    // The twin: a release/acquire flag, blocks co-resident (cooperative).
    let (mut f, mut d) = ([0u32; 1], [0u32; 2]);
    let cfg = LaunchConfig::new(2, 32).with_cooperative(true);
    run(&ATOMIC_SPIN, &cfg, (&mut f[..], &mut d[..])).unwrap();
}

// ---- a view kept past its launch ---------------------------------------------
//
// A kernel's body cannot keep its views (`tests/ui/view_kept_*.rs`: a
// compile error). A view made by a launcher's path outside any launch —
// `HostArg::into_param`, whose view may name a longer lifetime than the
// borrow it came from — reaches nothing: the simulator checks every access
// against the running launch's regions.

thread_local! {
    static KEPT: Cell<Option<GlobalSlice<'static, u32>>> = const { Cell::new(None) };
}

#[kernel]
pub fn read_kept(y: OwnedSlice<u32>) {
    if let Some(e) = y.at(&this_grid()) {
        let old = KEPT.with(Cell::get).expect("the test keeps a view");
        e.store(old.load(e.index()));
    }
}

#[test]
fn a_view_made_outside_a_launch_reaches_nothing() {
    use cooperative_groups::host::{HostArg, Target};
    let x: Vec<u32> = (0..32).collect();
    let view: GlobalSlice<'static, u32> = (&x[..]).into_param("x", &mut Target::sim()).unwrap();
    KEPT.with(|k| k.set(Some(view)));
    let mut y = [0u32; 32];
    match run(&READ_KEPT, &LaunchConfig::new(1, 32), (&mut y[..],)) {
        Err(SimError::KernelPanic { message, .. }) => {
            assert!(message.contains("used outside its launch"), "{message}")
        }
        other => panic!("expected the stray view to be stopped, got {other:?}"),
    }
    KEPT.with(|k| k.set(None));
    assert_eq!(y, [0; 32]);
}
