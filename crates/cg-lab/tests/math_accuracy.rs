//! `cg-lab math-accuracy` on the simulator at a small size: the report
//! names every function once, with a verdict that follows from its
//! numbers, and the command exits 0 (every function within CUDA's bound).
//! The GPU runs the same kernels over all 2^32 inputs.

use std::process::Command;

use cg_kernels::math::UNARY_F32_FUNCTIONS;
use cg_kernels::math_accuracy::{ARGS_F32, INTRINSICS_F32};
use cg_kernels::math_reference::{binary_cases, unary_cases};

#[test]
fn the_sweep_on_the_simulator_reports_every_function() {
    let out = std::env::temp_dir().join(format!("cg-lab-math-accuracy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let run = Command::new(env!("CARGO_BIN_EXE_cg-lab"))
        .args([
            "math-accuracy",
            "--backend",
            "sim",
            "--unary-log2",
            "12",
            "--args-inputs",
            "1024",
            "--f64-inputs",
            "512",
            "--out",
        ])
        .arg(&out)
        .output()
        .expect("running cg-lab");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "exit {:?}: {stderr}", run.status);
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("math_accuracy.json")).unwrap()).unwrap();
    let rows = json["functions"].as_array().unwrap();
    let names: Vec<&str> = rows
        .iter()
        .map(|r| r["function"].as_str().unwrap())
        .collect();
    let mut expected: Vec<&str> = UNARY_F32_FUNCTIONS.iter().map(|(n, _)| *n).collect();
    expected.extend(INTRINSICS_F32.iter().map(|(n, _)| *n));
    expected.extend(ARGS_F32.iter().map(|(n, _)| *n));
    let (u, b) = (unary_cases(), binary_cases());
    expected.extend(u.iter().map(|c| c.name));
    expected.extend(b.iter().map(|c| c.name));
    assert_eq!(names, expected, "one row per function, in order");
    for r in rows {
        let name = r["function"].as_str().unwrap();
        let verdict = r["verdict"].as_str().unwrap();
        let tested = r["inputs_tested"].as_u64().unwrap();
        let special = r["special_mismatches"].as_u64().unwrap();
        assert!(tested > 0, "{name}: no input measured");
        assert_eq!(special, 0, "{name}: {r}");
        let bound = r["cuda_bound"].as_str().unwrap();
        if bound.starts_with("none") {
            assert_eq!(verdict, "no bound", "{name}");
            continue;
        }
        assert_eq!(verdict, "pass", "{name}: {r}");
        // An ulp bound in the table: the measured maximum is within it
        // (0 ulp: correctly rounded, 0.5).
        if let Some(b) = bound
            .strip_suffix(" ulp")
            .or_else(|| {
                bound
                    .split(" ulp outside")
                    .next()
                    .filter(|_| bound.contains("outside"))
            })
            .and_then(|b| b.parse::<f64>().ok())
        {
            let m = r["max_ulp"].as_f64().unwrap();
            assert!(m <= b.max(0.5) + 1e-6, "{name}: {m} over {b}");
        }
    }
    // The markdown and CSV carry the same rows.
    let md = std::fs::read_to_string(out.join("math_accuracy.md")).unwrap();
    let csv = std::fs::read_to_string(out.join("math_accuracy.csv")).unwrap();
    for n in &expected {
        assert!(
            md.contains(&format!("| `{n}` |")),
            "{n} not in the markdown"
        );
    }
    assert_eq!(csv.lines().count(), expected.len() + 1);
    std::fs::remove_dir_all(&out).ok();
}

#[test]
fn unknown_functions_are_refused() {
    let run = Command::new(env!("CARGO_BIN_EXE_cg-lab"))
        .args([
            "math-accuracy",
            "--backend",
            "sim",
            "--functions",
            "expf,nope",
        ])
        .output()
        .expect("running cg-lab");
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("unknown function or group `nope`"));
}
