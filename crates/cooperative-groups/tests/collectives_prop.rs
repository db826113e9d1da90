//! Property tests: every collective × operator × element type × group shape,
//! run on the simulator, equals the sequential model of
//! `cg_kernels::collectives::model`.
//!
//! Shapes: static tiles 1..1024 (from the block and from larger tiles),
//! dynamic tiles, coalesced groups from random predicates, labeled and
//! binary partitions from random labels, and the whole block; block sizes
//! include partial last warps. Float inputs sit on a coarse grid, so every
//! summation order gives the same bits and the model can be sequential.

mod common;

use cg_kernels::collectives::model::{Inputs, Launch, TestValue, size_for};
use cg_kernels::collectives::{
    COLLECTIVES_F32, COLLECTIVES_F64, COLLECTIVES_I32, COLLECTIVES_I64, COLLECTIVES_U32,
    COLLECTIVES_U64, Kind, Params,
};
use common::Args;
use cooperative_groups::Kernel;
use proptest::prelude::*;

/// One launch: shape, parameters and raw inputs (converted per type).
#[derive(Clone, Debug)]
struct Case {
    launch: Launch,
    params: Params,
    values: Vec<i64>,
    preds: Vec<u32>,
    labels: Vec<u32>,
}

/// Block sizes: whole warps half of the time, anything from 1 to 1024 else.
fn block_size() -> impl Strategy<Value = u32> {
    prop_oneof![(1u32..=32).prop_map(|w| w * 32), 1u32..=1024, 1u32..=40]
}

fn case(ops: u32) -> impl Strategy<Value = Case> {
    (
        block_size(),
        1u32..=2,
        0usize..Kind::ALL.len(),
        0u32..11,
        0..ops,
        0u32..64,
        0u32..40,
        0u32..40,
    )
        .prop_filter_map(
            "kind needs a bigger block",
            |(block, blocks, kind, k, op, src, delta, xor)| {
                let kind = Kind::ALL[kind];
                let size = size_for(kind, block, k)?;
                Some((
                    Launch { blocks, block },
                    common::params(kind, size, op, [src, delta, xor]),
                ))
            },
        )
        .prop_flat_map(|(launch, params)| {
            let n = launch.threads();
            // Few distinct values (so `match_any` finds groups) or a wide range.
            let values = prop_oneof![
                prop::collection::vec(0i64..4, n),
                prop::collection::vec(-100i64..100, n),
                prop::collection::vec(any::<i32>().prop_map(i64::from), n),
            ];
            // Sparse, dense, none or all predicates.
            let density = prop_oneof![Just(0u32), Just(100), 1u32..100];
            let preds = (density, prop::collection::vec(0u32..100, n))
                .prop_map(|(d, r)| r.into_iter().map(|x| (x < d) as u32).collect::<Vec<_>>());
            let labels = prop::collection::vec(0u32..4, n);
            (Just(launch), Just(params), values, preds, labels)
        })
        .prop_map(|(launch, params, values, preds, labels)| Case {
            launch,
            params,
            values,
            preds,
            labels,
        })
}

fn run<T: TestValue>(kernel: Kernel<Args<T>>, c: &Case) -> Result<(), TestCaseError> {
    let inputs = Inputs {
        values: c.values.iter().map(|&v| T::from_raw(v)).collect(),
        preds: c.preds.clone(),
        labels: c.labels.clone(),
    };
    common::run(kernel, c.launch, c.params, &inputs).map_err(TestCaseError::fail)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn collectives_u32(c in case(u32::OPS)) {
        run(COLLECTIVES_U32, &c)?;
    }

    #[test]
    fn collectives_i32(c in case(i32::OPS)) {
        run(COLLECTIVES_I32, &c)?;
    }

    #[test]
    fn collectives_u64(c in case(u64::OPS)) {
        run(COLLECTIVES_U64, &c)?;
    }

    #[test]
    fn collectives_i64(c in case(i64::OPS)) {
        run(COLLECTIVES_I64, &c)?;
    }

    #[test]
    fn collectives_f32(c in case(f32::OPS)) {
        run(COLLECTIVES_F32, &c)?;
    }

    #[test]
    fn collectives_f64(c in case(f64::OPS)) {
        run(COLLECTIVES_F64, &c)?;
    }
}
