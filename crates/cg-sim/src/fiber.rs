//! Lane contexts that switch from one lane straight to the next (x86-64,
//! System V ABI: Linux, macOS, the BSDs).
//!
//! A blocked lane hands the OS thread to the next queued lane itself, so a
//! collective costs one context switch per lane instead of two (lane to
//! scheduler, scheduler to lane): the scheduler only runs when the queue is
//! empty, a lane spins, exits, panics or fails. A context is its stack
//! pointer; [`switch`] saves the callee-saved registers on the running
//! stack, stores its stack pointer and resumes another. The SSE and x87
//! control words (also callee-saved) are left alone: every context runs
//! with the thread's, as no lane code changes them.

use std::arch::naked_asm;

/// Saves the running context (its callee-saved registers on its stack,
/// its stack pointer in `*save`) and resumes the context whose stack
/// pointer is `to`. Returns when another context switches back to the
/// saved one.
///
/// # Safety
///
/// `to` must be a stack pointer stored by `switch` for a context that has
/// not been resumed since, or one made by [`prepare`] whose stack is still
/// alive; `save` must be valid for a write.
#[unsafe(naked)]
pub(crate) unsafe extern "C" fn switch(save: *mut usize, to: usize) {
    naked_asm!(
        "push rbp",
        "push rbx",
        "push r12",
        "push r13",
        "push r14",
        "push r15",
        "mov [rdi], rsp",
        "mov rsp, rsi",
        "pop r15",
        "pop r14",
        "pop r13",
        "pop r12",
        "pop rbx",
        "pop rbp",
        "ret",
    )
}

/// What a prepared context runs: the scheduler's lane body, given the two
/// words [`prepare`] was given. A parameter, so that the contexts know
/// nothing of the scheduler above them.
pub(crate) type Entry = extern "C" fn(usize, usize) -> !;

/// The first code a prepared context runs: calls `entry(r12, r13)` (the
/// entry in r14) with the stack 16-byte aligned at the call, as the ABI
/// wants. The entry never returns; the zero words above its return
/// address end a backtrace or unwinder walk there.
#[unsafe(naked)]
unsafe extern "C" fn trampoline() {
    naked_asm!("mov rdi, r12", "mov rsi, r13", "call r14", "ud2",)
}

/// Lays out, below `top` (16-byte aligned, the top of a stack nothing
/// uses), a context that [`switch`] resumes by calling `entry(a0, a1)`;
/// returns its stack pointer.
///
/// # Safety
///
/// The 72 bytes below `top` must be writable and unused.
pub(crate) unsafe fn prepare(top: usize, entry: Entry, a0: usize, a1: usize) -> usize {
    assert_eq!(top % 16, 0, "a lane stack's top is 16-byte aligned");
    // What `switch` pops: r15, r14, r13, r12, rbx, rbp, then the return
    // address; after the `ret` the stack pointer is `top - 16`, aligned.
    let sp = top - 72;
    let frame: [usize; 9] = [
        0,
        entry as usize,
        a1,
        a0,
        0,
        0,
        trampoline as *const () as usize,
        0,
        0,
    ];
    // SAFETY: the caller gives us the 72 bytes below `top`; `sp` is
    // 8-byte aligned.
    unsafe { (sp as *mut [usize; 9]).write(frame) };
    sp
}

/// Asks the cache for the `lines` cache lines from `addr` on: those that
/// resuming a context reads first. A hint only: it changes no value.
#[inline(always)]
pub(crate) fn prefetch(addr: usize, lines: usize) {
    use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
    for line in 0..lines {
        // SAFETY: a prefetch never faults and has no visible effect, even
        // for an address that is not mapped.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((addr + line * 64) as *const i8) };
    }
}
