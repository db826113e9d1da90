//! A kernel crate's PTX, one module per SM, as `cg-build` embeds it in the
//! host binary, and the choice of the module a device loads.

/// One embedded PTX module.
#[derive(Clone, Copy, Debug)]
pub struct EmbeddedPtx {
    /// The SM it was compiled for (`-Ctarget-cpu=sm_XX`), e.g. 90.
    pub sm: u32,
    /// The PTX text.
    pub ptx: &'static str,
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

/// The newest PTX of `set` whose SM is ≤ the device's compute capability
/// (`major * 10 + minor`), or `None` if the device is older than all of them.
pub fn select_from(
    set: &'static [EmbeddedPtx],
    major: u32,
    minor: u32,
) -> Option<&'static EmbeddedPtx> {
    let cc = major * 10 + minor;
    set.iter().filter(|p| p.sm <= cc).max_by_key(|p| p.sm)
}

/// The environment variable that makes the GPU backend load an older
/// embedded PTX than the device's newest (e.g. `CG_PTX_SM=70` on an H200
/// JIT-compiles the sm_70 kernels), so that the code paths of older GPUs
/// run and are verified on a new one.
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
    let sm = cap.trim().trim_start_matches("sm_").parse::<u32>().ok();
    set.iter()
        .find(|p| Some(p.sm) == sm && p.sm <= device)
        .ok_or_else(|| crate::RuntimeError::BadPtxCap {
            value: cap.to_string(),
            embedded: set
                .iter()
                .map(|p| p.sm.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            device,
        })
}

#[cfg(test)]
mod tests {
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

    static SET: &[EmbeddedPtx] = &[
        EmbeddedPtx { sm: 70, ptx: "" },
        EmbeddedPtx { sm: 80, ptx: "" },
        EmbeddedPtx { sm: 90, ptx: "" },
    ];

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
}
