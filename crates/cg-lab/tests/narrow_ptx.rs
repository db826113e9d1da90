//! The 16-bit floats lower to their instructions, per SM: each
//! `cg_kernels::narrow` probe contains exactly the half-precision
//! instructions CUDA's headers use on that SM (`add.rn.bf16` on sm_90,
//! `fma.rn.bf16` with a constant on sm_80, none below: software), and a
//! bf16 `reduce` / `inclusive_scan` on a 32-thread tile is NVIDIA's tree:
//! five shuffles and five adds each.
//!
//! That the PTX assembles for sm_70/80/90 is `ptxas.rs`'s test (it
//! assembles every kernel of the module).

include!(concat!(env!("OUT_DIR"), "/lab_ptx.rs"));

/// The text of kernel `name`, from `.entry` to its closing brace.
fn entry_text<'a>(ptx: &'a str, name: &str) -> &'a str {
    let start = ptx
        .find(&format!(".entry {name}("))
        .unwrap_or_else(|| panic!("no kernel {name}"));
    let body = &ptx[start..];
    let close = body.find("\n}").expect("closing brace");
    &body[..close]
}

/// How often the instruction `op` (opcode and qualifiers, exactly) occurs
/// in kernel `name` (inline asm may put several on a line).
fn count(ptx: &str, name: &str, op: &str) -> usize {
    entry_text(ptx, name)
        .split([';', '\n', '{', '}'])
        .filter_map(|s| s.split_whitespace().next())
        .filter(|o| *o == op)
        .count()
}

/// Every instruction of kernel `name` whose opcode mentions a 16-bit
/// float type.
fn half_ops(ptx: &str, name: &str) -> Vec<String> {
    entry_text(ptx, name)
        .split([';', '\n', '{', '}'])
        .filter_map(|s| s.split_whitespace().next())
        .filter(|o| o.contains("f16") || o.contains("bf16"))
        .map(String::from)
        .collect()
}

/// `(instruction, count)` pins of one probe on one SM.
fn expect(ptx: &str, sm: u32, name: &str, want: &[(&str, usize)]) {
    for (op, n) in want {
        assert_eq!(
            count(ptx, name, op),
            *n,
            "sm_{sm} {name}: `{op}`; its half instructions: {:?}",
            half_ops(ptx, name)
        );
    }
}

#[test]
fn scalar_arithmetic_is_one_instruction_per_operation() {
    for p in LAB_PTX.ptx() {
        let (sm, ptx) = (p.sm, p.ptx);
        let f16 = [
            ("add.rn.f16", 1),
            ("sub.rn.f16", 1),
            ("mul.rn.f16", 1),
            ("fma.rn.f16", 1),
            ("min.f16", usize::from(sm >= 80)),
            ("max.f16", usize::from(sm >= 80)),
        ];
        expect(ptx, sm, "probe_f16_arith", &f16);
        let bf16: &[(&str, usize)] = if sm >= 90 {
            &[
                ("add.rn.bf16", 1),
                ("sub.rn.bf16", 1),
                ("mul.rn.bf16", 1),
                ("fma.rn.bf16", 1),
                ("min.bf16", 1),
                ("max.bf16", 1),
            ]
        } else if sm >= 80 {
            // `a + b` = fma(a, 1, b), `a - b` = fma(b, -1, a), `a · b` =
            // fma(a, b, -0): four fmas with the real one.
            &[
                ("add.rn.bf16", 0),
                ("fma.rn.bf16", 4),
                ("min.bf16", 1),
                ("max.bf16", 1),
            ]
        } else {
            &[]
        };
        expect(ptx, sm, "probe_bf16_arith", bf16);
        if sm < 80 {
            // No bf16 instruction exists: all in software (f32 and integers).
            assert_eq!(
                half_ops(ptx, "probe_bf16_arith"),
                Vec::<String>::new(),
                "sm_{sm}"
            );
        }
    }
}

#[test]
fn conversions_are_single_cvts() {
    for p in LAB_PTX.ptx() {
        let (sm, ptx) = (p.sm, p.ptx);
        let name = "probe_convert";
        assert!(count(ptx, name, "cvt.rn.f16.f32") >= 1, "sm_{sm}");
        expect(ptx, sm, name, &[("cvt.f32.f16", 1)]);
        expect(
            ptx,
            sm,
            name,
            &[
                ("cvt.rn.bf16.f32", usize::from(sm >= 80)),
                ("cvt.f32.bf16", usize::from(sm >= 90)),
                ("cvt.rn.bf16x2.f32", usize::from(sm >= 80)),
                ("cvt.rn.f16x2.f32", usize::from(sm >= 80)),
            ],
        );
    }
}

