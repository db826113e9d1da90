//! What a launch returns: statistics on success, a readable report on failure.

use std::fmt;
use std::ops::RangeInclusive;

use thiserror::Error;

use crate::Dim3;

/// A source position (`file:line:column`), as `#[track_caller]` records it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SourceLocation {
    /// Path of the source file, as rustc names it (relative to the workspace).
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

impl From<&std::panic::Location<'_>> for SourceLocation {
    fn from(l: &std::panic::Location<'_>) -> Self {
        SourceLocation {
            file: l.file().to_owned(),
            line: l.line(),
            column: l.column(),
        }
    }
}

impl fmt::Display for SourceLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// Lanes of one block blocked at the same operation and source line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockedGroup {
    /// `blockIdx` of the block.
    pub block: Dim3,
    /// Linear thread indices inside the block (`x + y·bx + z·bx·by`), as
    /// sorted, disjoint ranges.
    pub threads: Vec<RangeInclusive<u32>>,
    /// The operation, e.g. `bar.sync 0` or `shfl.sync.down mask 0xffffffff`.
    pub operation: String,
    /// Where the lanes called it.
    pub location: SourceLocation,
}

impl fmt::Display for BlockedGroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n: u32 = self.threads.iter().map(|r| r.end() - r.start() + 1).sum();
        let word = if n == 1 { "thread" } else { "threads" };
        write!(
            f,
            "block {} {word} {}: {} at {}",
            self.block,
            fmt_ranges(&self.threads),
            self.operation,
            self.location
        )
    }
}

/// A deadlock or misuse diagnosis: what went wrong, where, and the state of
/// every blocked lane at that moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// One line saying what went wrong.
    pub summary: String,
    /// The source line the diagnosis points at (the misused call, or the
    /// first blocked group of a deadlock).
    pub location: Option<SourceLocation>,
    /// Every group of blocked lanes, in block and thread order.
    pub blocked: Vec<BlockedGroup>,
    /// The two racing accesses of a data race, earlier first (the lane,
    /// the access and its address in `operation`, its source line); see
    /// [`Report::race_accesses`].
    pub accesses: Option<Box<[BlockedGroup; 2]>>,
    /// Further explanations (who waits for whom, barrier arrival counts).
    pub notes: Vec<String>,
}

impl Report {
    /// The two racing accesses of a data race (empty for other reports).
    pub fn race_accesses(&self) -> &[BlockedGroup] {
        self.accesses.as_deref().map_or(&[], |a| a.as_slice())
    }

    /// `true` if the report mentions `file:line` (in its location or any group).
    pub fn mentions_line(&self, file: &str, line: u32) -> bool {
        let hit = |l: &SourceLocation| l.file == file && l.line == line;
        self.location.as_ref().is_some_and(hit)
            || self.blocked.iter().any(|g| hit(&g.location))
            || self.race_accesses().iter().any(|g| hit(&g.location))
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.summary)?;
        if let Some(l) = &self.location {
            write!(f, "\n  at {l}")?;
        }
        if !self.blocked.is_empty() {
            write!(f, "\n  blocked lanes:")?;
            for g in &self.blocked {
                write!(f, "\n    {g}")?;
            }
        }
        if let Some(accesses) = &self.accesses {
            write!(f, "\n  racing accesses:")?;
            for g in accesses.iter() {
                write!(f, "\n    {g}")?;
            }
        }
        for n in &self.notes {
            write!(f, "\n  note: {n}")?;
        }
        Ok(())
    }
}

/// Why a simulated launch failed.
#[derive(Clone, Debug, Error)]
pub enum SimError {
    /// No lane can make progress: every live lane waits for lanes that will
    /// never arrive.
    #[error("deadlock: {0}")]
    Deadlock(Report),
    /// A collective or barrier was used against its contract (wrong mask,
    /// exited lanes, non-uniform arguments, invalid barrier, …).
    #[error("misuse: {0}")]
    Misuse(Report),
    /// Two conflicting accesses that no happens-before edge orders (the
    /// race detector, on by default: [`SimDevice::race_check`](crate::SimDevice::race_check)).
    #[error("data race: {0}")]
    DataRace(Report),
    /// An index outside a typed global parameter (the parameter, the index,
    /// the length, the thread and the line).
    #[error("out of bounds: {0}")]
    OutOfBounds(Report),
    /// The launch shape is invalid for the simulated device, or could not be
    /// run (e.g. lane stacks could not be allocated).
    #[error("invalid launch: {0}")]
    InvalidLaunch(String),
    /// A lane panicked (index out of bounds, `trap()`, a failed assertion, …).
    #[error(
        "kernel panicked in block {block} thread {thread}{}:\n  {message}",
        location.as_ref().map(|l| format!(" at {l}")).unwrap_or_default()
    )]
    KernelPanic {
        /// `blockIdx` of the panicking lane.
        block: Dim3,
        /// `threadIdx` of the panicking lane.
        thread: Dim3,
        /// The panic message.
        message: String,
        /// Where the panic was raised, when known.
        location: Option<SourceLocation>,
    },
}

impl SimError {
    /// The report of a deadlock, misuse, data race or out-of-bounds access.
    pub fn report(&self) -> Option<&Report> {
        match self {
            SimError::Deadlock(r)
            | SimError::Misuse(r)
            | SimError::DataRace(r)
            | SimError::OutOfBounds(r) => Some(r),
            _ => None,
        }
    }
}

/// What a successful launch did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LaunchStats {
    /// Blocks run.
    pub blocks: u64,
    /// Lanes (threads) run to completion.
    pub lanes: u64,
    /// Rendezvous completed: warp collectives, barrier phases, cluster and
    /// grid barriers, uniformity checks, `activemask` resolutions.
    pub collectives: u64,
    /// Lane arrivals at those rendezvous (a full-warp shuffle counts 32).
    pub lane_collectives: u64,
    /// Coroutine resumes (lane context switches).
    pub context_switches: u64,
}

/// Formats sorted ranges as `0-15, 32, 40-47`.
pub(crate) fn fmt_ranges(ranges: &[RangeInclusive<u32>]) -> String {
    let parts: Vec<String> = ranges
        .iter()
        .map(|r| {
            if r.start() == r.end() {
                r.start().to_string()
            } else {
                format!("{}-{}", r.start(), r.end())
            }
        })
        .collect();
    parts.join(", ")
}

/// Collapses an ascending sequence of integers into ranges.
pub(crate) fn to_ranges(items: impl IntoIterator<Item = u32>) -> Vec<RangeInclusive<u32>> {
    let mut out: Vec<RangeInclusive<u32>> = Vec::new();
    for i in items {
        match out.last_mut() {
            Some(r) if *r.end() + 1 == i => *r = *r.start()..=i,
            _ => out.push(i..=i),
        }
    }
    out
}

/// Lanes of a warp bitmask as ranges of lane ids (`0-15, 20`).
pub(crate) fn mask_lanes(mask: u32) -> String {
    fmt_ranges(&to_ranges((0..32).filter(|l| mask >> l & 1 == 1)))
}
