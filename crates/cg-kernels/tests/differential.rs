//! The differential kernels on the simulator must reproduce, word for word,
//! the outputs an H200 produced (`docs/results/h200/current/verify/differential.json`,
//! written by `cg-lab verify` on the GPU).

use cg_kernels::diff::DIFF_WORDS;
use cg_kernels::diff::cases::DIFF_CASES;

fn run_on_sim(c: &cg_kernels::diff::cases::DiffCase) -> Vec<u32> {
    let mut out = vec![0u32; (c.grid * c.block) as usize * DIFF_WORDS];
    let cfg = cg_sim::LaunchConfig {
        grid: cg_sim::Dim3::x(c.grid),
        block: cg_sim::Dim3::x(c.block),
        cluster: None,
        dynamic_smem_bytes: c.dynamic_smem,
        cooperative: false,
    };
    cooperative_groups::host::run(&c.kernel, &cfg, (&mut out[..],))
        .unwrap_or_else(|e| panic!("{}: {e}", c.name));
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
        "/../../docs/results/h200/current/verify/differential.json"
    );
    let text =
        std::fs::read_to_string(path).expect("docs/results/h200/current/verify/differential.json");
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

/// `diff_tile_paths` equals a sequential model on the simulator (the GPU
/// equals the simulator by the test above).
#[test]
fn tile_paths_equal_the_model() {
    use cg_kernels::diff::tile_paths_value as value;
    let c = DIFF_CASES.iter().find(|c| c.name == "tile_paths").unwrap();
    let out = run_on_sim(c);
    let fold = |w: u64| (w as u32) ^ ((w >> 32) as u32);
    for b in 0..c.grid {
        for r in 0..c.block {
            let g = b * c.block + r;
            let x = |t: u32| value(t) as u64 * 0x1_0000_0001;
            // Members of the caller's tile of `n`, cut at the block's end.
            let tile = |n: u32| {
                let first = b * c.block + r / n * n;
                first..(first + n).min((b + 1) * c.block)
            };
            let sum8 = |k: u64| tile(8).map(|t| x(t) ^ k).fold(0u64, u64::wrapping_add);
            let meta8 = r / 8;
            let want = [
                fold(sum8(0)),
                (tile(16).start..=g)
                    .map(|t| value(t) as f32)
                    .sum::<f32>()
                    .to_bits(),
                fold((0..(meta8 % 4) as u64).map(sum8).fold(0, u64::wrapping_add)),
                if meta8.is_multiple_of(2) {
                    (tile(8).start..g).map(value).sum()
                } else {
                    u32::MAX
                },
            ];
            let got = &out[g as usize * DIFF_WORDS..][..DIFF_WORDS];
            assert_eq!(got, want, "block {b} thread {r}");
        }
    }
}
