//! `cg-lab compare --only tma`: 2-D tiles moved by the Tensor Memory
//! Accelerator (sm_90) — the library's tensor maps, `arrive_copy_tile` and
//! `store_tile` (`cg_kernels::tma`) against C++ twins written with
//! `cuda::ptx` and `__grid_constant__ CUtensorMap` parameters
//! (`reference/cuda/tma.cu`) — a tiled copy, a tiled transpose (dense
//! tiles, and tiles in the copy engine's 128-byte swizzle) and a 1-D bulk
//! copy of square `f32` matrices from 1024² (4 MiB) to 16384² (1 GiB),
//! every launch verified bit for bit. Both sides' maps are encoded by the
//! same host code (`Backend::tensor_map`) and read in place in parameter
//! space.
//!
//! All variants and sizes are timed interleaved in the same rounds.
//! Bandwidth counts the bytes read and written (`2 · 4 · side²`). Writes
//! `tma.{csv,md}`.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result, bail};
use cg_kernels::tma::{
    BULK_BLOCK, BULK_COPY, BULK_TILE, BulkArgs, COPY_BLOCK, PROBE_BLOCK, PROBE_WORDS,
    RANK_PROBE_WORDS, SwizzledTiles, SwizzledTilesMut, TILE, TMA_COPY, TMA_COPY_4, TMA_RANK_PROBE,
    TMA_SWIZZLE_PROBE, TMA_TRANSPOSE, TMA_TRANSPOSE_SWIZZLED, TMA_VOLUME_PROBE, TRANSPOSE_BLOCK,
    VOLUME_PROBE_WORDS,
};
use cg_kernels::tma_multicast::{
    MC_BLOCK, MC_CLUSTER, McArgs, TMA_MULTICAST_FOLD, TMA_UNICAST_FOLD, mc_expected,
};
use cg_runtime::{
    Backend, Buffer, Gpu, Kernel, LaunchConfig, Module, TensorMap, TensorMap3, TensorMap3Mut,
    TensorMapMut, TensorMapNd, TensorMapNdMut,
};
use cooperative_groups::tma::{
    Swizzle32B, Swizzle64B, Swizzle128B, TensorMap1d, TensorMap1dMut, TensorMap2d, TensorMap2dMut,
    TensorMap4d, TensorMap5d, TensorMap5dMut,
};

use crate::cli::LabArgs;
use crate::output::write_atomic;
use crate::progress::Progress;
use crate::results::pct_cell;
use crate::stats::Summary;
use crate::timing::{self, Timed};

/// Matrix sides: 2^20 to 2^28 elements.
pub const SIDES: [u32; 5] = [1024, 2048, 4096, 8192, 16384];

type Args = (
    TensorMap2d<'static, f32, TILE, TILE>,
    TensorMap2dMut<'static, f32, TILE, TILE>,
);
type SwizzledArgs = (SwizzledTiles<'static>, SwizzledTilesMut<'static>);

/// What a kernel does with the matrix.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Work {
    /// Tile copy (tensor maps).
    Copy,
    /// Tile transpose (tensor maps, dense tiles).
    Transpose,
    /// Tile transpose (tensor maps, 128-byte swizzled tiles).
    TransposeSwizzled,
    /// Flat copy by 1-D bulk copies, a window per block.
    Bulk,
    /// Every block of a cluster of four folds every tile of its cluster,
    /// one block loading each tile for all (multicast) or each its own.
    Fold,
}

/// A variant's Rust kernel, by its parameters.
#[derive(Clone, Copy)]
enum Rust {
    /// A C++ twin.
    None,
    /// Dense tensor maps.
    Tiles(Kernel<Args>),
    /// Swizzled tensor maps.
    Swizzled(Kernel<SwizzledArgs>),
    /// A flat source and a destination owned in windows.
    Bulk(Kernel<BulkArgs>),
    /// The tiles and one word per thread.
    Fold(Kernel<McArgs>),
}

/// One kernel of the experiment.
struct Var {
    label: &'static str,
    rust: Rust,
    cpp: &'static str,
    work: Work,
    block: u32,
}

