//! The collectives are layered one way, as CUB's are: the dispatch files of
//! `src/collective/` (the public functions) use the block layer
//! (`collective/block/`) and the warp layer (`collective/warp/`), the block
//! layer uses the warp layer, and the warp layer uses neither; the grid
//! layer (`collective/grid/`) sits above the dispatch files. No module of
//! `collective` reaches back up, and no two reach each other in a circle.
//!
//! The graph is read from the sources: every `collective` module named in a
//! file's `use` items or paths (`super::…`, `crate::collective::…`).
//!
//! Two more rules of the layout are read from the sources the same way:
//! choices by target (`cfg(target_arch)`) are made inside `arch`, and the
//! instruction vocabulary is declared once, in `cg-isa`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

/// Every `.rs` file under `src/<tree>/`, as its module path below `tree`
/// (`warp::reduce`, `block`, `scan`, …).
fn modules(tree: &str) -> BTreeMap<String, PathBuf> {
    modules_in(&Path::new(SRC).join(tree))
}

/// Every `.rs` file under `root`, as its module path below `root`.
fn modules_in(root: &Path) -> BTreeMap<String, PathBuf> {
    let mut files = Vec::new();
    rust_files(root, &mut files);
    files
        .into_iter()
        .map(|p| {
            let mut parts: Vec<String> = p
                .strip_prefix(root)
                .unwrap()
                .with_extension("")
                .components()
                .map(|c| c.as_os_str().to_str().unwrap().to_string())
                .collect();
            // `block/mod.rs` is the module `block`.
            if parts.last().is_some_and(|s| s == "mod") {
                parts.pop();
            }
            (parts.join("::"), p)
        })
        .collect()
}

/// The `tree` modules `name`'s source refers to (by `super::` or
/// `crate::<tree>::` paths, in `use` items and in expressions; brace
/// groups of `use` items expanded one level), other than itself and its
/// own submodules.
fn edges(tree: &str, name: &str, src: &str, all: &BTreeMap<String, PathBuf>) -> BTreeSet<String> {
    edges_in(tree, name, src, all, &BTreeMap::new())
}

/// [`edges`], for the modules below `crate::<tree>::` (`tree` empty: the
/// whole crate), where a name the crate root re-exports (`aliases`:
/// `crate::SimError` for `crate::report::SimError`) counts as the module
/// that declares it.
fn edges_in(
    tree: &str,
    name: &str,
    src: &str,
    all: &BTreeMap<String, PathBuf>,
    aliases: &BTreeMap<String, String>,
) -> BTreeSet<String> {
    // Strip comments: docs name other modules in links, which is no import.
    let code: String = src
        .lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n");
    // The module `super` stands for in `name` (for `collective` itself,
    // the crate root: no module of `collective`).
    let mut parent: Vec<&str> = name.split("::").collect();
    parent.pop();
    let mut out = BTreeSet::new();
    let mut add = |mut path: Vec<String>| {
        if let Some(m) = path.first().and_then(|p| aliases.get(p)) {
            path.insert(0, m.clone());
        }
        // The longest prefix of `path` that is a module.
        for n in (1..=path.len()).rev() {
            let cand = path[..n].join("::");
            if all.contains_key(&cand) {
                if cand != name && !cand.starts_with(&format!("{name}::")) {
                    out.insert(cand);
                }
                return;
            }
        }
    };
    let idents = |s: &str| -> Vec<String> {
        s.split("::")
            .map(|p| {
                p.trim()
                    .trim_start_matches('{')
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect::<String>()
            })
            .collect()
    };
    let supers = if name.is_empty() { "\0" } else { "super::" };
    let prefix = if tree.is_empty() {
        String::new()
    } else {
        format!("{tree}::")
    };
    let own = format!("crate::{prefix}");
    let dollar = format!("$crate::{prefix}");
    for (marker, base) in [
        (supers, parent.clone()),
        (own.as_str(), vec![]),
        (dollar.as_str(), vec![]),
    ] {
        let mut rest = code.as_str();
        while let Some(i) = rest.find(marker) {
            // `$crate::collective::` also contains `crate::collective::`.
            let preceded = rest[..i].ends_with('$');
            rest = &rest[i + marker.len()..];
            if preceded && marker == own {
                continue;
            }
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':' || c == '{'))
                .unwrap_or(rest.len());
            let head = &rest[..end];
            let mut path: Vec<String> = base.iter().map(|s| s.to_string()).collect();
            if let Some(b) = head.find('{') {
                // `super::{block, warp}` / `super::warp::{a, b}`.
                path.extend(idents(&head[..b]).into_iter().filter(|s| !s.is_empty()));
                let close = rest[b..].find('}').map(|c| b + c).unwrap_or(rest.len());
                for item in rest[b + 1..close].split(',') {
                    let mut p = path.clone();
                    p.extend(idents(item).into_iter().filter(|s| !s.is_empty()));
                    add(p);
                }
            } else {
                path.extend(idents(head).into_iter().filter(|s| !s.is_empty()));
                add(path);
            }
        }
    }
    out
}

