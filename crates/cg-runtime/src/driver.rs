//! Thin checked access to the CUDA driver API (loaded dynamically by cudarc,
//! so binaries start on machines without CUDA).

use std::ffi::CStr;
use std::sync::OnceLock;

use cudarc::driver::sys;

use crate::error::{Result, RuntimeError};

/// Turns a `CUresult` into `Ok(())` or a [`RuntimeError::Cuda`] naming `call`.
pub(crate) fn check(call: &'static str, r: sys::CUresult) -> Result<()> {
    if r == sys::CUresult::CUDA_SUCCESS {
        return Ok(());
    }
    let mut name: *const std::ffi::c_char = std::ptr::null();
    let mut desc: *const std::ffi::c_char = std::ptr::null();
    // SAFETY: both calls only write a pointer to a static string (or leave null).
    unsafe {
        sys::cuGetErrorName(r, &mut name);
        sys::cuGetErrorString(r, &mut desc);
    }
    let text = |p: *const std::ffi::c_char| {
        if p.is_null() {
            "unknown".to_string()
        } else {
            // SAFETY: the driver returns NUL-terminated static strings.
            unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
        }
    };
    Err(RuntimeError::Cuda {
        call,
        code: r as u32,
        name: text(name),
        description: text(desc),
    })
}

/// A cudarc [`DriverError`](cudarc::driver::DriverError) of `call` as a
/// [`RuntimeError::Cuda`] (its name and description from the driver).
pub(crate) fn cudarc_error(
    call: &'static str,
) -> impl Fn(cudarc::driver::DriverError) -> RuntimeError {
    move |e| match check(call, e.0) {
        Err(err) => err,
        // A `DriverError` never holds `CUDA_SUCCESS`; name it anyway.
        Ok(()) => RuntimeError::Cuda {
            call,
            code: 0,
            name: "CUDA_SUCCESS".into(),
            description: "cudarc reported success as an error".into(),
        },
    }
}

/// Calls a driver function and checks its result: `cu!(cuInit(0))`.
macro_rules! cu {
    ($f:ident ( $($arg:expr),* $(,)? )) => {
        $crate::driver::check(stringify!($f), cudarc::driver::sys::$f($($arg),*))
    };
}
pub(crate) use cu;

/// Makes `ctx` the calling thread's current context (a no-op when it is
/// already): every driver call of this crate runs in the context of the
/// object it serves, whatever cudarc or the user made current since.
pub(crate) fn bind(ctx: &cudarc::driver::CudaContext) -> Result<()> {
    let mut current: sys::CUcontext = std::ptr::null_mut();
    // SAFETY: writes one context handle.
    unsafe { cu!(cuCtxGetCurrent(&mut current)) }?;
    if current != ctx.cu_ctx() {
        // SAFETY: the `CudaContext` is alive (borrowed), so its handle is valid.
        unsafe { cu!(cuCtxSetCurrent(ctx.cu_ctx())) }?;
    }
    Ok(())
}

/// Loads `libcuda` and runs `cuInit` once; later calls return the first outcome.
pub(crate) fn init() -> Result<()> {
    static INIT: OnceLock<std::result::Result<(), String>> = OnceLock::new();
    let r = INIT.get_or_init(|| {
        // SAFETY: only probes whether the shared library can be opened.
        if !unsafe { sys::is_culib_present() } {
            return Err(String::new());
        }
        // SAFETY: cuInit has no preconditions.
        unsafe { cu!(cuInit(0)) }.map_err(|e| e.to_string())
    });
    match r {
        Ok(()) => Ok(()),
        Err(e) if e.is_empty() => Err(RuntimeError::NoDriver),
        Err(e) if e.contains("CUDA_ERROR_NO_DEVICE") => Err(RuntimeError::NoDevice),
        Err(e) => Err(RuntimeError::DriverInit(e.clone())),
    }
}

/// The driver's CUDA version, e.g. `(13, 0)`.
pub(crate) fn cuda_version() -> Result<(u32, u32)> {
    let mut v = 0i32;
    // SAFETY: writes one int.
    unsafe { cu!(cuDriverGetVersion(&mut v)) }?;
    Ok(((v / 1000) as u32, ((v % 1000) / 10) as u32))
}

/// The kernel driver's version string (e.g. `580.159.03`), read from
/// `/proc/driver/nvidia/version` where it exists.
pub(crate) fn kernel_driver_version() -> Option<String> {
    let text = std::fs::read_to_string("/proc/driver/nvidia/version").ok()?;
    let line = text.lines().next()?;
    line.split_whitespace()
        .find(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()) && w.contains('.'))
        .map(str::to_string)
}
