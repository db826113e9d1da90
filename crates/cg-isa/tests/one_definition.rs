//! The vocabulary is defined once: no other crate of the workspace declares
//! a type of the same name (each uses and re-exports this crate's), so that
//! a value passes between the library, the simulator and the runtime
//! without a conversion.

use std::path::{Path, PathBuf};

/// The declarations this crate owns.
const OWNED: &[&str] = &[
    "struct Dim3",
    "struct LaunchConfig",
    "enum ShapeError",
    "enum ShflMode",
    "enum ReduxOp",
    "enum MemScope",
    "enum MemOrder",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn no_other_crate_declares_the_vocabulary() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let crates = here.parent().unwrap();
    if !crates.join("cooperative-groups").exists() {
        return; // a packaged copy of this crate, outside the repository
    }
    let mut checked = 0;
    for e in std::fs::read_dir(crates).unwrap() {
        let dir = e.unwrap().path();
        if dir == here || !dir.join("Cargo.toml").exists() {
            continue;
        }
        let mut files = Vec::new();
        rust_files(&dir.join("src"), &mut files);
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            for (i, line) in text.lines().enumerate() {
                let line = line.trim_start();
                for decl in OWNED {
                    let declared = [
                        format!("pub {decl} "),
                        format!("pub(crate) {decl} "),
                        format!("{decl} "),
                    ]
                    .iter()
                    .any(|d| line.starts_with(d.as_str()));
                    assert!(
                        !declared,
                        "{}:{}: `{decl}` is cg-isa's: use (and re-export) it instead",
                        f.display(),
                        i + 1
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} files read");
}
