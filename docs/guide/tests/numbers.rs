//! What the docs quote is what the GPU measured: every number in the tables
//! of the README's "Results on an H200" must appear in a file the row cites
//! (a row whose file column says "same" cites the row above's files too), and
//! every number in the tables of the performance chapter's "The current run"
//! in a file of `docs/results/h200/current/`. Numbers with two or more
//! decimals (`1.009`, `41.97`) and shares of the DRAM peak (`92.0 %`) are
//! checked, verbatim: a results set adopted without the docs updated, or a
//! number typed wrong, fails here instead of in a user's hands.

use std::fs;
use std::path::{Path, PathBuf};

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The lines of `md` from the heading `heading` to the next `## ` heading.
fn section<'a>(md: &'a str, heading: &str) -> Vec<&'a str> {
    let mut lines = md.lines().skip_while(|l| *l != heading);
    assert!(lines.next().is_some(), "no heading {heading:?}");
    lines.take_while(|l| !l.starts_with("## ")).collect()
}

/// The body rows of the tables among `lines` (header and separator rows
/// left out), each split into its cells.
fn table_rows(lines: &[&str]) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let is_row = |l: &str| l.starts_with('|');
        let is_separator = |l: &str| l.starts_with("| ---");
        let header = lines.get(i + 1).is_some_and(|n| is_separator(n));
        if is_row(line) && !is_separator(line) && !header {
            let cells = line.trim_matches('|').split(" | ");
            rows.push(cells.map(|c| c.trim().to_string()).collect());
        }
    }
    rows
}

/// The quoted numbers of `text`: decimals with at least two digits after
/// the point, and `N.N %` shares, as written.
fn numbers(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() || (i > 0 && (b[i - 1].is_ascii_digit() || b[i - 1] == b'.')) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
            i += 1;
            let point = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let share = text[i..].starts_with(" %");
            if i - point >= 2 {
                out.push(text[start..i].to_string());
            } else if share {
                out.push(format!("{} %", &text[start..i]));
            }
        }
    }
    out
}

/// The targets of the relative Markdown links in `cell`, resolved against
/// `dir`, without their anchors.
fn links(cell: &str, dir: &Path) -> Vec<PathBuf> {
    cell.split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .filter(|t| !t.starts_with("http"))
        .map(|t| dir.join(t.split('#').next().unwrap_or(t)))
        .collect()
}

/// The text of `path`: a file, or every file under a folder.
fn text_of(path: &Path) -> String {
    if path.is_dir() {
        let mut entries: Vec<_> = fs::read_dir(path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        entries.iter().map(|p| text_of(p)).collect()
    } else {
        fs::read(path)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }
}

/// Asserts that every number of `quoted` is in `haystack`; returns how many
/// it checked. `source` names the quoting row and the files, for the message.
fn assert_in(quoted: &str, haystack: &str, source: impl Fn() -> String) -> usize {
    let quoted = numbers(quoted);
    for n in &quoted {
        assert!(haystack.contains(n.as_str()), "{n} is not in {}", source());
    }
    quoted.len()
}

#[test]
fn readme_results_are_in_the_files_they_cite() {
    let root = root();
    let readme = fs::read_to_string(root.join("README.md")).unwrap();
    let rows = table_rows(&section(&readme, "## Results on an H200"));
    assert!(
        rows.len() >= 10,
        "the results tables have {} rows",
        rows.len()
    );
    let mut cited: Vec<PathBuf> = Vec::new();
    let mut checked = 0;
    for row in &rows {
        let (what, files) = (&row[..row.len() - 1], &row[row.len() - 1]);
        if !files.starts_with("same") {
            cited.clear();
        }
        cited.extend(links(files, &root));
        assert!(!cited.is_empty(), "row cites no file: {row:?}");
        let haystack: String = cited.iter().map(|p| text_of(p)).collect();
        checked += assert_in(&what.join(" | "), &haystack, || {
            format!("the files of the README's row {:?}: {cited:?}", row[0])
        });
    }
    assert!(checked >= 40, "only {checked} numbers checked");
}

#[test]
fn the_performance_chapters_current_run_is_the_current_set() {
    let root = root();
    let chapter = fs::read_to_string(root.join("docs/guide/performance.md")).unwrap();
    let current = text_of(&root.join("docs/results/h200/current"));
    let mut checked = 0;
    for row in table_rows(&section(&chapter, "## The current run")) {
        checked += assert_in(&row.join(" | "), &current, || {
            format!(
                "docs/results/h200/current/ (performance chapter, row {:?})",
                row[0]
            )
        });
    }
    assert!(checked >= 80, "only {checked} numbers checked");
}

#[test]
fn numbers_are_read_as_written() {
    assert_eq!(
        numbers("**0.820 / 0.798** (92.0 % of peak, 41.97 Gkeys/s; 2^28, 1.5×, 4.81 TB/s)"),
        ["0.820", "0.798", "92.0 %", "41.97", "4.81"]
    );
    assert_eq!(numbers("sm_90, v1.2.3"), Vec::<String>::new());
}
