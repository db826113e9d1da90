//! `cg-lab compare --only device_radix_sort`: the device-wide radix sort
//! of `u32`, `i32`, `f32` and `u64` keys, and of pairs (those keys, `u32`
//! values), written with the library (`cg_kernels::device_radix_sort`:
//! one histogram launch for all 8-bit digits, then one onesweep pass per
//! digit — four for the 32-bit keys, eight for `u64` — each tile's keys
//! ranked by the pass's digit in warp-private counters, a decoupled
//! look-back per digit, a scatter) against CUB's
//! `DeviceRadixSort::SortKeys` and `SortPairs`, 2^20 to 2^28 keys (or the
//! sizes of `--sizes`), as keys (pairs) per second.
//!
//! The 32-bit keys are uniformly random 32-bit patterns (the same bits as
//! `u32`, `i32` and `f32`: floats of every sign and exponent, NaNs and both
//! zeros included), the `u64` keys uniformly random 64-bit words, each
//! pair's value its key's index. Both sides' outputs are checked against
//! the host's stable sort by CUB's order (the keys' order-preserving bits,
//! `-0.0` equal to `+0.0`, NaNs by their bits) at every size before timing
//! (so they are equal to each other). The Rust side's time includes its
//! memset of the digit counters and the histogram launch. Without a GPU the
//! Rust kernels are verified on the simulator at small sizes and nothing
//! is timed.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result, bail};
use cg_kernels::device_radix_sort::{
    DIGITS, HIST_BLOCK, HistogramsKernel, OnesweepKernel, OnesweepPairsKernel,
    RADIX_HISTOGRAMS_F32, RADIX_HISTOGRAMS_I32, RADIX_HISTOGRAMS_U32, RADIX_HISTOGRAMS_U64,
    RADIX_ONESWEEP_F32, RADIX_ONESWEEP_I32, RADIX_ONESWEEP_PAIRS_F32, RADIX_ONESWEEP_PAIRS_I32,
    RADIX_ONESWEEP_PAIRS_U32, RADIX_ONESWEEP_PAIRS_U64, RADIX_ONESWEEP_U32, RADIX_ONESWEEP_U64,
    SortKey, SortWords, passes, sort_block, sort_smem, sort_tile, sort_tiles,
};
use cg_kernels::xorshift::Xorshift;
use cg_runtime::{Backend, Buffer, Dim3, LaunchConfig, Pod, tools};
use cooperative_groups::primitives::RadixKey;
use serde::Serialize;

use crate::cli::LabArgs;
use crate::output::write_atomic;
use crate::progress::Progress;
use crate::stats::Summary;
use crate::timing::{self, Timed};

/// Sizes the simulator verifies (partial last tiles).
const SIM_SIZES: [u32; 2] = [1003, 3 * sort_tile::<u32>(true) as u32 + 17];

/// The 32-bit keys: a xorshift stream.
fn keys32(n: u32) -> Vec<u32> {
    let mut x = Xorshift::new(0x2545_f491_4f6c_dd1d);
    (0..n).map(|_| (x.next() >> 32) as u32).collect()
}

/// The 64-bit keys: another xorshift stream.
fn keys64(n: u32) -> Vec<u64> {
    let mut x = Xorshift::new(0x9e37_79b9_7f4a_7c15);
    (0..n).map(|_| x.next()).collect()
}

type CubFn<W> = unsafe extern "C" fn(*const W, *mut W, i32) -> i32;
type CubPairsFn<W> = unsafe extern "C" fn(*const W, *mut W, *const u32, *mut u32, i32) -> i32;

/// The key types of the experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    U32,
    I32,
    F32,
    U64,
}

impl Key {
    const ALL: [Key; 4] = [Key::U32, Key::I32, Key::F32, Key::U64];
    /// The key types whose bits are 32-bit words (`Cub::sort`'s order).
    const WORD32: [Key; 3] = [Key::U32, Key::I32, Key::F32];

    fn name(self) -> &'static str {
        match self {
            Key::U32 => "u32",
            Key::I32 => "i32",
            Key::F32 => "f32",
            Key::U64 => "u64",
        }
    }
}

