//! Both sides' SASS for a report: the lab's embedded PTX assembled for the
//! device, and a C++ cubin, disassembled with the same tool.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use cg_runtime::{sass, tools};

/// Both sides' SASS: the lab's embedded PTX for the device assembled with
/// ptxas, and the C++ cubin, disassembled with the same tool.
pub(crate) struct Listings {
    pub ptxas: PathBuf,
    pub dis: PathBuf,
    pub ptx_sm: u32,
    pub sm: u32,
    pub rust: sass::Listing,
    pub cpp: sass::Listing,
}

/// Builds [`Listings`] for `cpp_cubin` (temporary files in `dir`).
pub(crate) fn listings(gpu: &cg_runtime::Gpu, cpp_cubin: &Path, dir: &Path) -> Result<Listings> {
    let ptxas = tools::find_tool("ptxas").context("ptxas not found")?;
    let dis = tools::find_tool("cuobjdump")
        .or_else(|| tools::find_tool("nvdisasm"))
        .context("cuobjdump not found")?;
    let ptx = crate::kernels::LAB_PTX
        .ptx()
        .iter()
        .find(|p| p.sm == gpu.ptx_sm() && p.arch_specific == gpu.ptx_arch_specific())
        .context("no PTX for this device")?;
    let sm = gpu.info().sm();
    let rust_cubin =
        sass::assemble(&ptxas, ptx.ptx, sm, dir, "rust").map_err(anyhow::Error::msg)?;
    let rust = sass::disassemble(&dis, &rust_cubin).map_err(anyhow::Error::msg)?;
    let cpp = sass::disassemble(&dis, cpp_cubin).map_err(anyhow::Error::msg)?;
    Ok(Listings {
        ptxas,
        dis,
        ptx_sm: ptx.sm,
        sm,
        rust,
        cpp,
    })
}

/// Full SASS text: for each `(name, code)` with code, `// ===== name =====`,
/// its instructions one a line, and a blank line.
pub(crate) fn full_text<'a>(
    codes: impl IntoIterator<Item = (&'a str, Option<&'a Vec<sass::Instr>>)>,
) -> String {
    let mut full = String::new();
    for (name, code) in codes {
        let Some(code) = code else { continue };
        full += &format!("// ===== {name} =====\n");
        for i in code {
            full += &format!("{}\n", i.text);
        }
        full.push('\n');
    }
    full
}
