// The atomics differential and PTX probes in CUDA C++: the twins of
// crates/cg-kernels/src/atomics.rs (extern "C" `cpp_` + the Rust name),
// making the same calls through CUDA's classic atomics (atomicCAS,
// atomicInc, ...), cuda::atomic_ref<T, cuda::thread_scope_...> and
// cuda::atomic_thread_fence. `cg-lab atomics` builds this file with nvcc,
// runs both sides on the GPU and compares every output word.
//
// Evaluation order: where the Rust combines two results in one expression
// (evaluated left to right), this file sequences them explicitly.

#include <cuda/atomic>
#include <cstdint>

#define WORDS 64

using cuda::std::memory_order_acq_rel;
using cuda::std::memory_order_acquire;
using cuda::std::memory_order_relaxed;
using cuda::std::memory_order_release;
using cuda::std::memory_order_seq_cst;

template <class T, cuda::thread_scope S>
using aref = cuda::atomic_ref<T, S>;
constexpr auto BLOCK = cuda::thread_scope_block;
#ifndef CG_NO_THREAD_SCOPE_CLUSTER
constexpr auto CLUSTER = cuda::thread_scope_cluster;
#else
// A libcu++ without the cluster scope (cg-lab atomics retries with this
// define and says so): the device scope, which includes the cluster.
constexpr auto CLUSTER = cuda::thread_scope_device;
#endif
constexpr auto DEVICE = cuda::thread_scope_device;
constexpr auto SYSTEM = cuda::thread_scope_system;

__device__ __forceinline__ unsigned gtid() { return blockIdx.x * blockDim.x + threadIdx.x; }

