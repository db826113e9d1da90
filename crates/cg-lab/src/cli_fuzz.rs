//! The command line under random input: random combinations of the real
//! flags (and a few unknown ones) with edge values — negative, zero, huge,
//! non-numeric, empty, NaN, repeated and conflicting flags — must never
//! panic, and must either give a configuration that every check accepts
//! (the flag checks and the memory preflight) or a refusal with a message.
//! Runs in-process on [`parse_and_validate`]: no backend is opened, no
//! kernel runs.

use clap::error::ErrorKind;
use proptest::prelude::*;

use super::{Cli, Command, one_line, parse_and_validate};
use crate::cli::LabArgs;

/// Flags of the lab (and of `compare`, which flattens them).
const LAB_FLAGS: &[&str] = &[
    "--mode",
    "--n",
    "--block",
    "--tile",
    "--reps",
    "--grid",
    "--clusize",
    "--runs",
    "--min-sample-ms",
    "--warmup",
    "--csv-only",
    "--out",
    "--format",
];
/// Flags every command has (`BackendArgs`).
const BACKEND_FLAGS: &[&str] = &["--backend", "--device", "--timeout"];
const VERIFY_FLAGS: &[&str] = &[
    "--out",
    "--reference",
    "--collectives",
    "--composed",
    "--watchdog-test",
    "--seed",
];
const INFO_FLAGS: &[&str] = &["--grid", "--block"];
const COMPARE_FLAGS: &[&str] = &["--only"];
const SYNC_FLAGS: &[&str] = &[
    "--blocks",
    "--only",
    "--iters",
    "--grid-iters",
    "--runs",
    "--warmup",
    "--out",
];
/// Not flags of cg-lab at all.
const BOGUS_FLAGS: &[&str] = &["--bogus", "-x", "--", "--n-", "---n"];

/// Values: numbers at and around every limit, and what is not a number.
const EDGE_VALUES: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "7",
    "8",
    "31",
    "32",
    "96",
    "100",
    "128",
    "160",
    "256",
    "1024",
    "2048",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "-4294967296",
    "18446744073709551616",
    "99999999999999999999999999999999999999999",
    "",
    " ",
    " 32 ",
    "abc",
    "1e3",
    "0.5",
    "100.0001",
    "101",
    "86401",
    "cg_scan,nope",
    "NaN",
    "inf",
    "-inf",
    "2^30",
    "0x20",
    "=",
    "sim",
    "gpu",
    "auto",
    "all",
    "sweep",
    "modes",
    "cg_reduce",
    "json",
    "csv",
    "table",
    "block_reduce,cluster",
    "block",
    ",",
    "/dev/null/x",
    "target/cg-lab-fuzz-never-written",
];

/// Valid values of each flag, so that whole command lines are often
/// accepted and the checks between flags (a tile larger than its block)
/// are reached; the values just outside each limit are in `EDGE_VALUES`.
fn plausible(flag: &str) -> &'static [&'static str] {
    match flag {
        "--mode" => &[
            "sweep",
            "modes",
            "all",
            "intrinsic",
            "tile32",
            "cg_reduce",
            "coalesced",
            "cluster",
        ],
        "--n" => &["1", "1000", "65536", "16777216", "4294967295"],
        "--block" => &["128", "160", "256", "512", "1024"],
        "--tile" => &["8", "16", "32", "64", "128", "256", "512", "1024"],
        "--reps" | "--runs" => &["1", "7", "50"],
        "--warmup" | "--collectives" | "--composed" => &["0", "2", "24"],
        "--grid" => &["1", "2", "1056", "65535"],
        "--clusize" => &["1", "2", "4", "8"],
        "--min-sample-ms" => &["0", "0.5", "1", "100"],
        "--format" => &["table", "csv", "json"],
        "--backend" => &["sim", "gpu", "auto"],
        "--device" => &["0", "1", "7"],
        "--timeout" => &["0.001", "2", "300", "86400"],
        "--only" => &[
            "cg_reduce",
            "block_reduce,block_scan",
            "cluster",
            "tile,grid",
        ],
        "--blocks" => &["128", "256,1024", "96", "2048"],
        "--iters" | "--grid-iters" => &["1", "4096"],
        "--seed" => &["0", "12648430"],
        _ => &["target/cg-lab-fuzz-never-written"],
    }
}

