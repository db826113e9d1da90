//! PTX → SASS: assemble with `ptxas`, disassemble with `nvdisasm` or
//! `cuobjdump -sass`, and split the listing per kernel, so that tests and
//! reports can compare what the library and hand-written code become.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One SASS instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instr {
    /// Predicate guard, e.g. `@!P0`, or empty.
    pub guard: String,
    /// Opcode with modifiers, e.g. `SHFL.DOWN`.
    pub opcode: String,
    /// The whole instruction text (guard, opcode, operands).
    pub text: String,
}

/// Kernel name → its instructions, in order.
pub type Listing = BTreeMap<String, Vec<Instr>>;

/// Runs `ptxas -arch=sm_XX` on `ptx`, writing `<dir>/<stem>.cubin`
/// (`sm_XXa` where the PTX's `.target` is the arch-specific `sm_XXa`).
pub fn assemble(
    ptxas: &Path,
    ptx: &str,
    sm: u32,
    dir: &Path,
    stem: &str,
) -> Result<PathBuf, String> {
    assemble_verbose(ptxas, ptx, sm, dir, stem).map(|(cubin, _)| cubin)
}

/// [`assemble`] with `-v`: the cubin and ptxas's report (each kernel's
/// registers, spills, barriers, shared and local memory).
pub fn assemble_verbose(
    ptxas: &Path,
    ptx: &str,
    sm: u32,
    dir: &Path,
    stem: &str,
) -> Result<(PathBuf, String), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let src = dir.join(format!("{stem}.ptx"));
    let cubin = dir.join(format!("{stem}.cubin"));
    std::fs::write(&src, ptx).map_err(|e| format!("writing {}: {e}", src.display()))?;
    let arch = ptxas_arch(ptx, sm);
    let out = Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .arg("-v")
        .arg(&src)
        .arg("-o")
        .arg(&cubin)
        .output()
        .map_err(|e| format!("running {}: {e}", ptxas.display()))?;
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        return Err(format!("ptxas -arch={arch} failed:\n{log}"));
    }
    Ok((cubin, log))
}

/// `sm_XX`, or `sm_XXa` where `ptx` declares that arch-specific target
/// (ptxas refuses `sm_90a` PTX under `-arch=sm_90`).
fn ptxas_arch(ptx: &str, sm: u32) -> String {
    let specific = format!("sm_{sm}a");
    let declared = ptx
        .lines()
        .find_map(|l| l.trim().strip_prefix(".target "))
        .is_some_and(|t| t.split([',', ' ']).any(|w| w == specific));
    if declared {
        specific
    } else {
        format!("sm_{sm}")
    }
}

/// Disassembles a cubin with `nvdisasm -c` or `cuobjdump -sass` (chosen by
/// the tool's file name) and splits the listing per kernel.
pub fn disassemble(tool: &Path, cubin: &Path) -> Result<Listing, String> {
    disassemble_text(tool, cubin).map(|text| parse_listing(&text))
}

/// The listing of a cubin by `nvdisasm -c` or `cuobjdump -sass` (chosen by
/// the tool's file name), as the tool prints it ([`parse_listing`] splits
/// it).
pub fn disassemble_text(tool: &Path, cubin: &Path) -> Result<String, String> {
    let is_cuobjdump = tool
        .file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with("cuobjdump"));
    let mut cmd = Command::new(tool);
    if is_cuobjdump {
        cmd.arg("-sass");
    } else {
        cmd.arg("-c");
    }
    let out = cmd
        .arg(cubin)
        .output()
        .map_err(|e| format!("running {}: {e}", tool.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} failed:\n{}",
            tool.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Splits an `nvdisasm` or `cuobjdump -sass` listing into kernels.
pub fn parse_listing(text: &str) -> Listing {
    let mut listing = Listing::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let t = line.trim();
        if let Some(name) = t.strip_prefix("Function : ") {
            current = Some(name.trim().to_string());
            continue;
        }
        if let Some(name) = t.strip_prefix(".text.").and_then(|r| r.strip_suffix(':')) {
            current = Some(name.to_string());
            continue;
        }
        let Some(k) = &current else { continue };
        // Instruction lines look like `/*0040*/   @!P0 SHFL.DOWN PT, R3, R2, 0x1, 0x1f ;`.
        let Some(rest) = t
            .strip_prefix("/*")
            .and_then(|r| r.split_once("*/"))
            .map(|(_, r)| r.trim())
        else {
            continue;
        };
        let body = rest.split(';').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let mut words = body.split_whitespace();
        let first = words.next().unwrap_or("");
        let (guard, opcode) = if first.starts_with('@') {
            (first.to_string(), words.next().unwrap_or("").to_string())
        } else {
            (String::new(), first.to_string())
        };
        listing.entry(k.clone()).or_default().push(Instr {
            guard,
            opcode,
            text: body.to_string(),
        });
    }
    listing
}

/// Opcodes of a kernel, without `NOP` padding.
pub fn opcodes(instrs: &[Instr]) -> Vec<&str> {
    instrs
        .iter()
        .map(|i| i.opcode.as_str())
        .filter(|o| *o != "NOP")
        .collect()
}

/// Counts of each opcode (first component, e.g. `SHFL` for `SHFL.DOWN`).
pub fn histogram(instrs: &[Instr]) -> BTreeMap<String, usize> {
    let mut h = BTreeMap::new();
    for i in instrs {
        let base = i.opcode.split('.').next().unwrap_or("").to_string();
        if base != "NOP" {
            *h.entry(base).or_insert(0) += 1;
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_listing_styles() {
        let nvdisasm = "\
.text.k:
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/              @!P0 SHFL.DOWN PT, R3, R2, 0x1, 0x1f ;
        /*0020*/                   NOP ;
";
        let l = parse_listing(nvdisasm);
        assert_eq!(opcodes(&l["k"]), ["LDC", "SHFL.DOWN"]);
        assert_eq!(l["k"][1].guard, "@!P0");
        let cuobjdump = "\
        Function : cpp_k
        /*0000*/                   MOV R1, c[0x0][0x28] ;            /* 0x00000a0000017a02 */
        /*0010*/                   EXIT ;                            /* 0x000000000000794d */
";
        let l = parse_listing(cuobjdump);
        assert_eq!(opcodes(&l["cpp_k"]), ["MOV", "EXIT"]);
        assert_eq!(histogram(&l["cpp_k"]).get("EXIT"), Some(&1));
    }

    #[test]
    fn an_arch_specific_target_assembles_as_itself() {
        let ptx = ".version 8.4\n.target sm_90a\n.address_size 64\n";
        assert_eq!(ptxas_arch(ptx, 90), "sm_90a");
        assert_eq!(ptxas_arch(".target sm_90\n", 90), "sm_90");
    }
}
