//! Safe code never reaches memory the simulator does not own (issue 55):
//! each test makes one of the attacks that used to corrupt the simulator's
//! heap or crash it, through the safe API, and checks that the launch ends
//! with a report naming the misuse and the line of this file that made it.
//!
//! * Shared-memory handles (`shared_array!`, `dynamic_shared`, their
//!   slices, a primitive's `TempStorage`) are plain pointers that a kernel
//!   can keep past its block on the host (a `Cell` of the launch's closure,
//!   a `thread_local!`), while the block's end frees the memory: every use
//!   through a handle checks that it belongs to the calling thread's
//!   running block (a mapped handle: to a running block of its cluster).
//!   A group handle kept past its block works in the calling block's
//!   collective scratch, never in the freed one.
//! * A thread that unwinds (its own panic, or the teardown after another
//!   thread's report) still gets valid shared memory, and a handle it may
//!   not use is skipped, never dereferenced.
//! * A typed write into a parameter its launcher registered read-only is a
//!   report, not a silent write (forging a region at all needs `unsafe`:
//!   `tests/ui/region_*.rs`).

use std::cell::Cell;

use cg_sim::{LaunchConfig, Region, SimDevice, SimError, launch};
use cooperative_groups::atomic::Relaxed;
use cooperative_groups::ops::Plus;
use cooperative_groups::primitives::{BlockExchange, TempStorage};
use cooperative_groups::{
    AtomicSlice, DynamicShared, OwnedSlice, SharedArray, SharedSlice, ThreadBlock, dynamic_shared,
    memcpy_async, reduce, shared_array, temp_storage, this_cluster, this_grid, this_thread_block,
    wait,
};

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

/// `blockIdx.x` of the calling thread.
fn block_x() -> u32 {
    cg_sim::lane::block_idx()[0]
}

// ---- shared-memory handles that outlive their block ------------------------

#[test]
fn a_shared_array_kept_past_its_block_is_reported() {
    let kept: Cell<Option<SharedArray<u32, 4>>> = Cell::new(None);
    let e = launch(&LaunchConfig::new(2, 32), &|| {
        let a = shared_array!(u32; 4);
        if block_x() == 0 {
            if this_thread_block().thread_rank() == 0 {
                kept.set(Some(a));
            }
        } else if let Some(old) = kept.get() {
            old.store(0, 0x4242_4242); // block 0's memory, freed
        }
    })
    .expect_err("block 1 writes through block 0's handle");
    assert_misuse_at(
        &e,
        "shared-memory store: a shared-memory handle of block (0,0,0) used after that block ended",
        "old.store(0, 0x4242_4242)",
    );
    assert!(
        e.to_string().contains("block (1,0,0) thread (0,0,0)"),
        "{e}"
    );
}

thread_local! {
    /// A handle kept from one launch to the next.
    static KEPT: Cell<Option<SharedArray<u32, 4>>> = const { Cell::new(None) };
}

#[test]
fn a_shared_array_kept_in_a_thread_local_across_launches_is_reported() {
    launch(&LaunchConfig::new(1, 32), &|| {
        let a = shared_array!(u32; 4);
        if this_thread_block().thread_rank() == 0 {
            a.store(0, 0x4242_4242);
            KEPT.set(Some(a));
        }
    })
    .expect("the first launch keeps its handle");
    let e = launch(&LaunchConfig::new(1, 32), &|| {
        let old = KEPT.get().expect("kept by the first launch");
        let _ = old.load(0); // the first launch's block is gone
    })
    .expect_err("the second launch reads the first one's shared memory");
    assert_misuse_at(
        &e,
        "shared-memory load: a shared-memory handle of block (0,0,0) used after that block ended",
        "old.load(0)",
    );
}

