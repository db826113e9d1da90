//! A lane that overflows its stack ends the process with a message naming
//! the cause and the fix, instead of a bare `SIGSEGV`. The overflow runs in
//! a child process (this test binary again), since it cannot be survived.

use std::process::Command;

/// Recursion with a 4 KiB frame that the optimiser cannot remove.
fn deep(n: u64) -> u64 {
    let frame = std::hint::black_box([n; 512]);
    if n == 0 {
        0
    } else {
        deep(n - 1).wrapping_add(frame[7])
    }
}

#[test]
fn a_lane_stack_overflow_is_reported() {
    if std::env::var_os("CG_SIM_OVERFLOW_CHILD").is_some() {
        let cfg = cg_sim::LaunchConfig::new(1, 32);
        let _ = cg_sim::launch(&cfg, &|| {
            std::hint::black_box(deep(std::hint::black_box(1 << 20)));
        });
        unreachable!("the lane should have overflowed its stack");
    }
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "a_lane_stack_overflow_is_reported",
            "--exact",
            "--nocapture",
        ])
        .env("CG_SIM_OVERFLOW_CHILD", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the child survived: {stderr}");
    assert!(stderr.contains("overflowed its lane stack"), "{stderr}");
}
