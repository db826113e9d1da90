//! shfl_scan, as the original runs it:
//!
//! 1. a scan of 65536 ones in blocks of 256 threads: the blocks scan
//!    (`shfl_scan_test`), one block scans the 256 block totals, and
//!    `uniform_add` adds them back. The original's check (the sum of
//!    GPU − CPU differences is 0) plus a host check of every element and of
//!    the last block total; then the same for random values.
//! 2. an integral image of a 1920 × 1080 image of ones (every byte 1):
//!    the row pass in blocks of 120 threads (16 pixels each; the last warp
//!    has 24 lanes), checked as the original does (every row sum is its
//!    column + 1), then the column pass (blocks of 32 × 8), checked as the
//!    original does (the corner is w·h); plus a host check of the whole
//!    table, and the whole table of a random image against the host's.
//!
//! On a GPU each part is timed against its C++ twin (`src/shfl_scan.cu`,
//! built by nvcc in this process), both checked. On the simulator the
//! sizes are reduced (the image keeps its 1920-pixel rows, so its 120-thread
//! blocks).

use cg_runtime::{Backend, Dim3, KernelArgs, LaunchConfig, Module};
use cooperative_groups::Kernel;
use samples_support::{Cpp, Error, Rng, backend, ensure, report_times, time_interleaved};
use shfl_scan_kernels::{SHFL_INTIMAGE_ROWS, SHFL_SCAN_TEST, SHFL_VERTICAL_SHFL, U4, UNIFORM_ADD};

include!(concat!(env!("OUT_DIR"), "/shfl_scan_kernels.rs"));

const SCAN_BLOCK: u32 = 256;

/// Launches the Rust kernels (`cpp: None`) or the C++ twin's functions of
/// the same names, without waiting on the GPU (the simulator runs at once).
struct Runner<'a> {
    backend: &'a Backend,
    cpp: Option<&'a Module>,
}