/// A key type's bit word (`u32` or `u64`): the buffers of that width, and
/// the bits a key of the experiment's type `key` sorts by.
trait Word: Pod + SortWords + Ord + std::fmt::LowerHex + Send + Sync {
    fn buffers<'s>(b: &'s Bench<'_>) -> &'s KeyBuffers<Self>;
    fn buffers_mut<'s>(b: &'s mut Bench<'_>) -> &'s mut KeyBuffers<Self>;
    /// CUB's order of the bit pattern `raw` of `key`'s type, as the
    /// kernels' `RadixKey` gives it.
    fn sort_bits(key: Key, raw: Self) -> Self;
}

fn bits<K: RadixKey>(k: K) -> K::Bits {
    K::digit_bits(k.to_bits())
}

impl Word for u32 {
    fn buffers<'s>(b: &'s Bench<'_>) -> &'s KeyBuffers<u32> {
        &b.k32
    }
    fn buffers_mut<'s>(b: &'s mut Bench<'_>) -> &'s mut KeyBuffers<u32> {
        &mut b.k32
    }
    fn sort_bits(key: Key, raw: u32) -> u32 {
        match key {
            Key::U32 => bits(raw),
            Key::I32 => bits(raw as i32),
            Key::F32 => bits(f32::from_bits(raw)),
            Key::U64 => unreachable!("u64 keys are 64-bit words"),
        }
    }
}

impl Word for u64 {
    fn buffers<'s>(b: &'s Bench<'_>) -> &'s KeyBuffers<u64> {
        &b.k64
    }
    fn buffers_mut<'s>(b: &'s mut Bench<'_>) -> &'s mut KeyBuffers<u64> {
        &mut b.k64
    }
    fn sort_bits(key: Key, raw: u64) -> u64 {
        assert_eq!(key, Key::U64);
        bits(raw)
    }
}

/// CUB's entry points in the shared library built from `device_radix_sort.cu`:
/// the 32-bit key types' (`Key::WORD32` order; the pointers are the keys'
/// bits) and `u64`'s.
struct Cub {
    _lib: libloading::Library,
    sort: [CubFn<u32>; 3],
    pairs: [CubPairsFn<u32>; 3],
    sort64: CubFn<u64>,
    pairs64: CubPairsFn<u64>,
}

impl Cub {
    fn build(nvcc: &Path, sm: u32, dir: &Path) -> Result<Cub> {
        let lib = crate::reference::build_shared_library(
            nvcc,
            sm,
            dir,
            crate::reference::DEVICE_RADIX_SORT_CU,
        )?;
        // SAFETY: the library is the one just built from our source; its
        // initialisers are the CUDA runtime's.
        let lib = unsafe { libloading::Library::new(&lib) }.context("loading the CUB library")?;
        fn get<F: Copy>(lib: &libloading::Library, sym: String) -> Result<F> {
            // SAFETY: every caller below names a symbol of
            // device_radix_sort.cu with `F`'s C signature (a key pointer of
            // any type of the word's width).
            Ok(unsafe { *lib.get::<F>(sym.as_bytes())? })
        }
        let sort = Key::WORD32.map(|k| get(&lib, format!("cub_radix_sort_keys_{}", k.name())));
        let pairs = Key::WORD32.map(|k| get(&lib, format!("cub_radix_sort_pairs_{}", k.name())));
        let [s0, s1, s2] = sort;
        let [p0, p1, p2] = pairs;
        Ok(Cub {
            sort: [s0?, s1?, s2?],
            pairs: [p0?, p1?, p2?],
            sort64: get(&lib, "cub_radix_sort_keys_u64".into())?,
            pairs64: get(&lib, "cub_radix_sort_pairs_u64".into())?,
            _lib: lib,
        })
    }
}

/// The Rust kernels of one key type `K`.
struct Kernels<K: 'static> {
    hist: &'static HistogramsKernel<K>,
    keys: &'static OnesweepKernel<K>,
    pairs: &'static OnesweepPairsKernel<K>,
}

