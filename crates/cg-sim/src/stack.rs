//! A pool of lane stacks, reused across blocks and (a bounded number) across
//! launches on the same OS thread.

use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};

use corosensei::stack::DefaultStack;

use crate::SimError;

/// Stacks kept per OS thread between launches.
const CACHE_MAX: usize = 1024;

/// Stacks kept by a thread after a cooperative launch: every lane of its
/// grid held one at once, and the thread's next launch is likely the same
/// grid again (an iteration, a test, a benchmark). Without them each such
/// launch mapped and unmapped thousands of stacks, which took as long as
/// running the kernel (12 288 lanes: 18 ms to map, 22 ms of first-touch
/// faults, 37 ms to unmap), serially on the launching thread whatever the
/// worker count. Half the process's limit, so that other threads can still
/// make as many; the next launch that is not cooperative gives all but
/// [`CACHE_MAX`] back.
const COOP_CACHE_MAX: usize = MAX_LIVE_STACKS / 2;

/// Lane stacks alive in the whole process at most. Each guarded stack takes
/// two memory mappings and Linux allows about 65 000 per process
/// (`vm.max_map_count`); past this cap a launch fails cleanly instead of
/// some unrelated allocation failing later.
pub const MAX_LIVE_STACKS: usize = 24_000;

// Every live stack has a slot in the guard-page table.
#[cfg(unix)]
const _: () = assert!(crate::overflow::GUARD_SLOTS == MAX_LIVE_STACKS);

static LIVE_STACKS: AtomicUsize = AtomicUsize::new(0);

/// Stacks created so far in the process: the next one's colour.
static CREATED: AtomicUsize = AtomicUsize::new(0);

/// The largest colour offset, in bytes (added to the mapping, so a lane
/// still has its full `stack_size`).
const MAX_COLOUR: usize = 63 * 64 + 7 * 4096;

/// The offset of the `k`-th stack's top below its mapping's top: lanes
/// switch stacks at every collective, and stacks whose tops sat at the
/// same address modulo the cache's set stride (every mapping is
/// page-aligned and of one size) would all compete for the same few cache
/// sets. 64 line offsets x 8 page colours spread 512 consecutive stacks
/// over the L1 and L2 sets.
fn colour(k: usize) -> usize {
    (k % 64) * 64 + ((k / 64) % 8) * 4096
}

/// A lane stack, counted against [`MAX_LIVE_STACKS`], its guard page
/// registered for the overflow report (`overflow`), and its colour offset.
pub(crate) struct LaneStack(DefaultStack, Option<usize>, usize);

impl LaneStack {
    fn new(size: usize) -> Result<LaneStack, SimError> {
        let live = LIVE_STACKS.fetch_add(1, Ordering::Relaxed);
        if live >= MAX_LIVE_STACKS {
            LIVE_STACKS.fetch_sub(1, Ordering::Relaxed);
            return Err(SimError::InvalidLaunch(format!(
                "too many simulated lanes resident at once: {MAX_LIVE_STACKS} lane stacks are alive in this \
                 process (cooperative launches running on several threads?); use a smaller cooperative grid \
                 or a SimDevice with fewer SMs"
            )));
        }
        match DefaultStack::new(size + MAX_COLOUR) {
            Ok(s) => {
                let slot = register_guard(&s);
                let off = colour(CREATED.fetch_add(1, Ordering::Relaxed));
                Ok(LaneStack(s, slot, off))
            }
            Err(e) => {
                LIVE_STACKS.fetch_sub(1, Ordering::Relaxed);
                Err(SimError::InvalidLaunch(format!(
                    "cannot allocate a {} KiB lane stack: {e} (too many lanes resident at once? \
                     lower SimDevice::stack_size or the grid of a cooperative launch)",
                    size / 1024
                )))
            }
        }
    }
}

/// Registers the guard page of `s` for the overflow report: the lowest page
/// of the mapping, which corosensei reports as the stack's limit.
#[cfg(unix)]
fn register_guard(s: &DefaultStack) -> Option<usize> {
    let limit = corosensei::stack::Stack::limit(s).get();
    crate::overflow::register(limit, limit + crate::overflow::page_size())
}

