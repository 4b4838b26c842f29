//! Strips a shader's debug information and moves its descriptor set 0 to set 2, then
//! renumbers its ids: what a build pipeline does before shipping a shader into a
//! pipeline layout that reserves set 0 and 1 for the engine. The same as
//! `spirv-opt --strip-debug --switch-descriptorset=0:2 --compact-ids`, byte for byte.
//!
//! ```text
//! cargo run -p spirv-opt --example strip_and_rebind -- in.spv out.spv
//! ```

use spirv_core::Module;
use spirv_opt::structural::{StructuralPass, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output] = args.as_slice() else {
        eprintln!("usage: strip_and_rebind IN.spv OUT.spv");
        return ExitCode::FAILURE;
    };
    let result = std::fs::read(input)
        .map_err(|e| e.to_string())
        .and_then(|bytes| Module::from_bytes(&bytes).map_err(|e| e.to_string()))
        .and_then(|module| {
            let passes = [
                StructuralPass::StripDebug,
                StructuralPass::SwitchDescriptorSet { from: 0, to: 2 },
                StructuralPass::CompactIds,
            ];
            run(&module, &passes, None).map_err(|e| e.to_string())
        })
        .and_then(|(module, _changed)| {
            std::fs::write(output, module.to_bytes()).map_err(|e| e.to_string())
        });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{input}: {e}");
            ExitCode::FAILURE
        }
    }
}
