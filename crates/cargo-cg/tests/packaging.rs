//! The workspace is ready for a registry: every publishable crate has the
//! metadata a registry shows and a README, shares the workspace's version
//! (which `cargo cg new` writes into a project), and the workspace's
//! dependency table asks for that version; the two crates that stay in the
//! repository say so. `scripts/registry.sh` packages them (a CI step).

use std::path::Path;

const PUBLISHED: [&str; 7] = [
    "cg-isa",
    "cg-macros",
    "cooperative-groups",
    "cg-sim",
    "cg-runtime",
    "cg-build",
    "cargo-cg",
];

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `key = value` lines of `[section]` (a line-based reading: enough for
/// these manifests, and no TOML parser to build).
fn section<'a>(manifest: &'a str, section: &str) -> Vec<(&'a str, &'a str)> {
    let mut inside = false;
    let mut out = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == format!("[{section}]");
        } else if inside && let Some((k, v)) = line.split_once('=') {
            out.push((k.trim(), v.trim()));
        }
    }
    out
}

fn get<'a>(lines: &[(&'a str, &'a str)], key: &str) -> Option<&'a str> {
    lines.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

#[test]
fn every_published_crate_has_registry_metadata_and_a_readme() {
    let workspace = read(&root().join("Cargo.toml"));
    let shared = section(&workspace, "workspace.package");
    for key in ["license", "repository"] {
        assert!(
            get(&shared, key).is_some(),
            "[workspace.package] lacks {key}"
        );
    }
    for krate in PUBLISHED {
        let dir = root().join("crates").join(krate);
        let manifest = read(&dir.join("Cargo.toml"));
        let package = section(&manifest, "package");
        assert_eq!(get(&package, "name"), Some(format!("\"{krate}\"").as_str()));
        assert_eq!(get(&package, "publish"), None, "{krate} is published");
        assert_eq!(get(&package, "version.workspace"), Some("true"), "{krate}");
        for key in ["license.workspace", "repository.workspace"] {
            assert_eq!(get(&package, key), Some("true"), "{krate}: {key}");
        }
        for key in ["description", "keywords", "categories", "readme"] {
            assert!(get(&package, key).is_some(), "{krate} lacks {key}");
        }
        let readme = get(&package, "readme").unwrap().trim_matches('"');
        let text = read(&dir.join(readme));
        assert!(
            text.starts_with(&format!("# {krate}\n")),
            "{krate}/{readme} starts with its name"
        );
        let keywords = get(&package, "keywords").unwrap();
        assert!(
            keywords.matches(',').count() < 5,
            "{krate}: at most 5 keywords"
        );
    }
}

#[test]
fn versions_line_up() {
    let workspace = read(&root().join("Cargo.toml"));
    let version = get(&section(&workspace, "workspace.package"), "version")
        .expect("[workspace.package] version")
        .trim_matches('"');
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    let deps = section(&workspace, "workspace.dependencies");
    for krate in PUBLISHED.iter().filter(|k| **k != "cargo-cg") {
        let dep = get(&deps, krate).unwrap_or_else(|| panic!("no workspace dependency {krate}"));
        assert!(
            dep.contains(&format!("version = \"{version}\"")),
            "[workspace.dependencies] {krate} = {dep}: must ask for {version}"
        );
    }
}

#[test]
fn the_repository_crates_are_not_published() {
    for krate in ["cg-kernels", "cg-lab"] {
        let manifest = read(&root().join("crates").join(krate).join("Cargo.toml"));
        assert_eq!(
            get(&section(&manifest, "package"), "publish"),
            Some("false"),
            "{krate}"
        );
    }
    let script = read(&root().join("scripts/registry.sh"));
    for krate in PUBLISHED {
        assert!(
            script.contains(krate),
            "scripts/registry.sh packages {krate}"
        );
    }
}

#[test]
fn doctor_installs_the_wheels_of_the_install_script() {
    let script = read(&root().join("scripts/install-cuda-tools.sh"));
    for w in cg_runtime::tools::CUDA_WHEELS {
        assert!(
            script.contains(w),
            "scripts/install-cuda-tools.sh installs {w}"
        );
    }
}
