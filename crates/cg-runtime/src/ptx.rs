//! The kernels' PTX, built by `build.rs` for each supported SM and embedded.

/// One embedded PTX module.
#[derive(Clone, Copy, Debug)]
pub struct EmbeddedPtx {
    /// The SM it was compiled for (`-Ctarget-cpu=sm_XX`), e.g. 90.
    pub sm: u32,
    /// The PTX text.
    pub ptx: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/embedded_ptx.rs"));

/// The newest embedded PTX whose SM is ≤ the device's compute capability
/// (`major * 10 + minor`), or `None` if the device is older than all of them.
pub fn select_ptx(major: u32, minor: u32) -> Option<&'static EmbeddedPtx> {
    select_from(EMBEDDED_PTX, major, minor)
}

/// [`select_ptx`] from a given set (e.g. [`EMBEDDED_TEST_PTX`]).
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
    use super::*;

    #[test]
    fn picks_newest_not_newer_than_device() {
        assert_eq!(select_ptx(9, 0).unwrap().sm, 90);
        assert_eq!(select_ptx(12, 0).unwrap().sm, 90);
        assert_eq!(select_ptx(8, 9).unwrap().sm, 80);
        assert_eq!(select_ptx(8, 0).unwrap().sm, 80);
        assert_eq!(select_ptx(7, 5).unwrap().sm, 70);
        assert!(select_ptx(6, 1).is_none());
    }

    #[test]
    fn a_cap_picks_exactly_that_sm() {
        assert_eq!(select_capped(EMBEDDED_PTX, 9, 0, "70").unwrap().sm, 70);
        assert_eq!(select_capped(EMBEDDED_PTX, 9, 0, "sm_80").unwrap().sm, 80);
        assert_eq!(select_capped(EMBEDDED_PTX, 9, 0, "90").unwrap().sm, 90);
        // Newer than the device, not embedded, or not a number: refused.
        let err = select_capped(EMBEDDED_PTX, 8, 0, "90")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("CG_PTX_SM=90") && err.contains("70, 80, 90"),
            "{err}"
        );
        assert!(select_capped(EMBEDDED_PTX, 9, 0, "75").is_err());
        assert!(select_capped(EMBEDDED_PTX, 9, 0, "new").is_err());
    }

    #[test]
    fn every_ptx_targets_its_sm() {
        assert_eq!(EMBEDDED_PTX.len(), 3);
        assert_eq!(EMBEDDED_TEST_PTX.len(), 3);
        for p in EMBEDDED_PTX.iter().chain(EMBEDDED_TEST_PTX) {
            assert!(
                p.ptx.contains(&format!(".target sm_{}", p.sm)),
                "sm_{}",
                p.sm
            );
            assert!(
                p.ptx.contains(".visible .entry smoke("),
                "smoke kernel missing for sm_{}",
                p.sm
            );
        }
    }
}