#[test]
fn an_atomic_through_a_kept_handle_is_reported() {
    let kept: Cell<Option<SharedArray<u32, 4>>> = Cell::new(None);
    let e = launch(&LaunchConfig::new(2, 32), &|| {
        let a = shared_array!(u32; 4);
        if block_x() == 0 {
            kept.set(Some(a));
        } else if let Some(old) = kept.get() {
            let _ = old.fetch_add(1, 1);
        }
    })
    .expect_err("an atomic on block 0's freed memory");
    assert_misuse_at(
        &e,
        "shared-memory atomic: a shared-memory handle of block (0,0,0) used after that block ended",
        "old.fetch_add(1, 1)",
    );
}

#[test]
fn a_kept_slice_as_a_wgmma_operand_is_reported() {
    use cooperative_groups::tma::Swizzle128B;
    use cooperative_groups::wgmma::SmemMatrix;
    let slice: Cell<Option<SharedSlice<cooperative_groups::bf16>>> = Cell::new(None);
    let e = launch(&LaunchConfig::new(2, 32), &|| {
        let a = shared_array!(cooperative_groups::bf16; 8 * 64, align 1024);
        if block_x() == 0 {
            slice.set(Some(a.as_slice()));
        } else if let Some(old) = slice.get() {
            let _ = SmemMatrix::<_, Swizzle128B>::k_major(&old, 8);
        }
    })
    .expect_err("block 0's tile, described for a multiply by block 1");
    assert_misuse_at(&e, "used after that block ended", "k_major(&old, 8)");
}

#[test]
fn a_kept_slice_and_a_kept_dynamic_handle_are_reported() {
    let slice: Cell<Option<SharedSlice<u32>>> = Cell::new(None);
    let e = launch(&LaunchConfig::new(2, 32), &|| {
        let a = shared_array!(u32; 8);
        if block_x() == 0 {
            slice.set(Some(a.slice(2, 4)));
        } else if let Some(old) = slice.get() {
            old.store(3, 1);
        }
    })
    .expect_err("a slice of block 0's array, used by block 1");
    assert_misuse_at(&e, "used after that block ended", "old.store(3, 1)");

    let dynamic: Cell<Option<DynamicShared<u32>>> = Cell::new(None);
    let cfg = LaunchConfig::new(2, 32).with_dynamic_smem(256);
    let e = launch(&cfg, &|| {
        let d = dynamic_shared::<u32>();
        if block_x() == 0 {
            dynamic.set(Some(d));
        } else if let Some(old) = dynamic.get() {
            old.array_at::<4>(4).store(0, 1);
        }
    })
    .expect_err("block 0's dynamic shared memory, used by block 1");
    assert_misuse_at(
        &e,
        "used after that block ended",
        "old.array_at::<4>(4).store(0, 1)",
    );
}

#[test]
fn memcpy_async_into_a_kept_slice_is_reported() {
    let input: Vec<u32> = (0..64).collect();
    let kept: Cell<Option<SharedSlice<u32>>> = Cell::new(None);
    let e = launch(&LaunchConfig::new(2, 32), &|| {
        let a = shared_array!(u32; 64);
        let block = this_thread_block();
        if block_x() == 0 {
            kept.set(Some(a.as_slice()));
        } else if let Some(old) = kept.get() {
            memcpy_async(&block, old, &input); // into freed memory
            wait(&block);
        }
    })
    .expect_err("a copy into block 0's freed shared memory");
    assert_misuse_at(
        &e,
        "memcpy_async destination: a shared-memory handle of block (0,0,0) used after that block ended",
        "memcpy_async(&block, old, &input)",
    );
}

#[test]
fn a_primitives_storage_kept_past_its_block_is_reported() {
    type Exchange = BlockExchange<u32, 32, 2>;
    let kept: Cell<Option<TempStorage<Exchange>>> = Cell::new(None);
    let e = launch(&LaunchConfig::new(2, 32), &|| {
        let block = this_thread_block().with_threads::<32>();
        let temp = temp_storage!(Exchange);
        if block_x() == 0 {
            kept.set(Some(temp));
        } else if let Some(old) = kept.get() {
            let r = block.thread_rank();
            let _ = Exchange::new(&block, &old).blocked_to_striped([2 * r, 2 * r + 1]);
        }
    })
    .expect_err("a primitive working in block 0's freed storage");
    let r = e.report().expect("a report");
    assert!(matches!(e, SimError::Misuse(_)), "{e}");
    assert!(
        r.summary
            .contains("primitive's temporary storage: a shared-memory handle of block (0,0,0) used after that block ended"),
        "{e}"
    );
}