const U32_KERNELS: Kernels<u32> = Kernels {
    hist: &RADIX_HISTOGRAMS_U32,
    keys: &RADIX_ONESWEEP_U32,
    pairs: &RADIX_ONESWEEP_PAIRS_U32,
};
const I32_KERNELS: Kernels<i32> = Kernels {
    hist: &RADIX_HISTOGRAMS_I32,
    keys: &RADIX_ONESWEEP_I32,
    pairs: &RADIX_ONESWEEP_PAIRS_I32,
};
const F32_KERNELS: Kernels<f32> = Kernels {
    hist: &RADIX_HISTOGRAMS_F32,
    keys: &RADIX_ONESWEEP_F32,
    pairs: &RADIX_ONESWEEP_PAIRS_F32,
};
const U64_KERNELS: Kernels<u64> = Kernels {
    hist: &RADIX_HISTOGRAMS_U64,
    keys: &RADIX_ONESWEEP_U64,
    pairs: &RADIX_ONESWEEP_PAIRS_U64,
};

/// The keys of one width: the input, the ping-pong buffer, the output and
/// the digit counters of all passes (`PASSES · DIGITS` for that width).
struct KeyBuffers<W> {
    input: Buffer<W>,
    a: Buffer<W>,
    out: Buffer<W>,
    counts: Buffer<u32>,
}

impl<W: Word> KeyBuffers<W> {
    fn new(backend: &Backend, data: &[W]) -> Result<KeyBuffers<W>> {
        let n = data.len().max(1);
        Ok(KeyBuffers {
            input: if data.is_empty() {
                backend.alloc(1)?
            } else {
                backend.upload(data)?
            },
            a: backend.alloc(n)?,
            out: backend.alloc(n)?,
            counts: backend.alloc(W::PASSES * DIGITS)?,
        })
    }
}

struct Bench<'a> {
    backend: &'a Backend,
    cub: Option<&'a Cub>,
    k32: KeyBuffers<u32>,
    k64: KeyBuffers<u64>,
    values: Buffer<u32>,
    va: Buffer<u32>,
    vout: Buffer<u32>,
    states: Buffer<u64>,
    histogram_grid: u32,
    epoch: u32,
}

