//! Fuzz bodies for the assembler and disassembler: they must never panic or hang.
//! `tests/tests/robustness/fuzz.rs` runs them over mutated corpus inputs; raise `FUZZ_CASES` to
//! run longer.

use crate::{AsmOptions, DisOptions, assemble, disassemble};

/// Disassembles `words` with several option sets, including `--keep-going`, whose text
/// must assemble again.
pub fn disassemble_words(words: &[u32]) {
    let _ = disassemble(words, &DisOptions::default());
    let _ = disassemble(
        words,
        &DisOptions {
            comment: true,
            offsets: true,
            color: true,
            ..DisOptions::default()
        },
    );
    let _ = disassemble(
        words,
        &DisOptions {
            nested_indent: true,
            reorder_blocks: true,
            comment: true,
            keep_going: true,
            ..DisOptions::default()
        },
    );
    let raw = DisOptions {
        raw_id: true,
        keep_going: true,
        ..DisOptions::default()
    };
    if let Ok(text) = disassemble(words, &raw) {
        let _ = assemble(
            &text,
            &AsmOptions {
                preserve_numeric_ids: true,
                ..AsmOptions::default()
            },
        );
    }
}

/// Assembles `text` with default and preserved ids; whatever assembles must disassemble.
pub fn assemble_text(text: &[u8]) {
    for preserve in [false, true] {
        if let Ok(words) = assemble(
            text,
            &AsmOptions {
                preserve_numeric_ids: preserve,
                ..AsmOptions::default()
            },
        ) {
            let _ = disassemble(&words, &DisOptions::default());
        }
    }
}

/// Reads `words` as `spirv-cfg` does and draws them: DOT, and SVG with and without the
/// blocks' instructions, of the whole module and of its first function alone.
pub fn flow_graph_words(words: &[u32]) {
    use crate::flow_graph::{ControlFlow, SvgOptions};
    let Ok(mut graph) = ControlFlow::read(words) else {
        return;
    };
    let _ = graph.to_dot();
    for with in [false, true] {
        let _ = graph.to_svg(&SvgOptions::with_instructions(with));
    }
    if let Some(&first) = graph.functions().first() {
        let name = graph.name(first);
        if graph.retain_function(&name) {
            let _ = graph.to_svg(&SvgOptions::default());
        }
    }
}

/// Reflects `words` in the `spirv-cross --reflect` format: an answer or an error.
pub fn reflect_words(words: &[u32]) {
    if let Ok(m) = spirv_core::Module::from_words(words) {
        let _ = crate::reflect_json::spirv_cross_json(&m);
    }
}

/// Validates `words` and renders every fault as spirv-val prints it.
pub fn validate_words(words: &[u32]) {
    let options = spirv_core::validate::Options::default();
    let mut errors = Vec::new();
    spirv_core::validate::validate_all(words, &options, &mut |e| errors.push(e));
    let _ = crate::val::render(words, &errors, &options);
}