#[test]
fn pairs_are_one_instruction_for_both_elements() {
    for p in LAB_PTX.ptx() {
        let (sm, ptx) = (p.sm, p.ptx);
        let name = "probe_pairs";
        expect(
            ptx,
            sm,
            name,
            &[
                ("add.rn.f16x2", 1),
                ("fma.rn.f16x2", 1),
                ("min.f16x2", usize::from(sm >= 80)),
                ("max.bf16x2", usize::from(sm >= 80)),
            ],
        );
        if sm >= 90 {
            expect(ptx, sm, name, &[("add.rn.bf16x2", 1), ("fma.rn.bf16x2", 1)]);
        } else if sm >= 80 {
            expect(ptx, sm, name, &[("add.rn.bf16x2", 0), ("fma.rn.bf16x2", 2)]);
        }
    }
}

/// NVIDIA's `cg::reduce(tile32, v, cg::plus<__nv_bfloat16>())` is five
/// `shfl.sync.bfly.b32` and five `add.bf16` (sm_90; `fma.rn.bf16` on
/// sm_80), its `inclusive_scan` five `shfl.sync.up.b32` and five adds: the
/// probe does both and one more add of the two results.
#[test]
fn bf16_tile_reduce_and_scan_are_the_shuffle_tree() {
    for p in LAB_PTX.ptx() {
        let (sm, ptx) = (p.sm, p.ptx);
        let name = "probe_bf16_tile_reduce_scan";
        expect(
            ptx,
            sm,
            name,
            &[("shfl.sync.bfly.b32", 5), ("shfl.sync.up.b32", 5)],
        );
        if sm >= 90 {
            expect(ptx, sm, name, &[("add.rn.bf16", 11)]);
        } else if sm >= 80 {
            expect(ptx, sm, name, &[("fma.rn.bf16", 11)]);
        }
    }
}

/// `atomicAdd` on `__half2` is one `atom.add.noftz.f16x2` on every SM; on
/// `__nv_bfloat162` one `atom.add.noftz.bf16x2` on sm_90 and a
/// compare-and-swap loop before (as `cuda_bf16.hpp`); the `red` forms
/// likewise.
#[test]
fn pair_atomics_are_one_instruction() {
    for p in LAB_PTX.ptx() {
        let (sm, ptx) = (p.sm, p.ptx);
        let name = "probe_pair_atomics";
        let bf = usize::from(sm >= 90);
        expect(
            ptx,
            sm,
            name,
            &[
                ("atom.relaxed.gpu.global.add.noftz.f16x2", 1),
                ("red.relaxed.gpu.global.add.noftz.f16x2", 1),
                ("atom.relaxed.gpu.global.add.noftz.bf16x2", bf),
                ("red.relaxed.gpu.global.add.noftz.bf16x2", bf),
            ],
        );
        if sm < 90 {
            assert!(
                count(ptx, name, "atom.relaxed.gpu.global.cas.b32") >= 1,
                "sm_{sm}"
            );
        }
    }
}

/// `atomicAdd` on `__half*` is one `atom.add.noftz.f16` (sm_70+); on
/// `__nv_bfloat16*` one `atom.add.noftz.bf16` on sm_90 and a `cas.b16`
/// loop before; the `red` forms likewise.
#[test]
fn half_atomics_are_one_instruction() {
    for p in LAB_PTX.ptx() {
        let (sm, ptx) = (p.sm, p.ptx);
        let name = "probe_half_atomics";
        let bf = usize::from(sm >= 90);
        expect(
            ptx,
            sm,
            name,
            &[
                ("atom.relaxed.gpu.global.add.noftz.f16", 1),
                ("red.relaxed.gpu.global.add.noftz.f16", 1),
                ("atom.relaxed.gpu.global.add.noftz.bf16", bf),
                ("red.relaxed.gpu.global.add.noftz.bf16", bf),
            ],
        );
        if sm < 90 {
            assert!(
                count(ptx, name, "atom.relaxed.gpu.global.cas.b16") >= 1,
                "sm_{sm}"
            );
        }
    }
}

/// The 8-bit conversions are one `cvt` per pair on sm_90 (sm_89+
/// instructions) and software before.
#[test]
fn fp8_conversions_are_single_cvts_on_sm90() {
    for p in LAB_PTX.ptx() {
        let (sm, ptx) = (p.sm, p.ptx);
        let n = usize::from(sm >= 90);
        expect(
            ptx,
            sm,
            "probe_fp8",
            &[
                ("cvt.rn.satfinite.e4m3x2.f32", n),
                ("cvt.rn.satfinite.e5m2x2.f32", n),
                ("cvt.rn.f16x2.e4m3x2", n),
                ("cvt.rn.f16x2.e5m2x2", n),
            ],
        );
    }
}
