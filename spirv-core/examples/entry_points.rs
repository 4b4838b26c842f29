//! Lists a SPIR-V file's entry points and the descriptor bindings each one uses
//! statically (the resources reachable from it through function calls), with the push
//! constant blocks it uses.
//!
//! ```text
//! cargo run -p spirv-core --features reflect --example entry_points -- shader.spv
//! ```

use spirv_core::Module;
use spirv_core::reflect::{Reflection, Resource};
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: entry_points FILE.spv");
        return ExitCode::FAILURE;
    };
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let module = match Module::from_bytes(&bytes) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let r = Reflection::new(&module);
    if r.entry_points().is_empty() {
        println!("no entry points");
    }
    // Static use for every entry point at once: one walk of the function bodies.
    let used = r.static_use();
    for (i, entry) in r.entry_points().iter().enumerate() {
        println!(
            "{:?} \"{}\" (function {})",
            entry.model, entry.name, entry.function
        );
        let uses = |res: &&Resource| used.globals(i).contains(&res.variable);
        let mut any = false;
        for res in r.resources().iter().filter(uses) {
            any = true;
            println!(
                "  set {} binding {}: {} {}",
                or_unset(res.set),
                or_unset(res.binding),
                res.descriptor_type
                    .map_or_else(|| "unknown type".to_string(), |t| format!("{t:?}")),
                name(res)
            );
        }
        for res in r.push_constants().iter().filter(uses) {
            any = true;
            println!("  push constants: {}", name(res));
        }
        if !any {
            println!("  no descriptors");
        }
    }
    ExitCode::SUCCESS
}

/// A decoration's value, or `-` when the variable lacks it.
fn or_unset(value: Option<u32>) -> String {
    value.map_or_else(|| "-".to_string(), |v| v.to_string())
}

/// The variable's `OpName`, or its id.
fn name(res: &Resource) -> String {
    match &res.name {
        Some(n) if !n.is_empty() => format!("\"{n}\""),
        _ => res.variable.to_string(),
    }
}