#[cfg(not(unix))]
fn register_guard(_: &DefaultStack) -> Option<usize> {
    None
}

impl Drop for LaneStack {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Some(slot) = self.1 {
            crate::overflow::unregister(slot);
        }
        LIVE_STACKS.fetch_sub(1, Ordering::Relaxed);
    }
}

// SAFETY: forwards to `DefaultStack`, a valid stack for its whole lifetime.
unsafe impl corosensei::stack::Stack for LaneStack {
    fn base(&self) -> corosensei::stack::StackPointer {
        // The colour offset is a multiple of 64 and at most MAX_COLOUR,
        // which the mapping has in excess of the usable size: the top stays
        // aligned and inside the stack.
        corosensei::stack::StackPointer::new(self.0.base().get() - self.2)
            .expect("a stack top is non-zero")
    }
    fn limit(&self) -> corosensei::stack::StackPointer {
        self.0.limit()
    }
    #[cfg(windows)]
    fn teb_fields(&self) -> corosensei::stack::StackTebFields {
        self.0.teb_fields()
    }
    #[cfg(windows)]
    fn update_teb_fields(&mut self, stack_limit: usize, guaranteed_stack_bytes: usize) {
        self.0
            .update_teb_fields(stack_limit, guaranteed_stack_bytes)
    }
}

thread_local! {
    static CACHE: RefCell<(usize, Vec<LaneStack>)> = const { RefCell::new((0, Vec::new())) };
}

pub(crate) struct StackPool {
    size: usize,
    free: Vec<LaneStack>,
    /// Free stacks the thread keeps when the pool drops.
    keep: usize,
}

impl StackPool {
    /// A pool of stacks of `size` bytes, seeded from this thread's cache.
    pub fn new(size: usize) -> StackPool {
        let free = CACHE
            .try_with(|c| {
                let mut c = c.borrow_mut();
                if c.0 == size {
                    std::mem::take(&mut c.1)
                } else {
                    Vec::new()
                }
            })
            .unwrap_or_default();
        StackPool {
            size,
            free,
            keep: CACHE_MAX,
        }
    }

    /// The pool of a cooperative launch: the thread keeps its stacks for
    /// the next launch (up to [`COOP_CACHE_MAX`]).
    pub fn for_cooperative(mut self) -> StackPool {
        self.keep = COOP_CACHE_MAX;
        self
    }

    pub fn get(&mut self) -> Result<LaneStack, SimError> {
        match self.free.pop() {
            Some(s) => Ok(s),
            None => LaneStack::new(self.size),
        }
    }

    pub fn put(&mut self, s: LaneStack) {
        self.free.push(s);
    }

    /// A pool of the stacks `free` only (this thread's cache untouched),
    /// for a thread that runs some of a launch's units with stacks
    /// another thread made.
    pub fn with_stacks(size: usize, free: Vec<LaneStack>) -> StackPool {
        StackPool {
            size,
            free,
            keep: CACHE_MAX,
        }
    }

    /// Up to `n` stacks for another thread (free ones first, then new
    /// ones; fewer if no more can be made: that thread's pool then makes
    /// them, and reports the failure where a one-thread run would).
    pub fn lend(&mut self, n: usize) -> Vec<LaneStack> {
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            match self.get() {
                Ok(s) => out.push(s),
                Err(_) => break,
            }
        }
        out
    }

    /// Every free stack, leaving the pool empty.
    pub fn take_free(&mut self) -> Vec<LaneStack> {
        std::mem::take(&mut self.free)
    }
}

impl Drop for StackPool {
    fn drop(&mut self) {
        let mut free = std::mem::take(&mut self.free);
        free.truncate(self.keep);
        let size = self.size;
        let _ = CACHE.try_with(|c| {
            if let Ok(mut c) = c.try_borrow_mut() {
                *c = (size, free);
            }
        });
    }
}