impl Bench<'_> {
    fn next_epoch(&mut self) -> u32 {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch & 0x3fff_ffff == 0 {
            self.epoch = self.epoch.wrapping_add(1);
        }
        self.epoch
    }

    /// One sort of the first `n` keys of `key`'s input (bit patterns of
    /// its type) into its `out` (and with `pairs` their values from
    /// `values` into `vout`).
    fn launch(&mut self, key: Key, pairs: bool, cub: bool, n: u32, sync: bool) -> Result<()> {
        if cub {
            let c = self.cub.context("CUB runs on a GPU only")?;
            let (vi, vo) = (self.values.as_ptr(), self.vout.as_ptr());
            let (i, o) = (self.k32.input.as_ptr(), self.k32.out.as_ptr());
            let (i64, o64) = (self.k64.input.as_ptr(), self.k64.out.as_ptr());
            let n32 = n as i32;
            // SAFETY: the key buffers of either width, `values` and `vout`
            // hold at least `n` elements.
            let rc = unsafe {
                match (key, pairs) {
                    (Key::U64, false) => (c.sort64)(i64, o64, n32),
                    (Key::U64, true) => (c.pairs64)(i64, o64, vi, vo, n32),
                    (k, false) => (c.sort[k as usize])(i, o, n32),
                    (k, true) => (c.pairs[k as usize])(i, o, vi, vo, n32),
                }
            };
            if rc != 0 {
                bail!("{} returned CUDA error {rc}", name(key, pairs, true));
            }
        } else {
            match key {
                Key::U32 => self.launch_rust(&U32_KERNELS, pairs, n, sync)?,
                Key::I32 => self.launch_rust(&I32_KERNELS, pairs, n, sync)?,
                Key::F32 => self.launch_rust(&F32_KERNELS, pairs, n, sync)?,
                Key::U64 => self.launch_rust(&U64_KERNELS, pairs, n, sync)?,
            }
        }
        if let (true, Backend::Gpu(g)) = (sync, self.backend) {
            g.synchronize()?;
        }
        Ok(())
    }

    /// The Rust sort with key type `K`'s kernels: the counters' memset, the
    /// histogram launch, one pass per digit.
    fn launch_rust<K: SortKey + RadixKey<Bits: Word>>(
        &mut self,
        k: &Kernels<K>,
        pairs: bool,
        n: u32,
        sync: bool,
    ) -> Result<()> {
        <K::Bits as Word>::buffers_mut(self).counts.zero_async()?;
        let b = self.backend;
        let hist = LaunchConfig::linear(self.histogram_grid, HIST_BLOCK);
        let pass_cfg = LaunchConfig::linear(sort_tiles::<K>(n, pairs), sort_block::<K>(pairs))
            .with_dynamic_smem(sort_smem(pairs));
        let (vi, va, vo) = (self.values.as_ptr(), self.va.as_ptr(), self.vout.as_ptr());
        let s = self.states.as_ptr();
        let kb = <K::Bits as Word>::buffers(self);
        let (i, a, o, c) = (
            kb.input.as_ptr().cast::<K>(),
            kb.a.as_ptr().cast::<K>(),
            kb.out.as_ptr().cast::<K>(),
            kb.counts.as_ptr(),
        );
        // Every launch below: `n` keys (bit patterns of `K`) and values in
        // and out of this backend's buffers, the `passes · DIGITS`
        // counters, `DIGITS` states per tile, alive across the launch.
        macro_rules! go {
            ($k:expr, $cfg:expr, $args:expr) => {
                // SAFETY: the buffers above, as the kernel uses them.
                unsafe {
                    match b {
                        Backend::Gpu(g) if !sync => g.launch_unchecked($k, &$cfg, $args)?,
                        _ => b.launch_unchecked($k, &$cfg, $args)?,
                    }
                }
            };
        }
        go!(k.hist, hist, (i.cast_const(), c, n));
        // input → a → out → a → … → out (an even number of passes): pass
        // p reads `src` and writes `dst`, the last one `out`.
        for pass in 0..passes::<K>() {
            let (src, dst, vsrc, vdst) = match pass {
                0 => (i, a, vi, va),
                p if p % 2 == 1 => (a, o, va, vo),
                _ => (o, a, vo, va),
            };
            let e = self.next_epoch();
            let (src, c) = (src.cast_const(), c.cast_const());
            if pairs {
                let args = (src, dst, vsrc.cast_const(), vdst, c, s, n, pass as u32, e);
                go!(k.pairs, pass_cfg, args);
            } else {
                go!(k.keys, pass_cfg, (src, dst, c, s, n, pass as u32, e));
            }
        }
        Ok(())
    }

    /// One sort of the first `n` keys of `key`'s input (pairs) against the
    /// host's order `want` (the keys' indices, sorted) and `expect` (the
    /// keys' bit words in that order): (ok, what).
    fn verify<W: Word>(
        &mut self,
        key: Key,
        pairs: bool,
        cub: bool,
        expect: &[W],
        want: &[u32],
    ) -> Result<(bool, String)> {
        let n = want.len() as u32;
        self.launch(key, pairs, cub, n, true)?;
        let got = W::buffers(self).out.to_vec()?;
        let vals = if pairs {
            self.vout.to_vec()?
        } else {
            Vec::new()
        };
        let bad = (0..n as usize).find(|&i| got[i] != expect[i] || (pairs && vals[i] != want[i]));
        Ok(match bad {
            None if pairs => (true, format!("{n} pairs equal the host's stable sort")),
            None => (true, format!("{n} keys equal the host's sort")),
            Some(i) => (
                false,
                format!(
                    "place {i}: key bits {:#x}, value {:?}; host: key bits {:#x}, value {}",
                    got[i],
                    vals.get(i),
                    expect[i],
                    want[i]
                ),
            ),
        })
    }
}

impl Timed for Bench<'_> {
    type Variant = (u32, Key, bool, bool);
    fn gpu(&self) -> &cg_runtime::Gpu {
        match self.backend {
            Backend::Gpu(g) => g,
            Backend::Sim(_) => unreachable!("timing runs on a GPU only"),
        }
    }
    fn launch_async(
        &mut self,
        (n, key, pairs, cub): (u32, Key, bool, bool),
        _reps: u32,
    ) -> Result<()> {
        self.launch(key, pairs, cub, n, false)
    }
}

/// One measured (size, side).
#[derive(Clone, Debug, Serialize)]
struct Point {
    n: u32,
    key: &'static str,
    pairs: bool,
    side: &'static str,
    kernel: String,
    ms: Summary,
    gkeys_per_s: f64,
    verified: bool,
    check: String,
}

