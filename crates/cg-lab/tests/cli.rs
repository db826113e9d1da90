//! The lab's command line as a user meets it: bad flags give one line and a
//! non-zero exit; the whole lab passes on the simulator.

use std::process::Command;

fn cg_lab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cg-lab"))
        .args(args)
        .output()
        .expect("running cg-lab");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bad_flags_give_one_line_and_fail() {
    let cases: &[(&[&str], &str)] = &[
        (&["--tile", "3"], "power of two in [8, 1024]"),
        (&["--block", "96"], "multiple of 32 in [128, 1024]"),
        (&["--n", "0"], "at least 1"),
        (&["--mode", "nope"], "possible values"),
        (&["--clusize", "0"], "[1, 8]"),
        (&["--tile", "256", "--block", "128"], "larger than --block"),
        (&["--runs", "0"], "at least 1"),
        (&["compare", "--min-sample-ms", "500"], "between 0 and 100"),
        (
            &["compare", "--only", "block"],
            "no experiment named `block`",
        ),
        (&["sync", "--blocks", "96"], "power of two in [128, 1024]"),
        (&["sync", "--only", "warp"], "no group named `warp`"),
        (&["sync", "--iters", "0"], "at least 1"),
        (&["--n", "10000000000"], "at most 4294967295"),
        (&["--n", "-5"], "at least 1 (got -5)"),
        (&["--warmup", "-1"], "0 or more"),
        (&["--csv-only", "--format", "json"], "cannot be used with"),
        (
            &["--backend", "sim", "--n", "4294967295"],
            "the largest --n that fits is",
        ),
        (
            &[
                "--backend",
                "sim",
                "--n",
                "1024",
                "--out",
                "/dev/null/results",
            ],
            "cannot write results to /dev/null/results",
        ),
        (
            &["verify", "--backend", "sim"],
            "--reference docs/results/h100/current/verify/differential.json",
        ),
        (&["--timeout", "0"], "number of seconds"),
        (&["--min-sample-ms", "-1"], "between 0 and 100 (got -1)"),
        (&["compare", "--sizes", "9"], "9 is not in 10..=28"),
        (&["compare", "--sizes", "20,29"], "29 is not in 10..=28"),
        // Flags of experiments --only does not name would be ignored.
        (
            &["compare", "--backend", "sim", "--sizes", "24"],
            "--sizes applies to device_wide, device_histogram, device_select, device_radix_sort only",
        ),
        (
            &[
                "compare",
                "--backend",
                "sim",
                "--only",
                "device_wide",
                "--keys",
                "u32",
            ],
            "--keys applies to device_radix_sort only: name it in --only",
        ),
        (
            &["compare", "--backend", "sim", "--prims", "warp_scan"],
            "--prims applies to primitives only",
        ),
        (
            &[
                "compare",
                "--backend",
                "sim",
                "--only",
                "primitives",
                "--prims",
                "warp_scan,nope",
            ],
            "no primitive kernel named nope (the names: copy_direct,",
        ),
    ];
    for (args, expect) in cases {
        let start = std::time::Instant::now();
        let (code, stdout, stderr) = cg_lab(args);
        // Refused before anything runs (a too-large --n used to be killed
        // by the OOM killer after 28 s).
        assert!(
            start.elapsed() < std::time::Duration::from_secs(2),
            "{args:?} took {:?}",
            start.elapsed()
        );
        assert_ne!(code, 0, "{args:?} should fail");
        assert!(stdout.is_empty(), "{args:?} printed to stdout: {stdout}");
        assert_eq!(
            stderr.trim_end().lines().count(),
            1,
            "{args:?}: not one line:\n{stderr}"
        );
        assert!(stderr.contains(expect), "{args:?}: {stderr}");
    }
}

