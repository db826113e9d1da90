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

use std::cell::RefCell;

use cg_runtime::{Backend, Buffer, Dim3, HostArgs, KernelArgs, LaunchConfig, Module, SafeArgs};
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

    /// The scan's three launches on `data` (in place) and `partial` (one
    /// slot per block of `SCAN_BLOCK`); `none` is an empty buffer (the
    /// second launch's partial sums: the original's null pointer).
    fn scan(&self, b: &mut ScanBuffers) -> Result<(), Error> {
        let n = b.data.len() as u32;
        let blocks = n / SCAN_BLOCK;
        let p_block = blocks.min(SCAN_BLOCK);
        let p_grid = blocks.div_ceil(p_block);
        let (first, second, add) = (
            LaunchConfig::linear(blocks, SCAN_BLOCK),
            LaunchConfig::linear(p_grid, p_block),
            LaunchConfig::linear(blocks - 1, SCAN_BLOCK),
        );
        match self.cpp {
            None => {
                self.rust(&SHFL_SCAN_TEST, &first, (&mut b.data, &mut b.partial))?;
                self.rust(&SHFL_SCAN_TEST, &second, (&mut b.partial, &mut b.none))?;
                // `data` from one block on: block `k` adds the total of blocks `0..=k`.
                let tail = b.data.slice_mut(SCAN_BLOCK as usize)?;
                self.rust(&UNIFORM_ADD, &add, (tail, &b.partial))
            }
            Some(m) => {
                let (d, p) = (b.data.as_ptr(), b.partial.as_ptr());
                // SAFETY: the twin's kernels take these pointers: `n` ints
                // scanned in place, one partial per block (`n` > SCAN_BLOCK).
                unsafe {
                    self.cpp(m, "shfl_scan_test", &first, (d, p))?;
                    self.cpp(
                        m,
                        "shfl_scan_test",
                        &second,
                        (p, std::ptr::null_mut::<i32>()),
                    )?;
                    self.cpp(
                        m,
                        "uniform_add",
                        &add,
                        (d.add(SCAN_BLOCK as usize), p as *const i32, n - SCAN_BLOCK),
                    )
                }
            }
        }
    }

    /// The integral image's row pass.
    fn rows(&self, im: &mut Image, s: Shape) -> Result<(), Error> {
        match self.cpp {
            None => {
                // The row pass writes the table as `U4`s (four words each).
                let table = im.table.cast_mut::<U4>()?;
                self.rust(&SHFL_INTIMAGE_ROWS, &s.rows_cfg(), (&im.img, table))
            }
            Some(m) => {
                let args = (im.img.as_ptr() as *const U4, im.table.as_ptr().cast::<U4>());
                // SAFETY: `img` holds `w · h` bytes, `table` `w · h` words, as
                // the twin's row kernel reads and writes them.
                unsafe { self.cpp(m, "shfl_intimage_rows", &s.rows_cfg(), args) }
            }
        }
    }

    /// The integral image's column pass, in place.
    fn cols(&self, im: &mut Image, s: Shape) -> Result<(), Error> {
        match self.cpp {
            None => {
                let (w, h) = (s.w as usize, s.h as usize);
                self.rust(
                    &SHFL_VERTICAL_SHFL,
                    &s.cols_cfg(),
                    (im.table.image_mut(w, h, w),),
                )
            }
            Some(m) => {
                let args = (im.table.as_ptr(), s.w, s.h);
                // SAFETY: `table` holds `w · h` words.
                unsafe { self.cpp(m, "shfl_vertical_shfl", &s.cols_cfg(), args) }
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

/// The scan's buffers: the data (scanned in place), the block partials, and
/// an empty buffer for the launch that writes none.
struct ScanBuffers {
    data: Buffer<i32>,
    partial: Buffer<i32>,
    none: Buffer<i32>,
}

impl ScanBuffers {
    fn new(backend: &Backend, input: &[i32]) -> Result<ScanBuffers, Error> {
        Ok(ScanBuffers {
            data: backend.upload(input)?,
            partial: backend.alloc::<i32>(input.len() / SCAN_BLOCK as usize)?,
            none: backend.alloc::<i32>(0)?,
        })
    }
}

/// Scans `input` with `run` and checks it: the original's check (the sum
/// of differences to the CPU's running sums is 0), every element, and the
/// last block total (the original's "Test Sum").
fn check_scan(run: &Runner, input: &[i32], what: &str) -> Result<(), Error> {
    let n = input.len() as u32;
    let mut bufs = ScanBuffers::new(run.backend, input)?;
    run.scan(&mut bufs)?;
    run.sync()?;
    let got = bufs.data.to_vec()?;
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
    let test_sum = *bufs.partial.to_vec()?.last().unwrap();
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
    /// The pixels, 16 per `U4`.
    img: Buffer<U4>,
    /// The summed-area table, one word per pixel.
    table: Buffer<u32>,
}

impl Image {
    fn new(backend: &Backend, pixels: &[u8], s: Shape) -> Result<Image, Error> {
        let word = |c: &[u8]| u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        let quads: Vec<U4> = pixels
            .chunks_exact(16)
            .map(|c| U4 {
                x: word(&c[0..4]),
                y: word(&c[4..8]),
                z: word(&c[8..12]),
                w: word(&c[12..16]),
            })
            .collect();
        Ok(Image {
            img: backend.upload(&quads)?,
            table: backend.alloc::<u32>((s.w * s.h) as usize)?,
        })
    }
}

/// Both passes on `pixels` with `run`, checked: for the image of ones the
/// original's checks (row sums after the row pass, the corner after the
/// column pass), and always the whole table against the host's.
fn check_integral(run: &Runner, pixels: &[u8], s: Shape, what: &str) -> Result<(), Error> {
    let name = run.name();
    let want = host_integral(pixels, s);
    let mut im = Image::new(run.backend, pixels, s)?;
    run.rows(&mut im, s)?;
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
    run.cols(&mut im, s)?;
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
        // Both sides take the buffers by `&mut`, one launch at a time.
        let bufs = RefCell::new(ScanBuffers::new(&backend, &random)?);
        let (r_ms, c_ms) = time_interleaved(
            gpu,
            21,
            20,
            || r.scan(&mut bufs.borrow_mut()),
            || c.scan(&mut bufs.borrow_mut()),
        )?;
        report_times(&format!("scan, 3 launches ({n} ints)"), r_ms, c_ms);
        let im = RefCell::new(Image::new(&backend, &image_random, shape)?);
        let (r_ms, c_ms) = time_interleaved(
            gpu,
            21,
            20,
            || r.rows(&mut im.borrow_mut(), shape),
            || c.rows(&mut im.borrow_mut(), shape),
        )?;
        report_times(
            &format!("integral image row pass ({} x {})", shape.w, shape.h),
            r_ms,
            c_ms,
        );
        let (r_ms, c_ms) = time_interleaved(
            gpu,
            21,
            20,
            || r.cols(&mut im.borrow_mut(), shape),
            || c.cols(&mut im.borrow_mut(), shape),
        )?;
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
