//! Histogram equalisation of 8-bit grey images with the block primitives
//! (`kernels/src/lib.rs`): the tiles' histograms, the equalisation table
//! from their cumulative sum, the table applied to every pixel.
//!
//! Each image's histogram, table and equalised pixels are checked, bit for
//! bit, against a host model; the images are a low-contrast gradient with
//! noise (the table stretches its ~80 levels over 0..=255: the result must
//! span the whole range), random bytes, and an image of one grey level
//! (the table is the identity). Every size leaves a partial last tile.
//!
//! On a GPU the same checks run on the C++ twin (`src/histogram_equalization.cu`,
//! CUB's `BlockLoad`, `BlockHistogram`, `BlockScan`, `BlockReduce` and
//! `BlockStore`, built by nvcc in this process), then both are timed. On
//! the simulator the images are smaller.

use std::cell::RefCell;

use cg_runtime::{Backend, Buffer, HostArgs, KernelArgs, LaunchConfig, Module, SafeArgs};
use cooperative_groups::Kernel;
use histogram_equalization_kernels::{APPLY_LUT, BINS, BLOCK, EQUALISE_LUT, TILE, TILE_HISTOGRAMS};
use samples_support::{Cpp, Error, Rng, backend, ensure, report_times, time_interleaved};

include!(concat!(
    env!("OUT_DIR"),
    "/histogram_equalization_kernels.rs"
));

/// An image's device buffers: its pixels, the tiles' histograms, the
/// table and the equalised pixels.
struct Buffers {
    pixels: Buffer<u8>,
    hists: Buffer<u32>,
    lut: Buffer<u8>,
    out: Buffer<u8>,
}

impl Buffers {
    fn new(backend: &Backend, pixels: &[u8]) -> Result<Buffers, Error> {
        let tiles = pixels.len().div_ceil(TILE);
        Ok(Buffers {
            pixels: backend.upload(pixels)?,
            hists: backend.alloc::<u32>(tiles * BINS)?,
            lut: backend.alloc::<u8>(BINS)?,
            out: backend.alloc::<u8>(pixels.len())?,
        })
    }
}

/// Launches the Rust kernels (`cpp: None`) or the C++ twin's functions of
/// the same names, without waiting on the GPU (the simulator runs at once).
struct Runner<'a> {
    backend: &'a Backend,
    cpp: Option<&'a Module>,
}

impl Runner<'_> {
    /// A Rust kernel: typed parameters, a safe launch.
    fn rust<A: SafeArgs + KernelArgs, H: HostArgs<A>>(
        &self,
        k: &Kernel<A>,
        cfg: &LaunchConfig,
        args: H,
    ) -> Result<(), Error> {
        match self.backend {
            Backend::Gpu(g) => g.launch(k, cfg, args)?,
            Backend::Sim(_) => self.backend.launch(k, cfg, args)?,
        }
        Ok(())
    }

    /// The C++ twin's function `name` with raw device pointers.
    ///
    /// # Safety
    /// `args` must be what the C++ kernel `name` takes, its pointers device
    /// memory as large as it reads and writes for `cfg`.
    unsafe fn cpp<A: KernelArgs>(
        &self,
        m: &Module,
        name: &str,
        cfg: &LaunchConfig,
        args: A,
    ) -> Result<(), Error> {
        let Backend::Gpu(g) = self.backend else {
            return Err("the C++ twin runs on a GPU only".into());
        };
        // SAFETY: forwarded contract.
        unsafe { g.launch_function(m.function(name)?, name, cfg, args) }?;
        Ok(())
    }

    /// The three launches: histograms, table, equalised pixels.
    fn equalise(&self, b: &mut Buffers) -> Result<(), Error> {
        let n = b.pixels.len();
        let tiles = n.div_ceil(TILE) as u32;
        let (per_tile, one) = (
            LaunchConfig::linear(tiles, BLOCK),
            LaunchConfig::linear(1, BINS as u32),
        );
        match self.cpp {
            None => {
                self.rust(&TILE_HISTOGRAMS, &per_tile, (&b.pixels, &mut b.hists))?;
                self.rust(&EQUALISE_LUT, &one, (&b.hists, n as u32, &mut b.lut))?;
                self.rust(&APPLY_LUT, &per_tile, (&b.pixels, &b.lut, &mut b.out))
            }
            Some(m) => {
                let (p, h, l, o) = (
                    b.pixels.as_ptr() as *const u8,
                    b.hists.as_ptr(),
                    b.lut.as_ptr(),
                    b.out.as_ptr(),
                );
                // SAFETY: the twin's kernels take these pointers: `n`
                // pixels, `tiles · BINS` counts, `BINS` levels, `n` outputs.
                unsafe {
                    self.cpp(m, "tile_histograms", &per_tile, (p, n as u32, h))?;
                    self.cpp(
                        m,
                        "equalise_lut",
                        &one,
                        (h as *const u32, tiles, n as u32, l),
                    )?;
                    self.cpp(m, "apply_lut", &per_tile, (p, l as *const u8, n as u32, o))
                }
            }
        }
    }

    fn sync(&self) -> Result<(), Error> {
        if let Backend::Gpu(g) = self.backend {
            g.synchronize()?;
        }
        Ok(())
    }

    fn name(&self) -> &'static str {
        if self.cpp.is_some() { "C++" } else { "Rust" }
    }
}

