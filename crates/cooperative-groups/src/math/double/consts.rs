//! Constants as double-doubles: the nearest `f64` and the nearest `f64` to
//! the rest (values from a 1400-bit evaluation, `mpmath`).

use super::dd::Dd;

pub(crate) const LN2: Dd = Dd::new(0.6931471805599453, 2.3190468138462996e-17);
pub(crate) const LOG2E: Dd = Dd::new(1.4426950408889634, 2.0355273740931033e-17);
pub(crate) const LOG10E: Dd = Dd::new(0.4342944819032518, 1.098319650216765e-17);
pub(crate) const LN10: Dd = Dd::new(2.302585092994046, -2.1707562233822494e-16);
pub(crate) const LOG2_10: f64 = 3.321928094887362;
pub(crate) const PI: Dd = Dd::new(3.141592653589793, 1.2246467991473532e-16);
pub(crate) const PIO2: Dd = Dd::new(1.5707963267948966, 6.123233995736766e-17);
/// `atan(i/4)`, `i = 0..=4`.
pub(crate) const ATAN_QUARTERS: [Dd; 5] = [
    Dd::new(0.0, 0.0),
    Dd::new(0.24497866312686414, 1.0698755618734451e-17),
    Dd::new(0.4636476090008061, 2.2698777452961687e-17),
    Dd::new(0.6435011087932844, 1.5834785051444286e-17),
    Dd::new(0.7853981633974483, 3.061616997868383e-17),
];
pub(crate) const TWO_OVER_SQRTPI: Dd = Dd::new(1.1283791670955126, 1.533545961316588e-17);
pub(crate) const INV_SQRTPI: Dd = Dd::new(0.5641895835477563, 7.66772980658294e-18);
pub(crate) const SQRTPI_2: Dd = Dd::new(0.886226925452758, -3.8332932499128993e-17);
pub(crate) const SQRT1_2: Dd = Dd::new(0.7071067811865476, -4.833646656726457e-17);
pub(crate) const SQRT2: Dd = Dd::new(1.4142135623730951, -9.667293313452913e-17);
pub(crate) const EULER: Dd = Dd::new(0.5772156649015329, -4.942915152430645e-18);
pub(crate) const ONE_M_EULER: Dd = Dd::new(0.42278433509846713, 4.942915152430645e-18);
pub(crate) const HALF_LN_2PI: Dd = Dd::new(0.9189385332046728, -3.8782941580672414e-17);
pub(crate) const LN_PI: Dd = Dd::new(1.1447298858494002, 1.0265951162707826e-17);
