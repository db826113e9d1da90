//! Static zero-cost checks on the embedded PTX, per SM, on the probe
//! kernels of `cg_kernels::collectives::probes` (in the test module):
//!
//! * `reduce(&tile32, u32, Plus)` is one `redux.sync.add` on sm_80/sm_90 and
//!   the five-step `shfl.sync.bfly` tree on sm_70;
//! * `reduce(&tile32, f32, Plus)` contains exactly the hand-written
//!   `__shfl_xor_sync` tree (same shuffles, same operands, once), plus the
//!   out-of-line path for blocks with a partial warp;
//! * in SASS (ptxas + nvdisasm from the wheels), the butterfly of
//!   `reduce(&tile32, f32, Plus)` is the hand-written tree instruction for
//!   instruction, immediate clamp included;
//! * no collective is duplicated: each probe has exactly the collectives
//!   its algorithm needs (a sub-warp tile has two copies of its tree, one
//!   with the constant full mask, chosen by one `activemask`);
//! * a sub-warp tile's scan shuffles with the mask `activemask` gave
//!   (one copy);
//! * a 64-thread tile syncs with a named barrier (`bar.sync %r, %r`) or, if
//!   it is the whole block, `bar.sync 0`.
//!
//! And on the lab's own kernels (the lab module): the `reps` loop of every
//! reduce keeps its collectives (nothing optimised away), and the library's
//! tile-32 shuffle tree is the hand-written one. The block and warp primitives
//! matched to CUB's SASS keep that shape (`WarpScan`'s predicated steps, the
//! sort-based histogram's and the run-length decoder's inlined passes).
//!
//! The probes are in the test module: these tests need cg-lab's feature
//! `collectives` (`scripts/test.sh` turns it on).
#![cfg(feature = "collectives")]

mod common;

// `LAB_PTX` and `TEST_PTX`: the lab's PTX tables, built by `build.rs` (cg-build).
include!(concat!(env!("OUT_DIR"), "/lab_ptx.rs"));
include!(concat!(env!("OUT_DIR"), "/test_ptx.rs"));

fn ptx_files() -> Vec<(u32, &'static str)> {
    TEST_PTX.ptx().iter().map(|p| (p.sm, p.ptx)).collect()
}

/// The whole text of kernel `name`, from `.visible .entry` to its closing
/// brace.
fn entry_text<'a>(ptx: &'a str, name: &str) -> &'a str {
    let start = ptx
        .find(&format!(".visible .entry {name}("))
        .unwrap_or_else(|| panic!("no kernel {name}"));
    let body = &ptx[start..];
    let open = body.find("\n{").unwrap();
    let close = body[open..].find("\n}").unwrap() + open;
    &body[..close + 2]
}

/// The header of kernel `name`: its entry line, parameters and
/// directives, up to its opening brace.
fn entry_header<'a>(ptx: &'a str, name: &str) -> &'a str {
    let text = entry_text(ptx, name);
    &text[..text.find("\n{").unwrap()]
}

/// The instructions of kernel `name` (comments and blank lines dropped).
fn entry(ptx: &str, name: &str) -> Vec<String> {
    let text = entry_text(ptx, name);
    let open = text.find("\n{").unwrap();
    text[open + 2..text.len() - 2]
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with(".reg"))
        .map(String::from)
        .collect()
}

fn count(ins: &[String], op: &str) -> usize {
    ins.iter().filter(|l| l.starts_with(op)).count()
}

