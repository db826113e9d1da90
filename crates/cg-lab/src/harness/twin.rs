//! The C++ twin's entry points: typed function pointers looked up in the
//! shared library the harness built and loaded.

use anyhow::{Context, Result};

/// The function `name` of `lib`, as `F`.
///
/// # Safety
///
/// `F` must be the symbol's C signature (as declared in its `.cu` file).
pub unsafe fn symbol<F: Copy>(lib: &libloading::Library, name: &str) -> Result<F> {
    // SAFETY: the caller vouches for the signature.
    let f = unsafe { lib.get::<F>(name.as_bytes()) }
        .with_context(|| format!("looking up {name} in the CUB library"))?;
    Ok(*f)
}
