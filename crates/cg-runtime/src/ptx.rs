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