extern "C" __global__ void cpp_atomic_private(unsigned* out) {
    const unsigned x = gtid();
    unsigned* w = out + (size_t)x * WORDS;
    aref<unsigned, DEVICE> u(w[48]);
    aref<int, BLOCK> i(*reinterpret_cast<int*>(&w[49]));
    aref<float, CLUSTER> f(*reinterpret_cast<float*>(&w[50]));
    aref<unsigned long long, SYSTEM> u64r(*reinterpret_cast<unsigned long long*>(&w[52]));
    aref<long long, DEVICE> i64r(*reinterpret_cast<long long*>(&w[54]));
    aref<double, DEVICE> f64r(*reinterpret_cast<double*>(&w[56]));
    // u32, device scope.
    u.store(x * 3 + 1, memory_order_relaxed);
    w[0] = u.fetch_add(5, memory_order_acquire);
    w[1] = u.fetch_sub(7, memory_order_release);
    w[2] = u.fetch_and(0xF0F0F0F0u ^ x, memory_order_acq_rel);
    w[3] = u.fetch_or(x << 3, memory_order_seq_cst);
    w[4] = u.fetch_xor(0x12345678u, memory_order_relaxed);
    w[5] = u.fetch_min(x * 1000, memory_order_relaxed);
    w[6] = u.fetch_max(0x80000000u + x, memory_order_acq_rel);
    w[7] = u.exchange(x ^ 0x55, memory_order_acq_rel);
    {
        unsigned e = x ^ 0x55;
        bool ok = u.compare_exchange_strong(e, 77, memory_order_acq_rel);
        w[8] = e;  // the old value either way
        w[9] = ok;
    }
    {
        unsigned e = 1;
        bool ok = u.compare_exchange_strong(e, 2, memory_order_relaxed);
        w[10] = e;
        w[11] = ok;
    }
    // atomic_ref has no inc/dec: the classic functions (relaxed, device scope).
    w[12] = atomicInc(&w[48], x % 5 + 75);
    // seq_cst / acquire / release inc/dec: cuda::atomic_ref has none either;
    // the same order with explicit fences around the relaxed classic call
    // gives the same values (one thread, its own word).
    cuda::atomic_thread_fence(memory_order_seq_cst, DEVICE);
    w[13] = atomicInc(&w[48], 3);
    w[14] = atomicDec(&w[48], 2);
    w[15] = atomicDec(&w[48], 2);
    w[16] = atomicDec(&w[48], x % 4);
    w[17] = u.load(memory_order_acquire);
    // i32, block scope: signed min/max.
    i.store(-(int)x, memory_order_release);
    w[18] = (unsigned)i.fetch_min(-5, memory_order_relaxed);
    w[19] = (unsigned)i.fetch_max(3, memory_order_seq_cst);
    w[20] = (unsigned)i.fetch_add(-10, memory_order_acq_rel);
    w[21] = (unsigned)i.fetch_xor(-1, memory_order_relaxed);
    w[22] = (unsigned)i.load(memory_order_seq_cst);
    // f32, cluster scope.
    f.store((float)x * 0.5f, memory_order_seq_cst);
    w[23] = __float_as_uint(f.fetch_add(1.25f, memory_order_relaxed));
    w[24] = __float_as_uint(f.fetch_sub(0.125f, memory_order_acq_rel));
    w[25] = __float_as_uint(f.exchange(-3.5f, memory_order_release));
    {
        float e = -3.5f;
        f.compare_exchange_strong(e, 8.0f, memory_order_acquire);
        w[26] = __float_as_uint(e);
    }
    w[27] = __float_as_uint(f.load(memory_order_relaxed));
    // u64, system scope.
    const unsigned long long big = (unsigned long long)x << 33 | 0x1234;
    u64r.store(big, memory_order_relaxed);
    unsigned long long v = u64r.fetch_add(0xFFFFFFFFull, memory_order_acq_rel);
    w[28] = (unsigned)v;
    w[29] = (unsigned)(v >> 32);
    v = u64r.fetch_max(1ull << 63, memory_order_seq_cst);
    w[30] = (unsigned)(v >> 32);
    v = u64r.fetch_min(big, memory_order_relaxed);
    w[31] = (unsigned)(v >> 32) ^ (unsigned)v;
    {
        unsigned long long a = u64r.fetch_or(0xF, memory_order_release);
        unsigned long long b = u64r.fetch_and(~0xFFull, memory_order_acquire);
        v = a ^ b;
        w[32] = (unsigned)v ^ (unsigned)(v >> 32);
    }
    {
        unsigned long long e = big & ~0xFFull;
        w[33] = u64r.compare_exchange_strong(e, 5, memory_order_seq_cst);
    }
    v = u64r.load(memory_order_acquire);
    w[34] = (unsigned)v ^ (unsigned)(v >> 32);
    // i64, device scope: signed.
    i64r.store(-(long long)x * 1000000007ll, memory_order_relaxed);
    w[35] = (unsigned)(i64r.fetch_min(-3, memory_order_acquire) >> 16);
    w[36] = (unsigned)(i64r.fetch_max(1, memory_order_release) >> 16);
    w[37] = (unsigned)(i64r.fetch_sub(1ll << 40, memory_order_acq_rel) >> 32);
    w[38] = (unsigned)(i64r.exchange(-2, memory_order_seq_cst) >> 32);
    // f64, device scope.
    f64r.store((double)x * 0.25, memory_order_release);
    unsigned long long d = __double_as_longlong(f64r.fetch_add(1e10, memory_order_relaxed));
    w[39] = (unsigned)(d >> 32) ^ (unsigned)d;
    d = __double_as_longlong(f64r.fetch_sub(0.5, memory_order_seq_cst));
    w[40] = (unsigned)(d >> 32) ^ (unsigned)d;
    {
        double e = 1.0;
        bool ok = f64r.compare_exchange_strong(e, 2.0, memory_order_acq_rel);
        d = __double_as_longlong(e);
        w[41] = (unsigned)(d >> 32) ^ (unsigned)d ^ (unsigned)ok;
    }
    // The classic names on the u32 scratch word.
    unsigned* p = &w[48];
    {
        unsigned a = atomicCAS(p, 0, x);
        unsigned b = atomicExch(p, x + 9);
        w[42] = a ^ b;
        a = atomicSub(p, 4);
        b = atomicAdd(p, 100);
        w[43] = a ^ b << 8;
        a = atomicMin(p, 50);
        b = atomicMax(p, 60);
        w[44] = a ^ b << 8;
        a = atomicAnd(p, 0x3C);
        b = atomicOr(p, 0x101);
        unsigned c = atomicXor(p, 7);
        w[45] = a ^ b << 8 ^ c << 16;
        a = atomicInc(p, 20);
        b = atomicDec(p, 20);
        w[46] = a ^ b << 8;
        atomicAdd(p, 3);
    }
    // A shared word per thread, block scope.
    __shared__ unsigned s[1024];
    const unsigned r = threadIdx.x;
    s[r] = x;
    aref<unsigned, BLOCK> sh(s[r]);
    unsigned a = sh.fetch_add(11, memory_order_relaxed);
    unsigned b = atomicInc_block(&s[r], x % 7 + 2);
    unsigned c;
    {
        unsigned e = x + 12;
        sh.compare_exchange_strong(e, 1, memory_order_seq_cst);
        c = e;
    }
    cuda::atomic_thread_fence(memory_order_acq_rel, BLOCK);
    cuda::atomic_thread_fence(memory_order_seq_cst, DEVICE);
    cuda::atomic_thread_fence(memory_order_acquire, CLUSTER);
    cuda::atomic_thread_fence(memory_order_release, SYSTEM);
    __threadfence_block();
    __threadfence();
    __threadfence_system();
    w[47] = a ^ b << 8 ^ c << 16 ^ sh.load(memory_order_relaxed) << 24;
}

