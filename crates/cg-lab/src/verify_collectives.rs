//! The collectives half of `cg-lab verify`: the collective test kernels of
//! `cg_kernels::collectives` (every collective × operator × element type ×
//! group shape) on the GPU, each launch checked against the sequential model
//! and compared bit for bit with the simulator.

use anyhow::{Context, Result};
use cg_kernels::collectives::model::{
    Args, Inputs, Launch, TestValue, all_ops, check, check_composed, run_composed_on_sim,
    run_on_sim, size_for,
};
use cg_kernels::collectives::{
    COLLECTIVES_F32, COLLECTIVES_F64, COLLECTIVES_I32, COLLECTIVES_I64, COLLECTIVES_U32,
    COLLECTIVES_U64, COMPOSE_F32, COMPOSE_KINDS, COMPOSE_U32, COMPOSE_U64, ComposeArgs, Kind,
    NOT_WRITTEN, Params, SLOTS, STEPS, Seq, Step,
};
use cg_runtime::{Gpu, LaunchConfig, Module};
use cooperative_groups::Kernel;
use serde::Serialize;

/// A tiny deterministic generator (xorshift64*), so a run is reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One launch of one collective kernel.
struct Case {
    launch: Launch,
    params: Params,
    values: Vec<i64>,
    preds: Vec<u32>,
    labels: Vec<u32>,
}

fn case(rng: &mut Rng, kind: Kind, ops: u32) -> Option<Case> {
    let block = match rng.below(3) {
        0 => 32 * (1 + rng.below(32) as u32),
        1 => 1 + rng.below(1024) as u32,
        _ => 1 + rng.below(40) as u32,
    };
    let size = size_for(kind, block, rng.below(11) as u32)?;
    let launch = Launch {
        blocks: 1 + rng.below(2) as u32,
        block,
    };
    let params = Params {
        kind: kind as u32,
        size,
        op: rng.below(ops as u64) as u32,
        src: rng.below(64) as u32,
        delta: rng.below(40) as u32,
        xor: rng.below(40) as u32,
        pad: [0; 2],
    };
    let n = launch.threads();
    let spread = rng.below(3);
    let values = (0..n)
        .map(|_| match spread {
            0 => rng.below(4) as i64,
            1 => rng.below(200) as i64 - 100,
            _ => rng.next() as i32 as i64,
        })
        .collect();
    let density = [0, 100, rng.below(100)][rng.below(3) as usize];
    let preds = (0..n).map(|_| (rng.below(100) < density) as u32).collect();
    let labels = (0..n).map(|_| rng.below(4) as u32).collect();
    Some(Case {
        launch,
        params,
        values,
        preds,
        labels,
    })
}

/// Outputs of one launch: result rows and `invoke_one` counters.
type Outputs = (Vec<u64>, Vec<u32>);

fn on_gpu<T: TestValue>(
    gpu: &Gpu,
    module: &Module,
    k: &Kernel<Args<T>>,
    c: &Case,
    inputs: &Inputs<T>,
) -> Result<Outputs> {
    let n = c.launch.threads();
    let params = gpu.upload(&[c.params])?;
    let values = gpu.upload(&inputs.values)?;
    let preds = gpu.upload(&inputs.preds)?;
    let labels = gpu.upload(&inputs.labels)?;
    let out = gpu.upload(&vec![NOT_WRITTEN; n * SLOTS])?;
    let counters = gpu.alloc::<u32>(n)?;
    let args: Args<T> = (
        params.as_ptr(),
        values.as_ptr(),
        preds.as_ptr(),
        labels.as_ptr(),
        out.as_ptr(),
        counters.as_ptr(),
    );
    let cfg = LaunchConfig::linear(c.launch.blocks, c.launch.block);
    // SAFETY: the buffers above are sized for the launch as the collective
    // kernels read and write them.
    unsafe { gpu.launch_in_unchecked(module, k, &cfg, args) }?;
    gpu.synchronize()?;
    Ok((out.to_vec()?, counters.to_vec()?))
}

