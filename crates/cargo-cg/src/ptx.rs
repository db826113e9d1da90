//! `cargo cg ptx <kernel>`: a kernel's PTX, or its SASS, from the PTX files
//! that `cg-build` wrote into this project's target directory.

use std::path::{Path, PathBuf};

use cg_runtime::sass;
use cg_runtime::tools::find_tool;

pub fn run(args: &[String]) -> Result<(), String> {
    let pos = super::positional(args, &["--sm", "--target-dir"]);
    let [kernel] = pos.as_slice() else {
        return Err(
            "usage: cargo cg ptx <KERNEL> [--sm SM] [--sass | --check] [--target-dir DIR]".into(),
        );
    };
    let target = super::flag(args, "--target-dir")
        .or_else(|| std::env::var("CARGO_TARGET_DIR").ok())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target"));
    let sm = super::flag(args, "--sm")
        .map(|s| {
            s.trim_start_matches("sm_")
                .parse::<u32>()
                .map_err(|_| format!("--sm {s}: not an SM number (e.g. 90)"))
        })
        .transpose()?;
    let (path, file_sm, ptx) = find(&target, kernel, sm)?;
    if args.iter().any(|a| a == "--check") {
        let ptxas = find_tool("ptxas").ok_or("--check needs ptxas (see `cargo cg doctor`)")?;
        let report = check(&ptxas, &ptx, file_sm, kernel)?;
        println!(
            "// {kernel}: ptxas -arch=sm_{file_sm} -v on {}",
            path.display()
        );
        println!("{report}");
    } else if args.iter().any(|a| a == "--sass") {
        let ptxas = find_tool("ptxas").ok_or("--sass needs ptxas (see `cargo cg doctor`)")?;
        let dis = find_tool("nvdisasm")
            .or_else(|| find_tool("cuobjdump"))
            .ok_or("--sass needs nvdisasm or cuobjdump (see `cargo cg doctor`)")?;
        let dir = std::env::temp_dir().join(format!("cargo-cg-{}", std::process::id()));
        let cubin = sass::assemble(&ptxas, &ptx, file_sm, &dir, "module")?;
        let listing = sass::disassemble(&dis, &cubin)?;
        std::fs::remove_dir_all(&dir).ok();
        let instrs = listing
            .get(kernel.as_str())
            .ok_or_else(|| format!("`{kernel}` is not in the SASS of {}", path.display()))?;
        println!(
            "// {kernel}: SASS for sm_{file_sm}, from {}",
            path.display()
        );
        for i in instrs {
            println!("    {}", i.text);
        }
    } else {
        println!("// {kernel}: PTX for sm_{file_sm}, from {}", path.display());
        println!("{}", entry_text(&ptx, kernel).expect("found above"));
    }
    Ok(())
}

/// `ptxas -arch=sm_XX -v` on the whole module (an error with its log if it
/// fails); returns what it says about `kernel` (registers, shared memory,
/// spills).
fn check(ptxas: &Path, ptx: &str, sm: u32, kernel: &str) -> Result<String, String> {
    let dir = std::env::temp_dir().join(format!("cargo-cg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let src = dir.join("module.ptx");
    std::fs::write(&src, ptx).map_err(|e| format!("{}: {e}", src.display()))?;
    let out = std::process::Command::new(ptxas)
        .arg(format!("-arch=sm_{sm}"))
        .arg("-v")
        .arg(&src)
        .arg("-o")
        .arg(dir.join("module.cubin"))
        .output()
        .map_err(|e| format!("running {}: {e}", ptxas.display()))?;
    std::fs::remove_dir_all(&dir).ok();
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        return Err(format!("ptxas -arch=sm_{sm} failed:\n{log}"));
    }
    Ok(kernel_lines(&log, kernel).join("\n"))
}

/// The lines of a `ptxas -v` log about `kernel`: from its "Compiling entry
/// function" line up to the next kernel's.
fn kernel_lines<'a>(log: &'a str, kernel: &str) -> Vec<&'a str> {
    let head = format!("Compiling entry function '{kernel}'");
    let mut inside = false;
    let mut lines = Vec::new();
    for l in log.lines() {
        if l.contains("Compiling entry function") {
            inside = l.contains(&head);
        }
        if inside {
            lines.push(l.trim_start_matches("ptxas info    : ").trim());
        }
    }
    lines
}

