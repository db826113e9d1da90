//! The unit's race sink, as the unit holds it: off, the launch's detector,
//! or a worker's log. One field, so that an operation can borrow it beside
//! the lanes and a subsystem's state, and report through it
//! ([`UnitSink::sync`]) without the whole unit.

use super::detector::Race;
use super::event::Event;
use super::sink::SyncSink;

/// Who hears the unit's sync points and accesses. A tag byte rather than a
/// niche in the log's capacity: every sync point and access tests it, and
/// a tag is one compare (the `speed` example's barriers counted 1 % more
/// instructions with the niche).
#[derive(Default)]
#[repr(u8)]
pub(crate) enum UnitSink {
    /// The detector is off ([`SimDevice::race_check`](crate::SimDevice::race_check),
    /// `CG_SIM_RACE`), or not yet started (`Core::setup_race`).
    #[default]
    Off,
    /// The launch's detector, checking as the unit runs (the unit runs on
    /// the launching thread).
    Detector(Box<Race>),
    /// The unit runs on a worker thread: its calls recorded, for the
    /// launch's detector to replay in unit order.
    Log(Vec<Event>),
}

impl UnitSink {
    /// Tells the sink of a sync point or an access, each call site written
    /// once whoever listens (`f` sees a `dyn SyncSink`; inlined here, each
    /// arm calls the one sink it has). `None` (and `f` not called) when off.
    #[inline]
    pub fn sync<R>(&mut self, f: impl FnOnce(&mut dyn SyncSink) -> R) -> Option<R> {
        match self {
            UnitSink::Off => None,
            UnitSink::Detector(r) => Some(f(&mut **r)),
            UnitSink::Log(log) => Some(f(log)),
        }
    }

    /// Whether anything hears the unit's accesses.
    #[inline]
    pub fn is_on(&self) -> bool {
        !matches!(self, UnitSink::Off)
    }

    /// Whether the unit records for the launch's detector.
    pub fn is_log(&self) -> bool {
        matches!(self, UnitSink::Log(_))
    }

    /// The unit's recorded calls so far (none unless it records), leaving
    /// the log empty for its next unit.
    pub fn take_log(&mut self) -> Vec<Event> {
        match self {
            UnitSink::Log(log) => std::mem::take(log),
            _ => Vec::new(),
        }
    }
}