/// Results for one element type.
#[derive(Debug, Serialize)]
pub struct TypeResult {
    /// Element type.
    pub elem: &'static str,
    /// Launches per group kind, in `Kind::ALL` order.
    pub per_kind: Vec<(String, u32)>,
    /// Launches run.
    pub launches: u32,
    /// GPU results equal to the model.
    pub gpu_equals_model: u32,
    /// GPU outputs bit-identical to the simulator's.
    pub gpu_equals_sim: u32,
    /// The first failures, described.
    pub failures: Vec<String>,
}

impl TypeResult {
    fn new(elem: &'static str) -> TypeResult {
        TypeResult {
            elem,
            per_kind: vec![],
            launches: 0,
            gpu_equals_model: 0,
            gpu_equals_sim: 0,
            failures: vec![],
        }
    }

    /// Counts one launch: `model` is the GPU output checked against the
    /// model, `same` whether it equals the simulator's bit for bit; the
    /// first five failures are kept, described with `what`.
    fn record(&mut self, what: impl Fn() -> String, model: Result<(), String>, same: bool) {
        self.launches += 1;
        match model {
            Ok(()) => self.gpu_equals_model += 1,
            Err(e) if self.failures.len() < 5 => self.failures.push(format!("{}: {e}", what())),
            Err(_) => {}
        }
        if same {
            self.gpu_equals_sim += 1;
        } else if self.failures.len() < 5 {
            self.failures
                .push(format!("{}: GPU and simulator outputs differ", what()));
        }
    }
}

fn run_type<T: TestValue>(
    gpu: &Gpu,
    module: &Module,
    elem: &'static str,
    k: Kernel<Args<T>>,
    per_kind: u32,
    rng: &mut Rng,
) -> Result<TypeResult> {
    let mut r = TypeResult::new(elem);
    for kind in Kind::ALL {
        let mut done = 0;
        let mut tries = 0;
        while done < per_kind && tries < per_kind * 20 {
            tries += 1;
            let Some(c) = case(rng, kind, T::OPS) else {
                continue;
            };
            let inputs = Inputs {
                values: c.values.iter().map(|&v| T::from_raw(v)).collect(),
                preds: c.preds.clone(),
                labels: c.labels.clone(),
            };
            let gpu_out =
                on_gpu(gpu, module, &k, &c, &inputs).with_context(|| format!("{elem} {kind:?}"))?;
            let sim_out = run_on_sim(&k, c.launch, &c.params, &inputs)
                .with_context(|| format!("{elem} {kind:?} on the simulator"))?;
            done += 1;
            r.record(
                || format!("{kind:?} {:?} {:?}", c.launch, c.params),
                check(c.launch, &c.params, &inputs, &gpu_out.0, &gpu_out.1),
                gpu_out == sim_out,
            );
        }
        r.per_kind.push((format!("{kind:?}"), done));
    }
    Ok(r)
}

/// One launch of a composed kernel: a case and its sequence.
struct Composed {
    case: Case,
    seq: Seq,
}

/// The composed launches for one element type: every ordered pair of
/// collectives (as `[a, b, a, b]`) on the shapes where the exchange slots
/// are shared between collectives — the block and tiles of 64–1024 threads,
/// whole and partial last warps — then `random` random sequences per kind.
fn composed_cases(rng: &mut Rng, ops: u32, random: u32) -> Vec<Composed> {
    let mut out = Vec::new();
    let shapes = [
        (Kind::Block, 0, 192),
        (Kind::Block, 0, 200),
        (Kind::Block, 0, 1024),
        (Kind::Tile, 64, 1000),
        (Kind::Tile, 256, 768),
        (Kind::Tile, 512, 1000),
        (Kind::Tile, 1024, 1024),
    ];
    for (kind, size, block) in shapes {
        for a in Step::COLLECTIVES {
            for b in Step::COLLECTIVES {
                let launch = Launch { blocks: 2, block };
                let n = launch.threads();
                let case = Case {
                    launch,
                    params: Params {
                        kind: kind as u32,
                        size,
                        op: 0,
                        src: rng.below(64) as u32,
                        delta: 0,
                        xor: 0,
                        pad: [0; 2],
                    },
                    values: (0..n).map(|_| rng.below(2000) as i64 - 1000).collect(),
                    preds: (0..n).map(|_| rng.below(2) as u32).collect(),
                    labels: vec![0; n],
                };
                out.push(Composed {
                    case,
                    seq: [a as u32, b as u32, a as u32, b as u32],
                });
            }
        }
    }
    for kind in COMPOSE_KINDS {
        let mut done = 0;
        let mut tries = 0;
        while done < random && tries < random * 20 {
            tries += 1;
            let Some(mut case) = case(rng, kind, ops.min(3)) else {
                continue;
            };
            if !all_ops(&case.params) {
                case.params.op = 0;
            }
            let seq = [0; STEPS].map(|_| rng.below(8) as u32);
            out.push(Composed { case, seq });
            done += 1;
        }
    }
    out
}

