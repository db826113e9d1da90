//! The atomics differential and PTX probes.
//!
//! * [`atomic_private`] and [`atomic_contended`] write [`ATOMIC_WORDS`]
//!   words per thread at `out[global_thread * ATOMIC_WORDS ..]`; their C++
//!   twins in `reference/cuda/atomics.cu` (`cpp_` + the same name) make the
//!   same calls through `atomicCAS`, `atomicInc`, `cuda::atomic_ref<T,
//!   cuda::thread_scope_…>` …, and `cg-lab atomics` compares every word of
//!   both on the GPU (and the simulator's words against the GPU's). Every
//!   word is deterministic: a thread's operations on its own words record
//!   every returned old value; contended words record only final values of
//!   commutative operations (integer-valued floats add exactly).
//! * The `probe_atomic_*` kernels are one operation each, for the PTX test
//!   that pins their instructions against nvcc's for the same C++
//!   (`cpp_probe_atomic_*`).

use cooperative_groups::atomic::{
    AcqRel, Acquire, AtomicRef, Block, Cluster, Device, Relaxed, Release, SeqCst, System,
    atomic_add, atomic_and, atomic_cas, atomic_dec, atomic_exch, atomic_inc, atomic_max,
    atomic_min, atomic_or, atomic_sub, atomic_xor, fence, nanosleep, red_add, threadfence,
    threadfence_block, threadfence_system,
};
use cooperative_groups::intrinsics::{block_dim, block_idx, thread_idx};
use cooperative_groups::{kernel, shared_array, this_thread_block};

/// Output words per thread of the atomics differential kernels: the
/// layout of the semantic differential, whose `SEM_WORDS` is this value
/// (checked where `semantics` names these kernels).
pub const ATOMIC_WORDS: usize = 64;

#[inline(always)]
fn gtid() -> u32 {
    block_idx().x * block_dim().x + thread_idx().x
}

/// This thread's `ATOMIC_WORDS` words.
#[inline(always)]
fn mine(out: *mut u32) -> *mut u32 {
    // SAFETY: (of the offset) the launcher allocates ATOMIC_WORDS words per thread.
    out.wrapping_add(gtid() as usize * ATOMIC_WORDS)
}

#[inline(always)]
fn put(out: *mut u32, j: usize, v: u32) {
    // SAFETY: the launcher allocates ATOMIC_WORDS words per thread; j < 64.
    unsafe { *mine(out).add(j) = v };
}

/// Scratch words of [`atomic_private`] in a thread's own slice (8-byte
/// aligned for the 64-bit ones: the slice is 256-byte aligned).
const S_U32: usize = 48;
const S_I32: usize = 49;
const S_F32: usize = 50;
const S_U64: usize = 52;
const S_I64: usize = 54;
const S_F64: usize = 56;

