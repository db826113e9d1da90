//! Errors of the host runtime: every failure says what is missing or wrong.

use thiserror::Error;

/// What can go wrong between the host and a GPU (or the simulator).
#[derive(Debug, Error)]
pub enum RuntimeError {
    /// `libcuda` could not be loaded: no NVIDIA driver on this machine.
    #[error("no NVIDIA driver found (libcuda.so could not be loaded)")]
    NoDriver,
    /// `cuInit` failed for another reason than a missing GPU.
    #[error("the CUDA driver failed to initialise: {0}")]
    DriverInit(String),
    /// The driver loaded but reports no GPU.
    #[error("the NVIDIA driver reports no GPU")]
    NoDevice,
    /// The requested device ordinal does not exist.
    #[error("GPU {requested} does not exist: this machine has {count} GPU(s) (valid: 0..{count})")]
    BadDevice {
        /// Ordinal asked for.
        requested: u32,
        /// GPUs present.
        count: u32,
    },
    /// The GPU is older than the oldest PTX target we embed.
    #[error(
        "{name} has compute capability {major}.{minor}; cooperative-groups kernels need 7.0 or newer"
    )]
    UnsupportedGpu {
        /// Device name.
        name: String,
        /// Compute capability, major.
        major: u32,
        /// Compute capability, minor.
        minor: u32,
    },
    /// `CG_PTX_SM` names no embedded PTX the device can run.
    #[error(
        "CG_PTX_SM={value}: expected one of the embedded PTX targets ({embedded}) not newer than the device's sm_{device} (an `a` target: exactly its SM)"
    )]
    BadPtxCap {
        /// The variable's value.
        value: String,
        /// The embedded targets, e.g. `70, 80, 90`.
        embedded: String,
        /// The device's SM (`major * 10 + minor`).
        device: u32,
    },
    /// A driver call failed.
    #[error("{call} failed: {name} ({code}): {description}")]
    Cuda {
        /// The driver function.
        call: &'static str,
        /// `CUresult` value.
        code: u32,
        /// `cuGetErrorName`.
        name: String,
        /// `cuGetErrorString`.
        description: String,
    },
    /// The driver could not JIT-compile the PTX.
    #[error("loading PTX for sm_{sm} failed: {source}\nJIT log:\n{log}")]
    Jit {
        /// The SM of the PTX that failed.
        sm: u32,
        /// The driver error.
        source: Box<RuntimeError>,
        /// The JIT's error log.
        log: String,
    },
    /// PTX whose `#[kernel(block_dim(…))]` kernels lack `.reqntid` (it did
    /// not come through cg-build): their bodies assume the block shape.
    #[error(
        "the PTX for sm_{sm} was not built by cg-build: {kernels} declare block_dim(…) but their entries have no `.reqntid`, which makes the shape their bodies assume a fact"
    )]
    UndeclaredBlockDim {
        /// The SM of the PTX.
        sm: u32,
        /// The kernels, comma-separated.
        kernels: String,
    },
    /// A kernel name is not in the loaded module.
    #[error(
        "kernel `{0}` is not in the loaded module (is it marked #[kernel], and was the module built from its crate?)"
    )]
    NoSuchKernel(String),
    /// A `#[kernel]` descriptor launched against the module of another crate.
    #[error(
        "kernel `{kernel}` of crate `{krate}` launched against the module of crate `{module}`: load the PTX that cg-build made from `{krate}`"
    )]
    KernelNotInModule {
        /// Kernel name.
        kernel: String,
        /// The crate that defines it.
        krate: String,
        /// The crate the module was built from.
        module: String,
    },
    /// A launch shape that the device or the kernel cannot run.
    #[error("invalid launch of `{kernel}`: {reason}")]
    InvalidLaunch {
        /// Kernel name.
        kernel: String,
        /// What is wrong, naming the limit.
        reason: String,
    },
    /// A wait for the device outlasted the watchdog's limit.
    #[error(
        "kernel `{kernel}` has not finished after {waited_s:.1} s, the watchdog's limit: a deadlock, or a launch longer than the limit; the kernel keeps the GPU busy until this process exits"
    )]
    Timeout {
        /// The kernel launched last before the wait.
        kernel: String,
        /// Seconds waited.
        waited_s: f64,
    },
    /// The simulator reported an error (deadlock, misuse, panic, bad launch).
    #[error("simulator: {0}")]
    Sim(#[from] cg_sim::SimError),
    /// A call's argument does not fit (a copy of the wrong length, say).
    #[error("{0}")]
    InvalidArgument(String),
}

/// `Result` with [`RuntimeError`].
pub type Result<T, E = RuntimeError> = std::result::Result<T, E>;