#[test]
fn whole_lab_passes_on_the_simulator() {
    let dir = scratch("sim");
    let dir_s = dir.to_string_lossy().into_owned();
    let (code, stdout, stderr) = cg_lab(&[
        "--backend",
        "sim",
        "--mode",
        "all",
        "--n",
        "65536",
        "--out",
        &dir_s,
    ]);
    assert_eq!(code, 0, "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(
        stdout.contains("simulator backend: correctness only"),
        "{stdout}"
    );
    let verified = stdout.lines().filter(|l| l.contains("verify OK")).count();
    // sweep: tiles 8..128 (5), modes: intrinsic, tile32, cg_reduce, coalesced, cluster (5)
    assert_eq!(verified, 10, "{stdout}");
    assert!(!stdout.contains("FAILED"), "{stdout}");
    for f in [
        "C-02_sweep.csv",
        "C-02_modes.csv",
        "C-02_cooperative_groups.md",
        "C-02.json",
    ] {
        assert!(dir.join(f).is_file(), "{f} not written");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("C-02.json")).unwrap()).unwrap();
    assert_eq!(json["sweep"].as_array().unwrap().len(), 5);
}

#[test]
fn info_runs_the_smoke_kernel_on_the_simulator() {
    let (code, stdout, stderr) = cg_lab(&["info", "--backend", "sim"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("smoke") && stdout.contains("OK"),
        "{stdout}"
    );
}

#[test]
fn info_bounds_shows_a_typed_kernels_check_firing() {
    let (code, stdout, stderr) = cg_lab(&["info", "--backend", "sim", "--bounds"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("saxpy over 4096 elements verified")
            && stdout.contains("the launch failed as it must")
            && stdout.contains("index 4096 of `x`, whose length is 4095"),
        "{stdout}"
    );
}

#[test]
fn verify_without_gpu_or_reference_says_why() {
    let (code, _, stderr) = cg_lab(&["verify", "--backend", "sim"]);
    assert_ne!(code, 0);
    assert!(stderr.contains("there is no GPU here"), "{stderr}");
}

#[test]
fn verify_against_the_committed_gpu_outputs() {
    let reference = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/results/h100/current/verify/differential.json"
    );
    let (code, stdout, stderr) = cg_lab(&["verify", "--reference", reference]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let n = cg_kernels::diff::cases::DIFF_CASES.len();
    assert!(
        stdout.contains(&format!("{n} of {n} kernels identical")),
        "{stdout}"
    );
    // NVIDIA's C++ words (semantics.json, next to it) against the simulator.
    for c in cg_kernels::semantics::cases::SEM_CASES {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with(&format!("C++ {:<20}", c.name)) && l.ends_with("identical")),
            "{}: {stdout}",
            c.name
        );
    }
}

