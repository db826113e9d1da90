//! Checks made before anything runs, so that bad input never costs a run:
//! whether `--n` fits in memory, and whether the output folder is writable.

use std::path::Path;

use anyhow::{Result, bail};
use cg_runtime::Backend;

/// Peak bytes per input element: on the simulator the two inputs (f32 and
/// i32), their host copies while uploading and the scan's expected values;
/// on a GPU the two inputs and the scan's output on the device.
const SIM_BYTES_PER_ELEMENT: u64 = 16;
const GPU_BYTES_PER_ELEMENT: u64 = 12;

/// Refuses an `n` whose inputs do not fit: the simulator against the
/// host's available memory, a GPU against its memory (and the host's, which
/// builds the inputs first). The error names the largest `n` that fits.
pub fn check_n(backend: &Backend, n: u32) -> Result<()> {
    let host = available_host_bytes();
    let limits: Vec<(&str, u64, u64)> = match backend {
        Backend::Sim(_) => host
            .map(|h| ("host memory", h, SIM_BYTES_PER_ELEMENT))
            .into_iter()
            .collect(),
        Backend::Gpu(g) => {
            let mut l = vec![("device memory", g.info().mem_bytes, GPU_BYTES_PER_ELEMENT)];
            l.extend(host.map(|h| ("host memory", h, GPU_BYTES_PER_ELEMENT)));
            l
        }
    };
    for (what, avail, per) in limits {
        let need = n as u64 * per;
        // Leave a quarter for everything else.
        let usable = avail / 4 * 3;
        if need > usable {
            let largest = (usable / per).min(u32::MAX as u64);
            bail!(
                "--n {n} needs about {:.1} GB of {what} ({per} bytes per element on {}); {:.1} GB are available: the largest --n that fits is {largest}",
                need as f64 / 1e9,
                if backend.is_sim() {
                    "the simulator"
                } else {
                    "a GPU"
                },
                avail as f64 / 1e9,
            );
        }
    }
    Ok(())
}

/// `MemAvailable` of `/proc/meminfo`, in bytes (`None` where there is none).
fn available_host_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Creates `dir` and writes (then removes) a file in it the way every
/// output is written (temporary file, fsync, rename), so that an unwritable
/// output folder fails before the run rather than after it.
pub fn check_out_dir(dir: &Path) -> Result<()> {
    let fail = |e: &dyn std::fmt::Display| {
        anyhow::anyhow!(
            "cannot write results to {}: {e} (choose another folder with --out)",
            dir.display()
        )
    };
    std::fs::create_dir_all(dir).map_err(|e| fail(&e))?;
    let probe = dir.join(format!(".cg-lab-write-test-{}", std::process::id()));
    crate::output::write_atomic(&probe, b"").map_err(|e| fail(&e.root_cause()))?;
    std::fs::remove_file(&probe).map_err(|e| fail(&e))?;
    Ok(())
}