fn name(key: Key, pairs: bool, cub: bool) -> String {
    match (pairs, cub) {
        (false, false) => format!("radix_onesweep_{}", key.name()),
        (true, false) => format!("radix_onesweep_pairs_{}", key.name()),
        (false, true) => format!("cub::DeviceRadixSort::SortKeys<{}>", key.name()),
        (true, true) => format!("cub::DeviceRadixSort::SortPairs<{}, u32>", key.name()),
    }
}

fn bench<'a>(
    backend: &'a Backend,
    cub: Option<&'a Cub>,
    d32: &[u32],
    d64: &[u64],
    grid: u32,
) -> Result<Bench<'a>> {
    // `d64` is empty when no `u64` keys are sorted.
    let n = d32.len();
    Ok(Bench {
        backend,
        cub,
        k32: KeyBuffers::new(backend, d32)?,
        k64: KeyBuffers::new(backend, d64)?,
        values: backend.upload(&(0..n as u32).collect::<Vec<u32>>())?,
        va: backend.alloc(n.max(1))?,
        vout: backend.alloc(n.max(1))?,
        // Enough for every kernel's tiles.
        states: backend.alloc(
            sort_tiles::<u32>(n as u32, false)
                .max(sort_tiles::<u32>(n as u32, true))
                .max(sort_tiles::<u64>(n as u32, false))
                .max(sort_tiles::<u64>(n as u32, true)) as usize
                * DIGITS,
        )?,
        histogram_grid: grid,
        epoch: 0,
    })
}

/// The inputs: the 32-bit keys' bit patterns and the `u64` keys.
struct Data {
    d32: Vec<u32>,
    d64: Vec<u64>,
}

impl Data {
    /// `n` keys of each width (no `u64` keys unless `wide`).
    fn new(n: u32, wide: bool) -> Data {
        Data {
            d32: keys32(n),
            d64: if wide { keys64(n) } else { Vec::new() },
        }
    }

    /// The host's stable sort of `key`'s input.
    fn model(&self, key: Key) -> Vec<u32> {
        match key {
            Key::U64 => model(&self.d64, key),
            _ => model(&self.d32, key),
        }
    }

    /// `key`'s input in the order `want`: gathered once per size, shared
    /// by the four sorts checked against it (a gather of 2^28 keys in
    /// random order waits on memory for seconds).
    fn expect(&self, key: Key, want: &[u32]) -> Expect {
        fn gather<W: Copy>(data: &[W], want: &[u32]) -> Vec<W> {
            want.iter().map(|&i| data[i as usize]).collect()
        }
        match key {
            Key::U64 => Expect::W64(gather(&self.d64, want)),
            _ => Expect::W32(gather(&self.d32, want)),
        }
    }
}

/// The expected output of a sort, in the keys' width.
enum Expect {
    W32(Vec<u32>),
    W64(Vec<u64>),
}

impl Expect {
    /// [`Bench::verify`] against these keys.
    fn verify(
        &self,
        b: &mut Bench<'_>,
        key: Key,
        pairs: bool,
        cub: bool,
        want: &[u32],
    ) -> Result<(bool, String)> {
        match self {
            Expect::W32(e) => b.verify(key, pairs, cub, e, want),
            Expect::W64(e) => b.verify(key, pairs, cub, e, want),
        }
    }
}

/// The host's stable sort of `data` (bit words of `key`'s type) by CUB's
/// order, as the keys' indices: the (bits, index) pairs, bucketed by their
/// top 8 bits in index order, each bucket sorted (on the host's cores);
/// the pairs' order is the stable order.
fn model<W: Word>(data: &[W], key: Key) -> Vec<u32> {
    let top_shift = W::PASSES as u32 * 8 - 8;
    let mut buckets: Vec<Vec<(W, u32)>> = vec![Vec::new(); DIGITS];
    for (i, &raw) in data.iter().enumerate() {
        let bits = W::sort_bits(key, raw);
        buckets[bits.digit(top_shift) as usize].push((bits, i as u32));
    }
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    std::thread::scope(|s| {
        for chunk in buckets.chunks_mut(DIGITS.div_ceil(threads)) {
            s.spawn(move || chunk.iter_mut().for_each(|b| b.sort_unstable()));
        }
    });
    buckets.into_iter().flatten().map(|(_, i)| i).collect()
}

