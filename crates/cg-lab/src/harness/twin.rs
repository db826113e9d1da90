//! The C++ twin: built with nvcc either as a shared library (CUB's
//! host-dispatched algorithms: the bench calls its C entry points) or as a
//! cubin (device-side twins: the bench launches its kernels through the
//! lab's runtime), then loaded, and its entry points looked up.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use cg_runtime::{Gpu, Module};

use crate::reference::{Flavour, Source};

/// How an experiment's twin is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Build {
    /// `nvcc -shared`: host entry points.
    Library,
    /// `nvcc -cubin`: kernels, loaded as a module.
    Cubin,
}

/// A built and loaded twin.
pub enum Twin {
    Library(libloading::Library),
    Cubin {
        module: Module,
        /// The cubin's path (its SASS, for the reports that list it).
        path: PathBuf,
        /// The builds with more flags ([`Experiment::FLAVOURS`]), in order.
        ///
        /// [`Experiment::FLAVOURS`]: super::experiment::Experiment::FLAVOURS
        flavours: Vec<Flavoured>,
    },
}

/// One more build of a cubin twin, with a [`Flavour`]'s flags.
pub struct Flavoured {
    /// Its flags.
    pub flavour: Flavour,
    /// The module.
    pub module: Module,
    /// The cubin's path.
    pub path: PathBuf,
}

impl Twin {
    /// Builds `src` as `build` says into `dir` for `sm` (a library linked
    /// with `libs`) and loads it on `gpu`; a cubin once more per flavour
    /// (none for a library).
    pub fn build(
        gpu: &Gpu,
        nvcc: &Path,
        dir: &Path,
        build: Build,
        src: Source,
        libs: &[&str],
        flavours: &[Flavour],
    ) -> Result<Twin> {
        let sm = gpu.info().sm();
        Ok(match build {
            Build::Library => {
                let lib = crate::reference::build_shared_library(nvcc, sm, dir, src, libs)?;
                // SAFETY: the library is the one just built from our source;
                // its initialisers are the CUDA runtime's.
                let lib = unsafe { libloading::Library::new(&lib) }
                    .with_context(|| format!("loading {}", lib.display()))?;
                Twin::Library(lib)
            }
            Build::Cubin => {
                let (path, _) = crate::reference::build_cubin(nvcc, sm, dir, src)?;
                let module = gpu.load_image(&std::fs::read(&path)?)?;
                let flavours = flavours
                    .iter()
                    .map(|&flavour| {
                        let (path, _) =
                            crate::reference::build_cubin_with(nvcc, sm, dir, src, &flavour)?;
                        let module = gpu.load_image(&std::fs::read(&path)?)?;
                        Ok(Flavoured {
                            flavour,
                            module,
                            path,
                        })
                    })
                    .collect::<Result<_>>()?;
                Twin::Cubin {
                    module,
                    path,
                    flavours,
                }
            }
        })
    }

    /// The shared library (an experiment whose twin is [`Build::Library`]).
    pub fn library(&self) -> Result<&libloading::Library> {
        match self {
            Twin::Library(lib) => Ok(lib),
            Twin::Cubin { .. } => anyhow::bail!("the twin is a cubin, not a library"),
        }
    }

    /// The build of flavour `tag` (an experiment whose twin is a
    /// [`Build::Cubin`] with [`Flavour`]s).
    pub fn flavoured(&self, tag: &str) -> Result<&Flavoured> {
        match self {
            Twin::Cubin { flavours, .. } => flavours
                .iter()
                .find(|f| f.flavour.tag == tag)
                .with_context(|| format!("the twin has no {tag} build")),
            Twin::Library(_) => anyhow::bail!("the twin is a library, not a cubin"),
        }
    }

    /// The module (an experiment whose twin is [`Build::Cubin`]).
    pub fn module(&self) -> Result<&Module> {
        match self {
            Twin::Cubin { module, .. } => Ok(module),
            Twin::Library(_) => anyhow::bail!("the twin is a library, not a cubin"),
        }
    }
}

/// The function `name` of `lib`, as `F`.
///
/// # Safety
///
/// `F` must be the symbol's C signature (as declared in its `.cu` file).
pub unsafe fn symbol<F: Copy>(lib: &libloading::Library, name: &str) -> Result<F> {
    // SAFETY: the caller vouches for the signature.
    let f = unsafe { lib.get::<F>(name.as_bytes()) }
        .with_context(|| format!("looking up {name} in the twin's library"))?;
    Ok(*f)
}