/// Every operation × type on the thread's own words (global memory) and a
/// shared word, with every ordering and scope along the way; records each
/// returned value and the final contents.
#[kernel]
pub fn atomic_private(out: *mut u32) {
    let x = gtid();
    let w = mine(out);
    // SAFETY: the scratch words are this thread's own, aligned, and only
    // accessed atomically while the references live.
    let (u, i, f, u64r, i64r, f64r) = unsafe {
        (
            AtomicRef::<u32, Device>::from_ptr(w.add(S_U32)),
            AtomicRef::<i32, Block>::from_ptr(w.add(S_I32).cast()),
            AtomicRef::<f32, Cluster>::from_ptr(w.add(S_F32).cast()),
            AtomicRef::<u64, System>::from_ptr(w.add(S_U64).cast()),
            AtomicRef::<i64, Device>::from_ptr(w.add(S_I64).cast()),
            AtomicRef::<f64, Device>::from_ptr(w.add(S_F64).cast()),
        )
    };
    // u32, device scope.
    u.store(x * 3 + 1, Relaxed);
    put(out, 0, u.fetch_add(5, Acquire));
    put(out, 1, u.fetch_sub(7, Release));
    put(out, 2, u.fetch_and(0xF0F0_F0F0 ^ x, AcqRel));
    put(out, 3, u.fetch_or(x << 3, SeqCst));
    put(out, 4, u.fetch_xor(0x1234_5678, Relaxed));
    put(out, 5, u.fetch_min(x * 1000, Relaxed));
    put(out, 6, u.fetch_max(0x8000_0000 + x, AcqRel));
    put(out, 7, u.exchange(x ^ 0x55, AcqRel));
    let r = u.compare_exchange(x ^ 0x55, 77, AcqRel);
    put(out, 8, r.unwrap_or_else(|v| v));
    put(out, 9, r.is_ok() as u32);
    let r = u.compare_exchange(1, 2, Relaxed);
    put(out, 10, r.unwrap_or_else(|v| v));
    put(out, 11, r.is_ok() as u32);
    put(out, 12, u.fetch_inc(x % 5 + 75, Relaxed));
    put(out, 13, u.fetch_inc(3, SeqCst));
    put(out, 14, u.fetch_dec(2, Acquire));
    put(out, 15, u.fetch_dec(2, Release));
    put(out, 16, u.fetch_dec(x % 4, Relaxed));
    put(out, 17, u.load(Acquire));
    // i32, block scope: signed min/max.
    i.store(-(x as i32), Release);
    put(out, 18, i.fetch_min(-5, Relaxed) as u32);
    put(out, 19, i.fetch_max(3, SeqCst) as u32);
    put(out, 20, i.fetch_add(-10, AcqRel) as u32);
    put(out, 21, i.fetch_xor(-1, Relaxed) as u32);
    put(out, 22, i.load(SeqCst) as u32);
    // f32, cluster scope.
    f.store(x as f32 * 0.5, SeqCst);
    put(out, 23, f.fetch_add(1.25, Relaxed).to_bits());
    put(out, 24, f.fetch_sub(0.125, AcqRel).to_bits());
    put(out, 25, f.exchange(-3.5, Release).to_bits());
    let r = f.compare_exchange(-3.5, 8.0, Acquire);
    put(out, 26, r.unwrap_or_else(|v| v).to_bits());
    put(out, 27, f.load(Relaxed).to_bits());
    // u64, system scope.
    let big = (x as u64) << 33 | 0x1234;
    u64r.store(big, Relaxed);
    let v = u64r.fetch_add(0xFFFF_FFFF, AcqRel);
    put(out, 28, v as u32);
    put(out, 29, (v >> 32) as u32);
    let v = u64r.fetch_max(1 << 63, SeqCst);
    put(out, 30, (v >> 32) as u32);
    let v = u64r.fetch_min(big, Relaxed);
    put(out, 31, (v >> 32) as u32 ^ v as u32);
    let v = u64r.fetch_or(0xF, Release) ^ u64r.fetch_and(!0xFF, Acquire);
    put(out, 32, v as u32 ^ (v >> 32) as u32);
    let r = u64r.compare_exchange(big & !0xFF, 5, SeqCst);
    put(out, 33, r.is_ok() as u32);
    let v = u64r.load(Acquire);
    put(out, 34, v as u32 ^ (v >> 32) as u32);
    // i64, device scope: signed.
    i64r.store(-(x as i64) * 1_000_000_007, Relaxed);
    put(out, 35, (i64r.fetch_min(-3, Acquire) >> 16) as u32);
    put(out, 36, (i64r.fetch_max(1, Release) >> 16) as u32);
    put(out, 37, (i64r.fetch_sub(1 << 40, AcqRel) >> 32) as u32);
    put(out, 38, (i64r.exchange(-2, SeqCst) >> 32) as u32);
    // f64, device scope.
    f64r.store(x as f64 * 0.25, Release);
    let v = f64r.fetch_add(1e10, Relaxed).to_bits();
    put(out, 39, (v >> 32) as u32 ^ v as u32);
    let v = f64r.fetch_sub(0.5, SeqCst).to_bits();
    put(out, 40, (v >> 32) as u32 ^ v as u32);
    let r = f64r.compare_exchange(1.0, 2.0, AcqRel);
    let v = r.unwrap_or_else(|v| v).to_bits();
    put(out, 41, (v >> 32) as u32 ^ v as u32 ^ r.is_ok() as u32);
    // The classic names on the u32 scratch word.
    let p = w.wrapping_add(S_U32);
    // SAFETY: this thread's own aligned word, only accessed atomically.
    unsafe {
        put(out, 42, atomic_cas(p, 0, x) ^ atomic_exch(p, x + 9));
        put(out, 43, atomic_sub(p, 4) ^ atomic_add(p, 100) << 8);
        put(out, 44, atomic_min(p, 50) ^ atomic_max(p, 60) << 8);
        put(
            out,
            45,
            atomic_and(p, 0x3C) ^ atomic_or(p, 0x101) << 8 ^ atomic_xor(p, 7) << 16,
        );
        put(out, 46, atomic_inc(p, 20) ^ atomic_dec(p, 20) << 8);
        red_add(p, 3);
    }
    // A shared word per thread, block scope.
    let block = this_thread_block();
    let s = shared_array!(u32; 1024);
    let r = block.thread_rank() as usize;
    s.store(r, x);
    // SAFETY: each thread's own shared word, accessed atomically below.
    let sh = unsafe { AtomicRef::<u32, Block>::from_ptr(s.as_ptr().add(r)) };
    let a = sh.fetch_add(11, Relaxed);
    let b = sh.fetch_inc(x % 7 + 2, AcqRel);
    let c = sh.compare_exchange(x + 12, 1, SeqCst).unwrap_or_else(|v| v);
    fence(AcqRel, Block);
    fence(SeqCst, Device);
    fence(Acquire, Cluster);
    fence(Release, System);
    threadfence_block();
    threadfence();
    threadfence_system();
    put(out, 47, a ^ b << 8 ^ c << 16 ^ sh.load(Relaxed) << 24);
}