#[test]
fn a_handle_used_by_another_running_block_is_reported() {
    // Both blocks of a cluster run together: block 0's memory is alive,
    // but it is not block 1's (on the GPU, block 1 would reach its own).
    let kept: Cell<Option<SharedArray<u32, 4>>> = Cell::new(None);
    let cfg = LaunchConfig::new(2, 32).with_cluster(2);
    let e = launch(&cfg, &|| {
        let a = shared_array!(u32; 4);
        let cluster = this_cluster();
        if cluster.block_rank() == 0 && this_thread_block().thread_rank() == 0 {
            kept.set(Some(a));
        }
        cluster.sync();
        if cluster.block_rank() == 1 {
            let other = kept.get().expect("block 0 kept it");
            other.store(1, 7);
        }
        cluster.sync();
    })
    .expect_err("block 1 writes block 0's array through a copied handle");
    assert_misuse_at(
        &e,
        "shared-memory store: a shared-memory handle of block (0,0,0) used from block (1,0,0)",
        "other.store(1, 7)",
    );
}

#[test]
fn a_kept_handle_cannot_be_mapped_to_a_peer() {
    let kept: Cell<Option<SharedArray<u32, 4>>> = Cell::new(None);
    let cfg = LaunchConfig::new(4, 32).with_cluster(2);
    let e = launch(&cfg, &|| {
        let a = shared_array!(u32; 4);
        let cluster = this_cluster();
        if block_x() == 0 {
            kept.set(Some(a));
        }
        cluster.sync();
        if block_x() == 2 {
            let old = kept.get().expect("the first cluster kept it");
            let _ = cluster.map_shared_array(old, 1);
        }
        cluster.sync();
    })
    .expect_err("the second cluster maps the first cluster's array");
    assert_misuse_at(
        &e,
        "map_shared_array: a shared-memory handle of block (0,0,0) used after that block ended",
        "cluster.map_shared_array(old, 1)",
    );
}

#[test]
fn a_block_handle_kept_past_its_block_reaches_only_the_callers_memory() {
    // A group handle carries its block's collective scratch (2 KiB): kept
    // past the block, it must not exchange through the freed one. Each
    // thread of block 1 takes the handle of the thread of block 0 with its
    // rank; block 1's first shared allocation, an array of the scratch's
    // size, may get the freed scratch's address (the allocator decides):
    // the reduction must run in block 1's own scratch, with the right sum,
    // and leave the array alone.
    let kept: Vec<Cell<Option<ThreadBlock>>> = (0..64).map(|_| Cell::new(None)).collect();
    launch(&LaunchConfig::new(2, 64), &|| {
        let t = cg_sim::lane::thread_idx()[0];
        if block_x() == 0 {
            kept[t as usize].set(Some(this_thread_block()));
            return;
        }
        let mine = shared_array!(u32; 512);
        mine.store(t as usize, 9);
        let old = kept[t as usize].take().expect("kept by block 0");
        assert_eq!(reduce(&old, t, Plus), (0..64).sum::<u32>());
        assert_eq!(
            mine.load(t as usize),
            9,
            "the reduction wrote the block's array"
        );
    })
    .expect("the reduction runs in the calling block's scratch");
}

#[test]
fn a_dsmem_read_from_a_peer_that_exited_is_reported() {
    let cfg = LaunchConfig::new(2, 32).with_cluster(2);
    let e = launch(&cfg, &|| {
        let cluster = this_cluster();
        let a = shared_array!(u32; 32);
        if cluster.block_rank() == 1 {
            return; // no cluster barrier before the exit: the bug
        }
        let peer = cluster.map_shared_array(a, 1);
        // Completes once every thread of block 1 has exited (exited
        // threads do not count), so the read comes after the exit.
        cluster.sync();
        let _ = peer.load(0);
    })
    .expect_err("a read of an exited block's shared memory");
    assert_misuse_at(
        &e,
        "shared-memory load: a distributed shared memory handle of block (1,0,0) used after that block exited",
        "peer.load(0)",
    );
}

