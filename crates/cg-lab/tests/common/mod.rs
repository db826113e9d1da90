//! ptxas and nvdisasm runs shared by the lab's PTX tests (`atomics_ptx`,
//! `ptxas`, `zero_cost`), which assemble the same whole modules: each
//! module is assembled (and disassembled) once per `cargo test`, and again
//! only when its PTX or the tools change.
//!
//! A result is kept under `CARGO_TARGET_TMPDIR/ptxas-cache/<key>/` with the
//! PTX it came from; a hit compares that PTX with the one asked for, byte
//! for byte, so a stale or colliding entry is never used, and the tools'
//! paths, sizes and times are part of the keys. Failures are not
//! kept: a PTX that ptxas rejects is assembled (and reported) every time.
//! The cache keeps at most [`CACHE_BYTES`]: after each new entry, the
//! entries least recently used (and not in the last ten minutes, so not by
//! the running tests) go first.

#![allow(dead_code)] // each test binary uses part of it

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

/// The most the cache keeps (one tree's modules take about 100 MB).
pub const CACHE_BYTES: u64 = 256 << 20;

use cg_runtime::sass::{Listing, assemble_verbose, disassemble_text, parse_listing};

/// One module assembled by `ptxas -arch=sm_XX -v`.
pub struct Assembled {
    /// The cubin (inside the cache: read it, do not move it).
    pub cubin: PathBuf,
    /// ptxas's `-v` report (its standard error).
    pub log: String,
}

/// The cache folder of `ptx` for `sm` with ptxas `tool` ([`tool_key`]).
fn entry(tool: &Path, ptx: &str, sm: u32) -> PathBuf {
    let mut h = std::hash::DefaultHasher::new();
    ptx.hash(&mut h);
    sm.hash(&mut h);
    root().join(format!(
        "sm{sm}-{:016x}-{:016x}",
        h.finish(),
        tool_key(tool)
    ))
}

/// A tool's path, size and modification time, hashed: a rebuilt or
/// replaced tool makes new entries.
fn tool_key(tool: &Path) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    tool.hash(&mut h);
    if let Ok(m) = std::fs::metadata(tool) {
        m.len().hash(&mut h);
        m.modified().ok().hash(&mut h);
    }
    h.finish()
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("ptxas-cache")
}

/// Bytes of the files in `dir` (one level: an entry).
fn size_of(dir: &Path) -> u64 {
    std::fs::read_dir(dir).map_or(0, |d| {
        d.flatten()
            .filter_map(|e| e.metadata().ok())
            .map(|m| m.len())
            .sum()
    })
}

/// Removes the least recently used entries (by their `module.ptx`'s time,
/// which a hit renews) until the cache holds at most [`CACHE_BYTES`],
/// sparing those used in the last ten minutes.
fn prune() {
    let Ok(dir) = std::fs::read_dir(root()) else {
        return;
    };
    let mut entries: Vec<(SystemTime, u64, PathBuf)> = dir
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().contains(".part-"))
        .map(|e| {
            let used = std::fs::metadata(e.path().join("module.ptx"))
                .and_then(|m| m.modified())
                .unwrap_or(SystemTime::UNIX_EPOCH);
            (used, size_of(&e.path()), e.path())
        })
        .collect();
    let mut total: u64 = entries.iter().map(|e| e.1).sum();
    entries.sort();
    let recent = SystemTime::now() - Duration::from_secs(600);
    for (used, bytes, path) in entries {
        if total <= CACHE_BYTES || used > recent {
            break;
        }
        if std::fs::remove_dir_all(&path).is_ok() {
            total -= bytes;
        }
    }
}

/// A fresh name beside `path` (process and call unique) to build it under
/// before renaming it into place: threads and test binaries that make the
/// same entry never see half of one.
fn scratch(path: &Path) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let mut name = path.file_name().expect("a file name").to_os_string();
    name.push(format!(
        ".part-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    path.with_file_name(name)
}

/// Whether `dir` holds a finished entry made from exactly `ptx`.
fn hit(dir: &Path, ptx: &str) -> bool {
    std::fs::read(dir.join("module.ptx")).is_ok_and(|p| p == ptx.as_bytes())
        && dir.join("module.cubin").is_file()
        && dir.join("ptxas.log").is_file()
}

/// `ptxas -arch=sm_{sm} -v` of `ptx`, from the cache when it ran before.
pub fn assemble(ptxas: &Path, ptx: &str, sm: u32) -> Result<Assembled, String> {
    let dir = entry(ptxas, ptx, sm);
    if !hit(&dir, ptx) {
        let tmp = scratch(&dir);
        // Failures are reported, not kept.
        let (_, log) = assemble_verbose(ptxas, ptx, sm, &tmp, "module").inspect_err(|_| {
            std::fs::remove_dir_all(&tmp).ok();
        })?;
        std::fs::write(tmp.join("ptxas.log"), &log).map_err(|e| e.to_string())?;
        if std::fs::rename(&tmp, &dir).is_err() {
            // Another run finished the same entry first.
            std::fs::remove_dir_all(&tmp).ok();
        }
        prune();
    } else if let Ok(f) = std::fs::File::options()
        .append(true)
        .open(dir.join("module.ptx"))
    {
        // A hit: the entry is recently used.
        f.set_modified(SystemTime::now()).ok();
    }
    let log = std::fs::read_to_string(dir.join("ptxas.log")).map_err(|e| e.to_string())?;
    Ok(Assembled {
        cubin: dir.join("module.cubin"),
        log,
    })
}

/// The SASS of `ptx` for `sm` (`nvdisasm -c` of [`assemble`]'s cubin, its
/// text kept beside it under `nvdisasm`'s [`tool_key`]), split per kernel.
pub fn sass(ptxas: &Path, nvdisasm: &Path, ptx: &str, sm: u32) -> Result<Listing, String> {
    let a = assemble(ptxas, ptx, sm)?;
    let dir = a.cubin.parent().expect("an entry folder").to_path_buf();
    let text = dir.join(format!("sass-{:016x}.txt", tool_key(nvdisasm)));
    if let Ok(s) = std::fs::read_to_string(&text) {
        return Ok(parse_listing(&s));
    }
    let s = disassemble_text(nvdisasm, &a.cubin)?;
    let part = scratch(&text);
    std::fs::write(&part, &s).map_err(|e| e.to_string())?;
    std::fs::rename(&part, &text).map_err(|e| e.to_string())?;
    Ok(parse_listing(&s))
}
