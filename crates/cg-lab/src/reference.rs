//! NVIDIA's C++ side of the comparisons: the sources of `reference/cuda`,
//! embedded so the binary needs no checkout, and one way to build them.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

/// One source of `reference/cuda`.
#[derive(Clone, Copy, Debug)]
pub struct Source {
    /// File stem (`NAME.cu`).
    pub stem: &'static str,
    /// The text.
    pub text: &'static str,
    /// Defines for a toolkit that lacks something the file uses, tried if
    /// the plain build fails (e.g. a libcu++ without
    /// `cuda::thread_scope_cluster`).
    pub fallback: &'static [&'static str],
}

/// `reference/cuda/c02_reference.cu`: the C-02 experiments (`cg-lab compare`).
pub const C02_CU: Source = Source {
    stem: "c02_reference",
    text: include_str!("../../../reference/cuda/c02_reference.cu"),
    fallback: &[],
};

/// `reference/cuda/memcpy_async.cu`: the staged-copy experiment (`cg-lab
/// compare --only memcpy_async`).
pub const MEMCPY_ASYNC_CU: Source = Source {
    stem: "memcpy_async",
    text: include_str!("../../../reference/cuda/memcpy_async.cu"),
    fallback: &[],
};

/// `reference/cuda/memory.cu`: the memory experiment's twins (`cg-lab
/// compare --only memory`).
pub const MEMORY_CU: Source = Source {
    stem: "memory",
    text: include_str!("../../../reference/cuda/memory.cu"),
    fallback: &[],
};

/// `reference/cuda/tma.cu`: the tensor-copy experiment (`cg-lab compare
/// --only tma`).
pub const TMA_CU: Source = Source {
    stem: "tma",
    text: include_str!("../../../reference/cuda/tma.cu"),
    fallback: &[],
};

/// `reference/cuda/device_wide.cu`: CUB's device-wide sum and scan, built
/// as a shared library (`cg-lab compare --only device_wide`).
pub const DEVICE_WIDE_CU: Source = Source {
    stem: "device_wide",
    text: include_str!("../../../reference/cuda/device_wide.cu"),
    fallback: &[],
};

/// `reference/cuda/device_histogram.cu`: CUB's device-wide even
/// histogram, built as a shared library (`cg-lab compare --only
/// device_histogram`).
pub const DEVICE_HISTOGRAM_CU: Source = Source {
    stem: "device_histogram",
    text: include_str!("../../../reference/cuda/device_histogram.cu"),
    fallback: &[],
};

/// `reference/cuda/device_select.cu`: CUB's device-wide selections, built
/// as a shared library (`cg-lab compare --only device_select`).
pub const DEVICE_SELECT_CU: Source = Source {
    stem: "device_select",
    text: include_str!("../../../reference/cuda/device_select.cu"),
    fallback: &[],
};

/// `reference/cuda/device_radix_sort.cu`: CUB's device-wide radix sort of
/// `u32` keys, built as a shared library (`cg-lab compare --only
/// device_radix_sort`).
pub const DEVICE_RADIX_SORT_CU: Source = Source {
    stem: "device_radix_sort",
    text: include_str!("../../../reference/cuda/device_radix_sort.cu"),
    fallback: &[],
};

/// `reference/cuda/gemm.cu`: cuBLAS's bf16 GEMM, built as a shared
/// library linked with cuBLAS (`cg-lab compare --only gemm`).
pub const GEMM_CU: Source = Source {
    stem: "gemm",
    text: include_str!("../../../reference/cuda/gemm.cu"),
    fallback: &[],
};

/// `reference/cuda/primitives.cu`: CUB's block primitives (`cg-lab compare
/// --only primitives`).
pub const PRIMITIVES_CU: Source = Source {
    stem: "primitives",
    text: include_str!("../../../reference/cuda/primitives.cu"),
    fallback: &[],
};

/// `reference/cuda/math.cu`: the math functions' throughput (`cg-lab
/// compare --only math`), built twice: as is and with `--use_fast_math`.
pub const MATH_CU: Source = Source {
    stem: "math",
    text: include_str!("../../../reference/cuda/math.cu"),
    fallback: &[],
};

/// `reference/cuda/semantics.cu`: the semantic differential (`cg-lab verify`).
pub const SEMANTICS_CU: Source = Source {
    stem: "semantics",
    text: include_str!("../../../reference/cuda/semantics.cu"),
    fallback: &[],
};

/// `reference/cuda/atomics.cu`: the atomics' twins in the semantic
/// differential (`cuda::atomic_ref`, `atomicCAS`, …). CUDA 13's libcu++
/// has no `cuda::thread_scope_cluster`: then the cluster-scope twins use
/// the device scope (their results are the same).
pub const ATOMICS_CU: Source = Source {
    stem: "atomics",
    text: include_str!("../../../reference/cuda/atomics.cu"),
    fallback: &["-DCG_NO_THREAD_SCOPE_CLUSTER"],
};