/// `cg-lab` with extra environment variables.
fn cg_lab_env(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cg-lab"))
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("running cg-lab");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh output folder for one test, removed when the test passes (a
/// failed test leaves it for a look).
fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("cg-lab-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    Scratch(dir)
}

/// See [`scratch`].
struct Scratch(std::path::PathBuf);

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Temporary files (`NAME.tmp-PID`) left in `dir`: there must be none.
fn temporaries(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp-"))
        .collect()
}

fn read_json(path: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// The fourth measurement fails: the three before it were printed as they
/// were measured, are saved in `C-02.partial.json` (`"complete": false`),
/// and the error names that file. A later complete run removes it.
#[test]
fn a_failure_after_measuring_saves_what_was_measured() {
    let dir = scratch("partial");
    let dir_s = dir.to_string_lossy().into_owned();
    let args = [
        "--backend",
        "sim",
        "--mode",
        "all",
        "--n",
        "4096",
        "--out",
        &dir_s,
    ];
    let (code, stdout, stderr) = cg_lab_env(&args, &[("CG_LAB_FAIL_AFTER", "3")]);
    assert_ne!(code, 0, "{stdout}\n{stderr}");
    let partial = dir.join("C-02.partial.json");
    assert!(
        stderr.contains(&partial.display().to_string()) && stderr.contains("injected failure"),
        "{stderr}"
    );
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert_eq!(
        stdout.lines().filter(|l| l.contains("verify OK")).count(),
        3,
        "{stdout}"
    );
    let json = read_json(&partial);
    assert_eq!(json["complete"], false);
    let tiles: Vec<u64> = json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["tile"].as_u64().unwrap())
        .collect();
    assert_eq!(tiles, [8, 16, 32]);
    assert!(json["rows"][0]["verified"].as_bool().unwrap());
    assert!(!dir.join("C-02.json").exists());
    assert!(temporaries(&dir).is_empty(), "{:?}", temporaries(&dir));

    let (code, stdout, stderr) = cg_lab(&args);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(dir.join("C-02.json").is_file());
    assert!(
        !partial.exists(),
        "a stale partial file survived a complete run"
    );
}

/// A report file that cannot be written (a folder stands in its way) stops
/// the run after every row was measured: all of them are saved.
#[test]
fn a_failed_write_saves_every_row() {
    let dir = scratch("blocked");
    std::fs::create_dir_all(dir.join("C-02_cooperative_groups.md").join("blocker")).unwrap();
    let dir_s = dir.to_string_lossy().into_owned();
    let (code, stdout, stderr) = cg_lab(&[
        "--backend",
        "sim",
        "--mode",
        "modes",
        "--n",
        "4096",
        "--out",
        &dir_s,
    ]);
    assert_ne!(code, 0, "{stdout}\n{stderr}");
    assert!(stderr.contains("C-02_cooperative_groups.md"), "{stderr}");
    assert!(stderr.contains("C-02.partial.json"), "{stderr}");
    let json = read_json(&dir.join("C-02.partial.json"));
    assert_eq!(json["complete"], false);
    assert_eq!(json["rows"].as_array().unwrap().len(), 5, "{json}");
    assert!(temporaries(&dir).is_empty(), "{:?}", temporaries(&dir));
}

/// `verify --reference … --out DIR`: a failure after two comparisons saves
/// them; and a GPU output that differs from the simulator's is written
/// into `differential.json` (not only printed) and fails the run.
#[test]
fn a_changed_word_of_nvidias_outputs_fails_the_semantic_check() {
    // The GPU verify run that committed NVIDIA's C++ words (semantics.json)
    // next to the differential's.
    let run = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/results/h100/current/verify"
    );
    let dir = scratch("semantics-tampered");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        format!("{run}/differential.json"),
        dir.join("differential.json"),
    )
    .unwrap();
    let mut sem = read_json(&std::path::Path::new(run).join("semantics.json"));
    let case = sem["cases"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|c| c["name"] == "tile8_shfl")
        .unwrap();
    let word = case["cpp"][40].as_u64().unwrap();
    case["cpp"][40] = serde_json::json!(word ^ 4);
    std::fs::write(dir.join("semantics.json"), sem.to_string()).unwrap();
    let reference = dir.join("differential.json").to_string_lossy().into_owned();
    let (code, stdout, stderr) = cg_lab(&["verify", "--reference", &reference]);
    assert_ne!(code, 0, "{stdout}\n{stderr}");
    assert!(
        stderr.contains("semantics tile8_shfl") && stderr.contains("thread 0 word 40"),
        "{stderr}"
    );
}

