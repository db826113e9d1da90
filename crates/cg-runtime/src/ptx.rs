//! A kernel crate's PTX, one module per SM, as `cg-build` embeds it in the
//! host binary, and the choice of the module a device loads.

/// One embedded PTX module.
#[derive(Clone, Copy, Debug)]
pub struct EmbeddedPtx {
    /// The SM it was compiled for (`-Ctarget-cpu=sm_XX`), e.g. 90.
    pub sm: u32,
    /// Compiled for the arch-specific target `sm_XXa` (`.target sm_90a`:
    /// `wgmma`, `setmaxnreg`), which loads on devices of exactly that
    /// compute capability and no newer one.
    pub arch_specific: bool,
    /// The PTX text.
    pub ptx: &'static str,
}

impl EmbeddedPtx {
    /// The target's name: `sm_90`, or `sm_90a` for an arch-specific one.
    pub fn target(&self) -> String {
        format!(
            "sm_{}{}",
            self.sm,
            if self.arch_specific { "a" } else { "" }
        )
    }

    /// Whether a device of compute capability `cc` (`major * 10 + minor`)
    /// can load it: not newer than the device, and for an arch-specific
    /// target exactly the device's.
    fn loads_on(&self, cc: u32) -> bool {
        self.sm <= cc && (!self.arch_specific || self.sm == cc)
    }
}

/// The PTX of one kernel crate, one module per SM: what `cg-build`
/// generates for a host crate to `include!`. The crate's name ties
/// `#[kernel]` descriptors to it: a descriptor of another crate launched
/// against it is an error, not another kernel of the same name.
#[derive(Clone, Copy, Debug)]
pub struct PtxModule {
    crate_name: &'static str,
    ptx: &'static [EmbeddedPtx],
}

impl PtxModule {
    /// The PTX of kernel crate `crate_name` (its library name, as
    /// `CARGO_CRATE_NAME` spells it), one entry per SM.
    pub const fn new(crate_name: &'static str, ptx: &'static [EmbeddedPtx]) -> PtxModule {
        PtxModule { crate_name, ptx }
    }

    /// The kernel crate it was built from.
    pub const fn crate_name(&self) -> &'static str {
        self.crate_name
    }

    /// Its modules, one per SM.
    pub const fn ptx(&self) -> &'static [EmbeddedPtx] {
        self.ptx
    }
}

/// The entries of `ptx` that `#[kernel(block_dim(…))]` marked (`//
/// cg-block-dim NAME …` in the body) but whose header does not declare
/// `.reqntid`: PTX that did not come through cg-build. Such a kernel's
/// body assumes its block shape, which only `.reqntid` (the driver's
/// refusal of other shapes) makes true, so a module with one is not
/// loaded.
pub fn undeclared_block_dims(ptx: &str) -> Vec<&str> {
    const MARK: &str = "// cg-block-dim ";
    let mut undeclared = Vec::new();
    // The header (`.reqntid`) comes before the body (the mark): one pass.
    let mut declared = false;
    for line in ptx.lines() {
        let t = line.trim();
        if t.starts_with(".visible .entry ") || t.starts_with(".entry ") {
            declared = false;
        } else if t.starts_with(".reqntid ") {
            declared = true;
        } else if let Some(mark) = t.strip_prefix(MARK)
            && !declared
        {
            undeclared.extend(mark.split_whitespace().next());
        }
    }
    undeclared
}

/// `ptx` with `.maxntid threads, 1, 1` added to every entry whose header
/// declares no block size or register budget of its own (`.reqntid`,
/// `.maxntid`, `.maxnreg`): ptxas
/// then keeps those kernels' registers low enough for blocks of up to
/// `threads` threads, as `__launch_bounds__(threads)` does in CUDA C++,
/// while a kernel that declared its shape (a warpgroup GEMM of 384
/// threads and 154 registers) keeps the registers it needs. (The JIT
/// option `CU_JIT_THREADS_PER_BLOCK` would bound every kernel of the
/// module alike.)
pub fn bound_undeclared_blocks(ptx: &str, threads: u32) -> String {
    let mut out = String::with_capacity(ptx.len() + 4096);
    // Between an entry's name and the `{` opening its body: its header.
    let mut in_header = false;
    let mut declared = false;
    for line in ptx.split_inclusive('\n') {
        let t = line.trim();
        if t.starts_with(".visible .entry ") || t.starts_with(".entry ") {
            in_header = true;
            declared = false;
        } else if in_header
            && [".reqntid ", ".maxntid ", ".maxnreg "]
                .iter()
                .any(|d| t.starts_with(d))
        {
            declared = true;
        } else if in_header && t == "{" {
            if !declared {
                out.push_str(&format!(".maxntid {threads}, 1, 1\n"));
            }
            in_header = false;
        }
        out.push_str(line);
    }
    out
}

/// The newest PTX of `set` whose SM is ≤ the device's compute capability
/// (`major * 10 + minor`), the arch-specific one (`sm_90a`) where the
/// device is exactly its SM, or `None` if the device is older than all of
/// them.
pub fn select_from(
    set: &'static [EmbeddedPtx],
    major: u32,
    minor: u32,
) -> Option<&'static EmbeddedPtx> {
    let cc = major * 10 + minor;
    set.iter()
        .filter(|p| p.loads_on(cc))
        .max_by_key(|p| (p.sm, p.arch_specific))
}

/// The environment variable that makes the GPU backend load an older
/// embedded PTX than the device's newest (e.g. `CG_PTX_SM=70` on an H200
/// JIT-compiles the sm_70 kernels), so that the code paths of older GPUs
/// run and are verified on a new one. `CG_PTX_SM=90` on an H100 loads the
/// portable sm_90 PTX where an `sm_90a` one is embedded too; `90a` names
/// the arch-specific one.
pub const PTX_CAP_VAR: &str = "CG_PTX_SM";