extern "C" __global__ void cpp_atomic_contended(unsigned* out) {
    const unsigned x = gtid();
    aref<unsigned, DEVICE>(out[0]).fetch_add(x, memory_order_relaxed);
    atomicOr(&out[1], 1u << (x % 32));
    aref<unsigned, DEVICE>(out[2]).fetch_xor(x * 0x9E3779B9u, memory_order_acq_rel);
    aref<unsigned, SYSTEM>(out[3]).fetch_max(x * 7919 % 10007, memory_order_release);
    atomicMin(reinterpret_cast<int*>(&out[4]), (int)x - 500);
    atomicInc(&out[5], 100);
    atomicDec(&out[6], 50);
    aref<float, DEVICE>(*reinterpret_cast<float*>(&out[7])).fetch_add(1.0f, memory_order_relaxed);
    aref<unsigned long long, DEVICE>(*reinterpret_cast<unsigned long long*>(&out[8]))
        .fetch_add((unsigned long long)x << 20, memory_order_seq_cst);
    aref<double, DEVICE>(*reinterpret_cast<double*>(&out[10])).fetch_add(0.5, memory_order_acq_rel);
    {
        unsigned cur = aref<unsigned, DEVICE>(out[12]).load(memory_order_relaxed);
        while (true) {
            unsigned now = atomicCAS(&out[12], cur, cur + 1);
            if (now == cur) break;
            cur = now;
        }
    }
    atomicSub(&out[13], 3);
    aref<long long, DEVICE>(*reinterpret_cast<long long*>(&out[14]))
        .fetch_min(-((long long)x << 30), memory_order_acquire);

    __shared__ unsigned s[8];
    const unsigned r = threadIdx.x;
    if (r < 8) s[r] = r == 3 ? 0xFFFFFFFFu : 0;
    __syncthreads();
    aref<unsigned, BLOCK>(s[0]).fetch_add(r + 1, memory_order_relaxed);
    aref<unsigned, BLOCK>(s[1]).fetch_or(1u << (r % 31), memory_order_acq_rel);
    aref<unsigned, BLOCK>(s[2]).fetch_max(r * 37 % 101, memory_order_seq_cst);
    aref<unsigned, BLOCK>(s[3]).fetch_min(r * 37 % 101 + 5, memory_order_release);
    atomicInc_block(&s[4], 63);
    atomicDec_block(&s[5], 40);
    aref<unsigned, BLOCK>(s[6]).fetch_xor(r * 3, memory_order_relaxed);
    {
        aref<unsigned, BLOCK> c(s[7]);
        unsigned cur = c.load(memory_order_relaxed);
        while (!c.compare_exchange_strong(cur, cur + 2, memory_order_acq_rel)) {
        }
    }
    __syncthreads();
    if (r == 0) {
        unsigned* w = out + (size_t)x * WORDS;
        for (int j = 0; j < 8; ++j) w[16 + j] = aref<unsigned, BLOCK>(s[j]).load(memory_order_relaxed);
    }
}

