//! Walks the functions and blocks of a SPIR-V file: each function's id and name, its
//! instruction and block counts, and each block's label, instruction count and
//! successors (from the function's control-flow graph).
//!
//! ```text
//! cargo run -p spirv-core --example walk -- shader.spv
//! ```

use spirv_core::analysis::Cfg;
use spirv_core::spv::Instruction as I;
use spirv_core::{Id, Module, Section};
use std::collections::HashMap;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: walk FILE.spv");
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
    // Names come from the OpNames of the debug section, and a function without one is
    // named by its OpEntryPoint (OpenCL kernels often have no OpName). An instruction
    // that does not decode only leaves an id unnamed.
    let mut names = HashMap::new();
    for inst in module.section(Section::DebugName) {
        if let Ok(I::Name(n)) = inst.decode() {
            names.insert(n.target, n.name.as_str().unwrap_or("").to_string());
        }
    }
    for inst in module.section(Section::EntryPoint) {
        if let Ok(I::EntryPoint(e)) = inst.decode() {
            let name = e.name.as_str().unwrap_or("").to_string();
            names.entry(e.entry_point).or_insert(name);
        }
    }
    let label = |id: Id| match names.get(&id) {
        Some(n) if !n.is_empty() => format!("{id} \"{n}\""),
        _ => id.to_string(),
    };

    println!("{} functions", module.functions().len());
    for function in module.functions() {
        let id = function.def().result_id().unwrap_or(Id(0));
        let end = if function.is_terminated() {
            ""
        } else {
            ", no OpFunctionEnd"
        };
        println!(
            "function {}: {} instructions, {} blocks{end}",
            label(id),
            function.instructions().len(),
            function.blocks().len()
        );
        // The CFG is built over the function's own instruction range.
        let first = function.def().index();
        let cfg = Cfg::new(&module, first..first + function.instructions().len());
        for block in function.blocks() {
            let successors: Vec<String> = cfg
                .block_of(block.label())
                .into_iter()
                .flat_map(|b| cfg.successors(b))
                .filter_map(|s| cfg.block(s))
                .map(|s| s.label.to_string())
                .collect();
            let arrow = if successors.is_empty() {
                String::new()
            } else {
                format!(" -> {}", successors.join(" "))
            };
            println!(
                "  block {}: {} instructions{arrow}",
                label(block.label()),
                block.instructions().len()
            );
        }
    }
    ExitCode::SUCCESS
}