/// The PTX of `set` to load on a device of compute capability
/// `major.minor`: the newest not newer than the device, or exactly the SM
/// named by [`PTX_CAP_VAR`] when it is set. `Ok(None)`: the device is
/// older than every embedded target.
pub fn select_for_device(
    set: &'static [EmbeddedPtx],
    major: u32,
    minor: u32,
) -> Result<Option<&'static EmbeddedPtx>, crate::RuntimeError> {
    match std::env::var(PTX_CAP_VAR) {
        Ok(value) => select_capped(set, major, minor, &value).map(Some),
        Err(_) => Ok(select_from(set, major, minor)),
    }
}

/// [`select_for_device`] with the variable's value `cap`.
fn select_capped(
    set: &'static [EmbeddedPtx],
    major: u32,
    minor: u32,
    cap: &str,
) -> Result<&'static EmbeddedPtx, crate::RuntimeError> {
    let device = major * 10 + minor;
    let name = cap.trim();
    let name = name.strip_prefix("sm_").unwrap_or(name);
    set.iter()
        .find(|p| p.target() == format!("sm_{name}") && p.loads_on(device))
        .ok_or_else(|| crate::RuntimeError::BadPtxCap {
            value: cap.to_string(),
            embedded: set
                .iter()
                .map(|p| p.target().trim_start_matches("sm_").to_string())
                .collect::<Vec<_>>()
                .join(", "),
            device,
        })
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_undeclared_entries_get_the_block_bound() {
        let ptx = ".visible .entry a(\n\t.param .u64 a_0\n)\n{\n\tret;\n}\n\
                   .visible .entry b()\n.reqntid 384, 1, 1\n{\n\tret;\n}\n\
                   .entry c()\n.maxntid 128, 1, 1\n{\n}\n.func d()\n{\n}\n";
        let bounded = super::bound_undeclared_blocks(ptx, 1024);
        assert_eq!(
            bounded,
            ".visible .entry a(\n\t.param .u64 a_0\n)\n.maxntid 1024, 1, 1\n{\n\tret;\n}\n\
             .visible .entry b()\n.reqntid 384, 1, 1\n{\n\tret;\n}\n\
             .entry c()\n.maxntid 128, 1, 1\n{\n}\n.func d()\n{\n}\n"
        );
    }

    #[test]
    fn a_block_dim_mark_needs_its_reqntid() {
        let built = ".visible .entry a(\n)\n.reqntid 64, 1, 1\n{\n\t// cg-block-dim a 64 1 1\n}\n\
                     .visible .entry b()\n{\n}\n";
        assert!(super::undeclared_block_dims(built).is_empty());
        let raw = ".visible .entry a(\n)\n{\n\t// cg-block-dim a 64 1 1\n}\n\
                   .visible .entry b()\n.reqntid 32, 1, 1\n{\n}\n";
        assert_eq!(super::undeclared_block_dims(raw), ["a"]);
    }

    use super::*;

    const fn ptx(sm: u32, arch_specific: bool) -> EmbeddedPtx {
        EmbeddedPtx {
            sm,
            arch_specific,
            ptx: "",
        }
    }

    static SET: &[EmbeddedPtx] = &[ptx(70, false), ptx(80, false), ptx(90, false)];
    static WITH_90A: &[EmbeddedPtx] = &[ptx(80, false), ptx(90, false), ptx(90, true)];

    #[test]
    fn picks_newest_not_newer_than_device() {
        let pick = |ma, mi| select_from(SET, ma, mi).map(|p| p.sm);
        assert_eq!(pick(9, 0), Some(90));
        assert_eq!(pick(12, 0), Some(90));
        assert_eq!(pick(8, 9), Some(80));
        assert_eq!(pick(8, 0), Some(80));
        assert_eq!(pick(7, 5), Some(70));
        assert_eq!(pick(6, 1), None);
    }

    #[test]
    fn a_cap_picks_exactly_that_sm() {
        assert_eq!(select_capped(SET, 9, 0, "70").unwrap().sm, 70);
        assert_eq!(select_capped(SET, 9, 0, "sm_80").unwrap().sm, 80);
        assert_eq!(select_capped(SET, 9, 0, "90").unwrap().sm, 90);
        // Newer than the device, not embedded, or not a number: refused.
        let err = select_capped(SET, 8, 0, "90").unwrap_err().to_string();
        assert!(
            err.contains("CG_PTX_SM=90") && err.contains("70, 80, 90"),
            "{err}"
        );
        assert!(select_capped(SET, 9, 0, "75").is_err());
        assert!(select_capped(SET, 9, 0, "new").is_err());
    }

    #[test]
    fn an_arch_specific_target_loads_on_its_own_sm_only() {
        let pick = |ma, mi| select_from(WITH_90A, ma, mi).map(|p| p.target());
        assert_eq!(pick(9, 0).as_deref(), Some("sm_90a"));
        // A newer GPU JITs the portable sm_90 PTX instead.
        assert_eq!(pick(10, 0).as_deref(), Some("sm_90"));
        assert_eq!(pick(8, 9).as_deref(), Some("sm_80"));
        let cap = |ma, mi, c| select_capped(WITH_90A, ma, mi, c).map(|p| p.target());
        assert_eq!(cap(9, 0, "90").unwrap(), "sm_90");
        assert_eq!(cap(9, 0, "sm_90a").unwrap(), "sm_90a");
        let err = cap(10, 0, "90a").unwrap_err().to_string();
        assert!(err.contains("80, 90, 90a"), "{err}");
    }
}
