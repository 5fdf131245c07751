//! Dependencies point one way (README "Layout", docs/architecture.md): a test that reads every
//! source file of the crate and fails, naming the cycle, when its modules import each other in a
//! circle.
//!
//! It collects the `crate::a` and `crate::a::b` paths of each file (in `use` lines, braces
//! included, and inline), leaving out comments, strings and the `#[cfg(test)] mod tests` blocks,
//! and checks:
//!
//! - the top-level modules (`config`, `models`, `notify`, …) have no cycle;
//! - the files of `models/` (`models::order`, `models::stop`, …, with the other top-level modules
//!   beside them) have no cycle;
//! - `domain` imports nothing of the crate but `domain` and `clock`;
//! - the senders (`mail`, `sms`, `mpesa`), what they share (`outbox`) and the photo store
//!   (`photos`) import nothing of the crate but `domain`, `clock`, `outbox` and `memory` (the
//!   allocator's controls): they know their provider or their files, not our models;
//! - `config` imports no model and nothing of `notify`;
//! - the fakes of the providers (`fakes`) import nothing of the crate but `clock` and `outbox`:
//!   they speak the providers' APIs, and know nothing of the shop they serve.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The senders and what they share: they may import only these.
const SENDERS: &[&str] = &["mail", "mpesa", "outbox", "photos", "sms"];
const SENDERS_MAY_IMPORT: &[&str] = &["clock", "domain", "memory", "outbox"];

/// What the providers' fakes may import.
const FAKES_MAY_IMPORT: &[&str] = &["clock", "fakes", "outbox"];

/// What `domain` may import.
const DOMAIN_MAY_IMPORT: &[&str] = &["clock", "domain"];

/// One edge and the files that make it.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

#[test]
fn dependencies_point_one_way() {
    let crate_ = Crate::read();
    let mut problems = Vec::new();

    let files = crate_.graph(Level::ModelFiles);
    let top = collapse(&files);
    if let Some(cycle) = find_cycle(&top) {
        problems.push(format!("the top-level modules import each other in a circle: {}", describe(&top, &cycle)));
    }
    if let Some(cycle) = find_cycle(&files) {
        problems.push(format!("the files of models/ import each other in a circle: {}", describe(&files, &cycle)));
    }

    let top = crate_.graph(Level::TopLevel);
    let imports = |module: &str| top.get(module).cloned().unwrap_or_default();
    for (to, files) in imports("domain") {
        if !DOMAIN_MAY_IMPORT.contains(&to.as_str()) {
            problems.push(format!("domain imports {to} ({}); it may import only clock", listed(&files)));
        }
    }
    for sender in SENDERS {
        for (to, files) in imports(sender) {
            if !SENDERS_MAY_IMPORT.contains(&to.as_str()) {
                problems.push(format!(
                    "{sender} imports {to} ({}); a sender knows its provider, and only domain, clock, outbox and memory",
                    listed(&files)
                ));
            }
        }
    }
    for (to, files) in imports("fakes") {
        if !FAKES_MAY_IMPORT.contains(&to.as_str()) {
            problems.push(format!(
                "fakes imports {to} ({}); a fake speaks its provider's API, and imports only clock and outbox",
                listed(&files)
            ));
        }
    }
    for (to, files) in imports("config") {
        if to == "models" || to == "notify" {
            problems.push(format!("config imports {to} ({}); config knows no model", listed(&files)));
        }
    }

    assert!(problems.is_empty(), "dependencies must point one way (docs/architecture.md):\n{}", problems.join("\n"));
}

