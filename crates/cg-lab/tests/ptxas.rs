//! Every embedded PTX assembles with `ptxas -arch=sm_XX -v` for its SM.

mod common;

// `LAB_PTX` and `TEST_PTX`: the lab's PTX tables, built by `build.rs` (cg-build).
include!(concat!(env!("OUT_DIR"), "/lab_ptx.rs"));
#[cfg(feature = "collectives")]
include!(concat!(env!("OUT_DIR"), "/test_ptx.rs"));

/// Every module this build embeds, named.
fn modules() -> Vec<(&'static cg_runtime::PtxModule, &'static str)> {
    #[allow(unused_mut)]
    let mut m = vec![(&LAB_PTX, "lab")];
    #[cfg(feature = "collectives")]
    m.push((&TEST_PTX, "test"));
    m
}
use cg_runtime::tools::require_tool_in_ci;

#[test]
fn every_ptx_targets_its_sm_and_names_its_crate() {
    for (m, _) in modules() {
        assert_eq!(m.crate_name(), "cg_kernels");
        // Each target once, in order (an arch-specific one after its
        // portable twin).
        let sms: Vec<(u32, bool)> = m.ptx().iter().map(|p| (p.sm, p.arch_specific)).collect();
        assert!(
            !sms.is_empty() && sms.windows(2).all(|w| w[0] < w[1]),
            "{sms:?}"
        );
        for p in m.ptx() {
            assert!(
                p.ptx.contains(&format!(".target {}\n", p.target())),
                "{}",
                p.target()
            );
            assert!(
                p.ptx.contains(".visible .entry smoke("),
                "smoke kernel missing for sm_{}",
                p.sm
            );
        }
    }
    // The test module has the collective test kernels; the lab's does not.
    #[cfg(feature = "collectives")]
    assert!(TEST_PTX.ptx()[0].ptx.contains(".entry collectives_u32("));
    assert!(!LAB_PTX.ptx()[0].ptx.contains(".entry collectives_u32("));
}

#[test]
fn every_embedded_ptx_assembles() {
    let Some(ptxas) = require_tool_in_ci("ptxas") else {
        return;
    };
    let modules: Vec<_> = modules()
        .into_iter()
        .flat_map(|(m, name)| m.ptx().iter().map(move |p| (p, name)))
        .collect();
    // ptxas is single-threaded: assemble the modules side by side.
    std::thread::scope(|s| {
        let jobs: Vec<_> = modules
            .iter()
            .map(|&(p, module)| {
                let ptxas = &ptxas;
                s.spawn(move || check_one(ptxas, p, module))
            })
            .collect();
        for j in jobs {
            j.join().expect("ptxas thread panicked");
        }
    });
}

fn check_one(ptxas: &std::path::Path, p: &cg_runtime::EmbeddedPtx, module: &str) {
    let log = match common::assemble(ptxas, p.ptx, p.sm) {
        Ok(a) => a.log,
        Err(e) => panic!("the {module} module: {e}"),
    };
    assert!(
        log.contains("Compiling entry function 'smoke'"),
        "{module} sm_{}: {log}",
        p.sm
    );
    if module == "lab" {
        // ptxas names the function on the line before its properties.
        let lines: Vec<&str> = log.lines().collect();
        let spills = lines.iter().enumerate().filter(|&(i, l)| {
            l.contains("spill stores")
                && !l.contains(", 0 bytes spill stores")
                && !tolerated_spill(p.sm, lines[..i].last().copied().unwrap_or(""), l)
        });
        assert_eq!(
            spills.count(),
            0,
            "the lab's kernels spill registers on sm_{}:\n{log}",
            p.sm
        );
        // The lab runs these in 1024-thread blocks: more than 32 registers
        // per thread leaves one block per SM instead of two (checked where
        // it was measured, sm_90).
        for kernel in [
            "reduce_intrinsic",
            "reduce_tile32",
            "cg_reduce_64",
            "cg_reduce_128",
            "cg_reduce_256",
            "cg_reduce_512",
            "cg_reduce_1024",
            "cg_scan_64",
            "cg_scan_128",
            "cg_scan_256",
            "cg_scan_512",
            "cg_scan_1024",
            "block_reduce",
            "block_scan",
        ] {
            let regs = resource(&log, kernel, "registers");
            assert!(
                p.sm != 90 || regs <= 32,
                "{kernel} uses {regs} registers on sm_{}: two 1024-thread blocks no longer fit an SM",
                p.sm
            );
        }
        // Named-barrier ids are immediates when the block is bounded to at
        // most 256 threads (`with_max_threads`), so ptxas reserves only the
        // barriers such a block can use; a register id reserves all 16
        // (4 blocks per SM on the H200, harmless from 512 threads on).
        for (kernel, want) in [
            ("cg_reduce_32", 0),
            ("cg_reduce_64_max128", 3),
            ("cg_reduce_64_max256", 7),
            ("cg_reduce_128_max256", 3),
            ("cg_reduce_256_max256", 1),
            ("cg_reduce_512", 16),
            ("cg_reduce_1024", 1),
            ("cg_scan_64_max128", 3),
            ("cg_scan_64_max256", 7),
            ("cg_scan_1024", 1),
            ("block_reduce", 1),
        ] {
            assert_eq!(
                barriers_used(&log, kernel),
                want,
                "barriers reserved by {kernel} on sm_{}:\n{log}",
                p.sm
            );
        }
    }
    println!("{module} module, sm_{}: ptxas OK", p.sm);
}

/// The `used N barriers` of `kernel` in a `ptxas -v` log (0 when ptxas
/// leaves it out).
fn barriers_used(log: &str, kernel: &str) -> u32 {
    resource(log, kernel, "barriers")
}

/// The count `ptxas -v` gives `kernel` for `what` (`registers`,
/// `barriers`; 0 when the line leaves it out).
fn resource(log: &str, kernel: &str, what: &str) -> u32 {
    let entry = format!("Compiling entry function '{kernel}'");
    let mut lines = log.lines().skip_while(|l| !l.contains(&entry));
    assert!(lines.next().is_some(), "{kernel} not in the ptxas log");
    let used = lines
        .find(|l| l.contains("Used "))
        .unwrap_or_else(|| panic!("no resource line for {kernel}"));
    let suffix = format!(" {what}");
    used.split(", ")
        .find_map(|part| {
            let part = part.trim();
            let part = part.split(": ").last().unwrap_or(part);
            part.strip_prefix("Used ")
                .or_else(|| part.strip_prefix("used "))?
                .strip_suffix(suffix.as_str())
        })
        .map_or(0, |n| n.parse().expect("a count"))
}

/// The one spill the lab accepts: `layer_norm_block` on sm_70, 4 bytes.
/// Its `launch_bounds(1024)` leaves 64 registers a thread, which sm_90's
/// code fits (the lab measures it there, and there this test allows
/// nothing) and sm_70's misses by one value. Any other spill, or a larger
/// one, fails.
fn tolerated_spill(sm: u32, properties: &str, line: &str) -> bool {
    sm == 70
        && properties.contains("Function properties for layer_norm_block")
        && line.contains(" 4 bytes spill stores, 8 bytes spill loads")
}