/// Contended words: every thread of the grid updates thread 0's words
/// 0..16 (global memory), every thread of a block its block's shared words;
/// thread 0 of each block then writes the shared results to words 16..24 of
/// its own slice. Only final values of commutative updates are recorded.
#[kernel]
pub fn atomic_contended(out: *mut u32) {
    let x = gtid();
    let g = |j: usize| out.wrapping_add(j);
    // SAFETY: the words of thread 0's slice (zeroed by the launcher), only
    // accessed atomically by this kernel; the 64-bit ones are 8-aligned.
    unsafe {
        AtomicRef::<u32, Device>::from_ptr(g(0)).fetch_add(x, Relaxed);
        atomic_or(g(1), 1 << (x % 32));
        AtomicRef::<u32, Device>::from_ptr(g(2)).fetch_xor(x.wrapping_mul(0x9E37_79B9), AcqRel);
        AtomicRef::<u32, System>::from_ptr(g(3)).fetch_max(x * 7919 % 10007, Release);
        atomic_min(g(4).cast::<i32>(), x as i32 - 500);
        atomic_inc(g(5), 100);
        atomic_dec(g(6), 50);
        AtomicRef::<f32, Device>::from_ptr(g(7).cast()).fetch_add(1.0, Relaxed);
        AtomicRef::<u64, Device>::from_ptr(g(8).cast()).fetch_add((x as u64) << 20, SeqCst);
        AtomicRef::<f64, Device>::from_ptr(g(10).cast()).fetch_add(0.5, AcqRel);
        // A CAS-loop increment.
        let c = AtomicRef::<u32, Device>::from_ptr(g(12));
        let mut cur = c.load(Relaxed);
        while let Err(now) = c.compare_exchange(cur, cur + 1, Relaxed) {
            cur = now;
        }
        atomic_sub(g(13), 3);
        AtomicRef::<i64, Device>::from_ptr(g(14).cast()).fetch_min(-((x as i64) << 30), Acquire);
    }
    let block = this_thread_block();
    let s = shared_array!(u32; 8);
    let r = block.thread_rank();
    if r < 8 {
        s.store(r as usize, if r == 3 { u32::MAX } else { 0 });
    }
    block.sync();
    // SAFETY: the block's shared words, accessed atomically between the barriers.
    let sh = |j: usize| unsafe { AtomicRef::<u32, Block>::from_ptr(s.as_ptr().add(j)) };
    sh(0).fetch_add(r + 1, Relaxed);
    sh(1).fetch_or(1 << (r % 31), AcqRel);
    sh(2).fetch_max(r * 37 % 101, SeqCst);
    sh(3).fetch_min(r * 37 % 101 + 5, Release);
    sh(4).fetch_inc(63, Relaxed);
    sh(5).fetch_dec(40, Acquire);
    sh(6).fetch_xor(r * 3, Relaxed);
    let mut cur = sh(7).load(Relaxed);
    while let Err(now) = sh(7).compare_exchange(cur, cur + 2, AcqRel) {
        cur = now;
    }
    block.sync();
    if r == 0 {
        for j in 0..8 {
            put(out, 16 + j, sh(j).load(Relaxed));
        }
    }
}

