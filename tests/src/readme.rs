//! The README's lists that could drift from the code: every crate of the workspace is in
//! its crate table, and every feature of a crate is named in its features section; and
//! the documents a newcomer starts from are there and short (issue 36). (Its Rust
//! examples are compiled and run as this crate's doctests, in `lib.rs`.)

#[cfg(test)]
mod tests {
    use crate::workspace_root;

    fn read(path: &str) -> String {
        let path = workspace_root().join(path);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// The README's section under `## TITLE`, up to the next `## `.
    fn section<'a>(readme: &'a str, title: &str) -> &'a str {
        let start = readme
            .find(&format!("\n## {title}\n"))
            .unwrap_or_else(|| panic!("README has no `## {title}` section"));
        let rest = &readme[start + 1..];
        let end = rest[3..].find("\n## ").map_or(rest.len(), |e| e + 3);
        &rest[..end]
    }

    /// The value of `key = "…"` in a manifest's `[package]` table.
    fn package_name(manifest: &str) -> String {
        manifest
            .lines()
            .skip_while(|l| l.trim() != "[package]")
            .find_map(|l| l.strip_prefix("name = "))
            .map(|v| v.trim().trim_matches('"').to_string())
            .expect("a package name")
    }

    /// The names in a manifest's `[features]` table.
    fn features(manifest: &str) -> Vec<String> {
        manifest
            .lines()
            .skip_while(|l| l.trim() != "[features]")
            .skip(1)
            .take_while(|l| !l.starts_with('['))
            .filter(|l| !l.trim_start().starts_with('#'))
            .filter_map(|l| l.split_once('=').map(|(k, _)| k.trim().to_string()))
            .filter(|k| !k.is_empty())
            .collect()
    }

    fn members() -> Vec<String> {
        let root = read("Cargo.toml");
        let list = &root[root.find("members = [").expect("members")..];
        let list = &list[..list.find(']').expect("end of members")];
        list.split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn every_crate_is_in_the_crate_table() {
        let readme = read("README.md");
        let table = section(&readme, "The crates");
        for dir in members() {
            let name = package_name(&read(&format!("{dir}/Cargo.toml")));
            assert!(
                table.contains(&format!("| `{name}`")),
                "README's crate table does not list {name} ({dir}/)"
            );
        }
    }

    #[test]
    fn every_feature_is_in_the_features_section() {
        let readme = read("README.md");
        let text = section(&readme, "Features");
        let mut seen = 0;
        for dir in members() {
            let manifest = read(&format!("{dir}/Cargo.toml"));
            let name = package_name(&manifest);
            for feature in features(&manifest).into_iter().filter(|f| f != "default") {
                seen += 1;
                let item = text
                    .split("\n- ")
                    .find(|item| item.starts_with(&format!("`{name}`")))
                    .unwrap_or_else(|| panic!("README's features do not mention {name}"));
                assert!(
                    item.contains(&format!("`{feature}`")),
                    "README's features item for {name} does not name `{feature}`"
                );
            }
        }
        assert!(
            seen >= 7,
            "found only {seen} features: is the manifest parsing right?"
        );
    }

    /// Issue 36's goals for the documents: a README of at most 250 lines with a quick
    /// start, whose Rust blocks all run (none `ignore`d: `lib.rs` compiles them as
    /// doctests); ARCHITECTURE.md; and at least three pages under docs/. (The command
    /// line's goals are `spirv-asm/tests/cli.rs`'s and `batch_cli.rs`'s; a grammar with
    /// two instructions on one opcode is `tests/ui/duplicate_opcode.rs`.)
    #[test]
    fn a_newcomer_finds_a_short_readme_with_a_quick_start_and_the_docs() {
        let readme = read("README.md");
        let lines = readme.lines().count();
        assert!(lines <= 250, "README has {lines} lines (at most 250)");
        assert!(section(&readme, "Quick start").contains("```rust"));
        for fence in readme.lines().filter(|l| l.starts_with("```")) {
            assert!(
                !fence.contains("ignore"),
                "README's Rust blocks all run: {fence}"
            );
        }
        assert!(crate::workspace_root().join("ARCHITECTURE.md").is_file());
        let pages = std::fs::read_dir(crate::workspace_root().join("docs"))
            .expect("docs/")
            .filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "md"))
            .count();
        assert!(pages >= 3, "docs/ has {pages} pages (at least 3)");
    }

    /// Every crate's README with Rust in it, and the downstream example's, is a doctest
    /// of this crate (`lib.rs` includes them), and none of their Rust blocks is
    /// `ignore`d.
    #[test]
    fn every_readme_is_compiled_and_nothing_is_ignored() {
        let lib = read("tests/src/lib.rs");
        let mut readmes: Vec<String> = members()
            .into_iter()
            .map(|dir| format!("{dir}/README.md"))
            .filter(|p| crate::workspace_root().join(p).is_file())
            .collect();
        readmes.push("examples/downstream/README.md".into());
        for path in readmes {
            let text = read(&path);
            let fences: Vec<&str> = text.lines().filter(|l| l.starts_with("```rust")).collect();
            // (A README without Rust, such as grammar/'s with its indented license, is
            // left out: rustdoc would take an indented block for code.)
            if fences.is_empty() {
                continue;
            }
            assert!(
                lib.contains(&format!("include_str!(\"../../{path}\")")),
                "tests/src/lib.rs does not compile {path}'s examples"
            );
            for fence in fences {
                assert!(!fence.contains("ignore"), "{path}: {fence}");
            }
        }
    }
}
