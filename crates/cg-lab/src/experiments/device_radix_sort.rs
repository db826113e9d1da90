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

use anyhow::{Context, Result, bail};
use cg_kernels::device_radix_sort::{
    DIGITS, HIST_BLOCK, HistogramsKernel, OnesweepKernel, OnesweepPairsKernel,
    RADIX_HISTOGRAMS_F32, RADIX_HISTOGRAMS_I32, RADIX_HISTOGRAMS_U32, RADIX_HISTOGRAMS_U64,
    RADIX_ONESWEEP_F32, RADIX_ONESWEEP_I32, RADIX_ONESWEEP_PAIRS_F32, RADIX_ONESWEEP_PAIRS_I32,
    RADIX_ONESWEEP_PAIRS_U32, RADIX_ONESWEEP_PAIRS_U64, RADIX_ONESWEEP_U32, RADIX_ONESWEEP_U64,
    SortKey, SortWords, passes, sort_block, sort_smem, sort_tile, sort_tiles,
};
use cg_kernels::xorshift::Xorshift;
use cg_runtime::{Backend, Buffer, Dim3, LaunchConfig, Pod};
use cooperative_groups::primitives::RadixKey;
use serde::Serialize;

use crate::harness::csv::{Column, CsvRow, ms, quoted};
use crate::harness::experiment::{Experiment, Options, Outcome, Report, Verified, Watch};
use crate::harness::markdown::{both, head, ok, table_head};
use crate::harness::twin::{Twin, symbol};
use crate::reference::{DEVICE_RADIX_SORT_CU, Source};
use crate::results::Platform;
use crate::stats::Summary;

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
pub enum Key {
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
pub struct Cub {
    sort: [CubFn<u32>; 3],
    pairs: [CubPairsFn<u32>; 3],
    sort64: CubFn<u64>,
    pairs64: CubPairsFn<u64>,
}

impl Cub {
    fn load(lib: &libloading::Library) -> Result<Cub> {
        let get = |k: Key| -> Result<(CubFn<u32>, CubPairsFn<u32>)> {
            // SAFETY: symbols of device_radix_sort.cu with these C
            // signatures (a key pointer of any type of the word's width).
            unsafe {
                Ok((
                    symbol(lib, &format!("cub_radix_sort_keys_{}", k.name()))?,
                    symbol(lib, &format!("cub_radix_sort_pairs_{}", k.name()))?,
                ))
            }
        };
        let [a, b, c] = Key::WORD32.map(get);
        let [(s0, p0), (s1, p1), (s2, p2)] = [a?, b?, c?];
        // SAFETY: as above, for the `u64` keys.
        unsafe {
            Ok(Cub {
                sort: [s0, s1, s2],
                pairs: [p0, p1, p2],
                sort64: symbol(lib, "cub_radix_sort_keys_u64")?,
                pairs64: symbol(lib, "cub_radix_sort_pairs_u64")?,
            })
        }
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

/// The keys of both widths, the values and the tile states on the device;
/// the host's keys until verified (dropped before timing: gigabytes at
/// 2^28).
pub struct Bench<'a> {
    backend: &'a Backend,
    cub: Option<Cub>,
    k32: KeyBuffers<u32>,
    k64: KeyBuffers<u64>,
    values: Buffer<u32>,
    va: Buffer<u32>,
    vout: Buffer<u32>,
    states: Buffer<u64>,
    histogram_grid: u32,
    epoch: u32,
    data: Option<Data>,
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
            let c = self.cub.as_ref().context("CUB runs on a GPU only")?;
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

/// One measured (size, side).
#[derive(Clone, Debug, Serialize)]
pub struct Point {
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

// The report names two pairs tiles: `u32` keys' and the one every other
// key type shares.
const _: () = assert!(
    sort_tile::<f32>(true) == sort_tile::<i32>(true)
        && sort_tile::<u64>(true) == sort_tile::<i32>(true)
);

impl CsvRow for Point {
    const COLUMNS: &'static [Column<Point>] = &[
        ("n", |p| p.n.to_string()),
        ("key", |p| p.key.into()),
        ("pairs", |p| p.pairs.to_string()),
        ("side", |p| p.side.into()),
        ("kernel", |p| quoted(&p.kernel)),
        ("median_ms", |p| ms(p.ms.median)),
        ("p10_ms", |p| ms(p.ms.p10)),
        ("p90_ms", |p| ms(p.ms.p90)),
        ("gkeys_per_s", |p| format!("{:.3}", p.gkeys_per_s)),
        ("verified", |p| p.verified.to_string()),
    ];
}

impl Outcome for Point {
    fn failure(&self) -> Option<String> {
        (!self.verified).then(|| format!("{} n={} ({})", self.kernel, self.n, self.check))
    }
}

/// The key types named in `--keys` (none named: all), in [`Key::ALL`]'s
/// order.
fn chosen(opts: &Options<'_>) -> Vec<Key> {
    Key::ALL
        .into_iter()
        .filter(|k| opts.keys.is_empty() || opts.keys.iter().any(|n| n == k.name()))
        .collect()
}

/// (size, key type, pairs?, CUB?).
pub type Var = (u32, Key, bool, bool);

/// The device-wide radix sort against CUB.
pub struct DeviceRadixSort;

impl Experiment for DeviceRadixSort {
    const NAME: &'static str = "device_radix_sort";
    const TWIN: Source = DEVICE_RADIX_SORT_CU;
    const TIMED: &'static str = "the Rust sort (memset of the counters, histogram launch, four passes, eight for u64), or one CUB call: its temporary-storage query and kernels, storage allocated beforehand";
    /// Partial last tiles.
    const SIM_SIZES: &'static [u32] = &[1003, 3 * sort_tile::<u32>(true) as u32 + 17];
    const WIDTH: (usize, usize) = (26, 42);
    type Variant = Var;
    type Extra = ();
    type Row = Point;
    type Bench<'a> = Bench<'a>;

    fn bench<'a>(
        backend: &'a Backend,
        twin: Option<&'a Twin>,
        sizes: &[u32],
        opts: &Options<'_>,
    ) -> Result<Bench<'a>> {
        let cub = twin.map(|t| Cub::load(t.library()?)).transpose()?;
        // The histogram launch's grid: as many blocks as fit at once (3 on
        // the simulator).
        let histogram_grid = match backend {
            Backend::Gpu(gpu) => {
                let f = gpu.kernels().kernel(&RADIX_HISTOGRAMS_U32)?;
                gpu.max_coresident_blocks(f, Dim3::x(HIST_BLOCK), 0)?
            }
            Backend::Sim(_) => 3,
        };
        let data = Data::new(
            *sizes.iter().max().context("sizes")?,
            chosen(opts).contains(&Key::U64),
        );
        // `d64` is empty when no `u64` keys are sorted.
        let n = data.d32.len();
        Ok(Bench {
            backend,
            cub,
            k32: KeyBuffers::new(backend, &data.d32)?,
            k64: KeyBuffers::new(backend, &data.d64)?,
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
            histogram_grid,
            epoch: 0,
            data: Some(data),
        })
    }