/// `shfl.sync.bfly.b32 %d, %v, B, C, MASK;` → `(B, C, MASK)`, in order.
fn bfly_operands(ins: &[String]) -> Vec<String> {
    ins.iter()
        .filter(|l| l.starts_with("shfl.sync.bfly.b32"))
        .map(|l| {
            l.split(',')
                .skip(2)
                .map(str::trim)
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect()
}

#[test]
fn probes_lower_to_the_expected_instructions() {
    for (sm, ptx) in ptx_files() {
        // A match of 8-bit labels: ballots, one for the lanes taking part
        // and one per bit, and no `match.any` (an MIO instruction).
        let m = entry(ptx, "probe_tile32_match_bits");
        assert_eq!(count(&m, "vote.sync.ballot.b32"), 9, "sm_{sm}: {m:#?}");
        assert_eq!(count(&m, "match."), 0, "sm_{sm}: {m:#?}");
        // Each bit: its ballot, complemented by a predicated `not` where
        // the lane's bit is 0 (no arithmetic to build a complement mask).
        assert_eq!(count(&m, "@!s not.b32"), 8, "sm_{sm}: {m:#?}");
        assert_eq!(count(&m, "bfe."), 0, "sm_{sm}: {m:#?}");
        // Shared-memory atomics in the `.shared` state space.
        let a = entry(ptx, "probe_shared_atomics");
        assert_eq!(count(&a, "red.shared.add.u32"), 1, "sm_{sm}: {a:#?}");
        assert_eq!(count(&a, "atom.shared.add.u32"), 1, "sm_{sm}: {a:#?}");
        assert!(
            !a.iter()
                .any(|l| l.starts_with("atom.add") || l.starts_with("red.add")),
            "sm_{sm}: a generic atomic: {a:#?}"
        );
        // Integer tile reduce: redux.sync on sm_80+, the shuffle tree before.
        let r = entry(ptx, "probe_tile32_reduce_u32");
        if sm >= 80 {
            assert_eq!(count(&r, "redux.sync.add"), 1, "sm_{sm}: {r:#?}");
            assert_eq!(count(&r, "shfl.sync"), 0, "sm_{sm}: {r:#?}");
        } else {
            assert!(
                !ptx.contains("redux.sync"),
                "sm_{sm} PTX must not use redux.sync"
            );
            assert_eq!(
                bfly_operands(&r),
                ["16,31,-1;", "8,31,-1;", "4,31,-1;", "2,31,-1;", "1,31,-1;"],
                "sm_{sm}"
            );
        }
        if sm < 90 {
            assert!(
                !ptx.contains("elect.sync"),
                "sm_{sm} PTX must not use elect.sync"
            );
        }

        // Float tile reduce: the hand-written tree, exactly once, plus the
        // partial-warp path (5 × shfl.up + 1 × shfl.idx), nothing else.
        let lib = entry(ptx, "probe_tile32_reduce_f32");
        let hand = entry(ptx, "probe_handwritten_reduce_f32");
        assert_eq!(
            bfly_operands(&lib),
            bfly_operands(&hand),
            "sm_{sm}: library tree != hand-written tree"
        );
        assert_eq!(count(&hand, "shfl.sync.bfly"), 5);
        assert_eq!(count(&lib, "shfl.sync.up"), 5, "sm_{sm}: {lib:#?}");
        assert_eq!(count(&lib, "shfl.sync.idx"), 1, "sm_{sm}: {lib:#?}");
        assert_eq!(
            count(&lib, "shfl.sync"),
            11,
            "sm_{sm}: a collective was duplicated: {lib:#?}"
        );
        // (`add.rn.f32` under `FpContract::Off`, `add.f32` under `Fast`.)
        let fadds = |ins: &[String]| count(ins, "add.rn.f32") + count(ins, "add.f32");
        assert_eq!(fadds(&lib), fadds(&hand) + 5, "sm_{sm}");

        // Sub-warp tile: one activemask picks the copy whose shuffles use the
        // constant full mask (ptxas then adds no convergence check), the
        // other copy uses the tile's mask. Same tree in both.
        let t8 = entry(ptx, "probe_tile8_reduce_f32");
        assert_eq!(count(&t8, "activemask.b32"), 1, "sm_{sm}: {t8:#?}");
        let trees = bfly_operands(&t8);
        let full: Vec<&String> = trees.iter().filter(|o| o.ends_with(",-1;")).collect();
        assert_eq!(full, ["4,6175,-1;", "2,6175,-1;", "1,6175,-1;"], "sm_{sm}");
        assert_eq!(trees.len(), 6, "sm_{sm}: {t8:#?}");

        // Scan: 5 × shfl.up, nothing else.
        let scan = entry(ptx, "probe_tile32_scan_u32");
        assert_eq!(count(&scan, "shfl.sync.up"), 5, "sm_{sm}: {scan:#?}");
        assert_eq!(count(&scan, "shfl.sync"), 5, "sm_{sm}: {scan:#?}");

        // Sub-warp tile scan: one activemask, used as the mask of the 3
        // shuffles (ptxas adds no convergence check), one copy.
        let s8 = entry(ptx, "probe_tile8_scan_f32");
        assert_eq!(count(&s8, "activemask.b32"), 1, "sm_{sm}: {s8:#?}");
        let am = s8
            .iter()
            .find(|l| l.starts_with("activemask.b32"))
            .and_then(|l| l.split_whitespace().nth(1))
            .map(|r| r.trim_end_matches(';').to_string())
            .unwrap();
        let ups: Vec<&String> = s8
            .iter()
            .filter(|l| l.starts_with("shfl.sync.up"))
            .collect();
        assert_eq!(ups.len(), 3, "sm_{sm}: {s8:#?}");
        for u in &ups {
            assert!(
                u.ends_with(&format!(", {am};")) || u.ends_with(&format!(",{am};")),
                "sm_{sm}: {u}"
            );
        }
        assert_eq!(count(&s8, "shfl.sync"), 3, "sm_{sm}: {s8:#?}");
        assert_eq!(count(&s8, "bar.warp.sync"), 0, "sm_{sm}: {s8:#?}");

        // 64-thread tile: named barrier (register id and count), or bar.sync 0
        // when the tile is the block; two of each per collective, no more.
        let t64 = entry(ptx, "probe_tile64_reduce_f32");
        let named = t64
            .iter()
            .filter(|l| l.starts_with("bar.sync") && l.contains("%r") && l.contains(','))
            .count();
        assert_eq!(named, 2, "sm_{sm}: {t64:#?}");
        assert!(count(&t64, "bar.sync") >= 4, "sm_{sm}: {t64:#?}");

        // 128-thread tile sync: one named barrier, one block barrier, no shared memory.
        let t128 = entry(ptx, "probe_tile128_sync");
        assert_eq!(count(&t128, "bar.sync"), 2, "sm_{sm}: {t128:#?}");
        assert!(
            !t128.iter().any(|l| l.contains(".shared")),
            "sm_{sm}: {t128:#?}"
        );
    }
}

/// `shfl.sync.<mode>.b32 %d, %v, B, C, MASK;` → `mode B,C,MASK`, in order.
fn shuffles(ins: &[String]) -> Vec<String> {
    ins.iter()
        .filter(|l| l.starts_with("shfl.sync."))
        .map(|l| {
            let mode = l.split('.').nth(2).unwrap_or("");
            let ops: Vec<&str> = l.split(',').skip(2).map(str::trim).collect();
            format!("{mode} {}", ops.join(","))
        })
        .collect()
}

#[test]
fn lab_kernels_keep_their_collectives_and_match_the_baseline() {
    for p in LAB_PTX.ptx() {
        let sm = p.sm;
        let intrinsic = entry(p.ptx, "reduce_intrinsic");
        let tile32 = entry(p.ptx, "reduce_tile32");
        // The baseline is hand-written inline PTX (asm, register operands);
        // the library goes through NVVM intrinsics (immediate operands).
        // Both must be one 5-step down tree plus one broadcast per round:
        // LLVM may unroll the `reps` loop, so compare per-round shapes.
        let per_round = |ins: &[String]| {
            let s = shuffles(ins);
            let downs = s.iter().filter(|x| x.starts_with("down")).count();
            let idx = s.iter().filter(|x| x.starts_with("idx")).count();
            (downs, idx)
        };
        let (d, i) = per_round(&intrinsic);
        assert!(
            i >= 1 && d == 5 * i,
            "sm_{sm}: intrinsic rounds: {d} downs, {i} broadcasts"
        );
        let (d, i) = per_round(&tile32);
        assert!(
            i >= 1 && d == 5 * i,
            "sm_{sm}: tile32 rounds: {d} downs, {i} broadcasts"
        );
        let offsets: Vec<String> = shuffles(&tile32)
            .iter()
            .filter(|s| s.starts_with("down"))
            .take(5)
            .map(|s| s.split(',').next().unwrap_or("").to_string())
            .collect();
        assert_eq!(
            offsets,
            ["down 16", "down 8", "down 4", "down 2", "down 1"],
            "sm_{sm}"
        );
        // cg_reduce at every tile keeps one tree per round (no round dropped).
        for t in [8u32, 16, 32] {
            let k = entry(p.ptx, &format!("cg_reduce_{t}"));
            let steps = t.trailing_zeros() as usize;
            let bfly = count(&k, "shfl.sync.bfly");
            assert!(
                bfly >= steps && bfly.is_multiple_of(steps),
                "sm_{sm} cg_reduce_{t}: {bfly} butterflies"
            );
        }
        for t in [64u32, 128] {
            let k = entry(p.ptx, &format!("cg_reduce_{t}"));
            assert!(
                count(&k, "bar.sync") >= 2,
                "sm_{sm} cg_reduce_{t} lost its barriers"
            );
        }
        // coalesced_threads: activemask inside the odd branch, not hoisted.
        let c = entry(p.ptx, "coalesced_odd");
        assert_eq!(count(&c, "activemask.b32"), 1, "sm_{sm}: {c:#?}");
    }
}

/// The SASS of `ptx` for `sm` through the wheels' ptxas and nvdisasm, or
/// `None` where they are missing (never in CI, which installs them).
fn sass_of(ptx: &str, sm: u32) -> Option<cg_runtime::sass::Listing> {
    let ptxas = cg_runtime::tools::require_tool_in_ci("ptxas")?;
    let nvdisasm = cg_runtime::tools::require_tool_in_ci("nvdisasm")?;
    Some(common::sass(&ptxas, &nvdisasm, ptx, sm).unwrap())
}

/// A SASS shuffle as `OPCODE b,c`: its lane/offset and clamp operands.
fn shfl_operands(i: &cg_runtime::sass::Instr) -> String {
    let ops: Vec<&str> = i.text.split(',').map(str::trim).collect();
    format!(
        "{} {}",
        i.opcode,
        ops[ops.len().saturating_sub(2)..].join(",")
    )
}

/// SASS: the library's tile-32 `shfl_down` tree and the hand-written inline
/// PTX tree assemble to the same shuffles (opcode, offset) and adds per
/// round (sm_80, sm_90; no disassembler for sm_70 ships in a wheel).
#[test]
fn tile32_and_handwritten_tree_have_the_same_sass() {
    for p in LAB_PTX.ptx().iter().filter(|p| p.sm >= 80) {
        let Some(listing) = sass_of(p.ptx, p.sm) else {
            return;
        };
        // One round of each: the shuffles with their immediate operands
        // (offset/lane, clamp), and the float adds between them.
        let round = |k: &str| -> (Vec<String>, usize) {
            let ins = &listing[k];
            let first = ins
                .iter()
                .position(|i| i.opcode.starts_with("SHFL"))
                .expect("a shuffle");
            let last = ins[first..]
                .iter()
                .position(|i| i.opcode == "SHFL.IDX")
                .expect("a broadcast")
                + first;
            let shfl = ins[first..=last]
                .iter()
                .filter(|i| i.opcode.starts_with("SHFL"))
                .map(shfl_operands)
                .collect();
            let fadd = ins[first..=last]
                .iter()
                .filter(|i| i.opcode == "FADD")
                .count();
            (shfl, fadd)
        };
        let (lib, lib_adds) = round("reduce_tile32");
        let (hand, hand_adds) = round("reduce_intrinsic");
        // Same opcodes and lane offsets. The clamp may differ in form: the
        // hand-written tree has the immediate 0x1f, the library a register
        // computed once per tile (the tile's existing lanes, so that a
        // partial last warp shuffles exactly); it is the same 0x1f in a
        // block of whole warps and costs no instruction inside the loop.
        let strip = |v: &[String]| -> Vec<String> {
            v.iter()
                .map(|s| {
                    s.rsplit_once(',')
                        .map(|(a, _)| a.to_string())
                        .unwrap_or_default()
                })
                .collect()
        };
        assert_eq!(
            strip(&lib),
            strip(&hand),
            "sm_{}: library tree differs from the hand-written one",
            p.sm
        );
        assert_eq!((lib.len(), lib_adds), (6, 5), "sm_{}: {lib:?}", p.sm);
        assert_eq!(hand_adds, 5, "sm_{}", p.sm);
    }
}

/// The header of `ptx` (up to its first function) and the whole text of the
/// entries `names`: a small module to assemble instead of the whole test
/// module.
fn extract_entries(ptx: &str, names: &[&str]) -> String {
    let first = ptx.find(".visible .entry").expect("an entry");
    // The header without its functions (prototypes `.func name(...);` and
    // bodies `.func name(...) { ... }`): ptxas rejects prototypes without
    // bodies, and the entries below call none of them.
    let mut out = String::new();
    let mut skipping = false;
    let mut in_body = false;
    for line in ptx[..first].lines() {
        if line.starts_with(".func") || line.starts_with(".weak .func") {
            skipping = true;
        }
        if !skipping {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        if line.starts_with('{') {
            in_body = true;
        } else if in_body && line.starts_with('}') {
            (skipping, in_body) = (false, false);
        } else if !in_body && line.trim_end().ends_with(';') {
            skipping = false;
        }
    }
    for name in names {
        out.push_str(entry_text(ptx, name));
        out.push('\n');
    }
    out
}

/// SASS of `reduce(&tile32, f32, Plus)`: its butterfly is the hand-written
/// `__shfl_xor_sync` tree instruction for instruction — same opcodes, same
/// lane masks, the same immediate clamp `0x1f` — followed by the same adds.
/// (The library's copy for blocks with a partial warp, a scan and a
/// broadcast, sits behind one uniform branch and is not part of the tree.)
#[test]
fn tile32_reduce_is_the_handwritten_butterfly_in_sass() {
    for p in TEST_PTX.ptx().iter().filter(|p| p.sm >= 80) {
        let lib = "probe_tile32_reduce_f32";
        let hand = "probe_handwritten_reduce_f32";
        let small = extract_entries(p.ptx, &[lib, hand]);
        let Some(listing) = sass_of(&small, p.sm) else {
            return;
        };
        // Butterfly shuffles with their immediates, and the adds after each.
        let tree = |k: &str| -> Vec<String> {
            let ins = &listing[k];
            let first = ins
                .iter()
                .position(|i| i.opcode.starts_with("SHFL.BFLY"))
                .expect("a butterfly");
            ins[first..]
                .iter()
                .filter(|i| i.opcode.starts_with("SHFL.BFLY") || i.opcode == "FADD")
                .take(10)
                .map(|i| {
                    if i.opcode == "FADD" {
                        "FADD".to_string()
                    } else {
                        shfl_operands(i)
                    }
                })
                .collect()
        };
        let (l, h) = (tree(lib), tree(hand));
        assert_eq!(l, h, "sm_{}: library butterfly differs in SASS", p.sm);
        assert_eq!(
            l.iter().filter(|s| s.ends_with("0x1f")).count(),
            5,
            "sm_{}: {l:?}",
            p.sm
        );
    }
}

/// `cg-lab sync`'s kernels, every SM: shared arrays are read and written
/// through the `.shared` window (`ld.shared`/`st.shared`, SASS `LDS`/`STS`;
/// a generic access before a barrier costs the barrier several times over),
/// the loops have no bounds check left (a panic exit keeps ptxas from
/// eliding `bar.warp.sync`), and the grid barrier is a release add and an
/// acquire spin with no `fence.sc` (NVIDIA's `grid.sync()` on sm_70+).
#[test]
fn sync_kernels_use_the_shared_window_and_release_acquire() {
    for p in LAB_PTX.ptx() {
        let (sm, ptx) = (p.sm, p.ptx);
        for k in ["sync_block", "sync_tile_2_1024", "sync_tile_64_1024"] {
            let ins = entry(ptx, k);
            assert_eq!(count(&ins, "st.shared.b32"), 2, "sm_{sm} {k}: {ins:#?}");
            assert_eq!(count(&ins, "ld.shared.b32"), 2, "sm_{sm} {k}: {ins:#?}");
            let generic = ins
                .iter()
                .filter(|l| l.starts_with("st.b32") || l.starts_with("ld.b32"))
                .count();
            assert_eq!(generic, 0, "sm_{sm} {k}: generic shared access: {ins:#?}");
            // No bounds check, and no division-by-zero check of `% n`
            // either: a tile's `num_threads()` is known to be at least 1.
            let text = entry_text(ptx, k);
            assert!(
                !text.contains("panic_fmt")
                    && !text.contains("panic_bounds_check")
                    && !text.contains("rem_by_zero"),
                "sm_{sm} {k}: a panic check is left"
            );
        }
        let grid = entry(ptx, "sync_grid");
        assert_eq!(
            count(&grid, "atom.release.gpu.add.u32"),
            1,
            "sm_{sm}: {grid:#?}"
        );
        assert_eq!(count(&grid, "ld.acquire.gpu.u32"), 1, "sm_{sm}: {grid:#?}");
        assert!(
            !grid.iter().any(|l| l.contains("fence.sc")),
            "sm_{sm}: the grid barrier has a fence.sc: {grid:#?}"
        );
    }
}

/// The typed kernels of `cg_kernels::typed` against their raw-pointer
/// forms, in SASS: the same work instructions (memory accesses, shuffles,
/// reductions, barriers, float arithmetic), the typed input's loads on the
/// read-only path (`LDG.E.CONSTANT` where the raw form has `LDG.E`: nothing
/// writes a `GlobalSlice` during its launch), and the same loop, instruction
/// for instruction (no bounds check in it): the typed saxpy checks `x`'s
/// length once, before its loop, which is all the typed forms add (a few
/// instructions, and a `BPT.TRAP` after the `EXIT`) — the ownership
/// witnesses cost nothing.
#[test]
fn typed_kernels_are_their_raw_forms_in_sass() {
    for p in LAB_PTX.ptx().iter().filter(|p| p.sm >= 80) {
        let pairs = [
            ("probe_saxpy_raw", "probe_saxpy_typed", 8),
            // (The typed lengths are `usize`: a 64-bit first test where the
            // raw form's `n: u32` is 32-bit, outside the loop.)
            ("probe_block_sum_raw", "probe_block_sum_typed", 4),
            // (`with_u32_len`'s clamp to 2^32 - 1 before the loop, 4, and
            // the leader's test that its block has an output, 2.)
            ("probe_pair_sum_raw", "probe_pair_sum_typed", 6),
        ];
        let names: Vec<&str> = pairs.iter().flat_map(|(a, b, _)| [*a, *b]).collect();
        let small = extract_entries(p.ptx, &names);
        let Some(listing) = sass_of(&small, p.sm) else {
            return;
        };
        let work = |k: &str| -> std::collections::BTreeMap<String, usize> {
            let mut h = std::collections::BTreeMap::new();
            for i in &listing[k] {
                let o = i.opcode.replace("LDG.E.CONSTANT", "LDG.E");
                let is_work = [
                    "LDG", "STG", "LDS", "STS", "SHFL", "REDUX", "BAR", "FADD", "FMUL", "FFMA",
                    "ATOM", "RED",
                ]
                .iter()
                .any(|w| o.starts_with(w));
                if is_work {
                    *h.entry(o).or_insert(0) += 1;
                }
            }
            h
        };
        // The grid-stride loop: from the address arithmetic before its first
        // global load to its backward branch.
        let inner = |k: &str| -> Vec<String> {
            let ins = &listing[k];
            let ld = ins
                .iter()
                .position(|i| i.opcode.starts_with("LDG"))
                .expect("a load");
            let back = ld
                + ins[ld..]
                    .iter()
                    .position(|i| i.opcode == "BRA" && !i.guard.is_empty())
                    .expect("a loop");
            // (`IMAD.IADD` is `IADD3` issued to the FMA pipe: ptxas picks
            // either per its pipe balance, the same 32-bit addition.)
            ins[ld - 4..=back]
                .iter()
                .map(|i| {
                    i.opcode
                        .replace("LDG.E.CONSTANT", "LDG.E")
                        .replace("IMAD.IADD", "IADD3")
                })
                .collect()
        };
        // Instructions up to the last `EXIT` (what follows is traps and padding).
        let len = |k: &str| {
            let ins = &listing[k];
            ins.iter()
                .rposition(|i| i.opcode == "EXIT")
                .map_or(ins.len(), |e| e + 1)
        };
        for (raw, typed, extra) in pairs {
            let read_only = |k: &str| {
                listing[k]
                    .iter()
                    .filter(|i| i.opcode.starts_with("LDG.E.CONSTANT"))
                    .count()
            };
            assert!(
                read_only(typed) >= 1,
                "sm_{}: {typed} has no read-only load",
                p.sm
            );
            assert_eq!(read_only(raw), 0, "sm_{}: {raw}", p.sm);
            assert_eq!(work(raw), work(typed), "sm_{}: {raw} vs {typed}", p.sm);
            assert_eq!(
                inner(raw),
                inner(typed),
                "sm_{}: {raw} vs {typed}: the loop",
                p.sm
            );
            let (r, t) = (len(raw), len(typed));
            if std::env::var("CG_SHOW_SASS").is_ok() {
                for k in [raw, typed] {
                    eprintln!("== {k}");
                    for i in &listing[k] {
                        eprintln!("  {}", i.text);
                    }
                }
            }
            assert!(
                t <= r + extra,
                "sm_{}: {typed} has {t} instructions, {raw} {r} (at most {extra} more allowed)",
                p.sm
            );
        }
    }
}

/// SASS of `tile<32>.sync()` in `cg-lab sync`'s loop (sm_80, sm_90): ptxas
/// proves the warp converged at every `bar.warp.sync -1`, so neither sync
/// costs an instruction (no `BRA.DIV` convergence test, no `WARPSYNC`) —
/// NVIDIA's shape. A thread-dependent branch before the loop (as the
/// division-by-zero check of `% tile.num_threads()` was) puts a `BRA.DIV`
/// before each sync (63 against NVIDIA's 49 cycles per sync on the H200).
#[test]
fn tile32_sync_needs_no_convergence_test_in_sass() {
    for p in LAB_PTX.ptx().iter().filter(|p| p.sm >= 80) {
        let small = extract_entries(p.ptx, &["sync_tile_32_1024"]);
        let Some(listing) = sass_of(&small, p.sm) else {
            return;
        };
        let ins = &listing["sync_tile_32_1024"];
        let ops: Vec<&str> = ins.iter().map(|i| i.opcode.as_str()).collect();
        assert_eq!(
            ops.iter().filter(|o| o.starts_with("STS")).count(),
            2,
            "sm_{}: {ops:?}",
            p.sm
        );
        assert!(
            !ops.iter()
                .any(|o| o.starts_with("BRA.DIV") || o.starts_with("WARPSYNC")),
            "sm_{}: a convergence test is left: {ops:?}",
            p.sm
        );
    }
}

/// cg-build's floating-point contraction policy (`cg_build::FpContract`,
/// the one `build.rs` recorded): in every SM's PTX `a * b + c` is one
/// `fma.rn` under `fast` (nvcc's default) and `mul.rn` + `add.rn` under
/// `off`; `core::f{32,64}::math::mul_add` is one `fma.rn` under both. In
/// SASS (sm_90, the wheels' ptxas) the `.rn` forms stay two instructions:
/// ptxas fuses only a plain `mul` and `add`.
#[test]
fn fp_contraction_follows_the_policy_and_mul_add_is_one_fma() {
    let policy = env!("CG_LAB_FP_CONTRACT");
    let fast = match policy {
        "fast" => true,
        "off" => false,
        other => panic!("unknown policy {other}"),
    };
    for (sm, ptx) in ptx_files() {
        for t in ["f32", "f64"] {
            let fma = format!("fma.rn.{t}");
            let mul = ins_of(&["mul.rn.", "mul."], t);
            let add = ins_of(&["add.rn.", "add."], t);
            let k = entry(ptx, &format!("probe_mul_add_{t}"));
            assert_eq!(count(&k, &fma), 1, "sm_{sm} mul_add {t}: {k:#?}");
            assert_eq!(count_any(&k, &mul), 0, "sm_{sm} mul_add {t}: {k:#?}");
            let k = entry(ptx, &format!("probe_mul_then_add_{t}"));
            let want = if fast { (1, 0, 0) } else { (0, 1, 1) };
            assert_eq!(
                (count(&k, &fma), count_any(&k, &mul), count_any(&k, &add)),
                want,
                "sm_{sm} a * b + c on {t}, policy {policy}: {k:#?}"
            );
            if !fast {
                assert_eq!(count(&k, &format!("mul.rn.{t}")), 1, "sm_{sm}: {k:#?}");
                assert_eq!(count(&k, &format!("add.rn.{t}")), 1, "sm_{sm}: {k:#?}");
            }
        }
    }
    let Some(p) = TEST_PTX.ptx().iter().find(|p| p.sm == 90) else {
        return;
    };
    let names = [
        "probe_mul_then_add_f32",
        "probe_mul_then_add_f64",
        "probe_mul_add_f32",
        "probe_mul_add_f64",
    ];
    let small = extract_entries(p.ptx, &names);
    let Some(listing) = sass_of(&small, 90) else {
        return;
    };
    let ops = |k: &str| -> Vec<String> {
        listing[k]
            .iter()
            .map(|i| i.opcode.split('.').next().unwrap_or("").to_string())
            .filter(|o| ["FFMA", "FMUL", "FADD", "DFMA", "DMUL", "DADD"].contains(&o.as_str()))
            .collect()
    };
    let two = |fused: &str, m: &str, a: &str| -> Vec<String> {
        if fast {
            vec![fused.to_string()]
        } else {
            vec![m.to_string(), a.to_string()]
        }
    };
    assert_eq!(ops("probe_mul_add_f32"), ["FFMA"]);
    assert_eq!(ops("probe_mul_add_f64"), ["DFMA"]);
    assert_eq!(ops("probe_mul_then_add_f32"), two("FFMA", "FMUL", "FADD"));
    assert_eq!(ops("probe_mul_then_add_f64"), two("DFMA", "DMUL", "DADD"));
}

/// `mul.rn.f32`, `mul.f32`, … : the instruction prefixes `forms` of type `t`.
fn ins_of(forms: &[&str], t: &str) -> Vec<String> {
    forms.iter().map(|f| format!("{f}{t}")).collect()
}

/// Instructions that start with any of `ops`.
fn count_any(ins: &[String], ops: &[String]) -> usize {
    ins.iter()
        .filter(|l| ops.iter().any(|op| l.starts_with(op.as_str())))
        .count()
}

/// The `reps` loops of the lab's kernels on tiles of at most 32 threads run
/// 4 rounds per trip (`cooperative_groups::unroll::<4>`), the shape nvcc
/// gives their C++ twins (LLVM unrolls no loop that holds a collective by
/// itself): 4 copies of the round in the loop and 1 in the remainder loop.
/// The loops of the multi-warp tiles stay rolled (one copy), as nvcc's do.
#[test]
fn warp_reps_loops_run_four_rounds_per_trip() {
    for p in LAB_PTX.ptx() {
        let sm = p.sm;
        for t in [8u32, 16, 32] {
            let k = entry(p.ptx, &format!("cg_scan_{t}"));
            let steps = t.trailing_zeros() as usize;
            assert_eq!(
                count(&k, "shfl.sync.up"),
                5 * steps,
                "sm_{sm} cg_scan_{t}: {k:#?}"
            );
        }
        let k = entry(p.ptx, "reduce_tile32");
        assert_eq!(count(&k, "shfl.sync.down"), 25, "sm_{sm}: {k:#?}");
        assert_eq!(count(&k, "shfl.sync.idx"), 5, "sm_{sm}: {k:#?}");
        // cg_reduce_32 (also `warp_reduce`'s kernel): its tree, or its
        // redux on integers, once per round.
        let k = entry(p.ptx, "cg_reduce_32");
        assert_eq!(count(&k, "shfl.sync.bfly"), 25, "sm_{sm}: {k:#?}");
        for k in ["cg_scan_64", "cg_scan_64_max128", "cg_scan_128_max256"] {
            let ins = entry(p.ptx, k);
            assert_eq!(count(&ins, "shfl.sync.up"), 5, "sm_{sm} {k}: {ins:#?}");
        }
    }
}

/// SASS (sm_90): the run-time-size block kernels dispatch on the size once
/// per launch (`specialize_block!`), so their copy for 512 threads loops
/// as the kernel written for 512 threads (`with_threads::<512>()`) does:
/// from the first shuffle of a round to the loop's branch back, the same
/// shuffles, barriers, shared loads and stores, float operations and
/// branches — no per-round branch on the size. (ptxas may order them
/// differently, pick another move or predicate, or reload a parameter.)
#[test]
fn runtime_size_block_kernels_loop_as_the_sized_ones() {
    let Some(p) = LAB_PTX.ptx().iter().find(|p| p.sm == 90) else {
        return;
    };
    let pairs = [
        ("block_scan", "block_scan_512"),
        ("block_reduce", "block_reduce_512"),
    ];
    let names: Vec<&str> = pairs.iter().flat_map(|(a, b)| [*a, *b]).collect();
    let small = extract_entries(p.ptx, &names);
    let Some(listing) = sass_of(&small, 90) else {
        return;
    };
    let ops = |k: &str| -> Vec<String> { listing[k].iter().map(|i| i.opcode.clone()).collect() };
    let significant = |w: &[String]| -> Vec<String> {
        let mut v: Vec<String> = w
            .iter()
            .filter(|o| {
                [
                    "SHFL", "BAR", "LDS", "STS", "FADD", "FFMA", "BRA", "BSSY", "BSYNC", "WARPSYNC",
                ]
                .iter()
                .any(|p| o.starts_with(p))
            })
            .cloned()
            .collect();
        v.sort();
        v
    };
    for (runtime, sized) in pairs {
        let (r, s) = (ops(runtime), ops(sized));
        // The sized kernel's round: its first shuffle through the FFMA
        // that chains the rounds and the branch back.
        let first = s
            .iter()
            .position(|o| o.starts_with("SHFL"))
            .expect("a shuffle");
        let ffma = first
            + s[first..]
                .iter()
                .position(|o| o == "FFMA")
                .expect("the chain");
        let round = &s[first..ffma + 2];
        assert_eq!(round.last().map(String::as_str), Some("BRA"), "{round:?}");
        let want = significant(round);
        let found = (0..r.len()).filter(|&i| r[i] == round[0]).any(|i| {
            (round.len().saturating_sub(2)..=round.len() + 2)
                .filter(|&len| i + len <= r.len())
                .any(|len| r[i + len - 1] == "BRA" && significant(&r[i..i + len]) == want)
        });
        assert!(found, "{runtime} has no copy of {sized}'s round {round:?}");
    }
}

/// Atomics on an `AtomicSlice`'s elements use the `.global` state space,
/// as nvcc's on a global pointer: every `atom`/`red`/atomic `ld`/`st` of
/// `probe_atomic_slice` names `.global` in the PTX (after a
/// `cvta.to.global`), and assembles to the global SASS forms: `ATOMG`, no
/// generic `ATOM.E`, on sm_80 and sm_90, and `RED.E` (sm_80) / `REDG`
/// (sm_90) for the `red`, which on a generic address ptxas turns into an
/// `ATOM.E` whose result goes to `RZ` (an atomic that waits for its
/// answer).
#[test]
fn atomic_slice_accesses_are_global() {
    for p in LAB_PTX.ptx() {
        let ptx = extract_entries(p.ptx, &["probe_atomic_slice"]);
        let atomics: Vec<&str> = ptx
            .lines()
            .map(str::trim)
            .filter(|l| {
                [
                    "atom.",
                    "red.",
                    "ld.acquire",
                    "st.release",
                    "st.relaxed",
                    "ld.relaxed",
                ]
                .iter()
                .any(|w| l.contains(w))
            })
            .collect();
        assert!(
            atomics.len() >= 5,
            "sm_{}: red, fetch_add, cas, load and store expected, found {atomics:#?}",
            p.sm
        );
        for l in &atomics {
            assert!(
                l.contains(".global.") && l.contains("cvta.to.global.u64"),
                "sm_{}: an AtomicSlice access without .global: {l}",
                p.sm
            );
        }
        if p.sm < 80 {
            continue;
        }
        let Some(listing) = sass_of(&ptx, p.sm) else {
            return;
        };
        let ops: Vec<&str> = listing["probe_atomic_slice"]
            .iter()
            .map(|i| i.opcode.as_str())
            .filter(|o| o.starts_with("ATOM") || o.starts_with("RED"))
            .collect();
        assert!(
            ops.iter().filter(|o| o.starts_with("ATOMG")).count() >= 2
                && !ops.iter().any(|o| o.starts_with("ATOM.")),
            "sm_{}: ATOMG for the add and the cas, no generic ATOM: {ops:?}",
            p.sm
        );
        let red = if p.sm >= 90 { "REDG" } else { "RED.E" };
        assert!(
            ops.iter().any(|o| o.starts_with(red)),
            "sm_{}: the red as {red}: {ops:?}",
            p.sm
        );
    }
}

/// The software barrier of 64-thread tiles in blocks of more than 512
/// threads (`sync_tile_64_1024`): on sm_80+ an mbarrier per tile, every
/// thread arriving and waiting on its token (`mbarrier.try_wait` on sm_90,
/// `mbarrier.test_wait` on sm_80), with no flag spin; on sm_70 the pair of
/// release/acquire flags. The mbarrier API's kernels use the same
/// instructions. In SASS (sm_90, the library's kernel): the first `TRYWAIT` right after each
/// `ARRIVE`, with the retry loop's `YIELD` off that path (as one loop, ptxas
/// put the `YIELD` before every try: 498 cycles per sync on the H200
/// against 286), and the barrier's address read once, not per sync (no
/// `S2R` between the clock reads).
#[test]
fn tile64_software_barrier_is_an_mbarrier() {
    for p in LAB_PTX.ptx() {
        let (sm, ptx) = (p.sm, p.ptx);
        let ins = entry(ptx, "sync_tile_64_1024");
        let arrives = count(&ins, "mbarrier.arrive.shared.b64");
        let waits = ins
            .iter()
            .filter(|l| l.contains("mbarrier.try_wait.shared::cta.b64"))
            .count();
        let tests = ins
            .iter()
            .filter(|l| l.contains("mbarrier.test_wait.shared.b64"))
            .count();
        let flags = count(&ins, "ld.acquire.cta.shared.u32");
        match sm {
            90 => assert!(
                arrives == 2 && waits >= 2 && tests == 0 && flags == 0,
                "sm_90: {ins:#?}"
            ),
            80 => assert!(
                arrives == 2 && tests >= 2 && waits == 0 && flags == 0,
                "sm_80: {ins:#?}"
            ),
            _ => assert!(arrives == 0 && flags > 0, "sm_{sm}: {ins:#?}"),
        }
        if sm >= 80 {
            for k in ["sync_mbarrier_block", "sync_mbarrier_tile64_all"] {
                let ins = entry(ptx, k);
                assert_eq!(
                    count(&ins, "mbarrier.init.shared.b64"),
                    1,
                    "sm_{sm} {k}: {ins:#?}"
                );
                assert_eq!(
                    count(&ins, "mbarrier.arrive.shared.b64"),
                    2,
                    "sm_{sm} {k}: {ins:#?}"
                );
            }
        }
    }
    let Some(p) = LAB_PTX.ptx().iter().find(|p| p.sm == 90) else {
        return;
    };
    let small = extract_entries(p.ptx, &["sync_tile_64_1024"]);
    let Some(listing) = sass_of(&small, 90) else {
        return;
    };
    for k in ["sync_tile_64_1024"] {
        let ops: Vec<&str> = listing[k].iter().map(|i| i.opcode.as_str()).collect();
        let arrives: Vec<usize> = (0..ops.len())
            .filter(|&i| ops[i].starts_with("SYNCS.ARRIVE"))
            .collect();
        assert_eq!(arrives.len(), 2, "{k}: {ops:?}");
        for &a in &arrives {
            let next = ops[a + 1..]
                .iter()
                .find(|o| o.starts_with("SYNCS") || o.starts_with("YIELD"))
                .copied();
            assert!(
                next.is_some_and(|o| o.starts_with("SYNCS.PHASECHK")),
                "{k}: after an arrive comes {next:?}, not the first try: {ops:?}"
            );
        }
        let clocks: Vec<usize> = (0..ops.len())
            .filter(|&i| listing[k][i].text.contains("SR_CLOCKLO"))
            .collect();
        assert_eq!(clocks.len(), 2, "{k}: {ops:?}");
        let loop_ops = &ops[clocks[0]..*clocks.last().unwrap()];
        assert!(
            !loop_ops.iter().any(|o| o.starts_with("S2R")),
            "{k}: a special-register read inside the timed loop: {loop_ops:?}"
        );
    }
}

/// `Mbarrier::arrive_copy` on sm_90 (`probe_bulk_copy`): one
/// `mbarrier.arrive.expect_tx` and one `cp.async.bulk` completing on the
/// same barrier, a parity wait on it; ptxas assembles it (SASS `UBLKCP`,
/// the bulk-copy engine, and `SYNCS.ARRIVE.TRANS64`).
#[test]
fn bulk_copy_is_one_cp_async_bulk_on_the_mbarrier() {
    let Some(p) = ptx_files().into_iter().find(|(sm, _)| *sm == 90) else {
        return;
    };
    let ins = entry(p.1, "probe_bulk_copy");
    let text = ins.join("\n");
    assert_eq!(
        text.matches("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes")
            .count(),
        1,
        "{ins:#?}"
    );
    assert_eq!(
        text.matches("mbarrier.arrive.expect_tx.shared::cta.b64")
            .count(),
        1,
        "{ins:#?}"
    );
    assert!(
        text.contains("mbarrier.try_wait.parity.shared::cta.b64"),
        "{ins:#?}"
    );
    let Some(listing) = sass_of(p.1, 90) else {
        return;
    };
    let ops: Vec<&str> = listing["probe_bulk_copy"]
        .iter()
        .map(|i| i.opcode.as_str())
        .collect();
    assert!(ops.iter().any(|o| o.starts_with("UBLKCP")), "{ops:?}");
}

/// SASS of the small-label match and the shared atomics (sm_80, sm_90):
/// `VOTE.ANY` ballots and no `MATCH` (which issues on the MIO pipe and,
/// in the radix sort's ranking loop, saturated it); `ATOMS` for the
/// shared counter, no generic `ATOM`.
#[test]
fn match_bits_votes_and_shared_atomics_in_sass() {
    for p in TEST_PTX.ptx().iter().filter(|p| p.sm >= 80) {
        let names = ["probe_tile32_match_bits", "probe_shared_atomics"];
        let ptx = extract_entries(p.ptx, &names);
        let Some(listing) = sass_of(&ptx, p.sm) else {
            return;
        };
        let ops = |k: &str| -> Vec<&str> { listing[k].iter().map(|i| i.opcode.as_str()).collect() };
        let m = ops("probe_tile32_match_bits");
        assert!(
            m.iter().filter(|o| o.starts_with("VOTE")).count() >= 8
                && !m.iter().any(|o| o.starts_with("MATCH")),
            "sm_{}: ballots, no MATCH: {m:?}",
            p.sm
        );
        let a = ops("probe_shared_atomics");
        assert!(
            a.iter().filter(|o| o.starts_with("ATOMS")).count() == 2
                && !a
                    .iter()
                    .any(|o| o.starts_with("ATOM.") || o.starts_with("ATOMG")),
            "sm_{}: two ATOMS, no generic ATOM: {a:?}",
            p.sm
        );
    }
}

/// The tensor-copy kernels on sm_90 (`tma_copy`, `tma_transpose` with
/// dense and swizzled tiles — the layout is the map's, so the same
/// instructions): each
/// tile load is one `mbarrier.arrive.expect_tx` and one
/// `cp.async.bulk.tensor.2d` completing on the same barrier, each store one
/// `cp.async.bulk.tensor.2d` to global memory in its bulk group after one
/// proxy fence; ptxas assembles them to the copy engine's `UTMALDG` /
/// `UTMASTG`, and the map's descriptor stays in registers (no local
/// memory: a reference to the parameter would copy it there). The 1-D
/// `bulk_copy`: one bulk load and one bulk store, both `UBLKCP`.
#[test]
fn tensor_tile_copies_are_one_instruction_each() {
    let Some(ptx) = LAB_PTX.ptx().iter().find(|p| p.sm == 90).map(|p| p.ptx) else {
        return;
    };
    for name in ["tma_copy", "tma_transpose", "tma_transpose_swizzled"] {
        let text = entry(ptx, name).join("\n");
        // Two issue sites (the first tile, the next one in the loop).
        let loads = text
            .matches(
                "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes",
            )
            .count();
        assert_eq!(loads, 2, "{name}:\n{text}");
        assert_eq!(
            text.matches("mbarrier.arrive.expect_tx.shared::cta.b64")
                .count(),
            loads,
            "{name}"
        );
        assert_eq!(
            text.matches("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group")
                .count(),
            1,
            "{name}"
        );
        assert_eq!(
            text.matches("cp.async.bulk.commit_group").count(),
            1,
            "{name}"
        );
        assert_eq!(
            text.matches("fence.proxy.async.shared::cta").count(),
            1,
            "{name}"
        );
    }
    // The 1-D bulk copy: one bulk load on the mbarrier, one bulk store.
    let text = entry(ptx, "bulk_copy").join("\n");
    assert_eq!(
        text.matches("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes")
            .count(),
        1,
        "{text}"
    );
    assert_eq!(
        text.matches("cp.async.bulk.global.shared::cta.bulk_group")
            .count(),
        1,
        "{text}"
    );
    let Some(listing) = sass_of(ptx, 90) else {
        return;
    };
    let ops: Vec<&str> = listing["bulk_copy"]
        .iter()
        .map(|i| i.opcode.as_str())
        .collect();
    assert_eq!(
        ops.iter().filter(|o| o.starts_with("UBLKCP")).count(),
        2,
        "{ops:?}"
    );
    for name in ["tma_copy", "tma_transpose", "tma_transpose_swizzled"] {
        let ops = opcodes(&listing, name);
        assert!(
            ops.iter().any(|o| o.starts_with("UTMALDG.2D")),
            "{name}: {ops:?}"
        );
        assert!(
            ops.iter().any(|o| o.starts_with("UTMASTG.2D")),
            "{name}: {ops:?}"
        );
        assert!(
            !uses_local_memory(&ops),
            "{name} uses local memory: {ops:?}"
        );
    }
}

/// `#[kernel(launch_bounds(256))]` on the segmented sum reaches the PTX
/// entry as nvcc's `__launch_bounds__(256)` does: `.maxntid 256, 1, 1`
/// between the parameters and the body, no `.minnctapersm`;
/// `launch_bounds(256, 6, sm_90)` on the scan declares `.minnctapersm 6`
/// in the sm_90 PTX only (`launch_bounds(256, 8, sm_90)` on `Unique`: 8);
/// every entry that carries the macro's mark declares its bounds, and no
/// other entry does; the same for `block_dim` (`.reqntid`) and
/// `max_registers` (`.maxnreg`).
#[test]
fn launch_bounds_reach_the_entry_header() {
    for p in LAB_PTX.ptx() {
        for (name, blocks) in [
            ("device_scan_i32", 6),
            ("device_scan_f32", 6),
            ("device_select_unique_i32", 8),
        ] {
            let header = entry_header(p.ptx, name);
            let want = if p.sm == 90 {
                format!(")\n.maxntid 256, 1, 1\n.minnctapersm {blocks}")
            } else {
                ")\n.maxntid 256, 1, 1".to_string()
            };
            assert!(header.ends_with(&want), "sm_{}: {name}: {header}", p.sm);
        }
        for name in ["device_segmented_reduce_i32", "device_segmented_reduce_f32"] {
            let header = entry_header(p.ptx, name);
            assert!(
                header.ends_with(")\n.maxntid 256, 1, 1"),
                "sm_{}: {name}: {header}",
                p.sm
            );
            assert!(!header.contains(".minnctapersm"), "sm_{}: {name}", p.sm);
        }
        // As many directives as the macro left marks (no entry loses its
        // own, none gets another's: the headers above are checked too).
        for (mark, directive, least) in [
            ("// cg-launch-bounds ", "\n.maxntid ", 2),
            ("// cg-block-dim ", "\n.reqntid ", 63),
            ("// cg-max-registers ", "\n.maxnreg ", 2),
        ] {
            let marks = p.ptx.matches(mark).count();
            let declared = p.ptx.matches(directive).count();
            assert_eq!(marks, declared, "sm_{}: {mark:?} and {directive:?}", p.sm);
            assert!(marks >= least, "sm_{}: {mark:?}", p.sm);
        }
    }
}

/// The primitives' kernels declare their blocks (`#[kernel(block_dim(B))]`:
/// `.reqntid B, 1, 1`), and then know them: no read of `%ntid`, `%tid.y`
/// or `%tid.z`, no `trap` (the block-size check of `with_threads`, the
/// tile partition's, and the slices' bounds checks on the rank fold away;
/// the histograms keep the check of a tile index from their loop),
/// as CUB's twins, written for `blockDim.x == B`, check nothing. The
/// copies check their block size at run time, as before.
#[test]
fn declared_blocks_need_no_block_checks() {
    let copies = [
        "copy_direct",
        "copy_striped",
        "copy_vectorize",
        "copy_transpose",
        "copy_warp_transpose",
        "warp_copy_direct",
        "warp_copy_striped",
        "warp_copy_vectorize",
        "warp_copy_transpose",
    ];
    for p in LAB_PTX.ptx() {
        let mut declared = 0;
        for start in p.ptx.match_indices(".visible .entry prim_").map(|(i, _)| i) {
            let name = p.ptx[start + ".visible .entry ".len()..]
                .split('(')
                .next()
                .unwrap();
            let (stem, b) = name["prim_".len()..].rsplit_once('_').unwrap();
            let text = entry_text(p.ptx, name);
            let header = entry_header(p.ptx, name);
            if copies.contains(&stem) {
                assert!(!header.contains(".reqntid"), "sm_{}: {name}", p.sm);
                continue;
            }
            // The block shuffles up and down at 128 threads also cap their
            // registers at CUB's 24 (`max_registers(24)`).
            let regs = if b == "128" && (stem == "shuffle_up" || stem == "shuffle_down") {
                "\n.maxnreg 24"
            } else {
                ""
            };
            assert!(
                header.ends_with(&format!(")\n.reqntid {b}, 1, 1{regs}")),
                "sm_{}: {name}: {header}",
                p.sm
            );
            for reg in ["%ntid", "%tid.y", "%tid.z"] {
                assert!(!text.contains(reg), "sm_{}: {name} has {reg}", p.sm);
            }
            // The histograms' tile slices (`bytes[t * tile..]`, a tile
            // index from the loop) keep their bounds check.
            if !stem.starts_with("histo_") {
                assert!(!text.contains("trap;"), "sm_{}: {name} has a trap", p.sm);
            }
            declared += 1;
        }
        // 21 kernels at three block sizes.
        assert_eq!(declared, 63, "sm_{}", p.sm);
    }
}

/// The device-wide kernels staged in shared memory (the scan, the
/// selections, the partitions, the encoding) copy their tiles with 16-byte
/// `cp.async` (`LDGSTS`) on sm_80 and later, and keep their per-item arrays
/// in registers (`unroll!`): no local memory, and no spills in the sm_90
/// SASS. `Unique` counts a whole tile's run heads with `ld.shared.v4`.
/// Each shape was measured; losing one is a regression the timings would
/// show only on a GPU.
#[test]
fn staged_device_kernels_copy_with_cp_async_and_use_no_local_memory() {
    let kernels = [
        "device_scan_i32",
        "device_scan_f32",
        "device_select_flagged_i32",
        "device_select_if_i32",
        "device_select_unique_i32",
        "device_partition_flagged_i32",
        "device_partition_if_i32",
        "device_rle_encode_i32",
    ];
    for p in LAB_PTX.ptx().iter().filter(|p| p.sm >= 80) {
        for name in kernels {
            let text = entry_text(p.ptx, name);
            let copies = text
                .matches("cp.async.cg.shared.global [d32], [s], 16;")
                .count();
            assert!(copies >= 1, "sm_{}: {name} has no 16-byte cp.async", p.sm);
            assert!(
                text.contains("cp.async.wait_group"),
                "sm_{}: {name} never waits for its copies",
                p.sm
            );
            assert!(
                !text.contains(".local"),
                "sm_{}: {name} uses local memory",
                p.sm
            );
        }
        // `Unique` counts a whole tile's run heads by 16-byte shared loads.
        let unique = entry_text(p.ptx, "device_select_unique_i32");
        assert!(
            unique.contains("ld.shared.v4.b32"),
            "sm_{}: Unique's count by vectors",
            p.sm
        );
        // Nor does ptxas spill them (at 32 registers for `Unique` on sm_90,
        // where a written-out count spilled).
        if p.sm != 90 {
            continue;
        }
        let Some(listing) = sass_of(p.ptx, 90) else {
            return;
        };
        for name in kernels {
            let spills = listing[name]
                .iter()
                .filter(|i| i.opcode.starts_with("LDL") || i.opcode.starts_with("STL"))
                .count();
            assert_eq!(spills, 0, "sm_90: {name} spills");
        }
    }
}

/// SASS (sm_90) of the block and warp primitives whose shape was matched
/// to CUB's, so that a change that loses it fails here rather than only in
/// a timed run on a GPU:
///
/// * `WarpScan` of `u32` sums: each step of the thread totals' scan is a
///   `SHFL.UP` that defines a predicate and, within the next two
///   instructions, the add guarded by that predicate (CUB's two
///   instructions), not an add of a select (a `SEL` per step cost 1.13×
///   CUB's time on the H200);
/// * the sort-based `BlockHistogram` (its radix passes written out) and
///   `BlockRunLengthDecode` are inlined into their kernels: no helper
///   returns (`RET`) and nothing lives in local memory or on the stack
///   (`LDL`/`STL`, generic `LD`/`ST`) — a pass written as a closure called
///   twice was not inlined and kept its arrays on the stack.
#[test]
fn primitives_keep_their_cub_shape_in_sass() {
    let Some(ptx) = LAB_PTX.ptx().iter().find(|p| p.sm == 90).map(|p| p.ptx) else {
        return;
    };
    let Some(listing) = sass_of(ptx, 90) else {
        return;
    };
    for b in [128, 256, 512] {
        let name = format!("prim_warp_scan_{b}");
        let ins = &listing[&name];
        let mut steps = 0;
        for (k, i) in ins.iter().enumerate() {
            if !i.opcode.starts_with("SHFL.UP") {
                continue;
            }
            let after_opcode = i.text.split_once(&i.opcode).map_or("", |(_, rest)| rest);
            let pred = after_opcode.split(',').next().unwrap_or("").trim();
            assert!(pred.starts_with('P'), "{name}: {}", i.text);
            let guard = format!("@{pred}");
            let added = ins[k + 1..(k + 3).min(ins.len())].iter().any(|j| {
                j.guard == guard
                    && (j.opcode.starts_with("IADD") || j.opcode.starts_with("IMAD.IADD"))
            });
            assert!(added, "{name}: no add guarded by {pred} after {}", i.text);
            steps += 1;
        }
        // Five steps per scan of the thread totals, in every unrolled round.
        assert!(steps >= 5 && steps % 5 == 0, "{name}: {steps} steps");
        // Capped at 24 registers, the block shuffles at 128 threads spill
        // nothing.
        if b == 128 {
            for side in ["up", "down"] {
                let name = format!("prim_shuffle_{side}_128");
                let local = listing[&name]
                    .iter()
                    .any(|i| i.opcode.starts_with("LDL") || i.opcode.starts_with("STL"));
                assert!(!local, "{name} spills");
            }
        }
        // The neighbour differences: thread 0's (the last thread's) item is
        // a predicated subtract, as CUB's, not a select of the neighbour
        // and an unconditional one (1.02x CUB's time at 512 threads).
        for side in ["left", "right"] {
            let name = format!("prim_adjacent_{side}_{b}");
            let ins = &listing[&name];
            assert!(!ins.iter().any(|i| i.opcode.starts_with("SEL")), "{name}");
            let predicated = ins.iter().filter(|i| {
                i.guard.starts_with("@P")
                    && (i.opcode.starts_with("IADD") || i.opcode.starts_with("IMAD.IADD"))
            });
            assert!(predicated.count() >= 4, "{name}: no predicated subtract");
        }
        for kernel in ["prim_histo_sort", "prim_run_length_decode"] {
            let name = format!("{kernel}_{b}");
            let ops: Vec<&str> = listing[&name].iter().map(|i| i.opcode.as_str()).collect();
            let stack = |o: &&str| {
                o.starts_with("RET")
                    || o.starts_with("LDL")
                    || o.starts_with("STL")
                    || o.starts_with("LD.")
                    || o.starts_with("ST.")
            };
            assert!(!ops.iter().any(stack), "{name}: {ops:?}");
        }
    }
}

/// Vectors (`cooperative_groups::vector`): a `GlobalSlice<f32>`'s aligned
/// middle read as `F32x4` is one 128-bit read-only load, a shared
/// `F32x4` one `STS.128` and one `LDS.128` (not a generic `ST.E.128`), an
/// owned `F32x4` element one `STG.E.128` — and no narrower access of them.
#[test]
fn vector_accesses_are_128_bit_in_sass() {
    for p in LAB_PTX.ptx().iter().filter(|p| p.sm >= 80) {
        let small = extract_entries(p.ptx, &["probe_vector_copy"]);
        let Some(listing) = sass_of(&small, p.sm) else {
            return;
        };
        let ops: Vec<&str> = listing["probe_vector_copy"]
            .iter()
            .map(|i| i.opcode.as_str())
            .collect();
        let n = |op: &str| ops.iter().filter(|o| **o == op).count();
        let sm = p.sm;
        assert_eq!(n("LDG.E.128.CONSTANT"), 1, "sm_{sm}: {ops:?}");
        assert_eq!(n("STS.128"), 1, "sm_{sm}: {ops:?}");
        assert_eq!(n("LDS.128"), 1, "sm_{sm}: {ops:?}");
        assert_eq!(n("STG.E.128"), 1, "sm_{sm}: {ops:?}");
        let memory = memory_ops(&listing, "probe_vector_copy").len();
        assert_eq!(memory, 4, "sm_{sm}: another memory access: {ops:?}");
    }
}

/// Cache hints (`cooperative_groups::cache`): the streaming
/// read-modify-write of `F32x4`s loads both operands with evict-first
/// 128-bit loads and stores with an evict-first 128-bit store (`__ldcs` /
/// `__stcs`), and no access without the hint.
#[test]
fn streaming_hints_are_evict_first_in_sass() {
    for p in LAB_PTX.ptx().iter().filter(|p| p.sm >= 80) {
        let ptx = entry_text(p.ptx, "probe_streaming_rmw");
        assert_eq!(ptx.matches("ld.global.cs.v4.b32").count(), 2, "sm_{}", p.sm);
        assert_eq!(ptx.matches("st.global.cs.v4.b32").count(), 1, "sm_{}", p.sm);
        let small = extract_entries(p.ptx, &["probe_streaming_rmw"]);
        let Some(listing) = sass_of(&small, p.sm) else {
            return;
        };
        let ops: Vec<&str> = listing["probe_streaming_rmw"]
            .iter()
            .map(|i| i.opcode.as_str())
            .filter(|o| o.starts_with("LDG") || o.starts_with("STG"))
            .collect();
        eprintln!("sm_{}: {ops:?}", p.sm);
        assert!(!ops.is_empty(), "sm_{}: no global access", p.sm);
        assert!(
            ops.iter().all(|o| o.contains(".EF") && o.contains(".128")),
            "sm_{}: {ops:?}",
            p.sm
        );
        assert_eq!(ops.iter().filter(|o| o.starts_with("STG")).count(), 1);
    }
}

/// The opcodes of kernel `name` in `listing`, in order.
fn opcodes<'a>(listing: &'a cg_runtime::sass::Listing, name: &str) -> Vec<&'a str> {
    listing[name].iter().map(|i| i.opcode.as_str()).collect()
}

/// Whether any of `ops` touches local memory (`LDL`/`STL`: a register
/// array or spill the compiler could not keep in registers).
fn uses_local_memory<S: AsRef<str>>(ops: &[S]) -> bool {
    ops.iter()
        .any(|o| o.as_ref().starts_with("LDL") || o.as_ref().starts_with("STL"))
}

/// The global, shared and generic memory opcodes of kernel `name` in
/// `listing`.
fn memory_ops(listing: &cg_runtime::sass::Listing, name: &str) -> Vec<String> {
    listing[name]
        .iter()
        .map(|i| i.opcode.clone())
        .filter(|o| {
            ["LD.", "ST.", "LDG", "STG", "LDS", "STS", "LDL", "STL"]
                .iter()
                .any(|m| o.starts_with(m))
        })
        .collect()
}

/// Rows of run-time width written as vectors (`OwnedPitched<f32,
/// TileRows<32, 4>>`, `row.striped_vec()`, `x.row(y).load_vec`): the
/// aligned path is one 16-byte read-only load and one 16-byte store
/// (`LDG.E.128.CONSTANT`, `STG.E.128`), the misaligned fallback and the
/// tail scalar accesses; no local memory.
#[test]
fn vector_rows_are_128_bit_in_sass() {
    for p in LAB_PTX.ptx().iter().filter(|p| p.sm >= 80) {
        let ptx = entry_text(p.ptx, "probe_rows_vec");
        let sm = p.sm;
        assert!(ptx.contains("st.global.v4.b32"), "sm_{sm}: no vector store");
        assert!(
            ptx.contains("ld.global.nc.v4.b32"),
            "sm_{sm}: no vector load"
        );
        let small = extract_entries(p.ptx, &["probe_rows_vec"]);
        let Some(listing) = sass_of(&small, p.sm) else {
            return;
        };
        if std::env::var("CG_SHOW_SASS").is_ok() {
            for i in &listing["probe_rows_vec"] {
                eprintln!("  {}", i.text);
            }
        }
        let ops = memory_ops(&listing, "probe_rows_vec");
        eprintln!("sm_{sm}: {ops:?}");
        let n = |op: &str| ops.iter().filter(|o| *o == op).count();
        assert_eq!(n("STG.E.128"), 1, "sm_{sm}: {ops:?}");
        assert_eq!(n("LDG.E.128.CONSTANT"), 1, "sm_{sm}: {ops:?}");
        assert!(!uses_local_memory(&ops), "sm_{sm}: local memory: {ops:?}");
    }
}

/// A `SharedSlice<F32x4>` (here a run of the dynamic shared memory): its
/// store and load are one `STS.128` and one `LDS.128` — through the
/// `.shared` window, not a generic `ST.E.128`/`LD.E.128`.
#[test]
fn shared_slice_vectors_are_lds_sts_128_in_sass() {
    for p in LAB_PTX.ptx().iter().filter(|p| p.sm >= 80) {
        let small = extract_entries(p.ptx, &["probe_shared_slice_vec"]);
        let Some(listing) = sass_of(&small, p.sm) else {
            return;
        };
        let ops = memory_ops(&listing, "probe_shared_slice_vec");
        let sm = p.sm;
        eprintln!("sm_{sm}: {ops:?}");
        let n = |op: &str| ops.iter().filter(|o| *o == op).count();
        assert_eq!(n("STS.128"), 1, "sm_{sm}: {ops:?}");
        assert_eq!(n("LDS.128"), 1, "sm_{sm}: {ops:?}");
        assert!(
            !ops.iter()
                .any(|o| o.starts_with("LD.") || o.starts_with("ST.")),
            "sm_{sm}: a generic access: {ops:?}"
        );
    }
}

/// L1/L2 eviction priorities and cache policies (`cache::L2EvictLast`,
/// `L1NoAllocate`, `L2EvictFirst`, `CachePolicy`): the PTX carries the
/// qualifiers (`ld.global.nc.L1::no_allocate`; the L2 priorities as
/// `createpolicy.fractional.L2::evict_{first,last}` policies on
/// `ld.global.nc.L2::cache_hint`, `ld/st.global.L2::cache_hint`), and the
/// SASS keeps its 128-bit accesses, the L1 one as `LDG.E.NA.128.CONSTANT`
/// (a policy is carried by the access's descriptor, not its opcode).
#[test]
fn eviction_hints_are_in_ptx_and_sass() {
    for p in LAB_PTX.ptx().iter().filter(|p| p.sm >= 90) {
        let ptx = entry_text(p.ptx, "probe_eviction_hints");
        let sm = p.sm;
        for q in [
            "ld.global.nc.L1::no_allocate.v4.b32",
            "createpolicy.fractional.L2::evict_first.b64",
            "createpolicy.fractional.L2::evict_last.b64",
            "ld.global.nc.L2::cache_hint.v4.b32",
            "ld.global.L2::cache_hint.v4.b32",
            "st.global.L2::cache_hint.v4.b32",
        ] {
            assert!(ptx.contains(q), "sm_{sm}: no {q}");
        }
        let small = extract_entries(p.ptx, &["probe_eviction_hints"]);
        let Some(listing) = sass_of(&small, p.sm) else {
            return;
        };
        let ops = memory_ops(&listing, "probe_eviction_hints");
        eprintln!("sm_{sm}: {ops:?}");
        if std::env::var("CG_SHOW_SASS").is_ok() {
            for i in &listing["probe_eviction_hints"] {
                eprintln!("  {}", i.text);
            }
        }
        assert!(ops.iter().all(|o| o.contains(".128")), "sm_{sm}: {ops:?}");
        // `.L1::no_allocate` is an opcode qualifier (`.NA`); a policy
        // travels in the access's descriptor (`desc[UR..]`), not the opcode.
        let na = ops.iter().filter(|o| *o == "LDG.E.NA.128.CONSTANT").count();
        assert_eq!(na, 1, "sm_{sm}: {ops:?}");
    }
}

/// The opcodes of the first loop of a kernel's `listing`: from its first
/// global load to the guarded branch after it (the loop's back edge), the
/// read-only load written as the plain one.
fn first_loop(listing: &[cg_runtime::sass::Instr]) -> Vec<String> {
    let ld = listing
        .iter()
        .position(|i| i.opcode.starts_with("LDG"))
        .expect("a load");
    let back = ld
        + listing[ld..]
            .iter()
            .position(|i| i.opcode == "BRA" && !i.guard.is_empty())
            .expect("a loop");
    listing[ld..=back]
        .iter()
        .map(|i| {
            i.opcode
                .replace("LDG.E.CONSTANT", "LDG.E")
                .replace("IMAD.IADD", "IADD3")
        })
        .collect()
}

/// Rows of run-time width (`OwnedPitched<f32, TileRows<32>>`, a row per
/// warp): the typed kernel checks its input row once per row (`row`,
/// `prefix`), so its inner loop — the lanes' strided walk along the row —
/// has no bounds check, and is no longer than the raw form's.
#[test]
fn run_time_rows_loop_has_no_check_in_sass() {
    for p in LAB_PTX.ptx().iter().filter(|p| p.sm >= 80) {
        let small = extract_entries(p.ptx, &["probe_rows_raw", "probe_rows_typed"]);
        let Some(listing) = sass_of(&small, p.sm) else {
            return;
        };
        if std::env::var("CG_SHOW_SASS").is_ok() {
            for k in ["probe_rows_raw", "probe_rows_typed"] {
                eprintln!("== {k}");
                for i in &listing[k] {
                    eprintln!("  {}", i.text);
                }
            }
        }
        let raw = first_loop(&listing["probe_rows_raw"]);
        let typed = first_loop(&listing["probe_rows_typed"]);
        let sm = p.sm;
        let n = |l: &[String], op: &str| l.iter().filter(|o| o.starts_with(op)).count();
        // One load, one store, one branch (the back edge: no check), and
        // no more instructions than the raw loop (whose `while` ptxas
        // lays out with a convergence region; the typed `step_by` loop
        // counts its trips).
        assert_eq!(n(&typed, "LDG"), 1, "sm_{sm}: {typed:?}");
        assert_eq!(n(&typed, "STG"), 1, "sm_{sm}: {typed:?}");
        assert_eq!(
            n(&typed, "BRA"),
            1,
            "sm_{sm}: a check in the loop: {typed:?}"
        );
        assert!(
            typed.len() <= raw.len(),
            "sm_{sm}: typed loop {typed:?} longer than raw {raw:?}"
        );
    }
}

/// A thread's 8 × 8 register tile (`OwnedPitched<f32, ThreadTiles<8, 8>>`):
/// the accumulator stays in registers (no local memory: no `LDL`/`STL`, no
/// stack), and `store_all` of a full tile is 64 stores with no check
/// between them.
#[test]
fn thread_tile_accumulator_stays_in_registers() {
    for p in LAB_PTX.ptx().iter().filter(|p| p.sm >= 80) {
        let small = extract_entries(p.ptx, &["probe_thread_tile_gemm"]);
        let Some(listing) = sass_of(&small, p.sm) else {
            return;
        };
        let ins = &listing["probe_thread_tile_gemm"];
        if std::env::var("CG_SHOW_SASS").is_ok() {
            for i in ins {
                eprintln!("  {}", i.text);
            }
        }
        let ops: Vec<&str> = ins.iter().map(|i| i.opcode.as_str()).collect();
        assert!(
            !uses_local_memory(&ops),
            "sm_{}: local memory: {ops:?}",
            p.sm
        );
        let stores: Vec<usize> = ops
            .iter()
            .enumerate()
            .filter(|(_, o)| o.starts_with("STG"))
            .map(|(k, _)| k)
            .collect();
        assert_eq!(stores.len(), 64, "sm_{}: {ops:?}", p.sm);
        let span = &ops[stores[0]..=stores[63]];
        assert!(
            !span
                .iter()
                .any(|o| o.starts_with("BRA") || o.starts_with("ISETP")),
            "sm_{}: a check among the stores: {span:?}",
            p.sm
        );
    }
}

/// The warp MMA (`cooperative_groups::mma`): one tensor-core instruction
/// per `mma` — `HMMA.16816.F32.BF16` for bf16 inputs, `HMMA.16816.F32` for
/// f16 — and no local memory for the fragments.
#[test]
fn warp_mma_is_one_hmma_in_sass() {
    for p in LAB_PTX.ptx().iter().filter(|p| p.sm >= 80) {
        for (kernel, hmma) in [
            ("probe_mma_bf16", "HMMA.16816.F32.BF16"),
            ("probe_mma_f16", "HMMA.16816.F32"),
        ] {
            let ptx = entry_text(p.ptx, kernel);
            assert_eq!(
                ptx.matches("mma.sync.aligned.m16n8k16.row.col.f32").count(),
                1,
                "sm_{}: {kernel}",
                p.sm
            );
            let small = extract_entries(p.ptx, &[kernel]);
            let Some(listing) = sass_of(&small, p.sm) else {
                return;
            };
            let ops = opcodes(&listing, kernel);
            assert_eq!(
                ops.iter().filter(|o| **o == hmma).count(),
                1,
                "sm_{}: {kernel}: {ops:?}",
                p.sm
            );
            assert!(
                !uses_local_memory(&ops),
                "sm_{}: {kernel}: local memory: {ops:?}",
                p.sm
            );
        }
    }
}

/// `MatrixA::load_shared` / `MatrixB::load_shared`: one `ldmatrix` each
/// (`LDSM.16.M88.4`, `LDSM.16.MT88.2`), feeding one `HMMA`.
#[test]
fn mma_operands_from_shared_are_ldmatrix_in_sass() {
    for p in LAB_PTX.ptx().iter().filter(|p| p.sm >= 80) {
        let kernel = "probe_mma_ldmatrix";
        let small = extract_entries(p.ptx, &[kernel]);
        let Some(listing) = sass_of(&small, p.sm) else {
            return;
        };
        let ops = opcodes(&listing, kernel);
        let n = |op: &str| ops.iter().filter(|o| **o == op).count();
        let sm = p.sm;
        assert_eq!(n("LDSM.16.M88.4"), 1, "sm_{sm}: {ops:?}");
        assert_eq!(n("LDSM.16.MT88.2"), 1, "sm_{sm}: {ops:?}");
        assert_eq!(n("HMMA.16816.F32.BF16"), 1, "sm_{sm}: {ops:?}");
        assert!(!uses_local_memory(&ops), "sm_{sm}: local memory: {ops:?}");
    }
}

/// The warp MMA with 8-bit inputs: one `mma.sync.aligned.m16n8k32` per
/// call, and in SASS one `IMMA.16832.S8.S8` / `.U8.U8` for the integers.
/// The 8-bit floats need sm_89 (on sm_80 the call is a trap): Hopper has
/// no `mma.sync` for them in hardware — ptxas converts the operands and
/// issues two `HMMA.16816.F32` (f16 rate); its native fp8 tensor path is
/// `wgmma`.
#[test]
fn warp_mma8_is_one_tensor_instruction_in_sass() {
    for p in LAB_PTX.ptx().iter().filter(|p| p.sm >= 80) {
        for (kernel, ptx_op, min_sm) in [
            (
                "probe_mma_int_i8",
                "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32",
                80,
            ),
            (
                "probe_mma_int_u8",
                "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32",
                80,
            ),
            (
                "probe_mma_fp8_e4m3",
                "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32",
                89,
            ),
            (
                "probe_mma_fp8_e5m2",
                "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32",
                89,
            ),
        ] {
            if p.sm < min_sm {
                continue;
            }
            let ptx = entry_text(p.ptx, kernel);
            assert_eq!(ptx.matches(ptx_op).count(), 1, "sm_{}: {kernel}", p.sm);
            let small = extract_entries(p.ptx, &[kernel]);
            let Some(listing) = sass_of(&small, p.sm) else {
                return;
            };
            let ops = opcodes(&listing, kernel);
            let mma: Vec<&str> = ops.iter().copied().filter(|o| o.contains("MMA")).collect();
            let want: &[&str] = match (min_sm, p.sm) {
                (80, _) if kernel.ends_with("i8") => &["IMMA.16832.S8.S8"],
                (80, _) => &["IMMA.16832.U8.U8"],
                (_, 90) => &["HMMA.16816.F32", "HMMA.16816.F32"],
                _ => &[],
            };
            assert_eq!(mma, want, "sm_{}: {kernel}: {ops:?}", p.sm);
            // The 8-bit operands' loads take the global (read-only) path,
            // not a generic `LD.E.U8`.
            assert!(
                !ops.iter()
                    .any(|o| o.starts_with("LD.") || o.starts_with("ST.")),
                "sm_{}: {kernel}: a generic access: {ops:?}",
                p.sm
            );
            assert!(
                !uses_local_memory(&ops),
                "sm_{}: {kernel}: local memory: {ops:?}",
                p.sm
            );
        }
    }
}

/// The warpgroup MMA (sm_90a): the probe is four `HGMMA.64x64x16` (one
/// batch of four K steps), the GEMM's batches are `HGMMA.64x256x16` four at
/// a time, neither touches local memory, and ptxas serializes none of the
/// GEMM's `wgmma`s (no "Potential Performance Loss" in its `-v` report: no
/// fence of its own, no accumulator register defined inside a pipeline
/// stage). The portable PTX has no `wgmma` (its calls trap).
#[test]
fn wgmma_is_hgmma_in_sass_and_never_serialized() {
    for p in LAB_PTX.ptx() {
        let gemm = entry_text(p.ptx, "gemm_wgmma_bf16");
        if !p.arch_specific {
            assert!(
                !gemm.contains("wgmma.mma_async"),
                "sm_{}: wgmma in portable PTX",
                p.sm
            );
            continue;
        }
        let Some(ptxas) = cg_runtime::tools::require_tool_in_ci("ptxas") else {
            return;
        };
        for (kernel, hgmma, at_least) in [
            ("probe_wgmma_bf16", "HGMMA.64x64x16.F32.BF16", 4),
            ("gemm_wgmma_bf16", "HGMMA.64x256x16.F32.BF16", 4),
        ] {
            // The whole module: the GEMM's checked slices can call the
            // module's panic handler, which an extract would lack.
            let log = common::assemble(&ptxas, p.ptx, p.sm).unwrap().log;
            let losses: Vec<&str> = log
                .lines()
                .filter(|l| l.contains("Potential Performance Loss") && l.contains(kernel))
                .collect();
            assert!(losses.is_empty(), "sm_{}a: {kernel}: {losses:?}", p.sm);
            let Some(listing) = sass_of(p.ptx, p.sm) else {
                return;
            };
            let ops = opcodes(&listing, kernel);
            let n = ops.iter().filter(|o| o.starts_with(hgmma)).count();
            assert!(
                n >= at_least && n.is_multiple_of(4),
                "sm_{}a: {kernel}: {n} × {hgmma}: {ops:?}",
                p.sm
            );
            assert!(
                !uses_local_memory(&ops),
                "sm_{}a: {kernel}: local memory: {ops:?}",
                p.sm
            );
        }
    }
}