const VARS: [Var; 14] = [
    Var {
        label: "rust tile copy (arrive_copy_tile + store_tile)",
        rust: Rust::Tiles(TMA_COPY),
        cpp: "",
        work: Work::Copy,
        block: COPY_BLOCK,
    },
    Var {
        label: "c++ tile copy (cuda::ptx cp_async_bulk_tensor)",
        rust: Rust::None,
        cpp: "cpp_tma_copy",
        work: Work::Copy,
        block: COPY_BLOCK,
    },
    Var {
        label: "rust tile copy, 4 stages",
        rust: Rust::Tiles(TMA_COPY_4),
        cpp: "",
        work: Work::Copy,
        block: COPY_BLOCK,
    },
    Var {
        label: "c++ tile copy, 4 stages",
        rust: Rust::None,
        cpp: "cpp_tma_copy_4",
        work: Work::Copy,
        block: COPY_BLOCK,
    },
    Var {
        label: "rust tile transpose",
        rust: Rust::Tiles(TMA_TRANSPOSE),
        cpp: "",
        work: Work::Transpose,
        block: TRANSPOSE_BLOCK,
    },
    Var {
        label: "c++ tile transpose",
        rust: Rust::None,
        cpp: "cpp_tma_transpose",
        work: Work::Transpose,
        block: TRANSPOSE_BLOCK,
    },
    Var {
        label: "rust tile transpose, 128-byte swizzled tiles (tile_index)",
        rust: Rust::Swizzled(TMA_TRANSPOSE_SWIZZLED),
        cpp: "",
        work: Work::TransposeSwizzled,
        block: TRANSPOSE_BLOCK,
    },
    Var {
        label: "c++ tile transpose, CU_TENSOR_MAP_SWIZZLE_128B",
        rust: Rust::None,
        cpp: "cpp_tma_transpose_swizzled",
        work: Work::TransposeSwizzled,
        block: TRANSPOSE_BLOCK,
    },
    Var {
        label: "rust 1-D bulk copy (arrive_copy + Window::store_bulk)",
        rust: Rust::Bulk(BULK_COPY),
        cpp: "",
        work: Work::Bulk,
        block: BULK_BLOCK,
    },
    Var {
        label: "c++ 1-D bulk copy (cuda::ptx cp_async_bulk both ways)",
        rust: Rust::None,
        cpp: "cpp_bulk_copy",
        work: Work::Bulk,
        block: BULK_BLOCK,
    },
    Var {
        label: "rust fold, clusters of 4, one multicast load per tile (copy_tile_multicast)",
        rust: Rust::Fold(TMA_MULTICAST_FOLD),
        cpp: "",
        work: Work::Fold,
        block: MC_BLOCK,
    },
    Var {
        label: "c++ fold, clusters of 4, cp.async.bulk.tensor .multicast::cluster",
        rust: Rust::None,
        cpp: "cpp_tma_multicast_fold",
        work: Work::Fold,
        block: MC_BLOCK,
    },
    Var {
        label: "rust fold, clusters of 4, each block loading its own tiles",
        rust: Rust::Fold(TMA_UNICAST_FOLD),
        cpp: "",
        work: Work::Fold,
        block: MC_BLOCK,
    },
    Var {
        label: "c++ fold, clusters of 4, each block loading its own tiles",
        rust: Rust::None,
        cpp: "cpp_tma_unicast_fold",
        work: Work::Fold,
        block: MC_BLOCK,
    },
];

/// The multicast fold and the unicast fold (Rust), whose ratio is the
/// multicast's gain.
const MULTICAST_GAIN: (usize, usize) = (10, 12);

/// The ratios reported: (Rust variant, C++ variant) indices into [`VARS`].
const PAIRS: [(usize, usize); 7] = [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11), (12, 13)];

impl Var {
    fn name(&self) -> &'static str {
        match self.rust {
            Rust::Tiles(k) => k.name(),
            Rust::Swizzled(k) => k.name(),
            Rust::Bulk(k) => k.name(),
            Rust::Fold(k) => k.name(),
            Rust::None => self.cpp,
        }
    }

    fn is_rust(&self) -> bool {
        !matches!(self.rust, Rust::None)
    }
}

/// One side's matrices and maps.
struct Size<'a> {
    side: u32,
    src: TensorMap<'a, f32, TILE, TILE>,
    dst: TensorMapMut<'a, f32, TILE, TILE>,
    /// The source in 128-byte swizzled tiles.
    src_swizzled: TensorMap<'a, f32, TILE, TILE, Swizzle128B>,
    /// The swizzled transpose's destination (a buffer of its own: a
    /// writable map holds its buffer's exclusive borrow).
    dst_swizzled: TensorMapMut<'a, f32, TILE, TILE, Swizzle128B>,
    /// The 1-D bulk copy's destination.
    flat: &'a mut Buffer<f32>,
}

impl Size<'_> {
    /// The buffer `work` writes (the folds write `Tma::folds`).
    fn out(&mut self, work: Work) -> &mut Buffer<f32> {
        match work {
            Work::Bulk => self.flat,
            Work::TransposeSwizzled => self.dst_swizzled.buffer_mut(),
            Work::Copy | Work::Transpose | Work::Fold => self.dst.buffer_mut(),
        }
    }
}

struct Tma<'a> {
    gpu: &'a Gpu,
    module: &'a Module,
    sizes: Vec<Size<'a>>,
    grid_copy: u32,
    grid_transpose: u32,
    /// The folds' grid: a multiple of [`MC_CLUSTER`].
    grid_fold: u32,
    /// The folds' words, one per thread of `grid_fold` blocks.
    folds: Buffer<u32>,
    /// The folds' expected words per size, computed once.
    fold_want: Vec<Option<Vec<u32>>>,
}