#[test]
fn verify_saves_partial_results_and_records_differences() {
    let reference = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/results/h100/current/verify/differential.json"
    );
    let dir = scratch("verify-partial");
    let dir_s = dir.to_string_lossy().into_owned();
    let args = ["verify", "--reference", reference, "--out", &dir_s];
    let (code, stdout, stderr) = cg_lab_env(&args, &[("CG_LAB_FAIL_AFTER", "2")]);
    assert_ne!(code, 0, "{stdout}\n{stderr}");
    let partial = dir.join("differential.partial.json");
    assert!(stderr.contains(&partial.display().to_string()), "{stderr}");
    // (The semantic cases against NVIDIA's C++ print their own lines, `C++ …`.)
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.ends_with("identical") && !l.starts_with("C++ "))
            .count(),
        2,
        "{stdout}"
    );
    let json = read_json(&partial);
    assert_eq!(json["complete"], false);
    let cases = json["rows"]["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 2);
    let first = cg_kernels::diff::cases::DIFF_CASES[0].name;
    assert_eq!(cases[0]["name"], first);

    // One word of the first case's GPU output changed.
    let mut tampered = read_json(std::path::Path::new(reference));
    let case = tampered["cases"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|c| c["name"] == first)
        .unwrap();
    let word = case["gpu"][5].as_u64().unwrap();
    case["gpu"][5] = serde_json::json!(word ^ 1);
    let tampered_path = dir.join("tampered.json");
    std::fs::write(&tampered_path, tampered.to_string()).unwrap();
    let t = tampered_path.to_string_lossy().into_owned();
    let (code, stdout, stderr) = cg_lab(&["verify", "--reference", &t, "--out", &dir_s]);
    assert_ne!(code, 0, "{stdout}\n{stderr}");
    assert!(
        stderr.contains(first) && stderr.contains("thread 1 word 1"),
        "{stderr}"
    );
    let written = read_json(&dir.join("differential.json"));
    let cases = written["cases"].as_array().unwrap();
    assert_eq!(cases[0]["identical"], false);
    assert!(cases[1..].iter().all(|c| c["identical"] == true));
    assert!(!partial.exists());
}