/// The order of the first `n` keys: the whole order without the later
/// keys (a stable sort of a prefix keeps the order of its keys).
fn prefix(order: &[u32], n: u32) -> Vec<u32> {
    order.iter().copied().filter(|&i| i < n).collect()
}

/// Runs the experiment at `sizes` (`--sizes`) into `out` (on a GPU) or
/// verifies the Rust kernels on the simulator (without one), for the key
/// types named in `keys` (`--keys`; empty: all).
pub fn run(a: &LabArgs, keys: &[String], sizes: &[u32], progress: &Progress) -> Result<()> {
    let chosen: Vec<Key> = Key::ALL
        .into_iter()
        .filter(|k| keys.is_empty() || keys.iter().any(|n| n == k.name()))
        .collect();
    let backend = a.backend.open()?;
    let Backend::Gpu(gpu) = &backend else {
        let data = Data::new(
            *SIM_SIZES.iter().max().expect("sizes"),
            chosen.contains(&Key::U64),
        );
        let mut b = bench(&backend, None, &data.d32, &data.d64, 3)?;
        let mut bad = Vec::new();
        let models: Vec<(Key, Vec<u32>)> = chosen.iter().map(|&k| (k, data.model(k))).collect();
        for n in SIM_SIZES {
            for (key, model) in &models {
                let key = *key;
                let want = prefix(model, n);
                let expect = data.expect(key, &want);
                for pairs in [false, true] {
                    let (ok, what) = expect.verify(&mut b, key, pairs, false, &want)?;
                    println!(
                        "verified device_radix_sort {:<26} n={n:<6} on the simulator: {} ({what})",
                        name(key, pairs, false),
                        if ok { "OK" } else { "FAILED" }
                    );
                    if !ok {
                        bad.push(format!("{} n={n}", name(key, pairs, false)));
                    }
                }
            }
        }
        println!(
            "device_radix_sort: no GPU, so CUB was not built and nothing was timed (simulator verification only)"
        );
        if !bad.is_empty() {
            bail!(
                "device_radix_sort verification FAILED on the simulator: {}",
                bad.join("; ")
            );
        }
        return Ok(());
    };
    let Some(nvcc) = tools::find_tool("nvcc") else {
        bail!(
            "the device_radix_sort experiment builds reference/cuda/device_radix_sort.cu with nvcc, which was not found"
        );
    };
    let sm = gpu.info().sm();
    let out = crate::results::out_dir(a.out.as_deref(), &gpu.info().slug());
    crate::preflight::check_out_dir(&out)?;
    let out = out.as_path();
    let dir = std::env::temp_dir().join(format!("cg-lab-device-radix-sort-{}", std::process::id()));
    eprintln!(
        "building reference/cuda/device_radix_sort.cu (CUB) with {} for sm_{sm} …",
        nvcc.display()
    );
    let cub = Cub::build(&nvcc, sm, &dir)?;
    let f = gpu.kernels().kernel(&RADIX_HISTOGRAMS_U32)?;
    let grid = gpu.max_coresident_blocks(f, Dim3::x(HIST_BLOCK), 0)?;
    let data = Data::new(
        *sizes.iter().max().context("sizes")?,
        chosen.contains(&Key::U64),
    );
    let mut b = bench(&backend, Some(&cub), &data.d32, &data.d64, grid)?;
    let order: Vec<(u32, Key, bool, bool)> = sizes
        .iter()
        .flat_map(|&n| {
            chosen.iter().flat_map(move |&key| {
                [
                    (n, key, false, false),
                    (n, key, false, true),
                    (n, key, true, false),
                    (n, key, true, true),
                ]
            })
        })
        .collect();
    // One host sort per key type, at the largest size (the smaller sizes'
    // orders are its prefixes' orders); `checks` in `order`'s order.
    let mut checks = vec![None; order.len()];
    for &key in &chosen {
        let all = data.model(key);
        for &n in sizes {
            let want = prefix(&all, n);
            let expect = data.expect(key, &want);
            for (v, &(_, _, pairs, cub)) in order
                .iter()
                .enumerate()
                .filter(|(_, o)| o.0 == n && o.1 == key)
            {
                let what = name(key, pairs, cub);
                progress.set_message(format!("verify device_radix_sort {what} n={n}"));
                let r = expect
                    .verify(&mut b, key, pairs, cub, &want)
                    .with_context(|| format!("verifying {what} at n = {n}"))?;
                println!(
                    "verified device_radix_sort {:<42} n=2^{:<2} {} ({})",
                    what,
                    n.trailing_zeros(),
                    if r.0 { "OK" } else { "FAILED" },
                    r.1
                );
                checks[v] = Some(r);
            }
        }
    }
    let checks: Vec<(bool, String)> = checks
        .into_iter()
        .map(|c| c.expect("every variant was verified"))
        .collect();
    drop(data);
    let samples = timing::time_interleaved(
        &mut b,
        &order,
        a.warmup,
        a.runs,
        1,
        a.min_sample_ms,
        progress,
    )
    .context("timing device_radix_sort")?;
    let platform = crate::results::platform(&backend);
    let points: Vec<Point> = order
        .iter()
        .zip(samples)
        .zip(checks)
        .map(|((&(n, key, pairs, cub), smp), (verified, check))| {
            let ms = Summary::of(&smp);
            Point {
                n,
                key: key.name(),
                pairs,
                side: if cub { "cub" } else { "rust" },
                kernel: name(key, pairs, cub),
                gkeys_per_s: n as f64 / (ms.median * 1e-3) / 1e9,
                ms,
                verified,
                check,
            }
        })
        .collect();
    let timing_text = timing::describe(
        "the Rust sort (memset of the counters, histogram launch, four passes, eight for u64), or one CUB call: its temporary-storage query and kernels, storage allocated beforehand",
        a.warmup,
        a.runs,
        a.min_sample_ms,
    );
    let files = [
        ("device_radix_sort.csv", csv(&points)),
        (
            "device_radix_sort.md",
            markdown(&points, sizes, &platform, &timing_text),
        ),
        (
            "device_radix_sort.json",
            serde_json::to_string_pretty(&points)?,
        ),
    ];
    for (name, text) in files {
        write_atomic(&out.join(name), text.as_bytes())?;
        println!("wrote {}", out.join(name).display());
    }
    for p in &points {
        println!(
            "device_radix_sort {:<42} n=2^{:<2} {:>9.4} ms {:>7.2} Gkeys/s  {}",
            p.kernel,
            p.n.trailing_zeros(),
            p.ms.median,
            p.gkeys_per_s,
            if p.verified { "OK" } else { "FAILED" }
        );
    }
    std::fs::remove_dir_all(&dir).ok();
    let bad: Vec<String> = points
        .iter()
        .filter(|p| !p.verified)
        .map(|p| format!("{} n={} ({})", p.kernel, p.n, p.check))
        .collect();
    if !bad.is_empty() {
        bail!("device_radix_sort verification FAILED: {}", bad.join("; "));
    }
    Ok(())
}