// ---- PTX probes: one operation each ---------------------------------------

/// `cuda::atomic_ref<unsigned, thread_scope_device>(*p).compare_exchange_strong(e, 1, acq_rel)`.
#[kernel]
pub fn probe_atomic_cas_acq_rel_device(p: *mut u32, out: *mut u32) {
    // SAFETY: the launcher passes two words of global memory.
    unsafe {
        *out = AtomicRef::<u32, Device>::from_ptr(p)
            .compare_exchange(0, 1, AcqRel)
            .unwrap_or_else(|v| v)
    };
}

/// `ref.load(memory_order_acquire)` at device scope.
#[kernel]
pub fn probe_atomic_load_acquire_device(p: *mut u32, out: *mut u32) {
    // SAFETY: as above.
    unsafe { *out = AtomicRef::<u32, Device>::from_ptr(p).load(Acquire) };
}

/// `ref.store(v, memory_order_release)` at device scope.
#[kernel]
pub fn probe_atomic_store_release_device(p: *mut u32, v: u32) {
    // SAFETY: as above.
    unsafe { AtomicRef::<u32, Device>::from_ptr(p).store(v, Release) };
}

/// `ref.load(memory_order_seq_cst)` at block scope.
#[kernel]
pub fn probe_atomic_load_seq_cst_block(p: *mut u32, out: *mut u32) {
    // SAFETY: as above.
    unsafe { *out = AtomicRef::<u32, Block>::from_ptr(p).load(SeqCst) };
}

/// `ref.fetch_add(v, memory_order_seq_cst)` on a `u64` at system scope.
#[kernel]
pub fn probe_atomic_add_seq_cst_system_u64(p: *mut u64, out: *mut u64) {
    // SAFETY: as above.
    unsafe { *out = AtomicRef::<u64, System>::from_ptr(p).fetch_add(3, SeqCst) };
}

/// `ref.fetch_min(v, memory_order_relaxed)` on an `int` at block scope.
#[kernel]
pub fn probe_atomic_min_relaxed_block_i32(p: *mut i32, out: *mut i32) {
    // SAFETY: as above.
    unsafe { *out = AtomicRef::<i32, Block>::from_ptr(p).fetch_min(-4, Relaxed) };
}

/// `ref.fetch_add(v, memory_order_release)` on a `float` at device scope.
#[kernel]
pub fn probe_atomic_add_release_device_f32(p: *mut f32, out: *mut f32) {
    // SAFETY: as above.
    unsafe { *out = AtomicRef::<f32, Device>::from_ptr(p).fetch_add(1.5, Release) };
}

/// `atomicInc(p, limit)`.
#[kernel]
pub fn probe_atomic_inc(p: *mut u32, out: *mut u32) {
    // SAFETY: as above.
    unsafe { *out = atomic_inc(p, 9) };
}

