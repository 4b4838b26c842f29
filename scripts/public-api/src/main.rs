//! The lister behind scripts/public-api.sh: prints every public item of a crate, one a
//! line, from its rustdoc JSON, in cargo-public-api's text and order (deterministic: no
//! ids, spans or file paths). Blanket impls (`impl<T> From<T> for T`, `Any`, `Borrow` …)
//! are left out, being the standard library's and the same for every type; the
//! crate's own impls, derived impls and auto traits (Send, Sync, Unpin …) stay.
//!
//! usage: spirv-public-api-lister RUSTDOC_JSON

use std::process::ExitCode;

/// Only the format version, read before the whole file is parsed as that format.
#[derive(serde::Deserialize)]
struct Version {
    format_version: u32,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let [_, path] = args.as_slice() else {
        eprintln!("usage: spirv-public-api-lister RUSTDOC_JSON");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    match serde_json::from_str::<Version>(&text) {
        Ok(v) if v.format_version == rustdoc_types::FORMAT_VERSION => {}
        Ok(v) => {
            eprintln!(
                "{path}: rustdoc JSON format {} but this lister reads format {}: move \
                 public-api in scripts/public-api/Cargo.toml to the release built on \
                 rustdoc-types for format {}, then rerun with BLESS=1",
                v.format_version,
                rustdoc_types::FORMAT_VERSION,
                v.format_version
            );
            return ExitCode::FAILURE;
        }
        Err(e) => {
            eprintln!("{path}: no rustdoc JSON format version: {e}");
            return ExitCode::FAILURE;
        }
    }
    drop(text);
    let api = match public_api::Builder::from_rustdoc_json(path)
        .omit_blanket_impls(true)
        .build()
    {
        Ok(api) => api,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut out = String::new();
    for item in api.items() {
        out.push_str(&item.to_string());
        out.push('\n');
    }
    print!("{out}");
    ExitCode::SUCCESS
}
