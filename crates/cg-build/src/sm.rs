//! A PTX target: an SM number, portable (`sm_90`, which the driver JITs for
//! every newer GPU too) or arch-specific (`sm_90a`: `wgmma`, `setmaxnreg`,
//! loadable on that SM only).

use std::fmt;

/// One target of the nested build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sm {
    /// The compute capability as `major * 10 + minor`, e.g. 90.
    pub number: u32,
    /// The arch-specific target `sm_XXa` rather than the portable `sm_XX`.
    pub arch_specific: bool,
}

impl Sm {
    /// The portable target `sm_{number}`.
    pub const fn portable(number: u32) -> Sm {
        Sm {
            number,
            arch_specific: false,
        }
    }

    /// The first SM with an arch-specific target (`sm_90a`).
    pub const FIRST_ARCH_SPECIFIC: u32 = 90;

    /// `90`, `sm_90`, `90a` or `sm_90a`; `None` for anything else, or an
    /// `a` target below [`Sm::FIRST_ARCH_SPECIFIC`].
    pub fn parse(name: &str) -> Option<Sm> {
        let name = name.trim();
        let name = name.strip_prefix("sm_").unwrap_or(name);
        let (digits, arch_specific) = match name.strip_suffix('a') {
            Some(d) => (d, true),
            None => (name, false),
        };
        let number: u32 = digits.parse().ok()?;
        (!arch_specific || number >= Sm::FIRST_ARCH_SPECIFIC).then_some(Sm {
            number,
            arch_specific,
        })
    }
}

impl fmt::Display for Sm {
    /// `sm_90` or `sm_90a`: the name `-Ctarget-cpu` and ptxas take.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = if self.arch_specific { "a" } else { "" };
        write!(f, "sm_{}{a}", self.number)
    }
}

/// The targets of `sms`, each followed by its arch-specific twin where
/// `arch_specific` asks for them and the SM has one.
pub(crate) fn expand(sms: &[u32], arch_specific: bool) -> Vec<Sm> {
    sms.iter()
        .flat_map(|&n| {
            let twin = (arch_specific && n >= Sm::FIRST_ARCH_SPECIFIC).then_some(Sm {
                number: n,
                arch_specific: true,
            });
            std::iter::once(Sm::portable(n)).chain(twin)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in ["sm_70", "sm_90", "sm_90a", "sm_100a"] {
            assert_eq!(Sm::parse(name).unwrap().to_string(), name);
        }
        assert_eq!(
            Sm::parse(" 90a "),
            Some(Sm {
                number: 90,
                arch_specific: true
            })
        );
        assert_eq!(Sm::parse("80a"), None);
        assert_eq!(Sm::parse("new"), None);
    }

    #[test]
    fn expand_adds_the_twins_from_sm_90() {
        let names = |a| {
            expand(&[80, 90], a)
                .iter()
                .map(Sm::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(names(false), ["sm_80", "sm_90"]);
        assert_eq!(names(true), ["sm_80", "sm_90", "sm_90a"]);
    }
}