#[test]
fn paths_are_read_from_use_trees_and_inline_but_not_from_comments_strings_or_tests() {
    let source = r##"
        //! See [`crate::routes`].
        use crate::{db::{self, DbConnection}, domain::schedule::{Slot, Window}, models::order::Order};
        use crate::clock as time_source;
        fn f() -> crate::models::Page<u8> {
            let _ = "crate::views";
            let _ = ('{', '\'', '"', b'"', br#"crate::jobs "quoted""#, "\"crate::seo");
            let _: &'static str = "";
            /* crate::state /* nested */ crate::error */
            crate::models::stats::day_bounds(crate::domain::schedule::nairobi_day(now))
        }
        #[cfg(test)]
        mod tests {
            use crate::startup;
            fn g() { let _ = '}'; }
        }
    "##;
    let paths: BTreeSet<_> = crate_paths(&without_tests(&code_only(source))).into_iter().collect();
    let expected = [
        vec!["clock"],
        vec!["db", "self"],
        vec!["db", "DbConnection"],
        vec!["domain", "schedule", "Slot"],
        vec!["domain", "schedule", "Window"],
        vec!["domain", "schedule", "nairobi_day"],
        vec!["models", "order", "Order"],
        vec!["models", "Page"],
        vec!["models", "stats", "day_bounds"],
    ];
    let expected: BTreeSet<Vec<String>> =
        expected.iter().map(|path| path.iter().map(|s| (*s).to_owned()).collect()).collect();
    assert_eq!(paths, expected);
}

#[test]
fn a_cycle_is_named_with_the_files_that_make_it() {
    let mut graph = Graph::new();
    for (from, to, file) in [("a", "b", "a.rs"), ("b", "c", "b.rs"), ("c", "a", "c/mod.rs"), ("c", "d", "c/d.rs")] {
        graph.entry(from.to_owned()).or_default().entry(to.to_owned()).or_default().insert(file.to_owned());
    }
    let cycle = find_cycle(&graph).expect("a -> b -> c -> a");
    assert_eq!(describe(&graph, &cycle), "a -> b (a.rs), b -> c (b.rs), c -> a (c/mod.rs)");
    if let Some(targets) = graph.get_mut("c") {
        targets.remove("a");
    }
    assert_eq!(find_cycle(&graph), None);
}

/// How finely modules are told apart.
#[derive(Clone, Copy)]
enum Level {
    /// `models::order` is `models`.
    TopLevel,
    /// `models::order` is itself; the other top-level modules are whole.
    ModelFiles,
}

/// The crate's files, each as its module path and the `crate::` paths it names.
struct Crate {
    /// The top-level modules `lib.rs` declares.
    modules: BTreeSet<String>,
    /// Names `lib.rs` re-exports (`pub use domain::catalogue;`), as the module they come from.
    aliases: BTreeMap<String, String>,
    /// The modules of `models/`.
    model_files: BTreeSet<String>,
    /// Each file (relative to `src/`), its module path, and the paths it names.
    files: Vec<(String, Vec<String>, Vec<Vec<String>>)>,
}

impl Crate {
    fn read() -> Crate {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let lib = code_only(&std::fs::read_to_string(src.join("lib.rs")).expect("src/lib.rs"));
        let mut modules = BTreeSet::new();
        let mut aliases = BTreeMap::new();
        for statement in lib.split(';').map(|s| s.split_whitespace().collect::<Vec<_>>().join(" ")) {
            let statement = statement.rsplit(']').next().unwrap_or_default().trim().to_owned();
            // `pub mod a`, `pub(crate) mod a`, `mod a`.
            let declared = match statement.strip_prefix("pub(") {
                Some(rest) => rest.split_once(')').map_or(rest, |(_, after)| after.trim_start()),
                None => statement.strip_prefix("pub ").unwrap_or(&statement),
            };
            if let Some(name) = declared.strip_prefix("mod ") {
                modules.insert(name.trim().to_owned());
            } else if let Some(path) = statement.strip_prefix("pub use ") {
                let (path, alias) = match path.split_once(" as ") {
                    Some((path, alias)) => (path, alias.to_owned()),
                    None => (path, path.rsplit("::").next().unwrap_or(path).to_owned()),
                };
                let from = path.split("::").next().unwrap_or(path).to_owned();
                aliases.insert(alias, from);
            }
        }
        assert!(modules.contains("models") && modules.contains("domain"), "lib.rs read wrong: {modules:?}");

        let mut files = Vec::new();
        for path in rust_files(&src) {
            let relative = path.strip_prefix(&src).expect("under src").to_string_lossy().replace('\\', "/");
            let mut module: Vec<String> = relative.trim_end_matches(".rs").split('/').map(str::to_owned).collect();
            if module.last().is_some_and(|last| last == "mod") {
                module.pop();
            }
            if module == ["lib"] || module == ["main"] {
                continue;
            }
            let source = std::fs::read_to_string(&path).expect("a source file");
            let paths = crate_paths(&without_tests(&code_only(&source)));
            files.push((relative, module, paths));
        }
        let model_files = files
            .iter()
            .filter(|(_, module, _)| module[0] == "models" && module.len() > 1)
            .map(|(_, m, _)| m[1].clone());
        let model_files = model_files.collect();
        Crate { modules, aliases, model_files, files }
    }

    /// The node a module path (of a file, or named by one) belongs to.
    fn node(&self, path: &[String], level: Level) -> String {
        let first = self.aliases.get(&path[0]).unwrap_or(&path[0]);
        assert!(
            self.modules.contains(first),
            "crate::{} is neither a module nor a re-export of lib.rs: teach layers.rs what it is",
            path.join("::")
        );
        match (level, path.get(1)) {
            (Level::ModelFiles, Some(second)) if first == "models" && self.model_files.contains(second) => {
                format!("models::{second}")
            }
            _ => first.clone(),
        }
    }

    /// Who imports whom at `level`, and in which files.
    fn graph(&self, level: Level) -> Graph {
        let mut graph = Graph::new();
        for (file, module, paths) in &self.files {
            let from = self.node(module, level);
            for path in paths {
                let to = self.node(path, level);
                if to != from {
                    graph.entry(from.clone()).or_default().entry(to).or_default().insert(file.clone());
                }
            }
        }
        graph
    }
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut entries: Vec<_> =
        std::fs::read_dir(dir).expect("a source folder").map(|e| e.expect("an entry").path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
    files
}

/// The source without its comments and with its string and character literals emptied, so that
/// neither a doc link nor a brace in a string counts.
fn code_only(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut code = String::with_capacity(source.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            code.push(' ');
        } else if c == 'r' && starts_token(&chars, i) && matches!(next, Some('"' | '#')) {
            // A raw string `r"…"`, `r#"…"#`, `br"…"` (or a raw identifier `r#type`, kept).
            let hashes = chars[i + 1..].iter().take_while(|&&c| c == '#').count();
            if chars.get(i + 1 + hashes) != Some(&'"') {
                code.push(c);
                i += 1;
                continue;
            }
            i += hashes + 2;
            let closing: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            while i < chars.len() && !chars[i..].starts_with(&closing) {
                i += 1;
            }
            i += closing.len();
            code.push_str("\"\"");
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            code.push_str("\"\"");
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A character literal (`'{'`, `'\''`); a lifetime (`'a`) has no closing quote.
            i += if next == Some('\\') { 3 } else { 1 };
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
            code.push_str("' '");
        } else {
            code.push(c);
            i += 1;
        }
    }
    code
}

/// Whether the `r` at `i` starts a token (`r"…"`), perhaps after a `b` (`br"…"`).
fn starts_token(chars: &[char], i: usize) -> bool {
    let ident = |at: Option<usize>| at.and_then(|at| chars.get(at)).is_some_and(|&c| c.is_alphanumeric() || c == '_');
    let before = i.checked_sub(1);
    !ident(before) || (before.map(|at| chars[at]) == Some('b') && !ident(before.and_then(|at| at.checked_sub(1))))
}

/// The code without its `#[cfg(test)] mod tests { … }` blocks.
fn without_tests(code: &str) -> String {
    let mut rest = code;
    let mut kept = String::with_capacity(code.len());
    while let Some(at) = rest.find("#[cfg(test)]") {
        let after = &rest[at + "#[cfg(test)]".len()..];
        let trimmed = after.trim_start();
        let Some(body) = trimmed.strip_prefix("mod tests").map(str::trim_start).filter(|b| b.starts_with('{')) else {
            kept.push_str(&rest[..at + "#[cfg(test)]".len()]);
            rest = after;
            continue;
        };
        kept.push_str(&rest[..at]);
        let mut depth = 0;
        let mut end = body.len();
        for (i, c) in body.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &body[end..];
    }
    kept.push_str(rest);
    kept
}

/// Every path the code names after `crate::` (or `$crate::`), use trees expanded:
/// `crate::{a::b, c::{d, e}}` names `a::b`, `c::d` and `c::e`.
fn crate_paths(code: &str) -> Vec<Vec<String>> {
    let chars: Vec<char> = code.chars().collect();
    let mut paths = Vec::new();
    let mut i = 0;
    while i + 7 <= chars.len() {
        let starts = chars[i..i + 7].iter().collect::<String>() == "crate::";
        let alone = i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        if starts && alone {
            let mut at = i + 7;
            tree(&chars, &mut at, &[], &mut paths);
            i = at.max(i + 7);
        } else {
            i += 1;
        }
    }
    paths
}

/// Reads one use tree (or path) at `at` under `prefix`, adding the paths it names.
fn tree(chars: &[char], at: &mut usize, prefix: &[String], paths: &mut Vec<Vec<String>>) {
    let skip_space = |at: &mut usize| {
        while chars.get(*at).is_some_and(|c| c.is_whitespace()) {
            *at += 1;
        }
    };
    skip_space(at);
    if chars.get(*at) == Some(&'{') {
        *at += 1;
        loop {
            skip_space(at);
            match chars.get(*at) {
                None => return,
                Some('}') => {
                    *at += 1;
                    return;
                }
                Some(',') => *at += 1,
                Some(_) => {
                    let before = *at;
                    tree(chars, at, prefix, paths);
                    // Anything else (`as name`, `*`) is stepped over.
                    while chars.get(*at).is_some_and(|&c| c != ',' && c != '}') {
                        *at += 1;
                    }
                    if *at == before {
                        *at += 1;
                    }
                }
            }
        }
    }
    let start = *at;
    while chars.get(*at).is_some_and(|&c| c.is_alphanumeric() || c == '_') {
        *at += 1;
    }
    if *at == start {
        if !prefix.is_empty() {
            paths.push(prefix.to_vec());
        }
        return;
    }
    let mut path = prefix.to_vec();
    path.push(chars[start..*at].iter().collect());
    let mut look = *at;
    while chars.get(look).is_some_and(|c| c.is_whitespace()) {
        look += 1;
    }
    if chars.get(look) == Some(&':') && chars.get(look + 1) == Some(&':') {
        *at = look + 2;
        tree(chars, at, &path, paths);
    } else {
        paths.push(path);
    }
}

/// The same graph between top-level modules (`models::order` is `models`).
fn collapse(graph: &Graph) -> Graph {
    let top = |node: &str| node.split("::").next().unwrap_or(node).to_owned();
    let mut collapsed = Graph::new();
    for (from, targets) in graph {
        for (to, files) in targets {
            if top(from) != top(to) {
                collapsed.entry(top(from)).or_default().entry(top(to)).or_default().extend(files.iter().cloned());
            }
        }
    }
    collapsed
}

/// A cycle, as the nodes along it (the first not repeated at the end), if there is one.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Seen {
        OnPath,
        Done,
    }
    fn visit(
        graph: &Graph,
        node: &str,
        seen: &mut BTreeMap<String, Seen>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        seen.insert(node.to_owned(), Seen::OnPath);
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flat_map(BTreeMap::keys) {
            match seen.get(next) {
                Some(Seen::OnPath) => {
                    let start = path.iter().position(|n| n == next).unwrap_or(0);
                    return Some(path[start..].to_vec());
                }
                Some(Seen::Done) => {}
                None => {
                    if let Some(cycle) = visit(graph, next, seen, path) {
                        return Some(cycle);
                    }
                }
            }
        }
        path.pop();
        seen.insert(node.to_owned(), Seen::Done);
        None
    }
    let mut seen = BTreeMap::new();
    for node in graph.keys() {
        if !seen.contains_key(node)
            && let Some(cycle) = visit(graph, node, &mut seen, &mut Vec::new())
        {
            return Some(cycle);
        }
    }
    None
}

/// `a -> b (a.rs), b -> a (b/mod.rs, b/c.rs)`.
fn describe(graph: &Graph, cycle: &[String]) -> String {
    let mut described = String::new();
    for (i, from) in cycle.iter().enumerate() {
        let to = &cycle[(i + 1) % cycle.len()];
        let files = graph.get(from).and_then(|targets| targets.get(to)).cloned().unwrap_or_default();
        if i > 0 {
            described.push_str(", ");
        }
        let _ = write!(described, "{from} -> {to} ({})", listed(&files));
    }
    described
}

/// `a.rs, b.rs, c.rs and 4 more`.
fn listed(files: &BTreeSet<String>) -> String {
    const SHOWN: usize = 3;
    let mut listed = files.iter().take(SHOWN).cloned().collect::<Vec<_>>().join(", ");
    if files.len() > SHOWN {
        let _ = write!(listed, " and {} more", files.len() - SHOWN);
    }
    listed
}