impl Tma<'_> {
    fn launch(&mut self, v: &Var, s: usize) -> Result<()> {
        let size = &mut self.sizes[s];
        let n = size.side * size.side;
        let grid = match v.work {
            Work::Copy => self.grid_copy,
            Work::Transpose | Work::TransposeSwizzled => self.grid_transpose,
            Work::Bulk => n.div_ceil(BULK_TILE as u32),
            Work::Fold => self.grid_fold,
        };
        let mut cfg = LaunchConfig::linear(grid, v.block);
        if v.work == Work::Fold {
            cfg = cfg.with_cluster(MC_CLUSTER);
        }
        match v.rust {
            Rust::Tiles(k) => self.gpu.launch(&k, &cfg, (&size.src, &mut size.dst))?,
            Rust::Swizzled(k) => {
                self.gpu
                    .launch(&k, &cfg, (&size.src_swizzled, &mut size.dst_swizzled))?
            }
            Rust::Bulk(k) => self
                .gpu
                .launch(&k, &cfg, (size.src.buffer(), &mut *size.flat))?,
            Rust::Fold(k) => self.gpu.launch(&k, &cfg, (&size.src, &mut self.folds))?,
            Rust::None if v.work == Work::Fold => {
                let f = self.module.function(v.cpp)?;
                let src = size.src.raw().context("a GPU map")?;
                let out = self.folds.as_ptr();
                // SAFETY: the twin reads the map (encoded from this GPU's
                // buffer, alive for the launch) and writes one word per
                // thread of the grid into `folds`, which has them.
                unsafe {
                    self.gpu
                        .launch_function(f, v.cpp, &cfg, (src, out, size.side, size.side))
                }?;
            }
            Rust::None if v.work == Work::Bulk => {
                let f = self.module.function(v.cpp)?;
                let (src, dst) = (size.src.buffer().as_ptr(), size.flat.as_ptr());
                // SAFETY: the C++ twin reads `n` floats of the source and
                // writes `n` of the destination, this GPU's buffers of
                // that length, alive for the launch.
                unsafe {
                    self.gpu
                        .launch_function(f, v.cpp, &cfg, (src as *const f32, dst, n))
                }?;
            }
            Rust::None => {
                let f = self.module.function(v.cpp)?;
                let (src, dst) = if v.work == Work::TransposeSwizzled {
                    (size.src_swizzled.raw(), size.dst_swizzled.raw())
                } else {
                    (size.src.raw(), size.dst.raw())
                };
                let (src, dst) = (src.context("a GPU map")?, dst.context("a GPU map")?);
                // SAFETY: the C++ twins take the two maps' bytes (encoded
                // from this GPU's buffers, alive for the launch, with the
                // swizzle the twin expects) and the source's sides, and
                // write only the destination's tiles.
                unsafe {
                    self.gpu
                        .launch_function(f, v.cpp, &cfg, (src, dst, size.side, size.side))
                }?;
            }
        }
        Ok(())
    }

    /// One launch into a zeroed destination, checked bit for bit.
    fn verify(&mut self, v: &Var, s: usize, input: &[u32]) -> Result<(bool, String)> {
        if v.work == Work::Fold {
            return self.verify_fold(v, s, input);
        }
        self.sizes[s].out(v.work).zero()?;
        self.launch(v, s)?;
        self.gpu.synchronize()?;
        let side = self.sizes[s].side as usize;
        let out = self.sizes[s].out(v.work).to_vec()?;
        let transposed = matches!(v.work, Work::Transpose | Work::TransposeSwizzled);
        let wrong = (0..side * side)
            .filter(|&i| {
                let (row, col) = (i / side, i % side);
                let want = if transposed {
                    input[col * side + row]
                } else {
                    input[i]
                };
                out[i].to_bits() != want
            })
            .count();
        Ok((
            wrong == 0,
            format!("{wrong} of {} elements differ", side * side),
        ))
    }
}

impl Tma<'_> {
    /// A fold's launch checked word for word against the host's fold
    /// (`mc_expected`, computed once per size on every core).
    fn verify_fold(&mut self, v: &Var, s: usize, input: &[u32]) -> Result<(bool, String)> {
        self.folds.zero()?;
        self.launch(v, s)?;
        self.gpu.synchronize()?;
        let got = self.folds.to_vec()?;
        let side = self.sizes[s].side as usize;
        let grid = self.grid_fold;
        let want = self.fold_want[s].get_or_insert_with(|| {
            let words = (grid * MC_BLOCK) as usize;
            let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
            let mut want = vec![0u32; words];
            std::thread::scope(|sc| {
                for (c, chunk) in want.chunks_mut(words.div_ceil(threads)).enumerate() {
                    let start = c * words.div_ceil(threads);
                    sc.spawn(move || {
                        for (j, w) in chunk.iter_mut().enumerate() {
                            let i = (start + j) as u32;
                            *w = mc_expected(input, (side, side), grid, i / MC_BLOCK, i % MC_BLOCK);
                        }
                    });
                }
            });
            want
        });
        let wrong = got.iter().zip(want.iter()).filter(|(g, w)| g != w).count();
        Ok((wrong == 0, format!("{wrong} of {} words differ", got.len())))
    }
}

impl Timed for Tma<'_> {
    type Variant = (usize, usize);
    fn gpu(&self) -> &Gpu {
        self.gpu
    }
    fn launch_async(&mut self, (s, v): (usize, usize), _reps: u32) -> Result<()> {
        self.launch(&VARS[v], s)
    }
}

/// Element `i` of a matrix: scattered bits (NaNs included: compared as bits).
fn element(i: usize) -> u32 {
    (i as u32).wrapping_mul(0x9e37_79b1) ^ 0x3f80_0000
}

/// GB/s of `work` on `side²` floats in `ms`: read and written, or read
/// only (the folds, whose output is a word per thread).
fn gbps(work: Work, side: u32, ms: f64) -> f64 {
    let ways = if work == Work::Fold { 1.0 } else { 2.0 };
    ways * 4.0 * (side as f64).powi(2) / (ms * 1e-3) / 1e9
}