/// `atomicCAS(p, c, v)`.
#[kernel]
pub fn probe_atomic_cas(p: *mut u32, out: *mut u32) {
    // SAFETY: as above.
    unsafe { *out = atomic_cas(p, 0, 7) };
}

/// `atomicAdd(p, v)` with the result unused: `red.global.add`.
#[kernel]
pub fn probe_red_add(p: *mut u32, v: u32) {
    // SAFETY: as above.
    unsafe { red_add(p, v) };
}

/// `red.relaxed.gpu.add.u32`: `fetch_add` of a result nobody reads, with
/// its ordering and scope (CUDA: `__nv_atomic_add(p, v, __NV_ATOMIC_RELAXED,
/// __NV_THREAD_SCOPE_DEVICE)`).
#[kernel]
pub fn probe_red_add_relaxed_device(p: *mut u32, v: u32) {
    // SAFETY: as above.
    unsafe { AtomicRef::<u32, Device>::from_ptr(p).red_add(v, Relaxed) };
}

/// `red.release.cta.add.f32`.
#[kernel]
pub fn probe_red_add_release_block_f32(p: *mut f32, v: f32) {
    // SAFETY: as above.
    unsafe { AtomicRef::<f32, Block>::from_ptr(p).red_add(v, Release) };
}

/// `red.release.gpu.add.f64`.
#[kernel]
pub fn probe_red_add_release_device_f64(p: *mut f64, v: f64) {
    // SAFETY: as above.
    unsafe { AtomicRef::<f64, Device>::from_ptr(p).red_add(v, Release) };
}

/// `red.relaxed.sys.min.s64`.
#[kernel]
pub fn probe_red_min_relaxed_system_i64(p: *mut i64, v: i64) {
    // SAFETY: as above.
    unsafe { AtomicRef::<i64, System>::from_ptr(p).red_min(v, Relaxed) };
}

/// `red.release.gpu.max.u32`.
#[kernel]
pub fn probe_red_max_release_device_u32(p: *mut u32, v: u32) {
    // SAFETY: as above.
    unsafe { AtomicRef::<u32, Device>::from_ptr(p).red_max(v, Release) };
}

/// `red.relaxed.cta.and.b32`, `red.release.cta.or.b32`, `red.relaxed.cta.xor.b64`.
#[kernel]
pub fn probe_red_bitwise_block(p: *mut u32, q: *mut u64, v: u32) {
    // SAFETY: as above.
    unsafe {
        let a = AtomicRef::<u32, Block>::from_ptr(p);
        a.red_and(v, Relaxed);
        a.red_or(v, Release);
        AtomicRef::<u64, Block>::from_ptr(q).red_xor(v as u64, Relaxed);
    }
}

/// `red.relaxed.gpu.inc.u32` and `red.relaxed.gpu.dec.u32` (CUDA: `atomicInc`,
/// `atomicDec` whose results are unused).
#[kernel]
pub fn probe_red_inc_dec_device(p: *mut u32, v: u32) {
    // SAFETY: as above.
    unsafe {
        let a = AtomicRef::<u32, Device>::from_ptr(p);
        a.red_inc(v, Relaxed);
        a.red_dec(v, Relaxed);
    }
}

/// `red.relaxed.cluster.add.u32` on sm_90 (`.gpu` before).
#[kernel]
pub fn probe_red_add_relaxed_cluster(p: *mut u32, v: u32) {
    // SAFETY: as above.
    unsafe { AtomicRef::<u32, Cluster>::from_ptr(p).red_add(v, Relaxed) };
}

/// `__threadfence()`, `__threadfence_block()`,
/// `cuda::atomic_thread_fence(acq_rel, thread_scope_device)` and `__nanosleep`.
#[kernel]
pub fn probe_fences(p: *mut u32, ns: u32) {
    // SAFETY: as above.
    unsafe { *p = 1 };
    threadfence();
    // SAFETY: as above.
    unsafe { *p.add(1) = 2 };
    threadfence_block();
    // SAFETY: as above.
    unsafe { *p.add(2) = 3 };
    fence(AcqRel, Device);
    nanosleep(ns);
}
