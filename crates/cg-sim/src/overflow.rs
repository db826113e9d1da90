//! A lane that overflows its stack hits the guard page below it, and the
//! process dies of `SIGSEGV` with no word of why. This module keeps the
//! guard pages of live lane stacks in a lock-free table and installs a
//! `SIGSEGV`/`SIGBUS` handler that, for a fault inside one of them, prints
//! what happened and how to fix it before exiting; any other fault goes on
//! to the handler that was there before (Rust's own stack-overflow report
//! for OS threads, or the default action).

use std::sync::Once;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Guard pages the table holds: one per lane stack alive at once (the
/// stack pool's `MAX_LIVE_STACKS`, checked equal there).
pub(crate) const GUARD_SLOTS: usize = 24_000;

/// `[lo, hi)` of each live lane stack's guard page; `lo == 0`: a free slot.
static GUARDS: [(AtomicUsize, AtomicUsize); GUARD_SLOTS] =
    [const { (AtomicUsize::new(0), AtomicUsize::new(0)) }; GUARD_SLOTS];
/// Where the next free-slot search starts.
static HINT: AtomicUsize = AtomicUsize::new(0);

/// Records the guard page `[lo, hi)` of a new lane stack; returns its slot
/// (or `None` if the table is full, which only loses the report).
pub(crate) fn register(lo: usize, hi: usize) -> Option<usize> {
    install();
    let start = HINT.load(Ordering::Relaxed);
    for k in 0..GUARD_SLOTS {
        let i = (start + k) % GUARD_SLOTS;
        let slot = &GUARDS[i];
        if slot
            .0
            .compare_exchange(0, lo, Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
        {
            slot.1.store(hi, Ordering::Release);
            HINT.store(i + 1, Ordering::Relaxed);
            return Some(i);
        }
    }
    None
}

/// Forgets the guard page of slot `i` (the stack is being freed).
pub(crate) fn unregister(i: usize) {
    GUARDS[i].1.store(0, Ordering::Release);
    GUARDS[i].0.store(0, Ordering::Release);
}

/// The size of a memory page (that of a stack's guard page).
pub(crate) fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    unsafe { libc::sysconf(libc::_SC_PAGESIZE) as usize }
}

fn in_guard(addr: usize) -> bool {
    GUARDS.iter().any(|(lo, hi)| {
        let lo = lo.load(Ordering::Acquire);
        lo != 0 && lo <= addr && addr < hi.load(Ordering::Acquire)
    })
}

const MESSAGE: &[u8] = b"\ncg-sim: a simulated GPU thread overflowed its lane stack \
(SimDevice::stack_size, 256 KiB by default). Unoptimised builds of large kernels need far \
more stack than optimised ones: build the kernel crate with opt-level >= 1 in the dev \
profile ([profile.dev.package.<crate>] opt-level = 1) or give the SimDevice a larger \
stack_size.\n";

/// The handlers that were installed before ours, for faults that are not
/// lane-stack overflows.
static mut PREVIOUS: [std::mem::MaybeUninit<libc::sigaction>; 2] = [
    std::mem::MaybeUninit::uninit(),
    std::mem::MaybeUninit::uninit(),
];
const SIGNALS: [libc::c_int; 2] = [libc::SIGSEGV, libc::SIGBUS];

extern "C" fn on_fault(sig: libc::c_int, info: *mut libc::siginfo_t, _ctx: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo for SA_SIGINFO handlers.
    let addr = unsafe { (*info).si_addr() } as usize;
    if in_guard(addr) {
        // SAFETY: write(2) and _exit(2) are async-signal-safe.
        unsafe {
            libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len());
            libc::_exit(134);
        }
    }
    // Not ours: put the previous handler back and return; the faulting
    // instruction runs again and faults into it.
    let k = if sig == libc::SIGSEGV { 0 } else { 1 };
    // SAFETY: PREVIOUS[k] was written by `install` before this handler was
    // installed, and is only read afterwards.
    unsafe {
        let prev = (*std::ptr::addr_of!(PREVIOUS))[k].as_ptr();
        libc::sigaction(sig, prev, std::ptr::null_mut());
    }
}

/// Installs the handler once per process.
fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for (k, &sig) in SIGNALS.iter().enumerate() {
            // SAFETY: plain sigaction calls with initialised structs; the
            // previous action is stored before ours can run. SA_ONSTACK: the
            // handler runs on the thread's alternate signal stack (Rust sets
            // one up for every thread it starts), not on the overflowed one.
            unsafe {
                let mut act: libc::sigaction = std::mem::zeroed();
                act.sa_sigaction = on_fault as *const () as usize;
                act.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut act.sa_mask);
                let prev = (*std::ptr::addr_of_mut!(PREVIOUS))[k].as_mut_ptr();
                libc::sigaction(sig, &act, prev);
            }
        }
    });
}