// A `memcpy_async` into a peer's array no longer compiles: a peer's
// `as_slice` is a `SharedSlice<T, Peer>`, and the copies take this block's
// `SharedSlice<T>` (tests/ui/memcpy_async_into_a_peers_slice.rs).

#[test]
fn a_live_peer_is_still_reachable_through_a_mapped_handle() {
    // The checks refuse nothing the GPU allows: each block writes its own
    // array, reads its peer's between two cluster barriers.
    let cfg = LaunchConfig::new(2, 32).with_cluster(2);
    launch(&cfg, &|| {
        let cluster = this_cluster();
        let t = this_thread_block().thread_rank() as usize;
        let a = shared_array!(u32; 32);
        a.store(t, 100 * cluster.block_rank() + t as u32);
        cluster.sync();
        let other = 1 - cluster.block_rank();
        let peer = cluster.map_shared_array(a, other);
        assert_eq!(peer.load(t), 100 * other + t as u32);
        assert_eq!(peer.as_slice().load(t), 100 * other + t as u32);
        cluster.sync();
    })
    .expect("DSMEM between running blocks is fine");
}

// ---- shared memory while a thread unwinds ------------------------------------

/// Writes the thread's word of a block-wide shared array when dropped:
/// `shared_array!` evaluated while the thread unwinds.
struct StoreOnDrop(usize);

impl Drop for StoreOnDrop {
    fn drop(&mut self) {
        shared_array!(u32; 64).store(self.0, 1);
    }
}

#[test]
fn shared_memory_in_a_destructor_of_a_panicking_thread() {
    let e = launch(&LaunchConfig::new(1, 64), &|| {
        let t = this_thread_block().thread_rank() as usize;
        let _guard = StoreOnDrop(t);
        if t == 5 {
            panic!("thread 5 gives up");
        }
    })
    .expect_err("thread 5 panics");
    let SimError::KernelPanic {
        message, location, ..
    } = &e
    else {
        panic!("expected the panic: {e}");
    };
    assert_eq!(message, "thread 5 gives up");
    let loc = location.as_ref().expect("the panic's line");
    assert_eq!(loc.file, file!());
    let line = SOURCE.lines().nth(loc.line as usize - 1).unwrap();
    assert!(line.contains("panic!(\"thread 5 gives up\")"), "{e}");
}

#[test]
fn shared_memory_in_destructors_run_by_the_teardown() {
    // Thread 0's misuse ends the launch while the others wait at a block
    // barrier: the teardown unwinds them, and their destructors write
    // shared memory.
    let e = launch(&LaunchConfig::new(1, 64), &|| {
        let block = this_thread_block();
        let t = block.thread_rank() as usize;
        let _guard = StoreOnDrop(t);
        block.sync();
        if t == 0 {
            this_grid().sync(); // not a cooperative launch: a misuse
        }
        block.sync();
    })
    .expect_err("a grid sync outside a cooperative launch");
    assert_misuse_at(
        &e,
        "grid sync outside a cooperative launch",
        "this_grid().sync()",
    );
}

thread_local! {
    /// A handle kept for a destructor of a later launch.
    static STALE: Cell<Option<SharedArray<u32, 64>>> = const { Cell::new(None) };
}

/// One array per block, the same allocation site in every launch (so a
/// later launch's block likely gets the freed block's address again).
fn words() -> SharedArray<u32, 64> {
    shared_array!(u32; 64)
}

/// Writes through the handle an earlier launch kept, when dropped while
/// its thread unwinds.
struct StoreThroughStale(usize);

impl Drop for StoreThroughStale {
    fn drop(&mut self) {
        if std::thread::panicking()
            && let Some(old) = STALE.get()
        {
            old.store(self.0, 0x4242_4242);
        }
    }
}

