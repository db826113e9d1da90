//! Safe launches (`cooperative_groups::host::run_on`, and cg-runtime's
//! `Backend::launch` on the simulator, which share `launch_safe`) whose
//! parameters cannot carry data between blocks run on the simulator's
//! worker threads: outputs, statistics and reports equal the one-thread
//! run's byte for byte, also when blocks race (the race is reported; on
//! the host their global accesses are relaxed byte atomics). A launch with
//! an `AtomicSlice` (the one safe channel between blocks) keeps to the
//! calling thread, and its blocks may hand values on in block order as
//! before; so does one with a view of an element type with padding.
//! Cooperative launches run in phases between their grid barriers, the
//! blocks of a phase on the workers: the same outputs and reports for
//! every worker count, clean or failing, and several host threads run a
//! phase's blocks.

use cooperative_groups::host::run_on;
use cooperative_groups::prelude::*;
use cooperative_groups::{AtomicSlice, GlobalSlice, OwnedSlice, PerBlock, kernel, shared_array};

/// Each block sums its part of `input` through shared memory and a block
/// reduce; every thread writes its element scaled by the block's sum.
#[kernel]
pub fn scaled(input: GlobalSlice<u32>, out: OwnedSlice<u32>) {
    let block = this_thread_block();
    let grid = this_grid();
    let i = grid.thread_rank() as usize;
    let x = input.load(i);
    let s = shared_array!(u32; 64);
    s.store(block.thread_rank() as usize, x);
    block.sync();
    let left = s.load((block.thread_rank() as usize + 1) % block.num_threads() as usize);
    let sum = reduce(&block.with_max_threads::<64>(), x, Plus);
    if let Some(e) = out.at(&grid) {
        e.store(x.wrapping_mul(sum).wrapping_add(left));
    }
}

/// Reads `input` past its end in block 5 only: a bounds report.
#[kernel]
pub fn past_the_end(input: GlobalSlice<u32>, out: OwnedSlice<u32>) {
    let grid = this_grid();
    let i = grid.thread_rank() as usize;
    let off = if grid.block_rank() == 5 {
        input.len()
    } else {
        0
    };
    let x = input.load(i + off);
    if let Some(e) = out.at(&grid) {
        e.store(x);
    }
}

/// Every thread stores its element, then reads the element after the
/// block's part (the next block's first, or this block's last thread's
/// element wrapped around): a read of another block's plain write, a data
/// race the detector reports. Safe code; on the host the two blocks' bytes
/// are relaxed atomics, whichever threads run them.
#[kernel]
pub fn reads_the_next_block(out: OwnedSlice<u32>) {
    let grid = this_grid();
    let i = grid.thread_rank() as usize;
    if let Some(e) = out.at(&grid) {
        e.store(i as u32);
    }
    let block = this_thread_block();
    if block.thread_rank() == 0 {
        let next = (grid.block_rank() as usize + 1) * block.num_threads() as usize;
        let seen = out.load(next % out.len());
        core::hint::black_box(seen);
    }
}

/// A `Pod` element with padding (a byte, then a 4-byte word).
#[derive(Clone, Copy, Default)]
#[repr(C)]
pub struct Padded {
    tag: u8,
    value: u32,
}
// SAFETY: `repr(C)` of two integers; any bytes, padding included, are a
// value (`PADDING_FREE` stays `false`).
unsafe impl cooperative_groups::Pod for Padded {}

/// Block `b` waits for block `b − 1`'s flag, then raises its own: blocks
/// that communicate (one thread per block). Runs on one thread.
#[kernel]
pub fn chain(flags: AtomicSlice<u32>) {
    let b = this_grid().block_rank() as usize;
    if b > 0 {
        while flags.at(b - 1).load(cooperative_groups::atomic::Acquire) == 0 {}
    }
    flags.at(b).store(1, cooperative_groups::atomic::Release);
}

fn device(workers: usize) -> cg_sim::SimDevice {
    cg_sim::SimDevice {
        workers,
        stack_size: 1 << 20,
        ..Default::default()
    }
}

const BLOCKS: u32 = 24;
const THREADS: u32 = 64;