/// A value for `flag`: mostly valid, sometimes any edge value, an
/// arbitrary number or arbitrary printable text.
fn value_for(flag: &'static str) -> impl Strategy<Value = String> {
    prop_oneof![
        40 => prop::sample::select(plausible(flag)).prop_map(str::to_string),
        2 => prop::sample::select(EDGE_VALUES).prop_map(str::to_string),
        1 => any::<i64>().prop_map(|v| v.to_string()),
        1 => any::<f64>().prop_map(|v| v.to_string()),
        1 => "[ -~]{0,12}",
    ]
}

/// Flags that take no value.
fn is_switch(flag: &str) -> bool {
    matches!(flag, "--csv-only" | "--watchdog-test")
}

/// One flag as a user might write it: with a separate value, as
/// `--flag=value`, or (a mistake for most flags) alone.
fn item(flag: &'static str) -> impl Strategy<Value = Vec<String>> {
    (value_for(flag), 0..20u8).prop_map(move |(v, form)| match form {
        _ if is_switch(flag) && form < 18 => vec![flag.to_string()],
        0..=13 => vec![flag.to_string(), v],
        14..=18 => vec![format!("{flag}={v}")],
        _ => vec![flag.to_string()],
    })
}

/// Any flag of any command, or none at all.
fn stranger() -> impl Strategy<Value = Vec<String>> {
    let all: Vec<&'static str> = [
        LAB_FLAGS,
        BACKEND_FLAGS,
        VERIFY_FLAGS,
        INFO_FLAGS,
        COMPARE_FLAGS,
        SYNC_FLAGS,
        BOGUS_FLAGS,
    ]
    .concat();
    prop::sample::select(all).prop_flat_map(item)
}

/// The flags of a command (the lab's for no command).
fn flags_of(sub: &str) -> Vec<&'static str> {
    // `--tile` and `--block` of the lab come as a pair (see `command_line`).
    let own: &[&[&str]] = match sub {
        "" => &[LAB_FLAGS],
        "compare" => &[LAB_FLAGS, COMPARE_FLAGS],
        "info" => &[INFO_FLAGS],
        "verify" => &[VERIFY_FLAGS],
        "sync" => &[SYNC_FLAGS],
        _ => &[LAB_FLAGS, VERIFY_FLAGS],
    };
    let mut all = own.concat();
    if matches!(sub, "" | "compare") {
        all.retain(|f| !matches!(*f, "--tile" | "--block"));
    }
    all.extend(BACKEND_FLAGS);
    all
}

/// A command line: a command (or none, or a wrong one), some of its flags
/// once each with a value, and now and then one or two more flags of any
/// command (a repeat, a conflict, a flag of another command or none).
fn command_line() -> impl Strategy<Value = Vec<String>> {
    let sub = prop::sample::select(vec![
        "", "", "", "compare", "info", "verify", "sync", "bogus",
    ]);
    sub.prop_flat_map(|sub| {
        let flags = flags_of(sub);
        let n = flags.len();
        let own = prop::sample::subsequence(flags, 0..=n.min(6))
            .prop_flat_map(|fs| fs.into_iter().map(item).collect::<Vec<_>>());
        // The one check between two flags, given both flags often enough
        // to be reached (a random subset of sixteen flags rarely holds both).
        let tile_and_block = prop::option::weighted(0.5, (item("--tile"), item("--block")));
        let extra = prop::collection::vec(stranger(), 1..3);
        (
            Just(sub),
            own,
            tile_and_block,
            prop::option::weighted(0.2, extra),
        )
    })
    .prop_map(|(sub, own, tile_and_block, extra)| {
        let mut argv = vec!["cg-lab".to_string()];
        if !sub.is_empty() {
            argv.push(sub.to_string());
        }
        let pair = tile_and_block
            .filter(|_| matches!(sub, "" | "compare"))
            .map(|(t, b)| [t, b]);
        argv.extend(own.into_iter().flatten());
        argv.extend(pair.into_iter().flatten().flatten());
        argv.extend(extra.into_iter().flatten().flatten());
        argv
    })
}