fn graph_of(tree: &str) -> BTreeMap<String, BTreeSet<String>> {
    let all = modules(tree);
    all.iter()
        .map(|(name, path)| {
            let src = std::fs::read_to_string(path).unwrap();
            (name.clone(), edges(tree, name, &src, &all))
        })
        .collect()
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    graph_of("collective")
}

/// The layer a module belongs to: 0 warp, 1 block, 2 dispatch, 3 grid.
fn layer(name: &str) -> u32 {
    if name == "warp" || name.starts_with("warp::") {
        0
    } else if name == "block" || name.starts_with("block::") {
        1
    } else if name == "grid" || name.starts_with("grid::") {
        3
    } else {
        2
    }
}

#[test]
fn the_layers_go_one_way() {
    let g = graph();
    assert!(g.contains_key("warp::reduce") && g.contains_key("block::exchange"));
    // The graph is what the modules import (a check that the reader works).
    assert!(g["block::exchange"].contains("warp::reduce"), "{g:#?}");
    assert!(g["reduce"].contains("block::reduce"), "{g:#?}");
    assert!(g["grid::reduce"].contains("reduce"), "{g:#?}");
    for (from, tos) in &g {
        for to in tos {
            assert!(
                layer(to) <= layer(from),
                "collective::{from} (layer {}) imports collective::{to} (layer {})",
                layer(from),
                layer(to)
            );
        }
    }
}

#[test]
fn no_import_circle_among_the_collectives() {
    no_circle(&graph());
}

/// Fails on an import circle in `g`.
fn no_circle(g: &BTreeMap<String, BTreeSet<String>>) {
    if let Some(c) = find_circle(g) {
        panic!("import circle: {c}");
    }
}

/// The files of `g` that lie on some import circle (each reaches itself).
fn on_circles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    g.keys()
        .filter(|start| {
            let mut seen = BTreeSet::new();
            let mut todo: Vec<&String> = g[*start].iter().collect();
            while let Some(n) = todo.pop() {
                if n == *start {
                    return true;
                }
                if seen.insert(n) {
                    todo.extend(g.get(n).into_iter().flatten());
                }
            }
            false
        })
        .cloned()
        .collect()
}

/// An import circle in `g` (`a → b → a`), if there is one.
fn find_circle(g: &BTreeMap<String, BTreeSet<String>>) -> Option<String> {
    // Depth-first search for a back edge.
    fn visit<'a>(
        n: &'a str,
        g: &'a BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<&'a str, bool>,
        stack: &mut Vec<&'a str>,
    ) -> Option<String> {
        match state.get(n) {
            Some(true) => return None,
            Some(false) => {
                let i = stack.iter().position(|s| *s == n).unwrap();
                return Some(stack[i..].join(" → ") + " → " + n);
            }
            None => {}
        }
        state.insert(n, false);
        stack.push(n);
        for to in g.get(n).into_iter().flatten() {
            if let Some(c) = visit(to, g, state, stack) {
                return Some(c);
            }
        }
        stack.pop();
        state.insert(n, true);
        None
    }
    let mut state = BTreeMap::new();
    g.keys()
        .find_map(|n| visit(n, g, &mut state, &mut Vec::new()))
}