#[test]
fn sync_verifies_every_group_on_the_simulator() {
    let dir = scratch("sync");
    let (code, out, err) = cg_lab(&[
        "sync",
        "--backend",
        "sim",
        "--blocks",
        "128,1024",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert!(out.contains("timings need a GPU"), "{out}");
    for group in ["tile", "block", "split", "mbarrier", "cluster", "grid"] {
        assert!(
            out.lines()
                .any(|l| l.starts_with(&format!("verified {group}")) && l.ends_with("rust OK")),
            "{group} not verified:\n{out}"
        );
    }
    assert!(!out.contains("FAILED"), "{out}");
    let json = read_json(&dir.join("sync.json"));
    // 8 tiles in 128-thread blocks, 5 in 1024; block, split and 4
    // mbarrier rows in each; 3 clusters; 1 grid.
    assert_eq!(json["rows"].as_array().map(|r| r.len()), Some(29), "{json}");
    assert!(dir.join("sync.csv").exists() && dir.join("sync.md").exists());
}

#[test]
fn primitives_verify_every_kernel_on_the_simulator() {
    let (code, out, err) = cg_lab(&["compare", "--only", "primitives", "--backend", "sim"]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert!(out.contains("nothing was timed"), "{out}");
    // 30 kernels at 3 block sizes.
    let ok = ok_lines(&out, "verified primitives prim_").len();
    assert_eq!(ok, 90, "{out}");
    assert!(!out.contains("FAILED"), "{out}");
}

/// The lines of `out` that start with `prefix` and report a check passed.
fn ok_lines<'a>(out: &'a str, prefix: &str) -> Vec<&'a str> {
    out.lines()
        .filter(|l| l.starts_with(prefix) && l.contains(": OK"))
        .collect()
}

#[test]
fn primitives_run_the_kernels_asked_for() {
    let args = ["compare", "--only", "primitives", "--backend", "sim"];
    let (code, out, err) = cg_lab(&[&args[..], &["--prims", "warp_scan,adjacent_left"]].concat());
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    let verified = ok_lines(&out, "verified primitives prim_");
    // Two kernels at three block sizes, in the table's order.
    assert_eq!(verified.len(), 6, "{out}");
    assert!(verified[0].contains("prim_adjacent_left_128"), "{out}");
    assert!(verified[5].contains("prim_warp_scan_512"), "{out}");
}

#[test]
fn memory_verifies_on_the_simulator() {
    let (code, out, err) = cg_lab(&["compare", "--only", "memory", "--backend", "sim"]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert!(out.contains("nothing was timed"), "{out}");
    // Six kernels: partial last trips, row tails, misaligned rows, edge
    // tiles (the simulator's shapes).
    assert_eq!(ok_lines(&out, "verified memory ").len(), 6, "{out}");
    assert!(!out.contains("FAILED"), "{out}");
}

#[test]
fn math_verifies_on_the_simulator() {
    let (code, out, err) = cg_lab(&["compare", "--only", "math", "--backend", "sim"]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert!(out.contains("nothing was timed"), "{out}");
    // 38 `f32` functions in both modes, 5 `f64` ones.
    assert_eq!(
        ok_lines(&out, "verified math math_time_").len(),
        81,
        "{out}"
    );
    assert!(!out.contains("FAILED"), "{out}");
}

#[test]
fn device_histogram_verifies_on_the_simulator() {
    let (code, out, err) = cg_lab(&["compare", "--only", "device_histogram", "--backend", "sim"]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert!(out.contains("nothing was timed"), "{out}");
    // Two sizes, each with a partial last tile.
    let ok = ok_lines(&out, "verified device_histogram device_histogram_even").len();
    assert_eq!(ok, 2, "{out}");
    assert!(!out.contains("FAILED"), "{out}");
}

#[test]
fn device_select_verifies_on_the_simulator() {
    let (code, out, err) = cg_lab(&["compare", "--only", "device_select", "--backend", "sim"]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert!(out.contains("nothing was timed"), "{out}");
    // Flagged, If, Unique, the run-length encoding and the two partitions
    // at two sizes, each with a partial last tile.
    let ok = ok_lines(&out, "verified device_select device_").len();
    assert_eq!(ok, 12, "{out}");
    assert!(!out.contains("FAILED"), "{out}");
}

#[test]
fn device_radix_sort_verifies_on_the_simulator() {
    let (code, out, err) = cg_lab(&["compare", "--only", "device_radix_sort", "--backend", "sim"]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert!(out.contains("nothing was timed"), "{out}");
    // Two sizes, each with a partial last tile.
    let ok = ok_lines(&out, "verified device_radix_sort radix_onesweep").len();
    // Keys and pairs of u32, i32, f32 and u64.
    assert_eq!(ok, 16, "{out}");
    assert!(out.contains("radix_onesweep_pairs_u64"), "{out}");
    assert!(!out.contains("FAILED"), "{out}");
}

#[test]
fn device_radix_sort_sorts_the_key_types_asked_for() {
    let args = ["compare", "--only", "device_radix_sort", "--backend", "sim"];
    let (code, out, err) = cg_lab(&[&args[..], &["--keys", "u64,f32"]].concat());
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    let lines = ok_lines(&out, "verified device_radix_sort");
    // Keys and pairs of two types at two sizes.
    assert_eq!(lines.len(), 8, "{out}");
    assert!(
        lines
            .iter()
            .all(|l| l.contains("_u64") || l.contains("_f32")),
        "{out}"
    );
    let (code, _, err) = cg_lab(&[&args[..], &["--keys", "u16"]].concat());
    assert_ne!(code, 0);
    assert!(err.contains("u16"), "{err}");
}

#[test]
fn device_experiments_accept_sizes_and_the_simulator_keeps_its_own() {
    let args = ["compare", "--only", "device_histogram", "--backend", "sim"];
    let (code, out, err) = cg_lab(&[&args[..], &["--sizes", "28,10,28"]].concat());
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert!(out.contains(": OK"), "{out}");
    assert!(!out.contains("FAILED"), "{out}");
    // The simulator verifies at its own small sizes, as without --sizes.
    let (code, plain, _) = cg_lab(&args);
    assert_eq!(code, 0);
    assert_eq!(out, plain);
}
