//! The math library's kernels (`cg_kernels::math`) compile, on every SM, to
//! straight-line arithmetic: no `call` (no libm exists on the GPU; every
//! function inlines), no approximate instruction (`.approx` is only for the
//! intrinsics), no constant or global table, and the exactly rounded
//! instructions the functions are built from (`fma.rn.f32`, `sqrt.rn.f32`,
//! `div.rn.f32`, `cvt.rmi/rpi/rzi/rni.f32.f32`). That the module assembles
//! for sm_70/80/90 is `ptxas.rs`'s test.

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

/// The opcodes (with qualifiers) of kernel `name`.
fn opcodes(ptx: &str, name: &str) -> Vec<String> {
    entry_text(ptx, name)
        .split([';', '\n', '{', '}'])
        .map(str::trim)
        .filter(|s| !s.starts_with("//") && !s.starts_with('.') && !s.starts_with('$'))
        .filter_map(|s| s.split_whitespace().next())
        .map(|s| s.trim_start_matches(['@', '!']).to_string())
        .collect()
}

#[test]
fn math_kernels_inline_everything() {
    for p in LAB_PTX.ptx() {
        // The f64 functions read their two tables (2/π's bits, atan's
        // quarters) with `ld.global`: allowed; nothing else leaves the
        // registers.
        for k in [
            "math_unary_f32",
            "math_methods_f32",
            "math_unary_f64",
            "math_methods_f64",
        ] {
            let ops = opcodes(p.ptx, k);
            assert!(!ops.is_empty(), "sm_{}: {k} empty", p.sm);
            for bad in ["call", "ld.const", "ld.local", "st.local"] {
                assert!(
                    !ops.iter().any(|o| o.starts_with(bad)),
                    "sm_{}: {k} has `{bad}`",
                    p.sm
                );
            }
            assert!(
                !ops.iter().any(|o| o.contains(".approx")),
                "sm_{}: {k} has an approximate instruction",
                p.sm
            );
        }
        let ops = opcodes(p.ptx, "math_unary_f32");
        for want in [
            "fma.rn.f32",
            "sqrt.rn.f32",
            "div.rn.f32",
            "cvt.rmi.f32.f32",
            "cvt.rpi.f32.f32",
            "cvt.rzi.f32.f32",
            "cvt.rni.f32.f32",
        ] {
            assert!(
                ops.iter().any(|o| o == want),
                "sm_{}: math_unary_f32 lacks {want}",
                p.sm
            );
        }
        let ops = opcodes(p.ptx, "math_unary_f64");
        for want in ["fma.rn.f64", "sqrt.rn.f64"] {
            assert!(
                ops.iter().any(|o| o == want),
                "sm_{}: math_unary_f64 lacks {want}",
                p.sm
            );
        }
        // The intrinsics: each its one instruction.
        let ops = opcodes(p.ptx, "math_intrinsics_f32");
        let mut want = vec![
            "ex2.approx.ftz.f32",
            "lg2.approx.ftz.f32",
            "sin.approx.ftz.f32",
            "cos.approx.ftz.f32",
            "rcp.approx.f32",
            "div.approx.f32",
            "rsqrt.approx.f32",
            "add.rz.f32",
            "add.rp.f32",
            "add.rm.f32",
            "mul.rz.f32",
            "mul.rp.f32",
            "mul.rm.f32",
            "fma.rz.f32",
            "fma.rp.f32",
            "fma.rm.f32",
            "div.rz.f32",
            "div.rp.f32",
            "div.rm.f32",
            "rcp.rn.f32",
            "rcp.rz.f32",
            "rcp.rp.f32",
            "rcp.rm.f32",
            "sqrt.rz.f32",
            "sqrt.rp.f32",
            "sqrt.rm.f32",
            "add.rn.f32",
            "mul.rn.f32",
        ];
        if p.sm >= 75 {
            want.push("tanh.approx.f32");
        }
        for w in want {
            assert!(
                ops.iter().any(|o| o == w),
                "sm_{}: math_intrinsics_f32 lacks {w}",
                p.sm
            );
        }
        assert!(
            !ops.iter().any(|o| o.starts_with("call")),
            "sm_{}: a call",
            p.sm
        );
        // No table in constant memory anywhere in the module.
        assert!(!p.ptx.contains(".const "), "sm_{}: a .const table", p.sm);
    }
}

/// `#[kernel(fast_math)]`: the fast intrinsics for the math calls (method
/// syntax and CUDA's names alike), `div.full`, `sqrt.approx` and `.ftz`
/// (cg-build's rewrite of the marked entry); the same source without it
/// has none of them.
#[test]
fn fast_math_kernels_use_the_intrinsics_approximate_division_and_ftz() {
    for p in LAB_PTX.ptx() {
        let fast = opcodes(p.ptx, "math_fast_f32");
        let accurate = opcodes(p.ptx, "math_accurate_f32");
        let mut want = vec![
            "ex2.approx.ftz.f32",
            "lg2.approx.ftz.f32",
            "sin.approx.ftz.f32",
            "cos.approx.ftz.f32",
            "rsqrt.approx.ftz.f32",
            "rcp.approx.ftz.f32",
            "div.full.ftz.f32",
            "sqrt.approx.ftz.f32",
        ];
        if p.sm >= 75 {
            want.push("tanh.approx.f32");
        }
        for w in want {
            assert!(
                fast.iter().any(|o| o == w),
                "sm_{}: math_fast_f32 lacks {w}: {fast:?}",
                p.sm
            );
        }
        // Every add and multiply flushes (`add.ftz.f32` under
        // `FpContract::Fast`, `add.rn.ftz.f32` under `Off`).
        for op in ["add", "mul"] {
            assert!(
                fast.iter()
                    .any(|o| *o == format!("{op}.ftz.f32") || *o == format!("{op}.rn.ftz.f32")),
                "sm_{}: math_fast_f32 has no flushed {op}",
                p.sm
            );
        }
        for bad in [
            "div.rn.f32",
            "sqrt.rn.f32",
            "add.f32",
            "add.rn.f32",
            "mul.f32",
            "mul.rn.f32",
            "fma.rn.f32",
            "call",
        ] {
            assert!(
                !fast.iter().any(|o| o == bad),
                "sm_{}: math_fast_f32 has {bad}",
                p.sm
            );
        }
        // Without `fast_math`: nothing approximate or flushed.
        assert!(!accurate.is_empty());
        for o in &accurate {
            assert!(
                !o.contains(".approx") && !o.contains(".ftz") && !o.contains(".full"),
                "sm_{}: math_accurate_f32 has {o}",
                p.sm
            );
        }
        assert!(accurate.iter().any(|o| o == "div.rn.f32"), "sm_{}", p.sm);
        assert!(accurate.iter().any(|o| o == "sqrt.rn.f32"), "sm_{}", p.sm);
    }
}
