//! Records the source revision (`git describe --always --dirty`) for reports.

use std::process::Command;

fn main() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    println!("cargo:rerun-if-changed={root}/.git/HEAD");
    println!("cargo:rerun-if-changed={root}/.git/index");
    println!("cargo:rerun-if-env-changed=CG_LAB_COMMIT");
    let commit = std::env::var("CG_LAB_COMMIT").ok().or_else(|| {
        let out = Command::new("git")
            .args(["-C", root, "describe", "--always", "--dirty", "--abbrev=12"])
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    });
    println!(
        "cargo:rustc-env=CG_LAB_COMMIT={}",
        commit.unwrap_or_else(|| "unknown".into())
    );
}
