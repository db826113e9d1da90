//! Collectives back to back on the same group, with no `sync` between
//! them, on the simulator (whose lanes are not in lockstep): every result
//! must be what the collective returns alone.
//!
//! A `reduce` over more than 4 warps once ended with each lane loading its
//! warp's exchange slot after the last barrier, while the next collective's
//! first lane stored into that slot before its first barrier: lanes 1–29 of
//! the first warp got the next collective's value. These tests would have
//! caught it, and keep it from coming back.

use cg_kernels::collectives::model::{
    Inputs, Launch, TestValue, check_composed, run_composed_on_sim,
};
use cg_kernels::collectives::{
    COMPOSE_F32, COMPOSE_KINDS, COMPOSE_U32, COMPOSE_U64, ComposeArgs, Kind, Params, Seq, Step,
};
use cg_kernels::xorshift::Xorshift;
use cooperative_groups::intrinsics::thread_idx;
use cooperative_groups::prelude::*;
use cooperative_groups::{Kernel, kernel};
use proptest::prelude::*;

/// The pattern: a block-wide sum every thread uses, then a
/// broadcast; each thread writes both.
#[kernel]
pub fn reduce_then_broadcast(out: *mut u64) {
    let block = this_thread_block();
    let r = block.thread_rank();
    let sum = reduce(&block, r as u64, Plus);
    let b = invoke_one_broadcast(&block, || r + 1000);
    let i = (block.group_index().x * block.num_threads() + r) as usize;
    // SAFETY: the test allocates two words per thread.
    unsafe {
        *out.add(2 * i) = sum;
        *out.add(2 * i + 1) = b as u64;
    }
}

/// The same on a 256-thread tile, with `Greater`.
#[kernel]
pub fn tile256_max_then_broadcast(out: *mut u64) {
    let block = this_thread_block();
    let tile = tiled_partition::<256>(&block);
    let r = tile.thread_rank();
    let max = reduce(&tile, thread_idx().x, Greater);
    let b = invoke_one_broadcast(&tile, || r + 1000);
    let i = (block.group_index().x * block.num_threads() + block.thread_rank()) as usize;
    // SAFETY: the test allocates two words per thread.
    unsafe {
        *out.add(2 * i) = max as u64;
        *out.add(2 * i + 1) = b as u64;
    }
}

fn two_words(kernel: &Kernel<(*mut u64,)>, blocks: u32, block: cg_sim::Dim3) -> Vec<u64> {
    let threads = (blocks * block.x * block.y * block.z) as usize;
    let mut out = vec![0u64; 2 * threads];
    let p = out.as_mut_ptr();
    // SAFETY: the kernels write two words per thread of `out`.
    let body = unsafe { kernel.host_fn_unchecked() };
    cg_sim::launch(
        &cg_sim::LaunchConfig::new(cg_sim::Dim3::x(blocks), block),
        &|| body((p,)),
    )
    .unwrap();
    out
}

#[test]
fn block_reduce_then_broadcast() {
    let shapes = [64u32, 128, 160, 192, 256, 320, 1024].map(cg_sim::Dim3::x);
    for block in shapes.into_iter().chain([cg_sim::Dim3::new(8, 8, 3)]) {
        let n = block.x * block.y * block.z;
        let out = two_words(&REDUCE_THEN_BROADCAST, 2, block);
        let sum: u64 = (0..n as u64).sum();
        for t in 0..2 * n as usize {
            assert_eq!(out[2 * t], sum, "block {block:?}, thread {t}: reduce");
            assert_eq!(
                out[2 * t + 1],
                1000,
                "block {block:?}, thread {t}: broadcast"
            );
        }
    }
}

#[test]
fn tile_max_then_broadcast() {
    for block in [256u32, 512, 768, 1024] {
        let out = two_words(&TILE256_MAX_THEN_BROADCAST, 2, cg_sim::Dim3::x(block));
        for t in 0..2 * block {
            let i = t % block;
            let last = (i / 256 * 256 + 255).min(block - 1);
            assert_eq!(
                out[2 * t as usize],
                last as u64,
                "block {block}, thread {t}: max"
            );
            assert_eq!(
                out[2 * t as usize + 1],
                1000,
                "block {block}, thread {t}: broadcast"
            );
        }
    }
}

/// Values with few distinct entries and a spread, deterministic.
fn inputs<T: TestValue>(n: usize, seed: u64, density: u32) -> Inputs<T> {
    let mut x = Xorshift::new(seed | 1);
    let mut next = move || x.next();
    let values = (0..n)
        .map(|_| T::from_raw(next() as i32 as i64 % 1000))
        .collect();
    let preds = (0..n)
        .map(|_| (next() % 100 < density as u64) as u32)
        .collect();
    Inputs {
        values,
        preds,
        labels: vec![0; n],
    }
}