/// `reference/cuda/sync.cu`: the sync microbenchmark's twins (`cg-lab sync`).
pub const SYNC_CU: Source = Source {
    stem: "sync",
    text: include_str!("../../../reference/cuda/sync.cu"),
    fallback: &[],
};

/// The nvcc command line, for reports.
pub fn nvcc_flags(sm: u32) -> String {
    format!("nvcc -O3 -arch=sm_{sm} -cubin")
}

/// Builds `src` with nvcc for `sm` into `dir`; returns the cubin and the
/// fallback defines it needed (empty if none).
pub fn build_cubin(
    nvcc: &Path,
    sm: u32,
    dir: &Path,
    src: Source,
) -> Result<(PathBuf, &'static [&'static str])> {
    build_cubin_with(nvcc, sm, dir, src, &Flavour::PLAIN)
}

/// A second build of a twin with more nvcc flags (e.g. `--use_fast_math`).
#[derive(Clone, Copy, Debug)]
pub struct Flavour {
    /// What the build is called (reports, the cubin's name: `stem_TAG_smNN`;
    /// empty for the plain build).
    pub tag: &'static str,
    /// The flags added to `nvcc -O3 -arch=sm_NN -cubin`.
    pub flags: &'static [&'static str],
}

impl Flavour {
    /// The plain build: no flags added.
    pub const PLAIN: Flavour = Flavour {
        tag: "",
        flags: &[],
    };
}

/// [`build_cubin`] with `flavour`'s flags, into a cubin of its own.
pub fn build_cubin_with(
    nvcc: &Path,
    sm: u32,
    dir: &Path,
    src: Source,
    flavour: &Flavour,
) -> Result<(PathBuf, &'static [&'static str])> {
    let tag = if flavour.tag.is_empty() {
        String::new()
    } else {
        format!("_{}", flavour.tag)
    };
    let cubin = dir.join(format!("{}{tag}_sm{sm}.cubin", src.stem));
    let kind: Vec<&str> = std::iter::once("-cubin")
        .chain(flavour.flags.iter().copied())
        .collect();
    let defines = build(nvcc, sm, dir, src, &kind, &cubin)?;
    Ok((cubin, defines))
}

/// Builds `src` with nvcc for `sm` into a shared library in `dir` (host
/// code and kernels, the CUDA runtime linked statically), for sources
/// whose entry points are host functions (CUB's device-wide algorithms);
/// returns its path.
///
/// `libs` are toolkit libraries to link (`-l` names, e.g. `cublas`), found
/// at load time through an rpath to the toolkit's library folders beside
/// nvcc (so a toolkit outside the loader's path, e.g.
/// `/usr/local/cuda-13.0` without an `ld.so.conf` entry, still loads).
pub fn build_shared_library(
    nvcc: &Path,
    sm: u32,
    dir: &Path,
    src: Source,
    libs: &[&str],
) -> Result<PathBuf> {
    let lib = dir.join(format!("lib{}_sm{sm}.so", src.stem));
    let mut kind: Vec<String> = ["-shared", "-Xcompiler", "-fPIC"].map(String::from).into();
    if !libs.is_empty() {
        let top = nvcc.parent().and_then(Path::parent);
        let lib_dirs = ["lib64", "lib", "targets/x86_64-linux/lib"]
            .iter()
            .filter_map(|d| top.map(|t| t.join(d)))
            .filter(|d| d.is_dir());
        for d in lib_dirs {
            kind.push(format!("-Xlinker=-rpath,{}", d.display()));
        }
        kind.extend(libs.iter().map(|l| format!("-l{l}")));
    }
    let kind: Vec<&str> = kind.iter().map(String::as_str).collect();
    build(nvcc, sm, dir, src, &kind, &lib)?;
    Ok(lib)
}

/// Writes `src` into `dir` and runs `nvcc -O3 -arch=sm_{sm} {kind} -o
/// {output}`, once plain and once with the fallback defines if it has
/// any; returns the defines of the build that succeeded, or the first
/// build's errors.
fn build(
    nvcc: &Path,
    sm: u32,
    dir: &Path,
    src: Source,
    kind: &[&str],
    output: &Path,
) -> Result<&'static [&'static str]> {
    std::fs::create_dir_all(dir)?;
    let file = dir.join(format!("{}.cu", src.stem));
    crate::output::write_atomic(&file, src.text.as_bytes())?;
    let attempts: &[&'static [&'static str]] = if src.fallback.is_empty() {
        &[&[]]
    } else {
        &[&[], src.fallback]
    };
    let mut first_error = String::new();
    for &defines in attempts {
        let out = Command::new(nvcc)
            .args(["-O3", &format!("-arch=sm_{sm}")])
            .args(kind)
            .args(defines)
            .arg("-o")
            .arg(output)
            .arg(&file)
            .output()
            .with_context(|| format!("running {}", nvcc.display()))?;
        if out.status.success() {
            return Ok(defines);
        }
        if first_error.is_empty() {
            first_error = String::from_utf8_lossy(&out.stderr).into_owned();
        }
    }
    bail!(
        "nvcc failed to build reference/cuda/{}.cu:\n{first_error}",
        src.stem
    )
}
