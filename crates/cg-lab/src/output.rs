//! Every file cg-lab writes goes through [`write_atomic`]: a reader (or a
//! crash, or a full disk) never sees half a CSV or half a JSON report — a
//! file is either its old version or its complete new one.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};

/// Writes `bytes` to `path` through `NAME.tmp-PID` in the same folder:
/// write, fsync, rename (atomic within one file system, which the same
/// folder guarantees). On failure the temporary file is removed and `path`
/// keeps whatever it held before.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = temporary_path(path)?;
    let written = (|| -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        // Without the fsync a crash after the rename can leave an empty file
        // under the final name on some file systems.
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(anyhow!(e)).with_context(|| format!("writing {}", path.display()));
    }
    // Best effort: makes the rename itself durable; some file systems
    // cannot open or sync a folder, and the file is complete either way.
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        let _ = File::open(dir).and_then(|d| d.sync_all());
    }
    Ok(())
}

/// `NAME.tmp-PID` next to `path` (the PID keeps two concurrent runs writing
/// into one folder from sharing a temporary file).
fn temporary_path(path: &Path) -> Result<PathBuf> {
    let name = path
        .file_name()
        .with_context(|| format!("{} names no file", path.display()))?;
    let mut tmp = name.to_os_string();
    tmp.push(format!(".tmp-{}", std::process::id()));
    Ok(path.with_file_name(tmp))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("cg-lab-output-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    fn leftovers(dir: &Path) -> Vec<String> {
        fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".tmp-"))
            .collect()
    }

    #[test]
    fn writes_and_replaces_without_leaving_temporaries() {
        let dir = scratch("ok");
        let p = dir.join("a.csv");
        write_atomic(&p, b"first\n").unwrap();
        write_atomic(&p, b"second\n").unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "second\n");
        assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
        fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_failed_rename_keeps_the_old_file_and_removes_the_temporary() {
        let dir = scratch("fail");
        // A non-empty folder under the target name: the rename must fail.
        let p = dir.join("report.md");
        fs::create_dir_all(p.join("inside")).unwrap();
        let e = write_atomic(&p, b"text").unwrap_err();
        assert!(format!("{e:#}").contains("report.md"), "{e:#}");
        assert!(p.join("inside").is_dir());
        assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
        fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn temporary_is_in_the_same_folder() {
        let t = temporary_path(Path::new("out/x/C-02.json")).unwrap();
        assert_eq!(t.parent(), Some(Path::new("out/x")));
        let name = t.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(name, format!("C-02.json.tmp-{}", std::process::id()));
        assert!(temporary_path(Path::new("/")).is_err());
    }
}