fn params(kind: Kind, size: u32, op: u32, src: u32) -> Params {
    Params {
        kind: kind as u32,
        size,
        op,
        src,
        delta: 0,
        xor: 0,
        pad: [0; 2],
    }
}

fn run<T: TestValue>(
    kernel: &Kernel<ComposeArgs<T>>,
    launch: Launch,
    p: &Params,
    seq: &Seq,
    inputs: &Inputs<T>,
) -> Result<(), String> {
    let out = run_composed_on_sim(kernel, launch, p, seq, inputs)
        .map_err(|e| format!("simulator: {e}"))?;
    check_composed(launch, p, seq, inputs, &out).map_err(|e| format!("{e}\n  {launch:?}, {p:?}"))
}

/// Every ordered pair of collectives, run as `[a, b, a, b]`, on every
/// multi-warp tile size and the block (whole and partial last warps, 2
/// blocks), and on warp-sized groups.
#[test]
fn every_ordered_pair_on_every_shape() {
    let shapes: Vec<(Kind, u32, u32)> = vec![
        (Kind::Block, 0, 64),
        (Kind::Block, 0, 128),
        (Kind::Block, 0, 192),
        (Kind::Block, 0, 200),
        (Kind::Block, 0, 256),
        (Kind::Block, 0, 544),
        (Kind::Block, 0, 1000),
        (Kind::Block, 0, 1024),
        (Kind::Tile, 64, 128),
        (Kind::Tile, 64, 1000),
        (Kind::Tile, 128, 320),
        (Kind::Tile, 256, 768),
        (Kind::Tile, 512, 1024),
        (Kind::Tile, 512, 1000),
        (Kind::Tile, 1024, 1024),
        (Kind::Tile, 32, 100),
        (Kind::Tile, 8, 60),
        (Kind::Dynamic, 16, 96),
        (Kind::Coalesced, 0, 96),
    ];
    let mut failures = vec![];
    for (k, &(kind, size, block)) in shapes.iter().enumerate() {
        let launch = Launch { blocks: 2, block };
        let ins = inputs::<u32>(launch.threads(), 7 + k as u64, 60);
        for a in Step::COLLECTIVES {
            for b in Step::COLLECTIVES {
                let seq = [a as u32, b as u32, a as u32, b as u32];
                let p = params(kind, size, 0, 3);
                if let Err(e) = run(&COMPOSE_U32, launch, &p, &seq, &ins) {
                    failures.push(e);
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures, the first:\n{}",
        failures.len(),
        failures.first().unwrap()
    );
}

/// A launch of a random sequence on a random shape.
#[derive(Clone, Debug)]
struct Case {
    launch: Launch,
    params: Params,
    seq: Seq,
    seed: u64,
    density: u32,
}

fn case() -> impl Strategy<Value = Case> {
    (
        prop_oneof![(1u32..=32).prop_map(|w| w * 32), 1u32..=1024],
        1u32..=2,
        0usize..COMPOSE_KINDS.len(),
        0u32..11,
        0u32..3,
        0u32..64,
        prop::array::uniform4(0u32..8),
        any::<u64>(),
        prop_oneof![Just(100u32), 1u32..100],
    )
        .prop_filter_map(
            "kind needs a bigger block",
            |(block, blocks, kind, k, op, src, seq, seed, density)| {
                let kind = COMPOSE_KINDS[kind];
                let size = cg_kernels::collectives::model::size_for(kind, block, k)?;
                let p = params(kind, size, op, src);
                // Other operators only where the kernels instantiate them.
                let p = Params {
                    op: if cg_kernels::collectives::model::all_ops(&p) {
                        op
                    } else {
                        0
                    },
                    ..p
                };
                Some(Case {
                    launch: Launch { blocks, block },
                    params: p,
                    seq,
                    seed,
                    density,
                })
            },
        )
}

fn run_case<T: TestValue>(kernel: &Kernel<ComposeArgs<T>>, c: &Case) -> Result<(), TestCaseError> {
    let ins = inputs::<T>(c.launch.threads(), c.seed, c.density);
    run(kernel, c.launch, &c.params, &c.seq, &ins).map_err(TestCaseError::fail)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_sequences_u32(c in case()) {
        run_case(&COMPOSE_U32, &c)?;
    }

    #[test]
    fn random_sequences_u64(c in case()) {
        run_case(&COMPOSE_U64, &c)?;
    }

    #[test]
    fn random_sequences_f32(c in case()) {
        run_case(&COMPOSE_F32, &c)?;
    }
}