#[test]
fn clean_launches_match_the_one_thread_run() {
    let n = (BLOCKS * THREADS) as usize;
    let input: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(2_654_435_761))
        .collect();
    let cfg = cg_sim::LaunchConfig::new(BLOCKS, THREADS);
    let mut one = vec![0u32; n];
    let s1 = run_on(&device(1), &SCALED, &cfg, (&input[..], &mut one[..])).unwrap();
    for workers in [2, 4] {
        let mut many = vec![0u32; n];
        let s = run_on(&device(workers), &SCALED, &cfg, (&input[..], &mut many[..])).unwrap();
        assert_eq!(many, one, "{workers} workers");
        assert_eq!(format!("{s:?}"), format!("{s1:?}"), "{workers} workers");
    }
}

#[test]
fn a_failing_launch_reports_as_the_one_thread_run() {
    let n = (BLOCKS * THREADS) as usize;
    let input = vec![1u32; n];
    let cfg = cg_sim::LaunchConfig::new(BLOCKS, THREADS);
    let mut out = vec![0u32; n];
    let one = run_on(&device(1), &PAST_THE_END, &cfg, (&input[..], &mut out[..])).unwrap_err();
    assert!(one.to_string().contains("input"), "{one}");
    for workers in [2, 4] {
        let mut out = vec![0u32; n];
        let many = run_on(
            &device(workers),
            &PAST_THE_END,
            &cfg,
            (&input[..], &mut out[..]),
        )
        .unwrap_err();
        assert_eq!(many.to_string(), one.to_string(), "{workers} workers");
    }
}

#[test]
fn blocks_that_race_report_the_race_of_the_one_thread_run() {
    let n = (BLOCKS * THREADS) as usize;
    let cfg = cg_sim::LaunchConfig::new(BLOCKS, THREADS);
    let mut out = vec![0u32; n];
    let one = run_on(&device(1), &READS_THE_NEXT_BLOCK, &cfg, (&mut out[..],)).unwrap_err();
    assert!(one.to_string().contains("race"), "{one}");
    for workers in [2, 4] {
        let mut out = vec![0u32; n];
        let many = run_on(
            &device(workers),
            &READS_THE_NEXT_BLOCK,
            &cfg,
            (&mut out[..],),
        )
        .unwrap_err();
        assert_eq!(many.to_string(), one.to_string(), "{workers} workers");
    }
}

#[test]
fn blocks_that_communicate_keep_to_one_thread() {
    for cooperative in [false, true] {
        let mut flags = vec![0u32; BLOCKS as usize];
        let cfg = cg_sim::LaunchConfig::new(BLOCKS, 1).with_cooperative(cooperative);
        run_on(&device(4), &CHAIN, &cfg, (&mut flags[..],)).unwrap();
        assert!(flags.iter().all(|&f| f == 1));
    }
}

/// The host threads the blocks of [`where_blocks_ran`] ran on.
/// Whether block 0 of [`where_blocks_ran`] waits for a second thread (set
/// when the launch has several workers).
static WAIT_FOR_PEER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

static THREADS_SEEN: std::sync::Mutex<Vec<std::thread::ThreadId>> =
    std::sync::Mutex::new(Vec::new());