/// The newest PTX file under `target` (for `sm`, if given) with an entry
/// named `kernel`: its path, SM and text.
fn find(target: &Path, kernel: &str, sm: Option<u32>) -> Result<(PathBuf, u32, String), String> {
    let mut files = Vec::new();
    collect_ptx(target, 0, &mut files);
    if files.is_empty() {
        return Err(format!(
            "no PTX under {}: build the project first (`cargo build`; its build script runs cg-build)",
            target.display()
        ));
    }
    files.sort_by_key(|p| std::cmp::Reverse(p.metadata().and_then(|m| m.modified()).ok()));
    let mut sms_seen = Vec::new();
    for p in files {
        let Some(file_sm) = sm_of(&p) else { continue };
        if sm.is_some_and(|s| s != file_sm) {
            sms_seen.push(file_sm);
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        if entry_text(&text, kernel).is_some() {
            return Ok((p, file_sm, text));
        }
    }
    Err(match sm {
        Some(s) if !sms_seen.is_empty() && !sms_seen.contains(&s) => {
            sms_seen.sort();
            sms_seen.dedup();
            format!(
                "no PTX for sm_{s} under {} (built: {sms_seen:?})",
                target.display()
            )
        }
        _ => format!(
            "no kernel `{kernel}` in the PTX under {} (is it marked #[kernel]?)",
            target.display()
        ),
    })
}

/// PTX files cg-build wrote (`<name>_sm_XX.ptx` in a build script's `out`).
fn collect_ptx(dir: &Path, depth: u32, out: &mut Vec<PathBuf>) {
    // target/<profile>/build/<pkg>/out/*.ptx is 4 levels down (5 with a
    // target triple); the nested builds under target/cg-build hold none.
    if depth > 5 || dir.ends_with("cg-build") {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_ptx(&p, depth + 1, out);
        } else if p.extension().is_some_and(|x| x == "ptx") && sm_of(&p).is_some() {
            out.push(p);
        }
    }
}

/// The SM of `<name>_sm_XX.ptx`.
fn sm_of(p: &Path) -> Option<u32> {
    let stem = p.file_stem()?.to_str()?;
    stem.rsplit_once("_sm_")?.1.parse().ok()
}

/// The text of entry `kernel` in a PTX module: from its `.entry` line to
/// the closing brace at the start of a line.
fn entry_text<'a>(ptx: &'a str, kernel: &str) -> Option<&'a str> {
    let head = format!(".entry {kernel}(");
    let start = ptx.find(&head)?;
    let start = ptx[..start].rfind('\n').map_or(0, |i| i + 1);
    let end = ptx[start..]
        .find("\n}")
        .map_or(ptx.len(), |i| start + i + 2);
    Some(&ptx[start..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_an_entry_and_its_end() {
        let ptx = ".version 8.0\n.visible .entry a(\n.param .u64 p\n)\n{\n\tret;\n}\n.visible .entry ab(\n)\n{\n\texit;\n}\n";
        let a = entry_text(ptx, "a").unwrap();
        assert!(
            a.starts_with(".visible .entry a(") && a.ends_with("ret;\n}"),
            "{a}"
        );
        assert!(entry_text(ptx, "ab").unwrap().contains("exit"));
        assert!(entry_text(ptx, "b").is_none());
    }

    #[test]
    fn keeps_the_ptxas_lines_of_one_kernel() {
        let log = "ptxas info    : Compiling entry function 'a' for 'sm_90'\nptxas info    : Used 8 registers\nptxas info    : Compiling entry function 'b' for 'sm_90'\nptxas info    : Used 9 registers\n";
        assert_eq!(
            kernel_lines(log, "a"),
            [
                "Compiling entry function 'a' for 'sm_90'",
                "Used 8 registers"
            ]
        );
        assert_eq!(kernel_lines(log, "b")[1], "Used 9 registers");
    }

    #[test]
    fn reads_the_sm_from_the_file_name() {
        assert_eq!(sm_of(Path::new("/o/my_kernels_sm_90.ptx")), Some(90));
        assert_eq!(sm_of(Path::new("/o/k-collectives_sm_70.ptx")), Some(70));
        assert_eq!(sm_of(Path::new("/o/other.ptx")), None);
    }
}