/// Records word 3 of its block's `words()` (a handle made while the thread
/// ran), when dropped while its thread is unwound by the teardown.
struct ReadWhileUnwinding<'a>(&'a Cell<u32>, SharedArray<u32, 64>);

impl Drop for ReadWhileUnwinding<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.set(self.1.load(3));
        }
    }
}

#[test]
fn a_destructor_writing_through_a_kept_handle_while_unwinding_writes_nothing() {
    launch(&LaunchConfig::new(1, 32), &|| {
        if this_thread_block().thread_rank() == 0 {
            STALE.set(Some(words()));
        }
    })
    .expect("the first launch keeps its handle");
    // An unwinding thread cannot be stopped by a report: its write through
    // the freed block's handle is skipped (it must not land in freed
    // memory, nor in this block's array, which likely has the freed one's
    // address), and the launch reports the panic that started the
    // unwinding. Thread 4, unwound by the teardown (from the first block
    // barrier, where it still waits), reads the word.
    let seen = Cell::new(0);
    let e = launch(&LaunchConfig::new(1, 32), &|| {
        let block = this_thread_block();
        let t = block.thread_rank() as usize;
        let _reader = (t == 4).then(|| ReadWhileUnwinding(&seen, words()));
        words().store(t, 7);
        block.sync();
        if t == 3 {
            let _guard = StoreThroughStale(3);
            panic!("thread 3 unwinds through a stale handle");
        }
        block.sync();
    })
    .expect_err("thread 3 panics");
    assert!(
        e.to_string()
            .contains("thread 3 unwinds through a stale handle"),
        "{e}"
    );
    assert_eq!(seen.get(), 7, "the stale handle wrote the block's array");
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

// ---- global memory while a thread unwinds ------------------------------------

/// Reads and writes the thread's element of a typed output when dropped:
/// typed global accesses made while the thread unwinds.
struct GlobalOnDrop<'a>(cooperative_groups::OwnedSlice<'a, u32>);

impl Drop for GlobalOnDrop<'_> {
    fn drop(&mut self) {
        if let Some(e) = self.0.at(&this_grid()) {
            e.store(e.load() + 1);
        }
    }
}

#[cooperative_groups::kernel]
pub fn global_in_destructors(out: cooperative_groups::OwnedSlice<u32>) {
    let block = this_thread_block();
    let _guard = GlobalOnDrop(out);
    block.sync();
    if block.thread_rank() == 0 {
        this_grid().sync(); // not a cooperative launch: a misuse
    }
    block.sync();
}

#[cooperative_groups::kernel]
pub fn global_in_a_panicking_destructor(out: cooperative_groups::OwnedSlice<u32>) {
    let _guard = GlobalOnDrop(out);
    if this_thread_block().thread_rank() == 5 {
        panic!("thread 5 gives up");
    }
}

#[test]
fn typed_global_memory_in_destructors_of_unwinding_threads() {
    // The teardown after thread 0's misuse unwinds the other threads, whose
    // destructors load and store their elements: the launch ends with the
    // report (the process does not abort on a second panic).
    let mut out = [0u32; 64];
    let e = cooperative_groups::host::run(
        &GLOBAL_IN_DESTRUCTORS,
        &LaunchConfig::new(1, 64),
        (&mut out[..],),
    )
    .expect_err("a grid sync outside a cooperative launch");
    assert_misuse_at(
        &e,
        "grid sync outside a cooperative launch",
        "this_grid().sync()",
    );
    // Thread 5's own panic: its destructor and every other thread's ran.
    let mut out = [0u32; 64];
    let e = cooperative_groups::host::run(
        &GLOBAL_IN_A_PANICKING_DESTRUCTOR,
        &LaunchConfig::new(1, 64),
        (&mut out[..],),
    )
    .expect_err("thread 5 panics");
    assert!(e.to_string().contains("thread 5 gives up"), "{e}");
    assert!(out.iter().all(|&w| w <= 1), "{out:?}");
}