/// The layer of a `primitives` module: 0 the thread layer (the module
/// root, the storage, the global-memory accesses, `direct`, `thread`,
/// the arrangements, the algorithm markers), 1 the warp layer, 2 the
/// block layer.
fn primitive_layer(name: &str) -> u32 {
    if name == "warp" || name.starts_with("warp::") {
        1
    } else if name == "block" || name.starts_with("block::") {
        2
    } else {
        0
    }
}

/// The primitives are layered as CUB's are: block primitives use warp
/// ones (and the thread layer), warp primitives the thread layer only;
/// the thread layer uses neither (the module root only declares and
/// re-exports them).
#[test]
fn the_primitive_layers_go_one_way() {
    let g = graph_of("primitives");
    assert!(g.contains_key("warp::exchange") && g.contains_key("block::radix_sort"));
    // The graph is what the modules import (a check that the reader works):
    // the block layer is built from the warp layer.
    assert!(g["block::exchange"].contains("warp::exchange"), "{g:#?}");
    assert!(g["block::load"].contains("warp::load"), "{g:#?}");
    assert!(
        g["block::merge_sort"].contains("warp::merge_sort"),
        "{g:#?}"
    );
    assert!(g["warp::load"].contains("direct"), "{g:#?}");
    for (from, tos) in &g {
        if from.is_empty() {
            continue;
        }
        for to in tos {
            assert!(
                primitive_layer(to) <= primitive_layer(from),
                "primitives::{from} (layer {}) imports primitives::{to} (layer {})",
                primitive_layer(from),
                primitive_layer(to)
            );
        }
    }
    no_circle(&g);
}

/// The primitives sit above the collectives: no collective, group,
/// shared-memory or arch module names them.
#[test]
fn nothing_below_uses_the_primitives() {
    let mut files = Vec::new();
    rust_files(Path::new(SRC), &mut files);
    let mut seen = 0;
    for f in files {
        let rel = f
            .strip_prefix(SRC)
            .unwrap()
            .to_str()
            .unwrap()
            .replace('\\', "/");
        if rel.starts_with("primitives/") || rel == "lib.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap();
            assert!(
                !code.contains("primitives::"),
                "src/{rel}:{}: `{}` reaches up into the primitives",
                i + 1,
                line.trim()
            );
        }
        seen += 1;
    }
    assert!(seen > 30, "only {seen} files read");
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// What depends on the target is chosen inside `arch` only: outside it, a
/// `cfg` on `target_arch` or `target_feature` is one of the crate root's
/// (the crate attributes, the host-only `Kernel` descriptor), the GPU
/// panic handler's, or the mbarrier API's and its users' (the pipeline,
/// the tensor tile copies): they exist only on the SMs that have the
/// instructions — sm_80, and sm_90 for the transaction, bulk and tensor
/// methods — so that using them elsewhere fails to compile instead of
/// trapping.
#[test]
fn target_cfgs_only_inside_arch() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let allowed = |rel: &str, line: &str| match rel {
        "lib.rs" => {
            line.starts_with("#![cfg_attr(")
                || line.contains("target_arch = \"nvptx64\",")
                || line == "#[cfg(not(target_arch = \"nvptx64\"))]"
                || line == "#[cfg(any(not(target_arch = \"nvptx64\"), target_feature = \"sm_80\"))]"
        }
        "mbarrier.rs" => {
            line == "#[cfg(any(not(target_arch = \"nvptx64\"), target_feature = \"sm_90\"))]"
                || line == "#[cfg(not(target_arch = \"nvptx64\"))]"
        }
        "tma/mod.rs" | "tma/volume.rs" | "tma/nd.rs" | "pipeline.rs" => {
            line == "#[cfg(any(not(target_arch = \"nvptx64\"), target_feature = \"sm_90\"))]"
        }
        "panic.rs" => {
            line.starts_with("#[cfg(all(target_arch = \"nvptx64\", feature = \"panic-handler\"))]")
        }
        _ => false,
    };
    let mut seen = 0;
    for f in &files {
        let rel = f
            .strip_prefix(&src)
            .unwrap()
            .to_str()
            .unwrap()
            .replace('\\', "/");
        if rel.starts_with("arch/") {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.starts_with("//") {
                continue;
            }
            if line.contains("target_arch") || line.contains("target_feature") {
                seen += 1;
                assert!(
                    allowed(&rel, line),
                    "src/{rel}:{}: `{line}`: a target cfg outside `arch` (move it behind an `arch` item)",
                    i + 1
                );
            }
        }
    }
    // lib.rs: two crate attributes, `mod kernel_desc` and its re-export,
    // `mod host` (the launcher's side of typed parameters); panic.rs: the
    // handler (a check that the reader works); lib.rs: `mod mbarrier`;
    // mbarrier.rs: its seven sm_90 methods (the multicast copy and the
    // remote arrival among them), their bulk-copy check and the host's
    // token check; lib.rs: `mod pipeline`; pipeline.rs: its two sm_90
    // copies; tma/mod.rs: the imports, the loads, the multicast load, the
    // stores, the bulk store, their handles and the loads' and stores'
    // shared steps (thirteen); tma/volume.rs: the 3-D maps' imports, loads,
    // stores and handles (six); tma/nd.rs: the same for the 1-D, 4-D and
    // 5-D maps (six, in their macro).
    assert_eq!(
        seen, 44,
        "target cfgs at the crate root and the panic handler"
    );
}

