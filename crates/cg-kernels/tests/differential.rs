//! The differential kernels on the simulator must reproduce, word for word,
//! the outputs an H200 produced (`docs/results/h200/differential.json`,
//! written by `cg-lab verify` on the GPU).

use cg_kernels::diff::DIFF_WORDS;
use cg_kernels::diff::cases::DIFF_CASES;

fn run_on_sim(c: &cg_kernels::diff::cases::DiffCase) -> Vec<u32> {
    let mut out = vec![0u32; (c.grid * c.block) as usize * DIFF_WORDS];
    let ptr = out.as_mut_ptr();
    let cfg = cg_sim::LaunchConfig {
        grid: cg_sim::Dim3::x(c.grid),
        block: cg_sim::Dim3::x(c.block),
        cluster: cg_sim::Dim3::x(1),
        dynamic_smem_bytes: c.dynamic_smem as usize,
        cooperative: false,
    };
    let body = c.kernel.host_fn();
    cg_sim::launch(&cfg, &|| body((ptr,))).unwrap_or_else(|e| panic!("{}: {e}", c.name));
    out
}

/// The `gpu` array of case `name` in the committed H200 file.
fn h200_output(json: &serde_json::Value, name: &str) -> Vec<u32> {
    let case = json["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| {
            panic!("case {name} missing from differential.json: rerun `cg-lab verify` on a GPU")
        });
    case["gpu"]
        .as_array()
        .expect("gpu")
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect()
}

#[test]
fn simulator_matches_the_h200_word_for_word() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/results/h200/differential.json"
    );
    let text = std::fs::read_to_string(path).expect("docs/results/h200/differential.json");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut bad = Vec::new();
    for c in DIFF_CASES {
        let sim = run_on_sim(c);
        let gpu = h200_output(&json, c.name);
        if sim != gpu {
            let i = sim.iter().zip(&gpu).position(|(a, b)| a != b).unwrap_or(0);
            bad.push(format!(
                "{}: thread {} word {}: sim {:#x}, H200 {:#x}",
                c.name,
                i / DIFF_WORDS,
                i % DIFF_WORDS,
                sim.get(i).copied().unwrap_or(0),
                gpu.get(i).copied().unwrap_or(0)
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "simulator differs from the H200:\n{}",
        bad.join("\n")
    );
}

#[test]
fn simulator_is_deterministic() {
    for c in DIFF_CASES {
        assert_eq!(run_on_sim(c), run_on_sim(c), "{}", c.name);
    }
}