/// Runs the experiment into `out`; fails if any launch did not verify.
pub fn run(
    backend: &Backend,
    a: &LabArgs,
    nvcc: &Path,
    out: &Path,
    progress: &Progress,
) -> Result<()> {
    let Backend::Gpu(gpu) = backend else {
        bail!("the tma experiment times a GPU");
    };
    let sm = gpu.info().sm();
    if sm < 90 {
        eprintln!(
            "note: tma skipped: the Tensor Memory Accelerator needs sm_90 (this GPU is sm_{sm})"
        );
        return Ok(());
    }
    let build = std::env::temp_dir().join(format!("cg-lab-tma-{}", std::process::id()));
    eprintln!(
        "building reference/cuda/tma.cu with {} for sm_{sm} …",
        nvcc.display()
    );
    let (cubin, _) = crate::reference::build_cubin(nvcc, sm, &build, crate::reference::TMA_CU)?;
    let module = gpu.load_image(&std::fs::read(&cubin)?)?;
    let inputs: Vec<Vec<u32>> = SIDES
        .iter()
        .map(|&s| (0..(s as usize).pow(2)).map(element).collect())
        .collect();
    let mut srcs = Vec::new();
    let mut dsts = Vec::new();
    for input in &inputs {
        let floats: Vec<f32> = input.iter().map(|&b| f32::from_bits(b)).collect();
        srcs.push(backend.upload(&floats)?);
        // The dense and swizzled maps' destinations and the flat copy's.
        let mut three = Vec::new();
        for _ in 0..3 {
            three.push(backend.alloc::<f32>(input.len())?);
        }
        dsts.push(three);
    }
    let mut sizes = Vec::new();
    for ((&side, src), dst) in SIDES.iter().zip(&srcs).zip(dsts.iter_mut()) {
        let n = side as usize;
        let [dense, swizzled, flat] = &mut dst[..] else {
            unreachable!("three destinations per size")
        };
        sizes.push(Size {
            side,
            src: backend.tensor_map(src, n, n, n)?,
            dst: backend.tensor_map_mut(dense, n, n, n)?,
            src_swizzled: backend.tensor_map(src, n, n, n)?,
            dst_swizzled: backend.tensor_map_mut(swizzled, n, n, n)?,
            flat,
        });
    }
    let sms = gpu.info().sm_count;
    let grid_fold = (a.grid.unwrap_or(sms * 8) / MC_CLUSTER).max(1) * MC_CLUSTER;
    let mut t = Tma {
        gpu,
        module: &module,
        sizes,
        grid_copy: a.grid.unwrap_or(sms * 16),
        grid_transpose: a.grid.unwrap_or(sms * 8),
        grid_fold,
        folds: backend.alloc::<u32>((grid_fold * MC_BLOCK) as usize)?,
        fold_want: SIDES.iter().map(|_| None).collect(),
    };
    progress.set_message("verify tma swizzle layouts".to_string());
    let probe_diff = gpu_equals_sim(
        backend,
        "swizzle layouts (32-, 64-, 128-byte tiles)",
        swizzle_probe,
    )? + gpu_equals_sim(
        backend,
        "3-D tiles (a swizzled load, a dense load and store)",
        volume_probe,
    )? + gpu_equals_sim(
        backend,
        "1-D, 4-D and 5-D tiles (a swizzled 4-D load, dense 5-D and 1-D loads and stores)",
        rank_probe,
    )?;
    let mut checks = Vec::new();
    for s in 0..SIDES.len() {
        for v in &VARS {
            progress.set_message(format!("verify tma {} side={}", v.name(), SIDES[s]));
            let (ok, what) = t
                .verify(v, s, &inputs[s])
                .with_context(|| format!("verifying {} at side {}", v.name(), SIDES[s]))?;
            println!(
                "verified tma {:<18} {:>5}² {} ({what})",
                v.name(),
                SIDES[s],
                if ok { "OK" } else { "FAILED" }
            );
            checks.push((ok, what));
        }
    }
    let order: Vec<(usize, usize)> = (0..SIDES.len())
        .flat_map(|s| (0..VARS.len()).map(move |v| (s, v)))
        .collect();
    let samples = timing::time_interleaved(
        &mut t,
        &order,
        a.warmup,
        a.runs,
        1,
        a.min_sample_ms,
        progress,
    )
    .context("timing tma")?;
    let platform = crate::results::platform(backend);
    let points: Vec<Point> = order
        .iter()
        .zip(samples)
        .zip(checks)
        .map(|((&(s, v), smp), (verified, check))| {
            let ms = Summary::of(&smp);
            Point {
                side: SIDES[s],
                var: v,
                pct_peak: platform.pct_of_peak(gbps(VARS[v].work, SIDES[s], ms.median) * 1e9),
                ms,
                verified,
                check,
            }
        })
        .collect();
    let timing_text = timing::describe("the kernel", a.warmup, a.runs, a.min_sample_ms);
    let grids = (t.grid_copy, t.grid_transpose, t.grid_fold);
    for (name, text) in [
        ("tma.csv", csv(&points)),
        ("tma.md", markdown(&points, &platform, &timing_text, grids)),
    ] {
        write_atomic(&out.join(name), text.as_bytes())?;
        println!("wrote {}", out.join(name).display());
    }
    for p in &points {
        println!(
            "tma {:<18} {:>5}² {:>9.4} ms {:>7.1} GB/s {:>7} of peak  {}",
            VARS[p.var].name(),
            p.side,
            p.ms.median,
            gbps(VARS[p.var].work, p.side, p.ms.median),
            pct_cell(p.pct_peak),
            if p.verified { "OK" } else { "FAILED" }
        );
    }
    let (mc, uc) = MULTICAST_GAIN;
    for &(r, c) in PAIRS.iter().chain([&(mc, uc)]) {
        for side in SIDES {
            println!(
                "tma {} ÷ {} {:>5}²: {:.3}",
                VARS[r].name(),
                VARS[c].name(),
                side,
                find(&points, side, r).ms.median / find(&points, side, c).ms.median
            );
        }
    }
    std::fs::remove_dir_all(&build).ok();
    let bad: Vec<String> = points
        .iter()
        .filter(|p| !p.verified)
        .map(|p| format!("{} side={} ({})", VARS[p.var].name(), p.side, p.check))
        .collect();
    if !bad.is_empty() || probe_diff != 0 {
        bail!(
            "tma verification FAILED: {}{}",
            bad.join("; "),
            if probe_diff != 0 {
                " the probes' GPU and simulator words differ"
            } else {
                ""
            }
        );
    }
    Ok(())
}