/// The host model: the histogram, the table and the equalised pixels.
fn host_equalise(pixels: &[u8]) -> (Vec<u32>, Vec<u8>, Vec<u8>) {
    let mut hist = vec![0u32; BINS];
    for &p in pixels {
        hist[p as usize] += 1;
    }
    let cdf: Vec<u32> = hist
        .iter()
        .scan(0u32, |s, &c| {
            *s += c;
            Some(*s)
        })
        .collect();
    let cdf_min = (0..BINS)
        .find(|&v| hist[v] > 0)
        .map_or(u32::MAX, |v| cdf[v]);
    let range = (pixels.len() as u32).saturating_sub(cdf_min) as u64;
    let lut: Vec<u8> = (0..BINS)
        .map(|v| {
            let above = cdf[v].saturating_sub(cdf_min) as u64;
            (above * 255 + range / 2)
                .checked_div(range)
                .map_or(v as u8, |l| l as u8)
        })
        .collect();
    let out = pixels.iter().map(|&p| lut[p as usize]).collect();
    (hist, lut, out)
}

/// Equalises `pixels` with `run` and checks every stage against the host.
fn check(run: &Runner, pixels: &[u8], what: &str) -> Result<(), Error> {
    let name = run.name();
    let (hist, lut, out) = host_equalise(pixels);
    let mut b = Buffers::new(run.backend, pixels)?;
    run.equalise(&mut b)?;
    run.sync()?;
    let tiles = b.hists.to_vec()?;
    let mut got_hist = vec![0u32; BINS];
    for row in tiles.chunks_exact(BINS) {
        for (g, &c) in got_hist.iter_mut().zip(row) {
            *g += c;
        }
    }
    if let Some(v) = (0..BINS).find(|&v| got_hist[v] != hist[v]) {
        return Err(format!(
            "{name}, {what}: bin {v} counts {}, host {}",
            got_hist[v], hist[v]
        )
        .into());
    }
    let got_lut = b.lut.to_vec()?;
    if let Some(v) = (0..BINS).find(|&v| got_lut[v] != lut[v]) {
        return Err(format!(
            "{name}, {what}: table maps {v} to {}, host to {}",
            got_lut[v], lut[v]
        )
        .into());
    }
    let got = b.out.to_vec()?;
    if let Some(i) = (0..got.len()).find(|&i| got[i] != out[i]) {
        return Err(format!("{name}, {what}: pixel {i} is {}, host {}", got[i], out[i]).into());
    }
    let span = |p: &[u8]| (*p.iter().min().unwrap(), *p.iter().max().unwrap());
    let ((lo, hi), (elo, ehi)) = (span(pixels), span(&got));
    println!(
        "{name}, {what}: {} pixels, levels {lo}..={hi} -> {elo}..={ehi}; histogram, table and every pixel equal the host's",
        pixels.len()
    );
    Ok(())
}

/// A low-contrast image: a diagonal gradient over ~64 levels around 128,
/// plus noise of 16 levels.
fn gradient(rng: &mut Rng, w: usize, h: usize) -> Vec<u8> {
    (0..w * h)
        .map(|i| {
            let (x, y) = (i % w, i / w);
            (96 + 40 * x / w + 24 * y / h + (rng.next_u31() % 16) as usize) as u8
        })
        .collect()
}

fn main() -> Result<(), Error> {
    let backend = backend(&HISTOGRAM_EQUALIZATION_KERNELS);
    let sim = backend.is_sim();
    // 4K on a GPU; on the simulator 19 tiles (more than the table kernel's
    // group of rows). Both end in a partial tile.
    let (w, h) = if sim { (250, 300) } else { (3840, 2161) };
    let mut rng = Rng::new(34);
    let low_contrast = gradient(&mut rng, w, h);
    let random: Vec<u8> = (0..w * h).map(|_| rng.next_u31() as u8).collect();
    let flat = vec![77u8; w * h];
    println!(
        "histogram equalisation of {w} x {h} images: tiles of {TILE} pixels ({BLOCK} threads x {} pixels), {} tiles, {BINS} levels",
        TILE / BLOCK as usize,
        (w * h).div_ceil(TILE)
    );

    let cpp = match &backend {
        Backend::Gpu(gpu) => {
            let cpp = Cpp::build(
                gpu,
                "histogram_equalization",
                include_str!("histogram_equalization.cu"),
            )?;
            println!("C++ twin: {}", cpp.command);
            Some(cpp)
        }
        Backend::Sim(_) => None,
    };
    let mut runners = vec![Runner {
        backend: &backend,
        cpp: None,
    }];
    if let Some(c) = &cpp {
        runners.push(Runner {
            backend: &backend,
            cpp: Some(&c.module),
        });
    }
    let check_all = |runners: &[Runner]| -> Result<(), Error> {
        for run in runners {
            check(run, &low_contrast, "low-contrast gradient")?;
            check(run, &random, "random bytes")?;
            check(run, &flat, "one grey level")?;
        }
        Ok(())
    };
    check_all(&runners)?;
    let (_, _, equalised) = host_equalise(&low_contrast);
    let (lo, hi) = (
        *equalised.iter().min().unwrap(),
        *equalised.iter().max().unwrap(),
    );
    ensure(lo == 0 && hi == 255, || {
        format!("the equalised gradient spans {lo}..={hi}, not 0..=255")
    })?;

    if let Backend::Gpu(gpu) = &backend {
        let (r, c) = (&runners[0], &runners[1]);
        let bufs = RefCell::new(Buffers::new(&backend, &low_contrast)?);
        let (r_ms, c_ms) = time_interleaved(
            gpu,
            21,
            20,
            || r.equalise(&mut bufs.borrow_mut()),
            || c.equalise(&mut bufs.borrow_mut()),
        )?;
        report_times(
            &format!("equalisation, 3 launches ({w} x {h} pixels)"),
            r_ms,
            c_ms,
        );
        println!("after timing, every check again:");
        check_all(&runners)?;
    }
    println!("histogram_equalization: PASSED");
    Ok(())
}
