//! A fixed sweep of the collective kernels on the simulator: every group
//! kind, a few block sizes (whole and partial warps), every operator.

mod common;

use common::params;

use cg_kernels::collectives::model::{Inputs, Launch};
use cg_kernels::collectives::{COLLECTIVES_F32, COLLECTIVES_U32, Kind};

fn inputs_u32(n: usize) -> Inputs<u32> {
    Inputs {
        values: (0..n as u32).map(|i| (i * 7919) % 13).collect(),
        preds: (0..n as u32).map(|i| ((i * 31) % 7 < 4) as u32).collect(),
        labels: (0..n as u32).map(|i| (i * 17) % 3).collect(),
    }
}

#[test]
fn sweep_u32() {
    for block in [32u32, 120, 256] {
        let launch = Launch { blocks: 1, block };
        let inputs = inputs_u32(launch.threads());
        for kind in Kind::ALL {
            let sizes: &[u32] = match kind {
                Kind::Tile => &[1, 2, 8, 32, 64, 128, 256],
                Kind::TileOfTile32 | Kind::Labeled | Kind::Binary => &[1, 4, 32],
                Kind::TileOfTile256 => &[16, 64, 256],
                Kind::Dynamic | Kind::DynamicOfTile64 | Kind::DynamicOfCoalesced => &[1, 4, 32],
                Kind::Coalesced | Kind::LabeledOfCoalesced | Kind::Block => &[0],
            };
            for &size in sizes {
                if size > block
                    || (kind == Kind::TileOfTile256 && block < 256)
                    || (kind == Kind::DynamicOfTile64 && block < 64)
                {
                    continue;
                }
                for op in 0..6 {
                    let p = params(kind, size, op, [3, 2, 5]);
                    common::run(COLLECTIVES_U32, launch, p, &inputs)
                        .unwrap_or_else(|e| panic!("{e}"));
                }
            }
        }
    }
}

#[test]
fn sweep_f32() {
    let launch = Launch {
        blocks: 2,
        block: 100,
    };
    let n = launch.threads();
    let inputs = Inputs {
        values: (0..n).map(|i| ((i * 37) % 21) as f32 - 10.0).collect(),
        preds: (0..n as u32).map(|i| (i % 3 != 0) as u32).collect(),
        labels: (0..n as u32).map(|i| i % 4).collect(),
    };
    for (kind, size) in [
        (Kind::Tile, 32),
        (Kind::Tile, 64),
        (Kind::Block, 0),
        (Kind::Coalesced, 0),
        (Kind::Dynamic, 8),
    ] {
        for op in 0..3 {
            let p = params(kind, size, op, [7, 1, 3]);
            common::run(COLLECTIVES_F32, launch, p, &inputs).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

/// 64-thread tiles of blocks larger than 512 threads run out of named
/// barriers and use the shared-memory software barrier: every collective,
/// several times in a row (the barrier's generation must advance cleanly).
#[test]
fn software_barrier_tiles() {
    for block in [1000u32, 1024] {
        let launch = Launch { blocks: 2, block };
        let inputs = inputs_u32(launch.threads());
        for op in 0..6 {
            for kind in [Kind::Tile, Kind::TileOfTile256] {
                let p = params(kind, 64, op, [40, 2, 5]);
                common::run(COLLECTIVES_U32, launch, p, &inputs).unwrap_or_else(|e| panic!("{e}"));
            }
        }
    }
}

/// Block scans (the raking scan for 32-bit values) at every kind of block:
/// one warp or less, the 64/128/256 bodies with values in registers, and
/// every other size (partial warps, 16 and 32 values per raking lane):
/// every operator, u32 and f32 (negative values, so `Less`/`Greater`
/// differ from `Plus`).
#[test]
fn block_scans_at_every_raking_shape() {
    for block in [
        1u32, 20, 32, 33, 63, 64, 96, 120, 128, 200, 256, 257, 512, 1000, 1024,
    ] {
        let launch = Launch { blocks: 2, block };
        let n = launch.threads();
        let inputs = inputs_u32(n);
        let floats = Inputs {
            values: (0..n).map(|i| ((i * 37) % 21) as f32 - 10.0).collect(),
            preds: inputs.preds.clone(),
            labels: inputs.labels.clone(),
        };
        for op in 0..6 {
            let p = params(Kind::Block, 0, op, [5, 1, 1]);
            common::run(COLLECTIVES_U32, launch, p, &inputs)
                .unwrap_or_else(|e| panic!("block {block}: {e}"));
            if op < 3 {
                common::run(COLLECTIVES_F32, launch, p, &floats)
                    .unwrap_or_else(|e| panic!("block {block}: {e}"));
            }
        }
    }
}