/// Runs `probe` on the GPU `backend` and on the simulator, prints whether
/// their words agree, and returns how many differ.
fn gpu_equals_sim(
    backend: &Backend,
    what: &str,
    probe: fn(&Backend) -> Result<Vec<u32>>,
) -> Result<usize> {
    let (gpu, sim) = (probe(backend)?, probe(&Backend::sim())?);
    let diff = gpu.iter().zip(&sim).filter(|(g, s)| g != s).count();
    println!(
        "verified tma {what} GPU = simulator: {} ({diff} of {} words differ)",
        if diff == 0 { "OK" } else { "FAILED" },
        gpu.len()
    );
    Ok(diff)
}

/// The tensor the swizzle probe loads from: 64 × 40 words, all distinct.
const PROBE_TENSOR: (usize, usize) = (64, 40);

/// [`cg_kernels::tma::tma_swizzle_probe`]'s 896 words on `backend`: the 32-, 64- and
/// 128-byte swizzled tiles as the copy engine (or the simulator) lays them
/// out.
fn swizzle_probe(backend: &Backend) -> Result<Vec<u32>> {
    let (w, h) = PROBE_TENSOR;
    let data: Vec<u32> = (0..w * h).map(|i| i as u32 * 3 + 1).collect();
    let src = backend.upload(&data)?;
    let mut out = backend.alloc::<u32>(PROBE_BLOCK as usize * PROBE_WORDS)?;
    let a: TensorMap<'_, u32, 8, 16, Swizzle32B> = backend.tensor_map(&src, w, h, w)?;
    let b: TensorMap<'_, u32, 16, 16, Swizzle64B> = backend.tensor_map(&src, w, h, w)?;
    let c: TensorMap<'_, u32, 32, 16, Swizzle128B> = backend.tensor_map(&src, w, h, w)?;
    backend.launch(
        &TMA_SWIZZLE_PROBE,
        &LaunchConfig::linear(1, PROBE_BLOCK),
        (&a, &b, &c, &mut out),
    )?;
    Ok(out.to_vec()?)
}

/// The tensor of the 3-D probe: 40 × 8 × 6 words, rows and planes dense.
const VOLUME_SRC: (usize, usize, usize) = (40, 8, 6);
/// The volume the 3-D probe stores into: 24 × 6 × 4 words, zeroed.
const VOLUME_DST: (usize, usize, usize) = (24, 6, 4);

/// [`cg_kernels::tma::tma_volume_probe`]'s words on `backend`: its raw
/// tiles, then the volume it stored into.
fn volume_probe(backend: &Backend) -> Result<Vec<u32>> {
    let (w, h, d) = VOLUME_SRC;
    let data: Vec<u32> = (0..w * h * d).map(|i| i as u32 * 5 + 3).collect();
    let src = backend.upload(&data)?;
    let mut raw = backend.alloc::<u32>(PROBE_BLOCK as usize * VOLUME_PROBE_WORDS)?;
    let (ow, oh, od) = VOLUME_DST;
    let mut dst = backend.alloc::<u32>(ow * oh * od)?;
    {
        let a: TensorMap3<'_, u32, 32, 4, 4, Swizzle128B> =
            backend.tensor_map_3d(&src, VOLUME_SRC, w, w * h)?;
        let b: TensorMap3<'_, u32, 8, 4, 2> = backend.tensor_map_3d(&src, VOLUME_SRC, w, w * h)?;
        let mut out: TensorMap3Mut<'_, u32, 8, 4, 2> =
            backend.tensor_map_3d_mut(&mut dst, VOLUME_DST, ow, ow * oh)?;
        backend.launch(
            &TMA_VOLUME_PROBE,
            &LaunchConfig::linear(1, PROBE_BLOCK),
            (&a, &b, &mut out, &mut raw),
        )?;
    }
    let mut words = raw.to_vec()?;
    words.extend(dst.to_vec()?);
    Ok(words)
}

/// The source of the rank probe's loads: 576 words, seen as a 32 × 3 ×
/// 3 × 2 (4-D) and as a 16 × 3 × 2 × 3 × 2 (5-D) dense tensor; the 5-D
/// store's destination has that shape too.
const RANK_4D: ([usize; 4], [usize; 3]) = ([32, 3, 3, 2], [32, 96, 288]);
/// See [`RANK_4D`].
const RANK_5D: ([usize; 5], [usize; 4]) = ([16, 3, 2, 3, 2], [16, 48, 96, 288]);

/// The 1-D destination of the rank probe: 100 words.
const RANK_1D_DST: usize = 100;

