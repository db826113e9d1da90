//! Nothing measured is lost: a [`Recorder`] prints each result as soon as
//! it is measured and keeps it, so that when a later step fails (a kernel
//! error, a timing failure, a file that cannot be written) the results so
//! far are saved to `STEM.partial.json` (`"complete": false`) and the error
//! says where.
//!
//! `CG_LAB_FAIL_AFTER=N` (deliberately not a flag: it is for tests) makes
//! the measurement after the first `N` fail, so that this path can be
//! tested on the simulator without a faulty GPU.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use serde::Serialize;

/// The variable that injects a failure.
pub const FAIL_AFTER_VAR: &str = "CG_LAB_FAIL_AFTER";

/// Results of one command, in the order they were measured.
pub struct Recorder<'p, R> {
    rows: Vec<R>,
    /// Measurements begun (the injected failure counts these).
    begun: usize,
    fail_after: Option<usize>,
    print: Box<dyn FnMut(&R) + 'p>,
}

impl<'p, R: Serialize> Recorder<'p, R> {
    /// A recorder that hands each result to `print` (which writes it to
    /// stdout, or nothing where stdout holds one document, e.g. JSON).
    pub fn new(print: impl FnMut(&R) + 'p) -> Result<Recorder<'p, R>> {
        Ok(Recorder {
            rows: Vec::new(),
            begun: 0,
            fail_after: fail_after()?,
            print: Box::new(print),
        })
    }

    /// Replaces the printer (the lab's CSV rows change columns per group).
    pub fn set_print(&mut self, print: impl FnMut(&R) + 'p) {
        self.print = Box::new(print);
    }

    /// Called before measuring `what`; fails there when a failure is
    /// injected after this many measurements.
    pub fn begin(&mut self, what: &str) -> Result<()> {
        if self.fail_after == Some(self.begun) {
            bail!(
                "injected failure ({FAIL_AFTER_VAR}={}) before measuring {what}",
                self.begun
            );
        }
        self.begun += 1;
        Ok(())
    }

    /// Records a measured result and prints it.
    pub fn push(&mut self, row: R) {
        (self.print)(&row);
        self.rows.push(row);
    }

    /// The results so far.
    pub fn rows(&self) -> &[R] {
        &self.rows
    }

    /// The results, once no step can fail any more.
    pub fn into_rows(self) -> Vec<R> {
        self.rows
    }

    /// Saves the results so far into `dir` (see [`save`]) and returns
    /// `err` saying where they are.
    pub fn fail(&self, dir: &Path, stem: &str, err: anyhow::Error) -> anyhow::Error {
        save(dir, stem, &self.rows, self.rows.len(), err)
    }
}

/// The injected failure's count, if `CG_LAB_FAIL_AFTER` is set.
fn fail_after() -> Result<Option<usize>> {
    match std::env::var(FAIL_AFTER_VAR) {
        Err(_) => Ok(None),
        Ok(v) => match v.trim().parse() {
            Ok(n) => Ok(Some(n)),
            Err(_) => bail!("{FAIL_AFTER_VAR} must be a count of measurements (got `{v}`)"),
        },
    }
}

/// `dir/STEM.partial.json`.
pub fn path(dir: &Path, stem: &str) -> PathBuf {
    dir.join(format!("{stem}.partial.json"))
}

/// The file a failed run leaves.
#[derive(Serialize)]
struct Partial<'a, T: Serialize + ?Sized> {
    /// Always `false`: the run stopped before its end.
    complete: bool,
    /// Why it stopped.
    error: String,
    command: String,
    commit: &'static str,
    /// What was measured before that, in order.
    rows: &'a T,
}

/// Writes `rows` (the `count` results measured before `err`) to
/// `dir/STEM.partial.json` and returns `err` with the file's path in front;
/// if even that file cannot be written, the error says so too.
pub fn save<T: Serialize + ?Sized>(
    dir: &Path,
    stem: &str,
    rows: &T,
    count: usize,
    err: anyhow::Error,
) -> anyhow::Error {
    let p = path(dir, stem);
    let partial = Partial {
        complete: false,
        error: format!("{err:#}"),
        command: crate::results::command_line(),
        commit: env!("CG_LAB_COMMIT"),
        rows,
    };
    let saved = serde_json::to_string_pretty(&partial)
        .map_err(anyhow::Error::from)
        .and_then(|text| crate::output::write_atomic(&p, (text + "\n").as_bytes()));
    match saved {
        Ok(()) => err.context(format!(
            "stopped after {count} measured result(s), saved in {}",
            p.display()
        )),
        Err(e) => err.context(format!(
            "stopped after {count} measured result(s), which could not be saved ({e:#})"
        )),
    }
}

/// Removes a `STEM.partial.json` left by an earlier failed run, once this
/// run's complete files are written (so the folder never holds both a
/// complete report and a stale partial one).
pub fn clear(dir: &Path, stem: &str) {
    let _ = std::fs::remove_file(path(dir, stem));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn save_writes_the_rows_and_names_the_file() {
        let dir = std::env::temp_dir().join(format!("cg-lab-partial-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut printed = Vec::new();
        let mut rec = Recorder {
            rows: Vec::new(),
            begun: 0,
            fail_after: Some(2),
            print: Box::new(|r: &u32| printed.push(*r)),
        };
        let mut err = None;
        for i in 0..5u32 {
            if let Err(e) = rec.begin(&format!("row {i}")) {
                err = Some(e);
                break;
            }
            rec.push(i);
        }
        let err = err.expect("the third measurement fails");
        assert!(err.to_string().contains("before measuring row 2"), "{err}");
        let err = format!("{:#}", rec.fail(&dir, "t", err));
        let file = path(&dir, "t");
        assert!(err.contains(&file.display().to_string()), "{err}");
        assert!(err.contains("stopped after 2 measured"), "{err}");
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(json["complete"], false);
        assert_eq!(json["rows"], serde_json::json!([0, 1]));
        assert!(json["error"].as_str().unwrap().contains("injected"));
        clear(&dir, "t");
        assert!(!file.exists());
        drop(rec);
        assert_eq!(printed, [0, 1]);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn an_unwritable_folder_is_said_too() {
        let e = save(
            Path::new("/dev/null/x"),
            "t",
            &[1],
            1,
            anyhow::anyhow!("boom"),
        );
        let e = format!("{e:#}");
        assert!(
            e.contains("could not be saved") && e.ends_with("boom"),
            "{e}"
        );
    }
}