/// What every accepted lab configuration must satisfy (the seed's limits
/// and the checks between flags), and the memory preflight on the
/// simulator must accept it or refuse it naming the largest `--n`.
fn check_lab(a: &LabArgs) {
    assert!(a.n >= 1 && a.reps >= 1 && a.runs >= 1, "{a:?}");
    assert!(
        a.block.is_multiple_of(32) && (128..=1024).contains(&a.block),
        "{a:?}"
    );
    assert!(
        a.tile.is_power_of_two() && (8..=1024).contains(&a.tile) && a.tile <= a.block,
        "{a:?}"
    );
    assert!(a.grid.is_none_or(|g| g >= 1), "{a:?}");
    assert!((1..=8).contains(&a.clusize), "{a:?}");
    assert!((0.0..=100.0).contains(&a.min_sample_ms), "{a:?}");
    assert!(
        a.backend.timeout > 0.0 && a.backend.timeout <= 86_400.0,
        "{a:?}"
    );
    if let Err(e) = crate::preflight::check_n(&cg_runtime::Backend::sim(), a.n) {
        assert!(
            e.to_string().contains("the largest --n that fits is"),
            "{e}"
        );
    }
}

fn check_accepted(cli: &Cli) {
    match &cli.command {
        None => check_lab(&cli.lab),
        Some(Command::Compare(c)) => {
            check_lab(&c.lab);
            assert!(c.validate().is_ok());
        }
        Some(Command::Info(i)) => {
            assert!(i.block >= 32 && i.block.is_multiple_of(32) && i.block <= 1024);
            assert!((1..=65535).contains(&i.grid));
        }
        Some(Command::Verify(_)) => {}
        Some(Command::Sync(s)) => s.check_accepted(),
        Some(Command::MathAccuracy(m)) => assert!(m.validate().is_ok()),
    }
}

fn check_refused(e: &clap::Error) {
    let line = one_line(e);
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        assert!(!line.is_empty());
        return;
    }
    assert!(line.starts_with("error: "), "{line}");
    assert!(line.len() > "error: ".len() + 5, "no message: {line}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn the_command_line_never_panics_and_always_explains(argv in command_line()) {
        match parse_and_validate(&argv) {
            Ok(cli) => check_accepted(&cli),
            Err(e) => check_refused(&e),
        }
    }
}

/// The generator reaches every layer: a good share of its command lines
/// are accepted, and some are refused only by the checks between flags
/// (which a generator of mostly invalid values would never test).
#[test]
fn the_generator_reaches_validation() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut accepted, mut between_flags) = (0, 0);
    for _ in 0..400 {
        let argv = command_line().new_tree(&mut runner).unwrap().current();
        match parse_and_validate(&argv) {
            Ok(_) => accepted += 1,
            Err(e)
                if e.kind() == ErrorKind::ValueValidation
                    && one_line(&e).contains("larger than --block") =>
            {
                between_flags += 1
            }
            Err(_) => {}
        }
    }
    assert!(accepted >= 60, "only {accepted} of 400 accepted");
    assert!(
        between_flags >= 5,
        "only {between_flags} of 400 refused for tile > block"
    );
}

/// clap's own consistency checks of the flag definitions (conflicts naming
/// real flags, no duplicate names), which otherwise fire only when a
/// command line reaches them.
#[test]
fn the_flag_definitions_are_consistent() {
    use clap::CommandFactory;
    Cli::command().debug_assert();
}

/// The checks between flags refuse through the same seam as clap's own,
/// so a bad combination is a one-line usage error too.
#[test]
fn checks_between_flags_are_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (&["--tile", "256", "--block", "128"], "larger than --block"),
        (&["--min-sample-ms", "NaN"], "between 0 and 100"),
        (&["compare", "--only", "nope"], "no experiment named `nope`"),
        (&["info", "--block", "48"], "multiple of 32"),
        (&["--csv-only", "--format", "csv"], "cannot be used with"),
    ];
    for (args, expect) in cases {
        let argv = std::iter::once("cg-lab").chain(args.iter().copied());
        let e = parse_and_validate(argv).expect_err("refused");
        let line = one_line(&e);
        assert!(line.contains(expect), "{args:?}: {line}");
    }
    let ok = parse_and_validate(["cg-lab", "--tile", "128", "--block", "128"]);
    assert!(ok.is_ok());
}