/// [`cg_kernels::tma::tma_rank_probe`]'s words on `backend`: its raw
/// tiles, then the tensors it stored into (5-D, 1-D).
fn rank_probe(backend: &Backend) -> Result<Vec<u32>> {
    let data: Vec<u32> = (0..576).map(|i| i as u32 * 3 + 2).collect();
    let src = backend.upload(&data)?;
    let mut raw = backend.alloc::<u32>(PROBE_BLOCK as usize * RANK_PROBE_WORDS)?;
    let mut dst = backend.alloc::<u32>(576)?;
    let mut dst1 = backend.alloc::<u32>(RANK_1D_DST)?;
    {
        let a: TensorMapNd<'_, TensorMap4d<u32, 16, 2, 4, 2, Swizzle64B>> =
            backend.tensor_map_nd(&src, RANK_4D.0, RANK_4D.1)?;
        let b: TensorMapNd<'_, TensorMap5d<u32, 8, 4, 2, 2, 2>> =
            backend.tensor_map_nd(&src, RANK_5D.0, RANK_5D.1)?;
        let c: TensorMapNd<'_, TensorMap1d<u32, 64>> = backend.tensor_map_nd(&src, [576], [])?;
        let mut out: TensorMapNdMut<'_, TensorMap5dMut<u32, 8, 4, 2, 2, 2>> =
            backend.tensor_map_nd_mut(&mut dst, RANK_5D.0, RANK_5D.1)?;
        let mut out1: TensorMapNdMut<'_, TensorMap1dMut<u32, 64>> =
            backend.tensor_map_nd_mut(&mut dst1, [RANK_1D_DST], [])?;
        backend.launch(
            &TMA_RANK_PROBE,
            &LaunchConfig::linear(1, PROBE_BLOCK),
            (&a, &b, &c, &mut out, &mut out1, &mut raw),
        )?;
    }
    let mut words = raw.to_vec()?;
    words.extend(dst.to_vec()?);
    words.extend(dst1.to_vec()?);
    Ok(words)
}

/// One (size, kernel) result.
struct Point {
    side: u32,
    var: usize,
    ms: Summary,
    pct_peak: Option<f64>,
    verified: bool,
    check: String,
}

fn find(points: &[Point], side: u32, var: usize) -> &Point {
    points
        .iter()
        .find(|p| p.side == side && p.var == var)
        .expect("every (size, variant) was measured")
}

fn csv(points: &[Point]) -> String {
    let mut s = String::from(
        "side,elements,kernel,side_of,median_ms,p10_ms,p90_ms,gb_per_s,pct_of_peak,verified\n",
    );
    for p in points {
        let v = &VARS[p.var];
        let _ = writeln!(
            s,
            "{},{},{},{},{:.6},{:.6},{:.6},{:.1},{},{}",
            p.side,
            p.side as u64 * p.side as u64,
            v.name(),
            if v.is_rust() { "rust" } else { "c++" },
            p.ms.median,
            p.ms.p10,
            p.ms.p90,
            gbps(VARS[p.var].work, p.side, p.ms.median),
            p.pct_peak.map_or_else(String::new, |x| format!("{x:.2}")),
            p.verified
        );
    }
    s
}

/// A table's header: `first`, then a column per matrix side.
fn header(s: &mut String, first: &str) {
    let _ = write!(s, "| {first} |");
    for side in SIDES {
        let _ = write!(s, " {side}² |");
    }
    let _ = write!(s, "\n| --- |");
    for _ in SIDES {
        let _ = write!(s, " ---: |");
    }
    s.push('\n');
}