// ---- PTX probes: one operation each (compiled with -ptx, never launched) ----

extern "C" __global__ void cpp_probe_atomic_cas_acq_rel_device(unsigned* p, unsigned* out) {
    unsigned e = 0;
    aref<unsigned, DEVICE>(*p).compare_exchange_strong(e, 1, memory_order_acq_rel);
    *out = e;
}
extern "C" __global__ void cpp_probe_atomic_load_acquire_device(unsigned* p, unsigned* out) {
    *out = aref<unsigned, DEVICE>(*p).load(memory_order_acquire);
}
extern "C" __global__ void cpp_probe_atomic_store_release_device(unsigned* p, unsigned v) {
    aref<unsigned, DEVICE>(*p).store(v, memory_order_release);
}
extern "C" __global__ void cpp_probe_atomic_load_seq_cst_block(unsigned* p, unsigned* out) {
    *out = aref<unsigned, BLOCK>(*p).load(memory_order_seq_cst);
}
extern "C" __global__ void cpp_probe_atomic_add_seq_cst_system_u64(unsigned long long* p,
                                                                  unsigned long long* out) {
    *out = aref<unsigned long long, SYSTEM>(*p).fetch_add(3, memory_order_seq_cst);
}
extern "C" __global__ void cpp_probe_atomic_min_relaxed_block_i32(int* p, int* out) {
    *out = aref<int, BLOCK>(*p).fetch_min(-4, memory_order_relaxed);
}
extern "C" __global__ void cpp_probe_atomic_add_release_device_f32(float* p, float* out) {
    *out = aref<float, DEVICE>(*p).fetch_add(1.5f, memory_order_release);
}
extern "C" __global__ void cpp_probe_atomic_inc(unsigned* p, unsigned* out) { *out = atomicInc(p, 9); }
extern "C" __global__ void cpp_probe_atomic_cas(unsigned* p, unsigned* out) { *out = atomicCAS(p, 0, 7); }
extern "C" __global__ void cpp_probe_red_add(unsigned* p, unsigned v) { atomicAdd(p, v); }
// `red` with an ordering and a scope: nvcc's atomic built-ins with their
// result unused (NVVM turns an unused fetch into `red`, as it does for
// atomicAdd).
#define NV_RED(name, T, op, order, scope) \
    extern "C" __global__ void name(T* p, T v) { (void)__nv_atomic_fetch_##op(p, v, order, scope); }
NV_RED(cpp_probe_red_add_relaxed_device, unsigned, add, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE)
NV_RED(cpp_probe_red_add_release_block_f32, float, add, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_BLOCK)
NV_RED(cpp_probe_red_add_release_device_f64, double, add, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE)
NV_RED(cpp_probe_red_min_relaxed_system_i64, long long, min, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_SYSTEM)
NV_RED(cpp_probe_red_max_release_device_u32, unsigned, max, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE)
#if __CUDA_ARCH__ >= 900
NV_RED(cpp_probe_red_add_relaxed_cluster, unsigned, add, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_CLUSTER)
#else
NV_RED(cpp_probe_red_add_relaxed_cluster, unsigned, add, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE)
#endif
extern "C" __global__ void cpp_probe_red_bitwise_block(unsigned* p, unsigned long long* q, unsigned v) {
    (void)__nv_atomic_fetch_and(p, v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
    (void)__nv_atomic_fetch_or(p, v, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_BLOCK);
    (void)__nv_atomic_fetch_xor(q, (unsigned long long)v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
}
extern "C" __global__ void cpp_probe_red_inc_dec_device(unsigned* p, unsigned v) {
    atomicInc(p, v);
    atomicDec(p, v);
}
extern "C" __global__ void cpp_probe_fences(unsigned* p, unsigned ns) {
    p[0] = 1;
    __threadfence();
    p[1] = 2;
    __threadfence_block();
    p[2] = 3;
    cuda::atomic_thread_fence(memory_order_acq_rel, DEVICE);
    __nanosleep(ns);
}
