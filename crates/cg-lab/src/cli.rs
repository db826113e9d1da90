//! The lab's flags: the seed program's (`--mode --n --block --tile --reps
//! --grid --clusize --runs --warmup --device --csv-only`), validated as the
//! seed validates them, plus `--backend`, `--out` and `--format`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::backend_choice::BackendArgs;

/// What to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// Hand-written `shfl.sync` tree (inline PTX), tile 32: the baseline.
    Intrinsic,
    /// `ThreadBlockTile<32>` `shfl_down` tree + `shfl(v, 0)`.
    Tile32,
    /// Library `reduce(&tile, v, Plus)` at `--tile`.
    #[value(name = "cg_reduce")]
    CgReduce,
    /// Odd count with one 64-bit atomic per coalesced group.
    Coalesced,
    /// Cluster DSMEM neighbour read (sm_90+).
    Cluster,
    /// `cg_reduce` at every tile from 8 to the block size (the cliff curve).
    Sweep,
    /// intrinsic, tile32, cg_reduce at tile 32, coalesced, cluster.
    Modes,
    /// sweep, then modes.
    All,
}

/// How results are printed on stdout (files are always written).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The seed's result lines and a table.
    Table,
    /// CSV rows (the seed's columns plus norm / ratio).
    Csv,
    /// The JSON report.
    Json,
}

/// Flags of a lab run.
#[derive(Args, Debug, Clone)]
pub struct LabArgs {
    /// Experiment to run.
    #[arg(long, value_enum, default_value_t = Mode::Sweep)]
    pub mode: Mode,
    /// Elements of the input (reduce: float (i % 16) + 1; coalesced: int).
    #[arg(long, default_value_t = 1 << 24, value_parser = positive, allow_hyphen_values = true)]
    pub n: u32,
    /// Threads per block: a multiple of 32 in [128, 1024].
    #[arg(long, default_value_t = 128, value_parser = block_size, allow_hyphen_values = true)]
    pub block: u32,
    /// Tile size of cg_reduce: a power of two in [8, 1024], at most --block.
    #[arg(long, default_value_t = 32, value_parser = tile_size, allow_hyphen_values = true)]
    pub tile: u32,
    /// Reduction rounds per launch (timed runs; verification uses 1).
    #[arg(long, default_value_t = 50, value_parser = positive, allow_hyphen_values = true)]
    pub reps: u32,
    /// Blocks in the grid (default: SMs × 8).
    #[arg(long, value_parser = positive, allow_hyphen_values = true)]
    pub grid: Option<u32>,
    /// Blocks per cluster for the cluster mode: 1 to 8.
    #[arg(long, default_value_t = 2, value_parser = cluster_size, allow_hyphen_values = true)]
    pub clusize: u32,
    /// Timed launches per configuration.
    #[arg(long, default_value_t = 7, value_parser = positive, allow_hyphen_values = true)]
    pub runs: u32,
    /// Shortest timed sample, in ms: a kernel shorter than this is launched
    /// back to back that many times per sample, and the sample is their
    /// mean (0: one launch per sample, the seed's method; single launches
    /// of 10–60 µs kernels let launch jitter move ratios by ±1.5 %).
    #[arg(long, default_value_t = 1.0, allow_hyphen_values = true)]
    pub min_sample_ms: f64,
    /// Untimed warm-up launches per configuration.
    #[arg(long, default_value_t = 2, value_parser = non_negative, allow_hyphen_values = true)]
    pub warmup: u32,
    #[command(flatten)]
    pub backend: BackendArgs,
    /// Print only CSV rows (as the seed's --csv-only).
    #[arg(long, conflicts_with = "format")]
    pub csv_only: bool,
    /// Output folder (default: `results/<gpu-slug>/`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Stdout format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

impl LabArgs {
    /// Checks the constraints between flags: the tile must fit the block.
    pub fn validate(&self) -> Result<(), String> {
        if !(0.0..=100.0).contains(&self.min_sample_ms) {
            return Err(format!(
                "--min-sample-ms must be between 0 and 100 (got {})",
                self.min_sample_ms
            ));
        }
        if self.tile > self.block {
            return Err(format!(
                "--tile {} is larger than --block {}: a tile must fit in its block",
                self.tile, self.block
            ));
        }
        Ok(())
    }
}

pub(crate) fn positive(s: &str) -> Result<u32, String> {
    match s.trim().parse::<i128>() {
        Ok(v) if v < 1 => Err(format!("must be at least 1 (got {v})")),
        Ok(v) if v > u32::MAX as i128 => Err(format!(
            "must be at most {} (a 32-bit count; got {v})",
            u32::MAX
        )),
        Ok(v) => Ok(v as u32),
        Err(_) => Err(format!("must be a positive integer (got `{s}`)")),
    }
}

pub(crate) fn non_negative(s: &str) -> Result<u32, String> {
    match s.trim().parse::<i128>() {
        Ok(v) if v < 0 => Err(format!("must be 0 or more (got {v})")),
        Ok(v) if v > u32::MAX as i128 => Err(format!("must be at most {} (got {v})", u32::MAX)),
        Ok(v) => Ok(v as u32),
        Err(_) => Err(format!("must be an integer (got `{s}`)")),
    }
}

fn block_size(s: &str) -> Result<u32, String> {
    let v: u32 = s.parse().map_err(|_| "must be an integer".to_string())?;
    if !v.is_multiple_of(32) || !(128..=1024).contains(&v) {
        return Err("must be a multiple of 32 in [128, 1024]".into());
    }
    Ok(v)
}

fn tile_size(s: &str) -> Result<u32, String> {
    let v: u32 = s.parse().map_err(|_| "must be an integer".to_string())?;
    if !v.is_power_of_two() || !(8..=1024).contains(&v) {
        return Err("must be a power of two in [8, 1024]".into());
    }
    Ok(v)
}

fn cluster_size(s: &str) -> Result<u32, String> {
    let v: u32 = s.parse().map_err(|_| "must be an integer".to_string())?;
    if !(1..=8).contains(&v) {
        return Err("must be in [1, 8] (the portable cluster limit)".into());
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validators() {
        assert!(tile_size("3").is_err());
        assert!(tile_size("2048").is_err());
        assert_eq!(tile_size("64"), Ok(64));
        assert!(block_size("96").is_err());
        assert!(block_size("100").is_err());
        assert_eq!(block_size("1024"), Ok(1024));
        assert!(positive("0").is_err());
        assert!(positive("-5").unwrap_err().contains("at least 1"));
        assert!(
            positive("10000000000")
                .unwrap_err()
                .contains("at most 4294967295")
        );
        assert!(positive("2^30").unwrap_err().contains("positive integer"));
        assert_eq!(positive("4294967295"), Ok(u32::MAX));
        assert!(cluster_size("0").is_err());
        assert!(cluster_size("9").is_err());
    }
}