fn composed_on_gpu<T: TestValue>(
    gpu: &Gpu,
    module: &Module,
    k: &Kernel<ComposeArgs<T>>,
    c: &Composed,
    inputs: &Inputs<T>,
) -> Result<Vec<u64>> {
    let n = c.case.launch.threads();
    let params = gpu.upload(&[c.case.params])?;
    let seq = gpu.upload(&[c.seq])?;
    let values = gpu.upload(&inputs.values)?;
    let preds = gpu.upload(&inputs.preds)?;
    let out = gpu.upload(&vec![NOT_WRITTEN; n * STEPS])?;
    let args: ComposeArgs<T> = (
        params.as_ptr(),
        seq.as_ptr(),
        values.as_ptr(),
        preds.as_ptr(),
        out.as_ptr(),
    );
    let cfg = LaunchConfig::linear(c.case.launch.blocks, c.case.launch.block);
    // SAFETY: the buffers above are sized for the launch as the collective
    // kernels read and write them.
    unsafe { gpu.launch_in_unchecked(module, k, &cfg, args) }?;
    gpu.synchronize()?;
    Ok(out.to_vec()?)
}

/// Collectives back to back (`cg_kernels::collectives::compose`) for one
/// element type: each launch against the model and the simulator.
fn run_composed<T: TestValue>(
    gpu: &Gpu,
    module: &Module,
    elem: &'static str,
    k: Kernel<ComposeArgs<T>>,
    random: u32,
    rng: &mut Rng,
) -> Result<TypeResult> {
    let mut r = TypeResult::new(elem);
    let cases = composed_cases(rng, T::OPS, random);
    for kind in COMPOSE_KINDS {
        let n = cases
            .iter()
            .filter(|c| c.case.params.kind == kind as u32)
            .count();
        r.per_kind.push((format!("{kind:?}"), n as u32));
    }
    for c in &cases {
        let what = || format!("{elem} {:?} {:?} {:?}", c.case.launch, c.case.params, c.seq);
        let inputs = Inputs {
            values: c.case.values.iter().map(|&v| T::from_raw(v)).collect(),
            preds: c.case.preds.clone(),
            labels: c.case.labels.clone(),
        };
        let gpu_out = composed_on_gpu(gpu, module, &k, c, &inputs).with_context(what)?;
        let sim_out = run_composed_on_sim(&k, c.case.launch, &c.case.params, &c.seq, &inputs)
            .with_context(|| format!("{} on the simulator", what()))?;
        r.record(
            what,
            check_composed(c.case.launch, &c.case.params, &c.seq, &inputs, &gpu_out),
            gpu_out == sim_out,
        );
    }
    Ok(r)
}

