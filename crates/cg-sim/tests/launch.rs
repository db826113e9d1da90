//! Launch validation, determinism, statistics.

mod common;

use std::cell::RefCell;
use std::sync::atomic::{AtomicU32, Ordering};

use cg_sim::lane::{self, ShflMode};
use cg_sim::{LaunchConfig, SimDevice, SimError, launch, launch_on};
use common::{gtid, run, tid};

fn invalid(cfg: &LaunchConfig) -> String {
    match launch(cfg, &|| {}) {
        Err(SimError::InvalidLaunch(m)) => m,
        other => panic!("expected an invalid launch, got {other:?}"),
    }
}

#[test]
fn launch_shapes_are_validated() {
    assert!(invalid(&LaunchConfig::new(0, 32)).contains("grid dimensions (0,1,1) contain a zero"));
    assert!(invalid(&LaunchConfig::new(1, (32, 0, 1))).contains("block dimensions"));
    assert!(invalid(&LaunchConfig::new(1, 2048)).contains("per-dimension limits"));
    assert!(
        invalid(&LaunchConfig::new(1, (64, 32, 1)))
            .contains("2048 threads, more than the device's 1024")
    );
    assert!(
        invalid(&LaunchConfig::new(6, 32).with_cluster(4))
            .contains("not a multiple of the cluster")
    );
    assert!(
        invalid(&LaunchConfig::new(16, 32).with_cluster(16))
            .contains("more than the device's maximum of 8")
    );
    // Legal per dimension, but more blocks than 32-bit block ranks number.
    let m = invalid(&LaunchConfig::new((i32::MAX as u32, 4, 1), 1));
    assert!(
        m.contains("8589934588 blocks; block ranks are 32-bit"),
        "{m}"
    );
    let m = invalid(&LaunchConfig::new(1, 32).with_dynamic_smem(64 * 1024));
    assert!(m.contains("65536 bytes of dynamic shared memory"), "{m}");
    // A device with the opt-in limit accepts it.
    let big = SimDevice {
        max_smem_per_block: 227 * 1024,
        ..SimDevice::default()
    };
    launch_on(
        &big,
        &LaunchConfig::new(1, 32).with_dynamic_smem(64 * 1024),
        &|| {},
    )
    .unwrap();
}

#[test]
fn static_shared_over_the_limit_is_a_misuse() {
    let e = launch(
        &LaunchConfig::new(1, 32).with_dynamic_smem(40 * 1024),
        &|| {
            lane::static_shared("big", 16 * 1024, 16);
        },
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("more than the device's 49152 bytes per block"),
        "{e}"
    );
}

#[test]
fn nested_launch_is_refused() {
    let inner = RefCell::new(None);
    run(&LaunchConfig::new(1, 1), &|| {
        *inner.borrow_mut() = Some(launch(&LaunchConfig::new(1, 1), &|| {}));
    });
    let r = inner.into_inner().unwrap();
    assert!(matches!(r, Err(SimError::InvalidLaunch(m)) if m.contains("nested")));
}

#[test]
#[should_panic(expected = "only be called by a kernel")]
fn primitives_outside_a_kernel_panic() {
    lane::lane_id();
}

/// A kernel whose output depends on the interleaving: every lane takes a
/// ticket from a shared counter at several points between collectives.
fn interleaving_log() -> (Vec<u32>, Vec<(usize, u32)>) {
    let counter = AtomicU32::new(0);
    let tickets: Vec<AtomicU32> = (0..3 * 256).map(|_| AtomicU32::new(0)).collect();
    let order = RefCell::new(Vec::new());
    let cfg = LaunchConfig::new(3, 256);
    run(&cfg, &|| {
        let g = gtid();
        let mut v = g as u32;
        for step in 0..4u32 {
            let t = counter.fetch_add(1, Ordering::Relaxed);
            order.borrow_mut().push((g, t));
            v = v.wrapping_mul(31).wrapping_add(t);
            if (tid() + step).is_multiple_of(3) {
                v ^= lane::shfl(ShflMode::Bfly, lane::activemask(), v, 1, 0x1f);
            } else {
                v = v.wrapping_add(lane::ballot(lane::activemask(), v.is_multiple_of(2)));
            }
            if step == 2 {
                lane::sync_threads();
            }
        }
        tickets[g].store(v, Ordering::Relaxed);
    });
    (
        tickets.iter().map(|t| t.load(Ordering::Relaxed)).collect(),
        order.into_inner(),
    )
}

#[test]
fn same_input_same_interleaving_same_output() {
    let a = interleaving_log();
    let b = interleaving_log();
    assert_eq!(a, b);
    // The interleaving is not trivial: lanes do not simply run one after another.
    let firsts: Vec<usize> = a.1.iter().take(64).map(|&(g, _)| g).collect();
    assert!(firsts.windows(2).any(|w| w[1] < w[0]) || a.1[1].0 != 0);
}

#[test]
fn stats_count_lanes_and_collectives() {
    let stats = run(&LaunchConfig::new(4, 64), &|| {
        for _ in 0..10 {
            lane::shfl(ShflMode::Down, u32::MAX, 1, 1, 0x1f);
        }
        lane::sync_threads();
    });
    assert_eq!(stats.blocks, 4);
    assert_eq!(stats.lanes, 256);
    assert_eq!(stats.collectives, 4 * 2 * 10 + 4);
    assert_eq!(stats.lane_collectives, 256 * 11);
    assert!(stats.context_switches >= 256);
}

#[test]
fn many_lanes_reuse_stacks() {
    // 64k lanes in blocks of 1024: stacks are pooled across blocks.
    let stats = run(&LaunchConfig::new(64, 1024), &|| {
        lane::ballot(u32::MAX, true);
    });
    assert_eq!(stats.lanes, 65536);
}