/// Records the host thread that runs each block (a host-only test
/// kernel: its body calls `std`).
#[kernel]
pub fn where_blocks_ran(out: OwnedSlice<u32>) {
    let grid = this_grid();
    if this_thread_block().thread_rank() == 0 {
        let me = std::thread::current().id();
        {
            let mut seen = THREADS_SEEN.lock().unwrap();
            if !seen.contains(&me) {
                seen.push(me);
            }
        }
        // Block 0 waits (at most 2 s) until another host thread has run a
        // block: 24 blocks this small could all be done by one worker
        // before the others start, and the test would then see one thread
        // whatever the scheduler does (it failed so in one CI run).
        if grid.block_rank() == 0 && WAIT_FOR_PEER.load(std::sync::atomic::Ordering::Relaxed) {
            let start = std::time::Instant::now();
            while THREADS_SEEN.lock().unwrap().len() < 2
                && start.elapsed() < std::time::Duration::from_secs(2)
            {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
    }
    if let Some(e) = out.at(&grid) {
        e.store(1);
    }
}

#[test]
fn the_blocks_run_on_several_threads_and_only_when_they_cannot_communicate() {
    use cooperative_groups::host::SafeArgs;
    const {
        assert!(!<(GlobalSlice<u32>, OwnedSlice<u32>, u32) as SafeArgs>::SERIAL);
        assert!(<(GlobalSlice<u32>, AtomicSlice<u32>) as SafeArgs>::SERIAL);
        assert!(<([u32; 2], AtomicSlice<u64>) as SafeArgs>::SERIAL);
        // Padding bytes may be uninitialised: no byte-wise host atomics.
        assert!(<(GlobalSlice<Padded>, OwnedSlice<u32>) as SafeArgs>::SERIAL);
        assert!(<(OwnedSlice<Padded>,) as SafeArgs>::SERIAL);
        assert!(!<(OwnedSlice<[f32; 4]>, GlobalSlice<u8>) as SafeArgs>::SERIAL);
    }
    let mut out = vec![0u32; (BLOCKS * 32) as usize];
    let cfg = cg_sim::LaunchConfig::new(BLOCKS, 32);
    WAIT_FOR_PEER.store(
        device(4).worker_count() > 1,
        std::sync::atomic::Ordering::Relaxed,
    );
    run_on(&device(4), &WHERE_BLOCKS_RAN, &cfg, (&mut out[..],)).unwrap();
    assert!(out.iter().all(|&x| x == 1));
    let seen = THREADS_SEEN.lock().unwrap().len();
    // (`CG_SIM_THREADS=1` in the environment keeps every launch on one.)
    if device(4).worker_count() > 1 {
        assert!(seen > 1, "{seen} thread(s) ran the blocks");
    }
}

// ---- cooperative launches ----------------------------------------------

const COOP_BLOCKS: u32 = 16;

/// A cooperative kernel of four phases, three grid barriers and a grid
/// reduce (the grid scratch): each block stages its inputs in shared
/// memory and reduces them into `a`; then three rounds, each after a grid
/// barrier, read the next block's element of the buffer the round before
/// wrote and write the thread's own element of the other one; every
/// block's leader stores the grid's sum of the last round. `flaw` breaks
/// it: 1 a read of another block's element written in the same phase (a
/// race), 2 block 5 leaves before the last round's grid barrier (a
/// deadlock), 3 half of block 4 makes a tile before a grid barrier (a
/// misuse), 4 a panic in block 11 in the second round.
#[kernel]
pub fn rounds(
    input: GlobalSlice<u32>,
    a: OwnedSlice<u32>,
    b: OwnedSlice<u32>,
    totals: OwnedSlice<u32, PerBlock>,
    flaw: u32,
) {
    let block = this_thread_block();
    let grid = this_grid();
    let (i, r) = (grid.thread_rank() as usize, block.thread_rank() as usize);
    let (n, br) = (block.num_threads() as usize, grid.block_rank());
    let x = input.load(i);
    let s = shared_array!(u32; 64);
    s.store(r, x);
    block.sync();
    let left = s.load((r + 1) % n);
    let sum = reduce(
        &this_thread_block().with_max_threads::<64>(),
        x ^ left,
        Plus,
    );
    let mut v = x.wrapping_add(sum);
    if let Some(e) = a.at(&grid) {
        e.store(v);
    }
    for round in 0..3u32 {
        if flaw == 2 && br == 5 && round == 2 {
            return;
        }
        if flaw == 3 && br == 4 && r < 32 && round == 1 {
            let _ = tiled_partition::<32>(&block);
        }
        grid.sync();
        let (src, dst) = if round % 2 == 0 { (a, b) } else { (b, a) };
        // Written by the next block before the grid barrier: ordered.
        let y = src.load((i + n) % src.len());
        if flaw == 1 && round == 1 && br == 2 && r == 0 {
            // Block 9's element of this round: written in this phase.
            core::hint::black_box(dst.load(9 * n));
        }
        if flaw == 4 && round == 1 && br == 11 && r == 3 {
            panic!("block 11 gives up");
        }
        v = y.wrapping_mul(3).wrapping_add(round ^ v);
        if let Some(e) = dst.at(&grid) {
            e.store(v);
        }
    }
    let total = grid.reduce(v, Plus);
    if let Some(e) = totals.leader(&block) {
        e.store(total);
    }
}

/// [`rounds`] with `flaw` on `workers`: the report (or statistics) and
/// the outputs of a clean launch.
fn run_rounds(workers: usize, flaw: u32) -> (String, Vec<u32>) {
    let n = (COOP_BLOCKS * THREADS) as usize;
    let input: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(2_654_435_761))
        .collect();
    let (mut a, mut b, mut t) = (
        vec![0u32; n],
        vec![0u32; n],
        vec![0u32; COOP_BLOCKS as usize],
    );
    let cfg = cg_sim::LaunchConfig::new(COOP_BLOCKS, THREADS).with_cooperative(true);
    let r = run_on(
        &device(workers),
        &ROUNDS,
        &cfg,
        (&input[..], &mut a[..], &mut b[..], &mut t[..], flaw),
    );
    match r {
        Ok(stats) => (format!("{stats:?}"), [a, b, t].concat()),
        Err(e) => (format!("{e}\n{e:?}"), Vec::new()),
    }
}

#[test]
fn cooperative_launches_match_the_one_thread_run() {
    let kinds = [
        "LaunchStats",
        "data race",
        "deadlock",
        "misuse",
        "block 11 gives up",
    ];
    for (flaw, kind) in kinds.into_iter().enumerate() {
        let one = run_rounds(1, flaw as u32);
        assert!(one.0.contains(kind), "flaw {flaw}: {}", one.0);
        for workers in [2, 3, 8] {
            let many = run_rounds(workers, flaw as u32);
            assert_eq!(many.0, one.0, "flaw {flaw}, {workers} workers");
            assert!(many.1 == one.1, "flaw {flaw}, {workers} workers: outputs");
        }
    }
    // The clean launch's sums are the grid's: one value in every block.
    let (_, out) = run_rounds(2, 0);
    let t = &out[out.len() - COOP_BLOCKS as usize..];
    assert!(t.iter().all(|&x| x == t[0]), "{t:?}");
}

/// Whether block 0 of [`coop_threads`] waits for a second thread in each
/// phase, and the (phase, block, host thread) of each block's phases.
static COOP_WAIT_FOR_PEER: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

type Seen = (u32, u32, std::thread::ThreadId);

static COOP_SEEN: std::sync::Mutex<Vec<Seen>> = std::sync::Mutex::new(Vec::new());

/// The host threads that ran blocks in `phase`.
fn threads_in(seen: &[Seen], phase: u32) -> usize {
    let mut t: Vec<String> = seen
        .iter()
        .filter(|e| e.0 == phase)
        .map(|e| format!("{:?}", e.2))
        .collect();
    t.sort();
    t.dedup();
    t.len()
}

/// Records, in each of three phases, the host thread that runs each
/// block (a host-only test kernel: its body calls `std`).
#[kernel]
pub fn coop_threads(out: OwnedSlice<u32>) {
    let grid = this_grid();
    for phase in 0..3u32 {
        if phase > 0 {
            grid.sync();
        }
        if this_thread_block().thread_rank() != 0 {
            continue;
        }
        let me = std::thread::current().id();
        COOP_SEEN
            .lock()
            .unwrap()
            .push((phase, grid.block_rank(), me));
        // Block 0 waits (at most 2 s) until another host thread has run a
        // block of this phase: the blocks are small enough for one worker
        // to run all of its own before another starts.
        if grid.block_rank() == 0 && COOP_WAIT_FOR_PEER.load(std::sync::atomic::Ordering::Relaxed) {
            let start = std::time::Instant::now();
            while threads_in(&COOP_SEEN.lock().unwrap(), phase) < 2
                && start.elapsed() < std::time::Duration::from_secs(2)
            {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
    }
    if let Some(e) = out.at(&grid) {
        e.store(1);
    }
}

#[test]
fn a_cooperative_launchs_blocks_run_on_several_threads_in_every_phase() {
    let mut out = vec![0u32; (BLOCKS * 32) as usize];
    let cfg = cg_sim::LaunchConfig::new(BLOCKS, 32).with_cooperative(true);
    let several = device(4).worker_count() > 1;
    COOP_WAIT_FOR_PEER.store(several, std::sync::atomic::Ordering::Relaxed);
    run_on(&device(4), &COOP_THREADS, &cfg, (&mut out[..],)).unwrap();
    assert!(out.iter().all(|&x| x == 1));
    let seen = COOP_SEEN.lock().unwrap().clone();
    assert_eq!(seen.len(), 3 * BLOCKS as usize);
    // A block stays on the thread that started it, from phase to phase.
    for &(_, b, t) in &seen {
        assert!(
            seen.iter().filter(|e| e.1 == b).all(|e| e.2 == t),
            "block {b}"
        );
    }
    // (`CG_SIM_THREADS=1` in the environment keeps every launch on one.)
    if several {
        for phase in 0..3 {
            let n = threads_in(&seen, phase);
            assert!(n > 1, "phase {phase}: {n} thread(s) ran the blocks");
        }
    }
}
