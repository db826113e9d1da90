//! What the chapters show is what the code does: every block of
//! `simulator.md` (`safe-kernels.md`) that follows a `<!-- report: NAME -->`
//! marker — the code of `cg_guide::reports::NAME`
//! (`cg_guide::safe_reports::NAME`, a `rust,ignore` block) and the report
//! its launch ends with (a `text` block) — must be the function's source in
//! `src/reports.rs` (`src/safe_reports.rs`) and its report now.
//! `CG_GUIDE_BLESS=1` rewrites the blocks from the code instead (then
//! review the diff).

use std::path::Path;

use cg_guide::{reports, safe_reports};
use cg_sim::SimError;

/// A function of `cg_guide::reports`: a launch that ends with a report.
type Broken = fn() -> SimError;

/// Every report the simulator chapter shows, by the name of its function.
const SIMULATOR: &[(&str, Broken)] = &[
    ("deadlock", reports::deadlock),
    ("partial_partition", reports::partial_partition),
    ("non_uniform", reports::non_uniform),
    ("race", reports::race),
    ("out_of_bounds", reports::out_of_bounds),
    ("read_before_wait", reports::read_before_wait),
    (
        "grid_sync_not_cooperative",
        reports::grid_sync_not_cooperative,
    ),
];

/// Every report the safe-kernels chapter shows.
const SAFE_KERNELS: &[(&str, Broken)] = &[
    ("two_blocks_one_word", safe_reports::two_blocks_one_word),
    ("missing_grid_sync", safe_reports::missing_grid_sync),
    ("read_past_the_end", safe_reports::read_past_the_end),
];

fn guide(file: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(file)
}

/// The source of `pub fn name` in `src`: from its signature to the first
/// line that is a lone `}`.
fn function_source(src: &str, name: &str) -> String {
    let start = src
        .find(&format!("pub fn {name}("))
        .unwrap_or_else(|| panic!("no `pub fn {name}` in the source"));
    let end = start + src[start..].find("\n}\n").expect("end of the function") + 3;
    src[start..end].to_string()
}

/// The byte range of the contents of the first fenced block of kind `info`
/// at or after `from`.
fn block(md: &str, from: usize, info: &str) -> std::ops::Range<usize> {
    let fence = format!("```{info}\n");
    let open = from
        + md[from..]
            .find(&fence)
            .unwrap_or_else(|| panic!("no ```{info} block after byte {from}"));
    let start = open + fence.len();
    let end = start + md[start..].find("```\n").expect("closing fence");
    start..end
}

/// Checks (or, with `CG_GUIDE_BLESS`, rewrites) the reports `chapter` shows
/// against the functions of `source`.
fn check_reports(chapter: &str, source: &str, reports: &[(&str, Broken)]) {
    let path = guide(chapter);
    let mut md = std::fs::read_to_string(&path).unwrap();
    let src = std::fs::read_to_string(guide(source)).unwrap();
    let bless = std::env::var_os("CG_GUIDE_BLESS").is_some();
    let mut stale = Vec::new();
    for (name, run) in reports {
        let marker = format!("<!-- report: {name} -->\n");
        let at = md
            .find(&marker)
            .unwrap_or_else(|| panic!("{chapter} has no `{}`", marker.trim()));
        let code = block(&md, at, "rust,ignore");
        let want_code = function_source(&src, name);
        let report = format!("{}\n", run().to_string().trim_end());
        if md[code.clone()] != want_code {
            stale.push(format!("{name}: the code differs from {source}"));
            if bless {
                md.replace_range(code.clone(), &want_code);
            }
        }
        let code = block(&md, at, "rust,ignore");
        let text = block(&md, code.start, "text");
        if md[text.clone()] != report {
            stale.push(format!(
                "{name}: the report is now\n{report}shown:\n{}",
                &md[text.clone()]
            ));
            if bless {
                md.replace_range(text, &report);
            }
        }
    }
    if bless {
        std::fs::write(&path, md).unwrap();
    } else {
        assert!(
            stale.is_empty(),
            "{chapter} is stale (CG_GUIDE_BLESS=1 cargo test -p cg-guide --test chapters rewrites it):\n{}",
            stale.join("\n")
        );
    }
}

#[test]
fn the_simulator_chapter_shows_the_real_reports() {
    check_reports("simulator.md", "src/reports.rs", SIMULATOR);
}

#[test]
fn the_safe_kernels_chapter_shows_the_real_reports() {
    check_reports("safe-kernels.md", "src/safe_reports.rs", SAFE_KERNELS);
}

/// Every relative link of the guide, the README and the results index
/// names a file or folder that exists (the results moved once; links must
/// follow).
#[test]
fn every_relative_link_resolves() {
    let root = guide("../..");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(guide("."))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.push(root.join("README.md"));
    files.push(root.join("docs/results/h200/INDEX.md"));
    let mut broken = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let dir = file.parent().unwrap();
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = rest[..end].split('#').next().unwrap();
            if target.is_empty() || target.contains("://") || target.contains(' ') {
                continue;
            }
            if !dir.join(target).exists() {
                broken.push(format!("{}: {target}", file.display()));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links to nothing:\n{}",
        broken.join("\n")
    );
}
