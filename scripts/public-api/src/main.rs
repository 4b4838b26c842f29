//! The lister behind scripts/public-api.sh: turns a crate's rustdoc JSON into the
//! listings checked in under api/, one public item a line, in cargo-public-api's text and
//! order (deterministic: no ids, spans or file paths).
//!
//! Two listings, so that a review sees a hand-written change: `OUT.txt` holds the
//! hand-written surface and `OUT.generated.txt` the items under the modules the grammar
//! macro emits (each GENERATED_ROOT given; none given, no second file). An item belongs to
//! the module of its path; an impl, and the items in it, to the type it is for.
//!
//! Left out, being the same for every type and burying the rest: blanket impls
//! (`impl<T> From<T> for T`, `Any`, `Borrow` …) and the auto-trait impls rustdoc
//! synthesizes (`Send`, `Sync`, `Unpin`, `Freeze`, `UnwindSafe` …). A synthesized
//! *negative* impl (`impl !Send for T`) stays, so a type that stops being `Send` or
//! `Sync` shows in the diff. Derived impls and the crate's own impls stay.
//!
//! usage: spirv-public-api-lister RUSTDOC_JSON OUT [GENERATED_ROOT...]
//!
//! A GENERATED_ROOT is a module path (`spirv_core::spv`), or a module path ending in
//! `::*` for every public module directly inside it (`spirv_core::ext::*`).

use std::collections::HashSet;
use std::process::ExitCode;

/// Only the format version, read before the whole file is parsed as that format.
#[derive(serde::Deserialize)]
struct Version {
    format_version: u32,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let [_, path, out, roots @ ..] = args.as_slice() else {
        eprintln!("usage: spirv-public-api-lister RUSTDOC_JSON OUT [GENERATED_ROOT...]");
        return ExitCode::from(2);
    };
    match run(path, out, roots) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn run(path: &str, out: &str, roots: &[String]) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    match serde_json::from_str::<Version>(&text) {
        Ok(v) if v.format_version == rustdoc_types::FORMAT_VERSION => {}
        Ok(v) => {
            return Err(format!(
                "{path}: rustdoc JSON format {} but this lister reads format {}: move \
                 public-api in scripts/public-api/Cargo.toml to the release built on \
                 rustdoc-types for format {}, then rerun with BLESS=1",
                v.format_version,
                rustdoc_types::FORMAT_VERSION,
                v.format_version
            ));
        }
        Err(e) => return Err(format!("{path}: no rustdoc JSON format version: {e}")),
    }
    drop(text);
    let list = |omit_auto_traits: bool| -> Result<Vec<String>, String> {
        let api = public_api::Builder::from_rustdoc_json(path)
            .omit_blanket_impls(true)
            .omit_auto_trait_impls(omit_auto_traits)
            .build()
            .map_err(|e| format!("{path}: {e}"))?;
        Ok(api.items().map(|item| item.to_string()).collect())
    };
    // The synthesized auto-trait impls are the lines the full listing has and the one
    // without them lacks; of those, only the negative ones are kept.
    let without: HashSet<String> = list(true)?.into_iter().collect();
    let items: Vec<String> = list(false)?
        .into_iter()
        .filter(|line| without.contains(line) || is_negative_impl(line))
        .collect();

    let modules: HashSet<&str> = items
        .iter()
        .filter_map(|line| line.strip_prefix("pub mod "))
        .collect();
    let generated = |subject: &str| {
        roots.iter().any(|root| match root.strip_suffix("::*") {
            Some(parent) => subject
                .strip_prefix(parent)
                .and_then(|rest| rest.strip_prefix("::"))
                .is_some_and(|rest| {
                    let child = rest.split("::").next().unwrap_or(rest);
                    modules.contains(&subject[..parent.len() + 2 + child.len()])
                }),
            None => {
                subject == root
                    || subject
                        .strip_prefix(root.as_str())
                        .is_some_and(|rest| rest.starts_with("::"))
            }
        })
    };
    let (mut hand, mut generated_items) = (String::new(), String::new());
    for line in &items {
        let to = if generated(subject(line)) {
            &mut generated_items
        } else {
            &mut hand
        };
        to.push_str(line);
        to.push('\n');
    }
    let write =
        |file: String, text: &str| std::fs::write(&file, text).map_err(|e| format!("{file}: {e}"));
    write(format!("{out}.txt"), &hand)?;
    if !roots.is_empty() {
        write(format!("{out}.generated.txt"), &generated_items)?;
    }
    Ok(())
}

/// Whether a line is an impl of a negated trait (`impl<'a> !Send for …`).
fn is_negative_impl(line: &str) -> bool {
    line.strip_prefix("impl")
        .map(skip_generics)
        .is_some_and(|rest| rest.trim_start().starts_with('!'))
}

/// Skips a leading `<…>` (generic parameters), counting nested brackets; `->` is not one.
fn skip_generics(s: &str) -> &str {
    if !s.starts_with('<') {
        return s;
    }
    let mut depth = 0usize;
    let mut prev = ' ';
    for (i, c) in s.char_indices() {
        match c {
            '<' => depth += 1,
            '>' if prev != '-' => {
                depth -= 1;
                if depth == 0 {
                    return &s[i + 1..];
                }
            }
            _ => {}
        }
        prev = c;
    }
    ""
}

/// The path an item is filed under: for an impl, the type it is for (the text after
/// the top-level ` for `, or after `impl` for an inherent impl); otherwise the item's own
/// path, the first path after the leading keywords (`pub fn a::B::c(…)` gives `a::B::c`).
fn subject(line: &str) -> &str {
    // Attributes such as `#[non_exhaustive] ` come first.
    let mut rest = line;
    while let Some(r) = rest.strip_prefix("#[") {
        rest = r.split_once("] ").map_or("", |(_, after)| after);
    }
    let rest = rest.strip_prefix("unsafe ").unwrap_or(rest);
    let target = if let Some(header) = rest.strip_prefix("impl") {
        let header = skip_generics(header);
        let header = header.trim_start().trim_start_matches('!');
        top_level_for(header).unwrap_or(header)
    } else {
        let mut words = rest;
        loop {
            let (word, after) = words.split_once(' ').unwrap_or((words, ""));
            let keyword = KEYWORDS.contains(&word);
            if !keyword || after.is_empty() {
                break words;
            }
            words = after;
        }
    };
    let end = target
        .char_indices()
        .find(|&(i, c)| {
            !(c.is_alphanumeric()
                || c == '_'
                || (c == ':' && target[i..].starts_with("::"))
                || (c == ':' && i > 0 && target[..i].ends_with(':')))
        })
        .map_or(target.len(), |(i, _)| i);
    &target[..end]
}

/// The words that may come before an item's path in its line.
const KEYWORDS: &[&str] = &[
    "pub", "const", "async", "unsafe", "extern", "\"C\"", "fn", "struct", "enum", "union", "trait",
    "type", "mod", "static", "mut", "use", "macro", "auto",
];

/// The text after the first ` for ` outside brackets, if any.
fn top_level_for(s: &str) -> Option<&str> {
    let mut depth = 0i32;
    let mut prev = ' ';
    for (i, c) in s.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' if prev != '-' => depth -= 1,
            ')' | ']' => depth -= 1,
            ' ' if depth == 0 && s[i..].starts_with(" for ") => return Some(&s[i + 5..]),
            _ => {}
        }
        prev = c;
    }
    None
}
