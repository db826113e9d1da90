//! Every embedded PTX assembles with `ptxas -arch=sm_XX -v` for its SM.

use std::process::Command;

use cg_runtime::ptx::EMBEDDED_PTX;
use cg_runtime::tools::require_tool_in_ci;

#[test]
fn every_embedded_ptx_assembles() {
    let Some(ptxas) = require_tool_in_ci("ptxas") else { return };
    let dir = std::env::temp_dir().join(format!("cg-ptxas-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for p in EMBEDDED_PTX {
        let src = dir.join(format!("sm_{}.ptx", p.sm));
        std::fs::write(&src, p.ptx).unwrap();
        let out = Command::new(&ptxas)
            .arg(format!("-arch=sm_{}", p.sm))
            .arg("-v")
            .arg(&src)
            .arg("-o")
            .arg(dir.join(format!("sm_{}.cubin", p.sm)))
            .output()
            .expect("running ptxas");
        let log = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "ptxas -arch=sm_{} failed:\n{log}", p.sm);
        assert!(log.contains("Compiling entry function 'smoke'"), "sm_{}: {log}", p.sm);
        println!("sm_{}: ptxas OK\n{log}", p.sm);
    }
    std::fs::remove_dir_all(&dir).ok();
}