fn csv(points: &[Point]) -> String {
    let mut s =
        String::from("n,key,pairs,side,kernel,median_ms,p10_ms,p90_ms,gkeys_per_s,verified\n");
    for p in points {
        let _ = writeln!(
            s,
            "{},{},{},{},\"{}\",{:.6},{:.6},{:.6},{:.3},{}",
            p.n,
            p.key,
            p.pairs,
            p.side,
            p.kernel,
            p.ms.median,
            p.ms.p10,
            p.ms.p90,
            p.gkeys_per_s,
            p.verified
        );
    }
    s
}

// The report names two pairs tiles: `u32` keys' and the one every other
// key type shares.
const _: () = assert!(
    sort_tile::<f32>(true) == sort_tile::<i32>(true)
        && sort_tile::<u64>(true) == sort_tile::<i32>(true)
);

fn markdown(points: &[Point], sizes: &[u32], p: &crate::results::Platform, timing: &str) -> String {
    let mut s = format!(
        "# Device-wide radix sort of u32, i32, f32 and u64 keys: the library against CUB — {}\n\nPlatform: {}\n\nCommand: `{}`\n\n",
        p.device,
        p.line(),
        p.command
    );
    let _ = writeln!(
        s,
        "Uniformly random 32-bit keys, the same bits read as `u32`, `i32` and `f32` (NaNs and both zeros included; CUB's order: \
         `-0.0` equals `+0.0`, NaNs by their bits), and uniformly random `u64` keys; pairs: each value (`u32`) its key's index. Rust: one histogram launch for all 8-bit digits, then one pass per digit (four; eight for `u64`) of one \
         block of {} threads per tile of {} keys (pairs of `u32` keys: {} threads, {} pairs; pairs of `i32`, `f32` and `u64` keys: {} threads, {} pairs; CUB's onesweep with early counts: warp-private digit counters \
         filled by shared atomics and published before ranking, keys ranked by ballots and one shared atomic per match, a decoupled \
         look-back per digit, a scatter). CUB: `cub::DeviceRadixSort::SortKeys`, `SortPairs` (nvcc, host dispatch). Every point \
         verified before timing (both sides' output equals the host's sort). Timing: {timing}; all sizes and sides \
         interleaved.\n",
        sort_block::<u32>(false),
        sort_tile::<u32>(false),
        sort_block::<u32>(true),
        sort_tile::<u32>(true),
        sort_block::<i32>(true),
        sort_tile::<i32>(true),
    );
    for key in Key::ALL {
        // Key types left out by `--keys` have no points.
        if !points.iter().any(|q| q.key == key.name()) {
            continue;
        }
        for pairs in [false, true] {
            let title = if pairs { "pairs" } else { "keys" };
            let _ = writeln!(s, "\n## `{}` {title}\n", key.name());
            let _ = writeln!(
                s,
                "| n | Rust Gkeys/s | CUB Gkeys/s | Rust ÷ CUB throughput | verified |"
            );
            let _ = writeln!(s, "| --- | ---: | ---: | ---: | --- |");
            for &n in sizes {
                let find = |side: &str| {
                    points
                        .iter()
                        .find(|q| {
                            q.n == n && q.key == key.name() && q.pairs == pairs && q.side == side
                        })
                        .expect("every point of a measured key type was measured")
                };
                let (r, c) = (find("rust"), find("cub"));
                let _ = writeln!(
                    s,
                    "| 2^{} | {:.2} | {:.2} | **{:.3}** | {} |",
                    n.trailing_zeros(),
                    r.gkeys_per_s,
                    c.gkeys_per_s,
                    r.gkeys_per_s / c.gkeys_per_s,
                    if r.verified && c.verified {
                        "both"
                    } else {
                        "FAILED"
                    }
                );
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::golden;

    #[test]
    fn outputs_match_the_golden_files() {
        let sizes = golden::SIZES;
        let chosen = Key::ALL;
        let order: Vec<(u32, Key, bool, bool)> = sizes
            .iter()
            .flat_map(|&n| {
                chosen.iter().flat_map(move |&key| {
                    [
                        (n, key, false, false),
                        (n, key, false, true),
                        (n, key, true, false),
                        (n, key, true, true),
                    ]
                })
            })
            .collect();
        let platform = golden::platform();
        let points: Vec<Point> = order
            .iter()
            .enumerate()
            .map(|(i, &(n, key, pairs, cub))| {
                let ms = golden::summary(i);
                let (verified, check) = golden::verdict(i);
                Point {
                    n,
                    key: key.name(),
                    pairs,
                    side: if cub { "cub" } else { "rust" },
                    kernel: name(key, pairs, cub),
                    gkeys_per_s: n as f64 / (ms.median * 1e-3) / 1e9,
                    ms,
                    verified,
                    check,
                }
            })
            .collect();
        let (w, r, m) = golden::TIMING;
        let timing_text = timing::describe(
            "the Rust sort (memset of the counters, histogram launch, four passes, eight for u64), or one CUB call: its temporary-storage query and kernels, storage allocated beforehand",
            w,
            r,
            m,
        );
        golden::check(
            "device_radix_sort",
            &[
                ("csv", csv(&points)),
                ("md", markdown(&points, &sizes, &platform, &timing_text)),
                ("json", serde_json::to_string_pretty(&points).unwrap()),
            ],
        );
    }
}