impl Runner<'_> {
    fn launch<A: KernelArgs>(
        &self,
        k: &Kernel<A>,
        cfg: &LaunchConfig,
        args: A,
    ) -> Result<(), Error> {
        match (self.backend, self.cpp) {
            (Backend::Gpu(g), Some(m)) => {
                g.launch_function(m.function(k.name())?, k.name(), cfg, args)?
            }
            (Backend::Gpu(g), None) => g.launch(k, cfg, args)?,
            (Backend::Sim(_), _) => self.backend.launch(k, cfg, args)?,
        }
        Ok(())
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

/// The scan's three launches on `data` (in place), `partial` (one slot per
/// block of `SCAN_BLOCK`).
fn scan(run: &Runner, data: *mut i32, partial: *mut i32, n: u32) -> Result<(), Error> {
    let blocks = n / SCAN_BLOCK;
    let p_block = blocks.min(SCAN_BLOCK);
    let p_grid = blocks.div_ceil(p_block);
    run.launch(
        &SHFL_SCAN_TEST,
        &LaunchConfig::linear(blocks, SCAN_BLOCK),
        (data, partial),
    )?;
    run.launch(
        &SHFL_SCAN_TEST,
        &LaunchConfig::linear(p_grid, p_block),
        (partial, std::ptr::null_mut::<i32>()),
    )?;
    run.launch(
        &UNIFORM_ADD,
        &LaunchConfig::linear(blocks - 1, SCAN_BLOCK),
        // SAFETY: the array has `n` > SCAN_BLOCK elements.
        (
            unsafe { data.add(SCAN_BLOCK as usize) },
            partial as *const i32,
            n - SCAN_BLOCK,
        ),
    )
}

/// Scans `input` with `run` and checks it: the original's check (the sum
/// of differences to the CPU's running sums is 0), every element, and the
/// last block total (the original's "Test Sum").
fn check_scan(run: &Runner, input: &[i32], what: &str) -> Result<(), Error> {
    let n = input.len() as u32;
    let data = run.backend.upload(input)?;
    let partial = run.backend.alloc::<i32>((n / SCAN_BLOCK) as usize)?;
    scan(run, data.as_ptr(), partial.as_ptr(), n)?;
    run.sync()?;
    let got = data.to_vec()?;
    let want: Vec<i32> = input
        .iter()
        .scan(0i32, |s, &x| {
            *s = s.wrapping_add(x);
            Some(*s)
        })
        .collect();
    let diff = want
        .iter()
        .zip(&got)
        .fold(0i32, |d, (w, g)| d.wrapping_add(w.wrapping_sub(*g)));
    let test_sum = *partial.to_vec()?.last().unwrap();
    let name = run.name();
    ensure(diff == 0, || {
        format!("{name} scan of {what}: diff (CPU − GPU) = {diff}")
    })?;
    if let Some(i) = (0..got.len()).find(|&i| got[i] != want[i]) {
        return Err(format!(
            "{name} scan of {what}: element {i} is {}, host {}",
            got[i], want[i]
        )
        .into());
    }
    ensure(test_sum == want[want.len() - 1], || {
        format!(
            "{name} scan of {what}: test sum {test_sum}, host {}",
            want[want.len() - 1]
        )
    })?;
    println!(
        "{name} scan of {n} {what}: test sum {test_sum}; diff (CPU − GPU) = 0; every element equals the host's"
    );
    Ok(())
}

/// Image shape: `w` pixels (bytes) per row, `h` rows.
#[derive(Clone, Copy)]
struct Shape {
    w: u32,
    h: u32,
}

impl Shape {
    fn rows_cfg(self) -> LaunchConfig {
        LaunchConfig::linear(self.h, self.w / 16)
    }

    fn cols_cfg(self) -> LaunchConfig {
        LaunchConfig {
            grid: Dim3::x(self.w / 32),
            block: Dim3::new(32, 8, 1),
            ..LaunchConfig::linear(1, 1)
        }
    }
}

/// The summed-area table of `img` (row-major bytes), computed on the host.
fn host_integral(img: &[u8], s: Shape) -> Vec<u32> {
    let (w, h) = (s.w as usize, s.h as usize);
    let mut t = vec![0u32; w * h];
    for y in 0..h {
        let mut row = 0u32;
        for x in 0..w {
            row += img[y * w + x] as u32;
            t[y * w + x] = row + if y > 0 { t[(y - 1) * w + x] } else { 0 };
        }
    }
    t
}

/// Device buffers for one image: its bytes (as words) and the table.
struct Image {
    img: cg_runtime::Buffer<u32>,
    table: cg_runtime::Buffer<u32>,
}

impl Image {
    fn new(backend: &Backend, pixels: &[u8], s: Shape) -> Result<Image, Error> {
        let words: Vec<u32> = pixels
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(Image {
            img: backend.upload(&words)?,
            table: backend.alloc::<u32>((s.w * s.h) as usize)?,
        })
    }

    fn rows(&self, run: &Runner, s: Shape) -> Result<(), Error> {
        let args = (
            self.img.as_ptr() as *const U4,
            self.table.as_ptr() as *mut U4,
        );
        run.launch(&SHFL_INTIMAGE_ROWS, &s.rows_cfg(), args)
    }

    fn cols(&self, run: &Runner, s: Shape) -> Result<(), Error> {
        run.launch(
            &SHFL_VERTICAL_SHFL,
            &s.cols_cfg(),
            (self.table.as_ptr(), s.w, s.h),
        )
    }
}

/// Both passes on `pixels` with `run`, checked: for the image of ones the
/// original's checks (row sums after the row pass, the corner after the
/// column pass), and always the whole table against the host's.
fn check_integral(run: &Runner, pixels: &[u8], s: Shape, what: &str) -> Result<(), Error> {
    let name = run.name();
    let want = host_integral(pixels, s);
    let im = Image::new(run.backend, pixels, s)?;
    im.rows(run, s)?;
    run.sync()?;
    if pixels.iter().all(|&p| p == 1) {
        let rows = im.table.to_vec()?;
        let diff: u64 = rows
            .iter()
            .enumerate()
            .map(|(i, &v)| (v as i64 - (i as i64 % s.w as i64 + 1)).unsigned_abs())
            .sum();
        ensure(diff == 0, || {
            format!("{name} row pass on {what}: diff = {diff}")
        })?;
        println!("{name} row pass on {what}: diff = 0 (every row sum is its column + 1)");
    }
    im.cols(run, s)?;
    run.sync()?;
    let got = im.table.to_vec()?;
    let corner = got[got.len() - 1];
    if pixels.iter().all(|&p| p == 1) {
        ensure(corner == s.w * s.h, || {
            format!(
                "{name} integral image of {what}: corner {corner}, expected {}",
                s.w * s.h
            )
        })?;
    }
    if let Some(i) = (0..got.len()).find(|&i| got[i] != want[i]) {
        let (x, y) = (i as u32 % s.w, i as u32 / s.w);
        return Err(format!(
            "{name} integral image of {what}: ({x}, {y}) is {}, host {}",
            got[i], want[i]
        )
        .into());
    }
    println!(
        "{name} integral image of {what} ({} x {}): checksum {corner} (host {}); the whole table equals the host's",
        s.w,
        s.h,
        want[want.len() - 1]
    );
    Ok(())
}

fn main() -> Result<(), Error> {
    let backend = backend(&SHFL_SCAN_KERNELS);
    let sim = backend.is_sim();
    let n: u32 = if sim { 1 << 14 } else { 65536 };
    let shape = Shape {
        w: 1920,
        h: if sim { 16 } else { 1080 },
    };
    let mut rng = Rng::new(19);
    let ones = vec![1i32; n as usize];
    let random: Vec<i32> = (0..n).map(|_| (rng.next_u31() % 1000) as i32).collect();
    let image_ones = vec![1u8; (shape.w * shape.h) as usize];
    let image_random: Vec<u8> = (0..shape.w * shape.h)
        .map(|_| rng.next_u31() as u8)
        .collect();
    println!(
        "scan: {n} elements, blocks of {SCAN_BLOCK}, {} partial sums; integral image {} x {}: row pass in blocks of {} threads, column pass in blocks of 32 x 8",
        n / SCAN_BLOCK,
        shape.w,
        shape.h,
        shape.w / 16
    );

    let cpp = match &backend {
        Backend::Gpu(gpu) => {
            let cpp = Cpp::build(gpu, "shfl_scan", include_str!("shfl_scan.cu"))?;
            println!("C++ twin: {}", cpp.command);
            Some(cpp)
        }
        Backend::Sim(_) => None,
    };
    let rust = Runner {
        backend: &backend,
        cpp: None,
    };
    let mut runners = vec![rust];
    if let Some(c) = &cpp {
        runners.push(Runner {
            backend: &backend,
            cpp: Some(&c.module),
        });
    }
    let check_all = |runners: &[Runner]| -> Result<(), Error> {
        for run in runners {
            check_scan(run, &ones, "ones")?;
            check_scan(run, &random, "random values")?;
            check_integral(run, &image_ones, shape, "ones")?;
            check_integral(run, &image_random, shape, "random bytes")?;
        }
        Ok(())
    };
    check_all(&runners)?;

    if let Backend::Gpu(gpu) = &backend {
        let (r, c) = (&runners[0], &runners[1]);
        // The scan runs again and again on its own output (sums wrap).
        let data = backend.upload(&random)?;
        let partial = backend.alloc::<i32>((n / SCAN_BLOCK) as usize)?;
        let (dp, pp) = (data.as_ptr(), partial.as_ptr());
        let (r_ms, c_ms) =
            time_interleaved(gpu, 21, 20, || scan(r, dp, pp, n), || scan(c, dp, pp, n))?;
        report_times(&format!("scan, 3 launches ({n} ints)"), r_ms, c_ms);
        let im = Image::new(&backend, &image_random, shape)?;
        let (r_ms, c_ms) =
            time_interleaved(gpu, 21, 20, || im.rows(r, shape), || im.rows(c, shape))?;
        report_times(
            &format!("integral image row pass ({} x {})", shape.w, shape.h),
            r_ms,
            c_ms,
        );
        let (r_ms, c_ms) =
            time_interleaved(gpu, 21, 20, || im.cols(r, shape), || im.cols(c, shape))?;
        report_times(
            &format!("integral image column pass ({} x {})", shape.w, shape.h),
            r_ms,
            c_ms,
        );
        println!("after timing, every check again:");
        check_all(&runners)?;
    }
    println!("shfl_scan: PASSED");
    Ok(())
}