    fn variants(_: &Bench<'_>, sizes: &[u32], opts: &Options<'_>, cpp: bool) -> Vec<Var> {
        let mut v = Vec::new();
        for &n in sizes {
            for key in chosen(opts) {
                for (pairs, cub) in [(false, false), (false, true), (true, false), (true, true)] {
                    if cpp || !cub {
                        v.push((n, key, pairs, cub));
                    }
                }
            }
        }
        v
    }

    fn kernel((_, key, pairs, cub): Var) -> String {
        name(key, pairs, cub)
    }

    fn n(v: Var) -> u32 {
        v.0
    }

    /// One timed launch, not waited for.
    fn launch(b: &mut Bench<'_>, (n, key, pairs, cub): (u32, Key, bool, bool)) -> Result<()> {
        b.launch(key, pairs, cub, n, false)
    }

    fn verify(b: &mut Bench<'_>, v: Var) -> Result<Verified> {
        Ok(Self::verify_all(b, &[v], &mut |_, _| {})?.remove(0))
    }

    /// One host sort per key type, at the largest size (the smaller sizes'
    /// orders are its prefixes' orders), and one gather per (size, key
    /// type) shared by its sorts. On a GPU key type after key type, so one
    /// order is held at a time (1 GiB at 2^28); on the simulator size after
    /// size (its printed order), every type's order held. The host's keys
    /// are dropped at the end.
    fn verify_all(
        b: &mut Bench<'_>,
        variants: &[Var],
        each: &mut Watch<'_, Var, ()>,
    ) -> Result<Vec<Verified>> {
        let data = b.data.take().context("the host's keys were dropped")?;
        let by_key = !b.backend.is_sim();
        let mut order: Vec<usize> = (0..variants.len()).collect();
        if by_key {
            order.sort_by_key(|&i| variants[i].1 as usize);
        }
        let mut models: Vec<(Key, Vec<u32>)> = Vec::new();
        let mut checks = vec![None; variants.len()];
        let mut rest = &order[..];
        while let Some(&first) = rest.first() {
            let (n, key, ..) = variants[first];
            let len = rest
                .iter()
                .take_while(|&&j| variants[j].0 == n && variants[j].1 == key)
                .count();
            let (group, tail) = rest.split_at(len);
            rest = tail;
            if !models.iter().any(|m| m.0 == key) {
                if by_key {
                    models.clear();
                }
                models.push((key, data.model(key)));
            }
            let all = &models.iter().find(|m| m.0 == key).expect("modelled").1;
            let want = prefix(all, n);
            let expect = data.expect(key, &want);
            for &j in group {
                let v @ (_, _, pairs, cub) = variants[j];
                each(v, None);
                let (ok, what) = expect
                    .verify(b, key, pairs, cub, &want)
                    .with_context(|| format!("verifying {} at n = {n}", name(key, pairs, cub)))?;
                let c = Verified::new(ok, what);
                each(v, Some(&c));
                checks[j] = Some(c);
            }
        }
        Ok(checks
            .into_iter()
            .map(|c| c.expect("every variant was verified"))
            .collect())
    }