/// The instruction vocabulary (`Dim3`, `LaunchConfig`, `ShflMode`,
/// `ReduxOp`, `MemScope`, `MemOrder`) is declared once, in `cg-isa`: no
/// other crate of the workspace declares a type of the same name (each uses
/// and re-exports `cg-isa`'s), so a value passes between this library, the
/// simulator and the runtime without a conversion.
#[test]
fn the_vocabulary_is_declared_in_cg_isa_only() {
    const OWNED: &[&str] = &[
        "struct Dim3",
        "struct LaunchConfig",
        "enum ShapeError",
        "enum ShflMode",
        "enum ReduxOp",
        "enum MemScope",
        "enum MemOrder",
    ];
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let isa = std::fs::read_to_string(crates.join("cg-isa/src/lib.rs")).unwrap();
    let mut checked = 0;
    for e in std::fs::read_dir(crates).unwrap() {
        let dir = e.unwrap().path();
        if dir.ends_with("cg-isa") || !dir.join("src").is_dir() {
            continue;
        }
        let mut files = Vec::new();
        rust_files(&dir.join("src"), &mut files);
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            for (i, line) in text.lines().enumerate() {
                let line = line.trim_start();
                let line = line.strip_prefix("pub(crate) ").unwrap_or(line);
                let line = line.strip_prefix("pub ").unwrap_or(line);
                for decl in OWNED {
                    assert!(
                        !line.starts_with(&format!("{decl} ")),
                        "{}:{}: `{decl}` is cg-isa's: use (and re-export) it instead",
                        f.display(),
                        i + 1
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} files read");
    // cg-isa exports every one of them.
    for decl in OWNED {
        let name = decl.split(' ').nth(1).unwrap();
        assert!(isa.contains(name), "cg-isa does not export {name}");
    }
}

/// Typed global memory (`src/global/`) has no import circle: the partition
/// kinds and the witnesses at the bottom, the walks that hand out
/// witnesses, the 2-D rows and tiles above them.
#[test]
fn no_import_circle_in_global_memory() {
    let g = graph_of("global");
    assert!(
        g.contains_key("partition") && g.contains_key("tiles"),
        "{g:#?}"
    );
    // The reader works: the walks are built on the witnesses and the kinds.
    assert!(g["partition"].contains("owned"), "{g:#?}");
    assert!(g["partition"].contains("kinds"), "{g:#?}");
    no_circle(&g);
}

/// The warp MMA's files (`src/mma/`) import one way: the element types
/// below the fragments, the fragments below `ldmatrix`. (The reader sees
/// the files below `mod.rs`; that none of them imports `mod.rs` back is
/// kept by hand: the lane helper lives in `fragment.rs`.)
#[test]
fn no_import_circle_in_the_warp_mma() {
    let g = graph_of("mma");
    assert!(g["ldmatrix"].contains("fragment"), "{g:#?}");
    assert!(g["fragment"].contains("element"), "{g:#?}");
    no_circle(&g);
}

#[test]
fn no_import_circle_in_the_warpgroup_mma() {
    let g = graph_of("wgmma");
    assert!(g["accumulator"].contains("operand"), "{g:#?}");
    assert!(g["operand"].contains("element"), "{g:#?}");
    no_circle(&g);
}

/// cg-sim's layers, bottom first: 0 the shared vocabulary, the reports,
/// the device, the lane stacks and contexts, the lanes and run queue that
/// every primitive acts on (`lanes`), and each subsystem's state
/// (`*::state`, the race detector's sink trait, the detector and the
/// worker log that implement it); 1 the unit that
/// composes the lanes and those states; 2 the subsystems' operations on
/// the unit (barriers, clusters, warps, mbarriers, async and tensor copies,
/// shared and global memory, the race detector's side, diagnosis); 3 the
/// unit's life (set-up, and a lane's exit through every subsystem's hook);
/// 4 the scheduler; 5 the lanes' primitives and the cooperative launch; 6
/// the launch modes. A module not named here fails the test: a new file
/// declares its layer.
fn sim_layer(name: &str) -> u32 {
    match name {
        "types" | "report" | "device" | "overflow" | "stack" | "fiber" | "lanes"
        | "race::detector" | "race::event" | "race::sink" => 0,
        n if n.ends_with("::state") => 0,
        "unit" => 1,
        "barrier" | "cluster" | "warp" | "mbarrier" | "async_copy" | "tensor" | "shared"
        | "region" | "race" | "diagnose" | "global_mem" => 2,
        "lifecycle" => 3,
        "sched" => 4,
        "lane" | "coop" => 5,
        "launch" | "lib" => 6,
        _ => panic!("cg-sim's `{name}` has no layer: declare it in `sim_layer`"),
    }
}

/// cg-sim's files, as the graph of what each imports ([`crate_graph`]).
fn sim_graph() -> BTreeMap<String, BTreeSet<String>> {
    crate_graph(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../cg-sim/src"))
}

/// The names the crate root at `root` (`lib.rs`, else `main.rs`)
/// re-exports from its own modules, as the module that declares each:
/// `pub use report::{Report, SimError};` → `Report` and `SimError` are
/// `report`'s (`pub use a::b::{C, d::E}` → `C` is `a::b`'s, `E` is
/// `a::b::d`'s, as far as those are files).
fn root_aliases(root: &Path, all: &BTreeMap<String, PathBuf>) -> BTreeMap<String, String> {
    let lib = ["lib.rs", "main.rs"]
        .iter()
        .find_map(|f| std::fs::read_to_string(root.join(f)).ok())
        .unwrap_or_default();
    // The longest prefix of a path that is a file of the crate.
    let file_of = |path: &str| -> Option<String> {
        let parts: Vec<&str> = path.split("::").map(str::trim).collect();
        (1..=parts.len())
            .rev()
            .map(|n| parts[..n].join("::"))
            .find(|cand| all.contains_key(cand))
    };
    let mut aliases = BTreeMap::new();
    let mut rest = lib.as_str();
    // Only the crate root's own `pub use` items (a line's start), each up
    // to its `;` (brace groups may span lines).
    while let Some(i) = rest.find("\npub use ") {
        rest = &rest[i + "\npub use ".len()..];
        let end = rest.find(';').unwrap_or(rest.len());
        let item: String = rest[..end].split_whitespace().collect();
        rest = &rest[end..];
        let (base, names) = match item.find("::{") {
            Some(b) => (&item[..b], item[b + 3..].trim_end_matches('}').to_string()),
            None => match item.rsplit_once("::") {
                Some((m, n)) => (m, n.to_string()),
                None => continue,
            },
        };
        for name in names.split(',').filter(|n| !n.is_empty()) {
            let (sub, leaf) = match name.rsplit_once("::") {
                Some((sub, leaf)) => (format!("{base}::{sub}"), leaf),
                None => (base.to_string(), name),
            };
            if let Some(m) = file_of(&sub) {
                aliases.insert(leaf.to_string(), m);
            }
        }
    }
    aliases
}

/// The files of the crate whose sources are at `root`, as the graph of what
/// each imports (`crate::…`, `super::…`, `$crate::…`, and the names the
/// crate root re-exports, as the module that declares them). The root
/// itself (`lib`/`main`) declares the modules and re-exports: it is no
/// node.
fn crate_graph(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let all = modules_in(root);
    let aliases = root_aliases(root, &all);
    all.iter()
        .filter(|(name, _)| name.as_str() != "lib" && name.as_str() != "main")
        .map(|(name, path)| {
            let src = std::fs::read_to_string(path).unwrap();
            (name.clone(), edges_in("", name, &src, &all, &aliases))
        })
        .collect()
}

/// No crate of the workspace has an import circle among its files: each
/// file can be read knowing only what lies below it.
#[test]
fn no_import_circle_in_any_crate() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut names = Vec::new();
    let mut circles = Vec::new();
    for e in std::fs::read_dir(crates).unwrap() {
        let dir = e.unwrap().path();
        let src = dir.join("src");
        if !src.is_dir() {
            continue;
        }
        let name = dir.file_name().unwrap().to_str().unwrap().to_string();
        let g = crate_graph(&src);
        if let Some(c) = find_circle(&g) {
            circles.push(format!(
                "{name}: {c}\n  (every file on a circle, with its imports on one: {})",
                on_circles(&g)
                    .iter()
                    .map(|n| {
                        let on = on_circles(&g);
                        let to: Vec<&String> = g[n].iter().filter(|t| on.contains(t)).collect();
                        format!("{n} → {to:?}")
                    })
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
        }
        names.push(name);
    }
    // The reader works on every crate (a crate it could not read would
    // pass trivially).
    names.sort();
    assert_eq!(
        names,
        [
            "cargo-cg",
            "cg-build",
            "cg-isa",
            "cg-kernels",
            "cg-lab",
            "cg-macros",
            "cg-runtime",
            "cg-sim",
            "cooperative-groups"
        ]
    );
    let lab = crate_graph(&crates.join("cg-lab/src"));
    assert!(
        lab["experiments::device_wide"].contains("harness::experiment"),
        "{lab:#?}"
    );
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

/// cg-sim has no import circle, and its layers go one way: each
/// subsystem's state lies below the unit that holds it, the operations on
/// it above.
#[test]
fn cg_sim_is_layered_without_circles() {
    let g = sim_graph();
    // The reader works: the unit holds the subsystems' states, the
    // operations import the unit, re-exported names count.
    assert!(g["unit"].contains("shared::state"), "{g:#?}");
    assert!(g["barrier"].contains("unit"), "{g:#?}");
    assert!(g["race::event"].contains("race::sink"), "{g:#?}");
    assert!(g["race::detector"].contains("race::sink"), "{g:#?}");
    assert!(g["device"].contains("report"), "{g:#?}");
    for (from, tos) in &g {
        for to in tos {
            assert!(
                sim_layer(to) <= sim_layer(from),
                "cg-sim's {from} (layer {}) imports {to} (layer {})",
                sim_layer(from),
                sim_layer(to)
            );
        }
    }
    no_circle(&g);
}