/// Runs `per_kind` launches of every group kind for every element type,
/// then (unless `composed` is 0) the composed launches: every ordered pair
/// of collectives on the multi-warp shapes and `composed` random sequences
/// per kind, for `u32`, `u64` and `f32`. Each type's result is pushed to
/// `done` (and printed) as soon as it is complete, so that an error in a
/// later type keeps the earlier ones.
pub fn run_all(
    gpu: &Gpu,
    test_ptx: &'static cg_runtime::PtxModule,
    per_kind: u32,
    composed: u32,
    seed: u64,
    done: &mut Vec<TypeResult>,
) -> Result<()> {
    // The test kernels run blocks of up to 1024 threads.
    let module = gpu.load_for_block(test_ptx, 1024)?;
    let mut rng = Rng(seed | 1);
    let mut finish = |r: TypeResult| {
        println!(
            "collectives {:<4} {} launches: GPU = model {}, GPU = simulator {}",
            r.elem, r.launches, r.gpu_equals_model, r.gpu_equals_sim
        );
        done.push(r);
    };
    if per_kind > 0 {
        let m = &module;
        finish(run_type(
            gpu,
            m,
            "u32",
            COLLECTIVES_U32,
            per_kind,
            &mut rng,
        )?);
        finish(run_type(
            gpu,
            m,
            "i32",
            COLLECTIVES_I32,
            per_kind,
            &mut rng,
        )?);
        finish(run_type(
            gpu,
            m,
            "u64",
            COLLECTIVES_U64,
            per_kind,
            &mut rng,
        )?);
        finish(run_type(
            gpu,
            m,
            "i64",
            COLLECTIVES_I64,
            per_kind,
            &mut rng,
        )?);
        finish(run_type(
            gpu,
            m,
            "f32",
            COLLECTIVES_F32,
            per_kind,
            &mut rng,
        )?);
        finish(run_type(
            gpu,
            m,
            "f64",
            COLLECTIVES_F64,
            per_kind,
            &mut rng,
        )?);
    }
    if composed > 0 {
        let m = &module;
        let c = composed;
        finish(run_composed(
            gpu,
            m,
            "u32 back to back",
            COMPOSE_U32,
            c,
            &mut rng,
        )?);
        finish(run_composed(
            gpu,
            m,
            "u64 back to back",
            COMPOSE_U64,
            c,
            &mut rng,
        )?);
        finish(run_composed(
            gpu,
            m,
            "f32 back to back",
            COMPOSE_F32,
            c,
            &mut rng,
        )?);
    }
    Ok(())
}

/// `collectives.md`.
pub fn markdown(results: &[TypeResult], device: &str, command: &str, seed: u64) -> String {
    let mut s = format!(
        "# Collectives on {device}: GPU vs model vs simulator\n\nCommand: `{command}` (seed {seed})\n\n\
         Every launch runs one collective test kernel (`cg_kernels::collectives`: rank, size, meta-group \
         rank/size, reduce, inclusive/exclusive scan, shfl/up/down/xor, any, all, ballot, match_any/all, \
         invoke_one_broadcast and invoke_one) on one group shape with random block sizes (partial warps \
         included), operators, predicates and labels. The \"back to back\" rows run sequences of four \
         collectives on one group with no sync between them (`cg_kernels::collectives::compose`): every \
         ordered pair on the block (192, 200 and 1024 threads) and on tiles of 64 (software barrier), 256, \
         512 and 1024 threads, then random sequences on every kind; each result must equal the collective's result alone. Each GPU \
         result is checked against the sequential model and compared bit for bit with the simulator's.\n\n\
         | type | launches | GPU = model | GPU = simulator (bitwise) |\n| --- | ---: | ---: | ---: |\n"
    );
    for r in results {
        s += &format!(
            "| {} | {} | {} | {} |\n",
            r.elem, r.launches, r.gpu_equals_model, r.gpu_equals_sim
        );
    }
    let mut shown = Vec::new();
    for r in results {
        let line = r
            .per_kind
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect::<Vec<_>>()
            .join(", ");
        if !shown.contains(&line) {
            s += &format!("\nLaunches per group shape ({}): {line}.\n", r.elem);
            shown.push(line);
        }
    }
    for r in results {
        for f in &r.failures {
            s += &format!("\n- **{}**: {f}", r.elem);
        }
    }
    s
}
