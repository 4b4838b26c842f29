//! The three ways to use the toolkit, in one program:
//! 1. `include_grammar!` on this crate's own non-semantic instruction set, registered so
//!    that reading, assembling and disassembling know it by name;
//! 2. spirv-core as a library: build a module, read it back, walk its functions;
//! 3. the assembler and disassembler as a library;
//!
//! and, 4., assembly text assembled at compile time by `spirv_asm!`.

use spirv_asm::{AsmOptions, DisOptions};
use spirv_core::{Builder, ExtInstRegistry, Module, ReadOptions, spv, spv::inst};
use std::error::Error;

/// 1. This crate's own instruction set, generated at compile time from its JSON grammar.
/// Editing the JSON rebuilds the crate.
mod markers {
    spirv_grammar_macros::include_grammar!(
        "grammar/nonsemantic.markers.grammar.json",
        import = "NonSemantic.Markers"
    );
}

/// Every vendored set, plus ours.
fn registry() -> ExtInstRegistry {
    let mut r = ExtInstRegistry::default();
    r.register(&markers::GRAMMAR);
    r
}

/// 2a. Builds a module: a `main` function whose body is bracketed by our markers.
fn build() -> Result<Module, Box<dyn Error>> {
    let mut b = Builder::new((1, 3));
    b.push(inst::Capability { capability: spv::Capability::Shader })?;
    b.push(inst::Extension { name: "SPV_KHR_non_semantic_info".into() })?;
    let markers_set = b.id()?;
    b.push(inst::ExtInstImport { result_id: markers_set, name: "NonSemantic.Markers".into() })?;
    b.push(inst::MemoryModel {
        addressing_model: spv::AddressingModel::Logical,
        memory_model: spv::MemoryModel::GLSL450,
    })?;
    let label = b.id()?;
    b.push(inst::String { result_id: label, string: "main body".into() })?;
    let (void, fn_type, uint, one) = (b.id()?, b.id()?, b.id()?, b.id()?);
    b.push(inst::TypeVoid { result_id: void })?;
    b.push(inst::TypeFunction { result_id: fn_type, return_type: void, parameter_types: Default::default() })?;
    b.push(inst::TypeInt { result_id: uint, width: 32, signedness: 0 })?;
    b.push(inst::Constant {
        result_type: uint,
        result_id: one,
        value: spirv_core::LiteralNumber::from_u32(1),
    })?;

    let main = b.begin_function(void, spv::FunctionControl::NONE, fn_type)?;
    b.begin_block()?;
    let begin = markers::inst::MarkerBegin { label, level: one };
    b.ext_inst(void, markers_set, &markers::Instruction::from(begin))?;
    b.ext_inst(void, markers_set, &markers::Instruction::from(markers::inst::MarkerEnd {}))?;
    b.push(inst::Return {})?;
    b.end_function()?;
    b.push(inst::EntryPoint {
        execution_model: spv::ExecutionModel::GLCompute,
        entry_point: main,
        name: "main".into(),
        interfaces: Default::default(),
    })?;
    Ok(b.build()?)
}

fn main() -> Result<(), Box<dyn Error>> {
    let module = build()?;
    let words = module.to_words();

    // 3. Disassemble and assemble, with our set known by name.
    let dis = DisOptions {
        registry: Some(registry()),
        all_ext_inst_names: true,
        ..DisOptions::default()
    };
    let text = spirv_asm::disassemble_to_string(&words, &dis)?;
    print!("{text}");
    // Friendly names (`%uint_1`) are numbered in order of appearance when assembled, as
    // spirv-as does; numeric ids kept as they are give the same words back.
    let numeric = spirv_asm::disassemble_to_string(&words, &DisOptions { raw_id: true, ..dis })?;
    let asm = AsmOptions {
        registry: Some(registry()),
        all_ext_inst_names: true,
        preserve_numeric_ids: true,
        ..AsmOptions::default()
    };
    let again = spirv_asm::assemble_str(&numeric, &asm)?;
    assert_eq!(again, words, "disassembly assembles back to the same words");

    // 2b. Read it back strictly (every set and instruction must be known) and walk it.
    let registry = registry();
    let opts = ReadOptions { strict: true, registry: Some(&registry), ..Default::default() };
    let read = Module::read(&words, &opts)?;
    let mut seen = Vec::new();
    for function in read.functions() {
        for block in function.blocks() {
            for i in block.instructions() {
                let Some(e) = i.ext_inst() else { continue };
                if !e.set.is_some_and(|g| std::ptr::eq(g, &markers::GRAMMAR)) {
                    continue;
                }
                let typed = markers::Instruction::decode(
                    markers::Opcode(e.number),
                    e.operands,
                    &Default::default(),
                )?;
                println!("; block {:?}: {typed:?}", block.label());
                seen.push(typed);
            }
        }
    }
    assert_eq!(seen.len(), 2, "both markers are found");

    // 4. A shader written as text, assembled at compile time into a constant.
    const COMPUTE: &[u32] = spirv_asm_macros::spirv_asm!(
        r#"
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 8 8 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
        "#,
        target_env = "vulkan1.1",
        strict = true,
    );
    let compute = Module::from_words(COMPUTE)?;
    println!("; compile-time shader: {} words, {} function", COMPUTE.len(), compute.functions().len());
    println!("; ok: {} words, {} functions", words.len(), read.functions().len());
    Ok(())
}
