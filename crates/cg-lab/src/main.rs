//! `cg-lab`: the Cooperative Groups benchmark lab.
//!
//! * `cg-lab [--mode sweep|modes|all|…] [flags]` reproduces the C-02 lab:
//!   every configuration verified, timed with CUDA events (variants
//!   interleaved), results written as CSV, markdown, JSON and SVG.
//! * `cg-lab info` prints the GPU's facts and runs a verified smoke kernel.
//! * `cg-lab verify` is the differential test: GPU against simulator.
//! * `cg-lab compare` times the Rust kernels against NVIDIA's C++ in one run.
//! * `cg-lab sync` measures what one `sync()` costs on every kind of group,
//!   against NVIDIA's C++ in the same run.
//! * `cg-lab math-accuracy` measures the math library against CUDA's
//!   documented ulp bounds (every `f32` input of the unary functions).
//!
//! Without a GPU both run on the `cg-sim` simulator (correctness only) and
//! say so.

mod backend_choice;
mod cli;
mod compare;
mod compare_tma;
mod data;
mod experiments;
mod harness;
mod info;
mod kernels;
mod lab;
mod listings;
mod math_accuracy;
mod output;
mod partial;
mod preflight;
mod progress;
mod reference;
mod report;
mod results;
mod run;
mod semantics;
mod stats;
mod sync_cost;
mod timing;
mod verify;
mod verify_collectives;

#[cfg(test)]
mod cli_fuzz;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

/// The Cooperative Groups lab: Rust kernels on your GPU (or the simulator),
/// every result verified.
#[derive(Parser, Debug)]
#[command(
    name = "cg-lab",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    lab: cli::LabArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the device's facts, then run and verify the smoke kernel.
    Info(info::InfoArgs),
    /// Differential test: run the differential kernels on the GPU and on the
    /// simulator and compare their outputs word for word.
    Verify(verify::VerifyArgs),
    /// Time the Rust kernels against NVIDIA's C++ (cooperative_groups, CUB)
    /// in the same process: needs a GPU and nvcc.
    Compare(compare::CompareArgs),
    /// What one `sync()` costs on every kind of group (tiles, block, split
    /// barrier, cluster, grid), Rust against NVIDIA's C++ in the same run:
    /// needs a GPU and nvcc (without a GPU: verified on the simulator).
    Sync(sync_cost::SyncArgs),
    /// The math library's accuracy on the GPU: every unary `f32` function
    /// and intrinsic on all 2^32 inputs, the others on random inputs,
    /// against CUDA's documented bounds (exit 1 if one is exceeded).
    MathAccuracy(math_accuracy::MathAccuracyArgs),
}

impl Cli {
    /// The checks between flags that clap's value parsers cannot make (a
    /// tile larger than its block, `--only` names, …): everything that can
    /// be refused before a backend is opened.
    fn validate(&self) -> Result<(), String> {
        match &self.command {
            None => self.lab.validate(),
            Some(Command::Compare(args)) => args.validate(),
            Some(Command::Info(args)) => args.validate(),
            Some(Command::MathAccuracy(args)) => args.validate(),
            Some(Command::Verify(_)) | Some(Command::Sync(_)) => Ok(()),
        }
    }
}

/// Parses and validates a command line without running anything: the seam
/// between the command line and the commands, which the CLI fuzz test
/// drives in-process. A validation failure is a clap error like any other
/// bad flag (exit code 2, one line).
fn parse_and_validate<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = Cli::try_parse_from(args)?;
    cli.validate()
        .map_err(|msg| Cli::command().error(clap::error::ErrorKind::ValueValidation, msg))?;
    Ok(cli)
}

/// Parses and validates the process's arguments; prints a refusal on one
/// line (help and version print as usual).
fn parse() -> Result<Cli, ExitCode> {
    parse_and_validate(std::env::args_os()).map_err(|e| {
        use clap::error::ErrorKind::*;
        if matches!(
            e.kind(),
            DisplayHelp | DisplayVersion | DisplayHelpOnMissingArgumentOrSubcommand
        ) {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        eprintln!("{} (see cg-lab --help)", one_line(&e));
        ExitCode::from(2)
    })
}

/// A clap error's message without its usage (which can span several
/// lines) and help lines.
fn one_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty())
        .collect();
    lines.join(" ")
}

fn main() -> ExitCode {
    let cli = match parse() {
        Ok(c) => c,
        Err(code) => return code,
    };
    let result = match cli.command {
        Some(Command::Info(args)) => info::run(&args),
        Some(Command::Verify(args)) => verify::run(&args),
        Some(Command::Compare(args)) => compare::run(&args),
        Some(Command::Sync(args)) => sync_cost::run(&args),
        Some(Command::MathAccuracy(args)) => math_accuracy::run(&args),
        None => run::run(&cli.lab),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
