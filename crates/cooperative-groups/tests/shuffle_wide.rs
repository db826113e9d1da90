//! The shuffle family on values wider or narrower than a register (32-byte
//! and 3-byte arrays, `u128`), on every static tile size, dynamic tiles and
//! coalesced groups, against `model::expected_shuffles`.

use cg_kernels::collectives::model::{Launch, expected_shuffles};
use cg_kernels::collectives::{Kind, Params, SHFL_WIDE_3B, SHFL_WIDE_32B, SHFL_WIDE_U128};
use cooperative_groups::Kernel;
use proptest::prelude::*;

type Args<V> = (*const Params, *const V, *const u32, *mut [V; 4]);

fn run<V: Copy + PartialEq + std::fmt::Debug>(
    kernel: Kernel<Args<V>>,
    launch: Launch,
    p: Params,
    values: &[V],
    preds: &[u32],
    fill: V,
) -> Result<(), TestCaseError> {
    let mut out = vec![[fill; 4]; launch.threads()];
    let args: Args<V> = (&p, values.as_ptr(), preds.as_ptr(), out.as_mut_ptr());
    cg_sim::launch(
        &cg_sim::LaunchConfig::new(launch.blocks, launch.block),
        // SAFETY: one value and predicate per thread in, four values out.
        &|| (unsafe { kernel.host_fn_unchecked() })(args),
    )
    .map_err(|e| TestCaseError::fail(format!("simulator: {e}")))?;
    let want = expected_shuffles(launch, &p, values, preds, fill);
    for (t, (got, want)) in out.iter().zip(&want).enumerate() {
        prop_assert_eq!(got, want, "thread {} of {:?}, {:?}", t, launch, p);
    }
    Ok(())
}

fn case() -> impl Strategy<Value = (Launch, Params, Vec<u32>)> {
    (
        prop_oneof![(1u32..=32).prop_map(|w| w * 32), 1u32..=1024],
        1u32..=2,
        0u32..3,
        0u32..11,
        0u32..64,
        0u32..40,
        0u32..40,
    )
        .prop_map(|(block, blocks, kind, k, src, delta, xor)| {
            let log2 = 31 - block.leading_zeros();
            let (kind, size) = match kind {
                0 => (Kind::Tile, 1 << (k % (log2.min(10) + 1))),
                1 => (Kind::Dynamic, 1 << (k % (log2.min(5) + 1))),
                _ => (Kind::Coalesced, 0),
            };
            let p = Params {
                kind: kind as u32,
                size,
                op: 0,
                src,
                delta,
                xor,
                pad: [0; 2],
            };
            (Launch { blocks, block }, p)
        })
        .prop_flat_map(|(launch, p)| {
            (
                Just(launch),
                Just(p),
                prop::collection::vec(0u32..2, launch.threads()),
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn arrays_of_32_bytes((launch, p, preds) in case(), seed in any::<u32>()) {
        let values: Vec<[u32; 8]> =
            (0..launch.threads() as u32).map(|i| core::array::from_fn(|w| (i * 8 + w as u32) ^ seed)).collect();
        run(SHFL_WIDE_32B, launch, p, &values, &preds, [0xdead_beef; 8])?;
    }

    #[test]
    fn arrays_of_3_bytes((launch, p, preds) in case()) {
        let values: Vec<[u8; 3]> = (0..launch.threads() as u32).map(|i| [i as u8, (i >> 8) as u8, 7]).collect();
        run(SHFL_WIDE_3B, launch, p, &values, &preds, [0xee; 3])?;
    }

    #[test]
    fn u128_values((launch, p, preds) in case()) {
        let values: Vec<u128> = (0..launch.threads() as u128).map(|i| i * 0x1_0000_0001_0000_0001_0000_0001 + 5).collect();
        run(SHFL_WIDE_U128, launch, p, &values, &preds, u128::MAX)?;
    }
}