fn markdown(
    points: &[Point],
    p: &crate::results::Platform,
    timing: &str,
    (grid_copy, grid_transpose, grid_fold): (u32, u32, u32),
) -> String {
    let mut s = format!(
        "# tma: 2-D tiles by the Tensor Memory Accelerator — {}\n\nPlatform: {}\n\nCommand: `{}`\n\n",
        p.device,
        p.line(),
        p.command
    );
    let _ = writeln!(
        s,
        "Square `f32` matrices in {TILE} × {TILE} tiles: blocks take tiles in turn (copy: {COPY_BLOCK} threads, \
         grid {grid_copy}; transpose: {TRANSPOSE_BLOCK} threads, grid {grid_transpose}), two stages; thread 0 \
         loads a tile with one tensor copy completing on the stage's mbarrier (the 4-stage copy: three loads in flight), the block stores it (the \
         transpose turns it in shared memory first; the swizzled one with both maps in `CU_TENSOR_MAP_SWIZZLE_128B`, \
         elements found by `TensorMap2d::tile_index` / the twin's XOR) with one tensor store after a proxy fence and a barrier. \
         Rust: `Mbarrier::arrive_copy_tile`, `TensorTilesMut::store_tile`; C++: \
         `cuda::ptx`, `__grid_constant__ CUtensorMap` (the Rust maps are kernel parameters read in place too). \
         The 1-D bulk copy moves the matrix as a flat array, one {BULK_TILE}-float window per block \
         ({BULK_BLOCK} threads): one `cp.async.bulk` load on an mbarrier, one bulk store \
         (`Window::store_bulk`). The folds: clusters of {MC_CLUSTER} blocks of {MC_BLOCK} threads (grid {grid_fold}) \
         take tiles in turn, every block of a cluster folding every tile of its cluster into one hash per thread; \
         rank 0 loads each tile once for the cluster (`Mbarrier::copy_tile_multicast` / `.multicast::cluster`) or \
         every block loads its own (`arrive_copy_tile`); two stages and a cluster barrier per tile either way; \
         bandwidth counts the matrix once (4·side²). Every (size, kernel) verified bit for bit. Timing: \
         {timing}; all sizes and kernels interleaved. Bandwidth = 2·4·side² bytes / median time; {}.\n",
        p.peak_text()
    );
    header(&mut s, "kernel");
    for (i, v) in VARS.iter().enumerate() {
        let _ = write!(s, "| {} (`{}`) |", v.label, v.name());
        for side in SIDES {
            let q = find(points, side, i);
            let _ = write!(
                s,
                " {:.4} ms, {:.0} GB/s, **{}**{} |",
                q.ms.median,
                gbps(v.work, side, q.ms.median),
                pct_cell(q.pct_peak),
                if q.verified { "" } else { " FAILED" }
            );
        }
        s.push('\n');
    }
    s.push('\n');
    header(
        &mut s,
        "time ÷ time (Rust ÷ C++; the last row: Rust's multicast ÷ unicast)",
    );
    let (mc, uc) = MULTICAST_GAIN;
    for &(r, c) in PAIRS.iter().chain([&(mc, uc)]) {
        let _ = write!(s, "| `{}` ÷ `{}` |", VARS[r].name(), VARS[c].name());
        for side in SIDES {
            let _ = write!(
                s,
                " {:.3} |",
                find(points, side, r).ms.median / find(points, side, c).ms.median
            );
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The old writers' CSV and markdown for fixed timings (the golden
    /// files a port onto the harness must reproduce): every variant at
    /// every side, in timing order, timings and verdicts from `golden`.
    #[test]
    fn tma_writes_the_golden_files() {
        use crate::harness::golden;
        let platform = golden::platform();
        let order = (0..SIDES.len()).flat_map(|s| (0..VARS.len()).map(move |v| (s, v)));
        let points: Vec<Point> = order
            .enumerate()
            .map(|(i, (s, v))| {
                let ms = golden::summary(i);
                let (verified, check) = golden::verdict(i);
                let gbps = gbps(VARS[v].work, SIDES[s], ms.median);
                Point {
                    side: SIDES[s],
                    var: v,
                    pct_peak: platform.pct_of_peak(gbps * 1e9),
                    ms,
                    verified,
                    check,
                }
            })
            .collect();
        let (w, r, m) = golden::TIMING;
        let timing = timing::describe("the kernel", w, r, m);
        let md = markdown(&points, &platform, &timing, (2112, 1056, 1056));
        golden::check("tma", &[("csv", csv(&points)), ("md", md)]);
    }
    use cg_kernels::tma::{VOLUME_BUMP, VOLUME_DENSE_AT};

    /// Where the copy engine puts element `(x, y)` of a box of `u32` rows
    /// of `row_words` words (the swizzle's width): a 128-byte line holds
    /// `32 / row_words` box rows, and the 16-byte chunks of each row trade
    /// places by XOR with the line's number, modulo the chunks a row has.
    fn swizzled_at(x: usize, y: usize, row_words: usize) -> usize {
        let line = y / (32 / row_words);
        let chunk = (x / 4) ^ (line % (row_words / 4));
        y * row_words + chunk * 4 + x % 4
    }

    /// The 3-D probe on the simulator against the copy engine's rules
    /// written out. The swizzled box: its rows (one 128-byte line each,
    /// `y + 4z`) with their 16-byte chunks XOR the row mod 8. The dense
    /// box: row-major, zeros outside the source. The store: the dense box
    /// plus the bump where it falls inside the destination, nothing else
    /// written (GPU = these words: `compare --only tma`).
    #[test]
    fn the_volume_probe_follows_the_copy_engines_rules_on_the_simulator() {
        let raw = volume_probe(&Backend::sim()).unwrap();
        let (w, h, d) = VOLUME_SRC;
        let src = |x: i32, y: i32, z: i32| {
            let inside = (0..w as i32).contains(&x)
                && (0..h as i32).contains(&y)
                && (0..d as i32).contains(&z);
            if inside {
                ((z as usize * h + y as usize) * w + x as usize) as u32 * 5 + 3
            } else {
                0
            }
        };
        for z in 0..4 {
            for y in 0..4 {
                for x in 0..32 {
                    let row = y + 4 * z;
                    let chunk = (x / 4) ^ (row % 8);
                    let got = raw[row * 32 + chunk * 4 + x % 4];
                    let want = src(4 + x as i32, 2 + y as i32, 1 + z as i32);
                    assert_eq!(got, want, "swizzled ({x}, {y}, {z})");
                }
            }
        }
        let ([lx, ly, lz], [sx, sy, sz]) = VOLUME_DENSE_AT;
        let dense = &raw[512..576];
        assert!(dense.contains(&0) && dense.iter().any(|&v| v != 0));
        for (i, &got) in dense.iter().enumerate() {
            let (x, y, z) = ((i % 8) as i32, (i / 8 % 4) as i32, (i / 32) as i32);
            assert_eq!(got, src(lx + x, ly + y, lz + z), "dense ({x}, {y}, {z})");
        }
        let (ow, oh, od) = VOLUME_DST;
        let out = &raw[PROBE_BLOCK as usize * VOLUME_PROBE_WORDS..];
        assert_eq!(out.len(), ow * oh * od);
        let mut stored = 0;
        for (i, &got) in out.iter().enumerate() {
            let (x, y, z) = (
                (i % ow) as i32,
                (i / ow % oh) as i32,
                (i / (ow * oh)) as i32,
            );
            let (bx, by, bz) = (x - sx, y - sy, z - sz);
            let want = if (0..8).contains(&bx) && (0..4).contains(&by) && (0..2).contains(&bz) {
                stored += 1;
                dense[(bz * 32 + by * 8 + bx) as usize] + VOLUME_BUMP
            } else {
                0
            };
            assert_eq!(got, want, "stored ({x}, {y}, {z})");
        }
        assert_eq!(stored, 8 * 2, "the store is clipped to 8 × 2 × 1");
    }

    /// The rank probe on the simulator against the copy engine's rules
    /// written out: the 4-D tile's 64-byte rows with their chunks XOR the
    /// row's 128-byte line mod 4, the 5-D tile dense, zeros outside the
    /// source, and the stores of the bumped 5-D tile and 1-D row clipped
    /// to their destinations (GPU = these words: `compare --only tma`).
    #[test]
    fn the_rank_probe_follows_the_copy_engines_rules_on_the_simulator() {
        use cg_kernels::tma::{RANK_PROBE_1D_AT, RANK_PROBE_AT, VOLUME_BUMP};
        let words = rank_probe(&Backend::sim()).unwrap();
        // Element `c` of a dense tensor of `dims` (innermost first), or
        // None outside.
        fn at<const N: usize>(dims: [usize; N], c: [i64; N]) -> Option<usize> {
            let mut i = 0;
            for d in (0..N).rev() {
                if c[d] < 0 || c[d] >= dims[d] as i64 {
                    return None;
                }
                i = i * dims[d] + c[d] as usize;
            }
            Some(i)
        }
        fn coords<const N: usize>(sides: [usize; N], mut i: usize) -> [i64; N] {
            core::array::from_fn(|d| {
                let c = (i % sides[d]) as i64;
                i /= sides[d];
                c
            })
        }
        let src = |k: Option<usize>| k.map_or(0, |k| k as u32 * 3 + 2);
        let (at4, at5, store_at) = RANK_PROBE_AT;
        for i in 0..256 {
            let c = coords([16, 2, 4, 2], i);
            let (row, chunk) = (i / 16, i % 16 / 4);
            let got = words[row * 16 + (chunk ^ (row / 2 % 4)) * 4 + i % 4];
            let want = src(at(
                RANK_4D.0,
                core::array::from_fn(|d| c[d] + at4[d] as i64),
            ));
            assert_eq!(got, want, "4-D {c:?}");
        }
        let dense = &words[256..512];
        for (i, &got) in dense.iter().enumerate() {
            let c = coords([8, 4, 2, 2, 2], i);
            let want = src(at(
                RANK_5D.0,
                core::array::from_fn(|d| c[d] + at5[d] as i64),
            ));
            assert_eq!(got, want, "5-D {c:?}");
        }
        assert!(dense.contains(&0) && dense.iter().any(|&v| v != 0));
        let row = &words[512..576];
        for (i, &got) in row.iter().enumerate() {
            let x = i as i64 + RANK_PROBE_1D_AT.0 as i64;
            assert_eq!(got, src(at([576], [x])), "1-D {x}");
        }
        assert!(words[576..640].iter().all(|&v| v == 0));
        let out1 = &words[640 + 576..];
        for (x, &got) in out1.iter().enumerate() {
            let b = x as i64 - RANK_PROBE_1D_AT.1 as i64;
            let want = if (0..64).contains(&b) {
                row[b as usize] + VOLUME_BUMP
            } else {
                0
            };
            assert_eq!(got, want, "1-D stored {x}");
        }
        let out = &words[640..640 + 576];
        let mut stored = 0;
        for (i, &got) in out.iter().enumerate() {
            let c = coords(RANK_5D.0, i);
            let b: [i64; 5] = core::array::from_fn(|d| c[d] - store_at[d] as i64);
            let want = match at([8, 4, 2, 2, 2], b) {
                Some(k) => {
                    stored += 1;
                    dense[k] + VOLUME_BUMP
                }
                None => 0,
            };
            assert_eq!(got, want, "stored {c:?}");
        }
        assert_eq!(
            stored,
            8 * 2 * 2,
            "the store is clipped to 8 × 1 × 2 × 2 × 1"
        );
    }

    /// The probe on the simulator: each tile's words where the hardware's
    /// description puts them (the GPU's words are compared with these in
    /// `compare --only tma`).
    #[test]
    fn the_swizzle_probe_finds_the_hardware_layouts_on_the_simulator() {
        let words = swizzle_probe(&Backend::sim()).unwrap();
        let (w, _) = PROBE_TENSOR;
        let (px, py) = (
            cg_kernels::tma::PROBE_AT.0 as usize,
            cg_kernels::tma::PROBE_AT.1 as usize,
        );
        let mut base = 0;
        for row_words in [8, 16, 32] {
            for y in 0..16 {
                for x in 0..row_words {
                    let want = ((py + y) * w + px + x) as u32 * 3 + 1;
                    assert_eq!(
                        words[base + swizzled_at(x, y, row_words)],
                        want,
                        "{}-byte swizzle, box element ({x}, {y})",
                        row_words * 4
                    );
                }
            }
            base += 16 * row_words;
        }
    }
}
