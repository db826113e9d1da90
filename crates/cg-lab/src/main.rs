//! `cg-lab`: the Cooperative Groups benchmark lab.
//!
//! `cg-lab info` prints the GPU's facts and runs a verified smoke kernel.

mod backend_choice;
mod info;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The Cooperative Groups lab: Rust kernels on your GPU (or the simulator),
/// every result verified.
#[derive(Parser, Debug)]
#[command(name = "cg-lab", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the device's facts, then run and verify the smoke kernel.
    Info(info::InfoArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Info(args) => info::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