    fn rows(
        _: &Bench<'_>,
        vars: &[Var],
        ms: Vec<Summary>,
        checks: Vec<Verified>,
        _: &Platform,
    ) -> Vec<Point> {
        vars.iter()
            .zip(ms)
            .zip(checks)
            .map(|((&(n, key, pairs, cub), ms), c)| Point {
                n,
                key: key.name(),
                pairs,
                side: if cub { "cub" } else { "rust" },
                kernel: name(key, pairs, cub),
                gkeys_per_s: n as f64 / (ms.median * 1e-3) / 1e9,
                ms,
                verified: c.ok,
                check: c.what,
            })
            .collect()
    }

    fn markdown(points: &[Point], r: &Report<'_, Bench<'_>>) -> String {
        let mut s = head(
            "Device-wide radix sort of u32, i32, f32 and u64 keys: the library against CUB",
            r.platform,
        );
        let _ = writeln!(
            s,
            "Uniformly random 32-bit keys, the same bits read as `u32`, `i32` and `f32` (NaNs and both zeros included; CUB's order: \
             `-0.0` equals `+0.0`, NaNs by their bits), and uniformly random `u64` keys; pairs: each value (`u32`) its key's index. Rust: one histogram launch for all 8-bit digits, then one pass per digit (four; eight for `u64`) of one \
             block of {} threads per tile of {} keys (pairs of `u32` keys: {} threads, {} pairs; pairs of `i32`, `f32` and `u64` keys: {} threads, {} pairs; CUB's onesweep with early counts: warp-private digit counters \
             filled by shared atomics and published before ranking, keys ranked by ballots and one shared atomic per match, a decoupled \
             look-back per digit, a scatter). CUB: `cub::DeviceRadixSort::SortKeys`, `SortPairs` (nvcc, host dispatch). Every point \
             verified before timing (both sides' output equals the host's sort). Timing: {}; all sizes and sides \
             interleaved.\n",
            sort_block::<u32>(false),
            sort_tile::<u32>(false),
            sort_block::<u32>(true),
            sort_tile::<u32>(true),
            sort_block::<i32>(true),
            sort_tile::<i32>(true),
            r.timing,
        );
        for key in Key::ALL {
            // Key types left out by `--keys` have no points.
            if !points.iter().any(|q| q.key == key.name()) {
                continue;
            }
            for pairs in [false, true] {
                let title = if pairs { "pairs" } else { "keys" };
                let _ = writeln!(s, "\n## `{}` {title}\n", key.name());
                s += &table_head(&[
                    ("n", false),
                    ("Rust Gkeys/s", true),
                    ("CUB Gkeys/s", true),
                    ("Rust ÷ CUB throughput", true),
                    ("verified", false),
                ]);
                for &n in r.sizes {
                    let find = |side: &str| {
                        points
                            .iter()
                            .find(|q| {
                                q.n == n
                                    && q.key == key.name()
                                    && q.pairs == pairs
                                    && q.side == side
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
                        both(r.verified, c.verified)
                    );
                }
            }
        }
        s
    }

    fn line(p: &Point) -> String {
        format!(
            "device_radix_sort {:<42} n=2^{:<2} {:>9.4} ms {:>7.2} Gkeys/s  {}",
            p.kernel,
            p.n.trailing_zeros(),
            p.ms.median,
            p.gkeys_per_s,
            ok(p.verified)
        )
    }
}
