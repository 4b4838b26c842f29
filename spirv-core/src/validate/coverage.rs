//! What the validator checks, family by family, in code: each rule family declares its [`Family`] next to its rules, naming
//! spirv-val's source file it mirrors and the instructions, decorations and built-ins
//! its own rules key on; [`FAMILIES`] lists them in spirv-val's pass order and
//! [`NOT_CHECKED`] the families of spirv-val's `source/val/` with no rules here yet.
//! `docs/validator.md` is the human list; a test keeps it and these lists in agreement.

use crate::spv;

/// One rule family: what it mirrors and what its rules key on. A family whose rules
/// run over the whole module or every instruction (the header, ids, the layout, the
/// control-flow graph) names no instruction.
#[derive(Clone, Copy, Debug)]
pub struct Family {
    /// The family's name, as `docs/validator.md` heads its section.
    pub name: &'static str,
    /// spirv-val's source file (under `source/val/`) it mirrors.
    pub mirrors: &'static str,
    /// The instructions with rules of their own in this family.
    pub opcodes: &'static [spv::Opcode],
    /// The decorations with rules of their own in this family.
    pub decorations: &'static [spv::Decoration],
    /// The built-ins with rules of their own in this family.
    pub built_ins: &'static [spv::BuiltIn],
}

impl Family {
    /// A family that names nothing (yet): fields are filled in with struct update.
    pub(crate) const fn new(name: &'static str, mirrors: &'static str) -> Self {
        Family {
            name,
            mirrors,
            opcodes: &[],
            decorations: &[],
            built_ins: &[],
        }
    }
}

/// The families the validator checks, in spirv-val's pass order.
pub const FAMILIES: &[Family] = &[
    Family::new("header", "validate.cpp"),
    super::ids::COVERAGE,
    super::capability::COVERAGE,
    super::layout::COVERAGE,
    super::instruction::COVERAGE,
    super::misc::COVERAGE,
    super::debug::COVERAGE,
    super::annotation::COVERAGE,
    super::extension::COVERAGE,
    super::extension::EXT_INST_COVERAGE,
    super::modes::COVERAGE,
    super::types::COVERAGE,
    super::constants::COVERAGE,
    super::memory::COVERAGE,
    super::function::COVERAGE,
    super::image::COVERAGE,
    super::conversion::COVERAGE,
    super::composites::COVERAGE,
    super::arithmetics::COVERAGE,
    super::bitwise::COVERAGE,
    super::logicals::COVERAGE,
    super::cfg::control_flow::COVERAGE,
    super::derivatives::COVERAGE,
    super::atomics::COVERAGE,
    super::primitives::COVERAGE,
    super::barriers::COVERAGE,
    super::non_uniform::COVERAGE,
    super::memory_semantics::COVERAGE,
    super::literals::COVERAGE,
    super::ray_query::COVERAGE,
    super::ray_tracing::COVERAGE,
    super::ray_tracing_reorder::COVERAGE,
    super::mesh_shading::COVERAGE,
    super::tensor_layout::COVERAGE,
    super::tensor::COVERAGE,
    super::graph::COVERAGE,
    super::invalid_type::COVERAGE,
    super::scopes::COVERAGE,
    super::adjacency::COVERAGE,
    super::entry_points::COVERAGE,
    super::cfg::COVERAGE,
    super::decorations::COVERAGE,
    super::interfaces::COVERAGE,
    super::builtins::COVERAGE,
    super::limitations::COVERAGE,
    super::small_type_uses::COVERAGE,
    super::logical_pointers::COVERAGE,
];

/// The families of spirv-val's `source/val/` with no rules here yet: a module the
/// validator accepts may still break one of them.
pub const NOT_CHECKED: &[Family] = &[];

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::{FAMILIES, Family, NOT_CHECKED};
    use crate::grammar::Enum;
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;

    fn heading(f: &Family) -> String {
        format!("### {} (`{}`)", f.name, f.mirrors)
    }

    /// The lines `docs/validator.md` gives a family: its heading, then one line per
    /// non-empty list.
    fn lines(f: &Family) -> Vec<String> {
        let mut out = Vec::from([heading(f)]);
        let list = |label: &str, names: Vec<String>| {
            let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            format!("{label}: {}.", names.join(", "))
        };
        if !f.opcodes.is_empty() {
            let names = f
                .opcodes
                .iter()
                .map(|o| format!("Op{}", crate::validate::faults::opcode_name(*o)));
            out.push(list("Instructions", names.collect()));
        }
        if !f.decorations.is_empty() {
            let names = f
                .decorations
                .iter()
                .map(|d| String::from(d.name().unwrap_or("?")));
            out.push(list("Decorations", names.collect()));
        }
        if !f.built_ins.is_empty() {
            let names = f
                .built_ins
                .iter()
                .map(|b| String::from(b.name().unwrap_or("?")));
            out.push(list("Built-ins", names.collect()));
        }
        out
    }

    /// A line of docs/validator.md with each name in its lists spelled as the grammar
    /// the crate was built with spells it: a newer grammar may make an alias canonical
    /// (`OpCooperativeMatrixReduceNV` became `…EXT` in SPIRV-Headers of 2026-08), and the
    /// doc keeps the names of the grammar it was written against. A name the grammar
    /// does not know stays as it is, so that the comparison fails on it.
    fn canonical(line: &str) -> String {
        let Some((label, list)) = line
            .split_once(": ")
            .filter(|(l, _)| ["Instructions", "Decorations", "Built-ins"].contains(l))
        else {
            return String::from(line);
        };
        let name = |n: &str| -> Option<&'static str> {
            match label {
                "Instructions" => crate::spv::Opcode::from_name(n).and_then(|o| o.name()),
                "Decorations" => crate::spv::Decoration::from_name(n).and_then(|d| d.name()),
                "Built-ins" => crate::spv::BuiltIn::from_name(n).and_then(|b| b.name()),
                _ => None,
            }
        };
        let names: Vec<String> = list
            .trim_end_matches('.')
            .split(", ")
            .map(|quoted| {
                let n = quoted.trim_matches('`');
                format!("`{}`", name(n).unwrap_or(n))
            })
            .collect();
        format!("{label}: {}.", names.join(", "))
    }

    /// docs/validator.md has a section per family, in order, under "Checked" and
    /// "Not checked yet", and each section's lists are the family's declaration.
    #[test]
    fn docs_agree() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/validator.md");
        let Ok(doc) = std::fs::read_to_string(path) else {
            return;
        };
        let wanted: Vec<String> = FAMILIES
            .iter()
            .flat_map(lines)
            .chain([String::from("## Not checked yet")])
            .chain(NOT_CHECKED.iter().flat_map(lines))
            .collect();
        let ours: Vec<String> = doc
            .lines()
            .filter(|l| {
                l.starts_with("### ")
                    || *l == "## Not checked yet"
                    || ["Instructions: ", "Decorations: ", "Built-ins: "]
                        .iter()
                        .any(|p| l.starts_with(p))
            })
            .map(canonical)
            .collect();
        if ours != wanted {
            panic!(
                "docs/validator.md disagrees with validate::FAMILIES; its headings and lists should be:\n{}",
                wanted.join("\n")
            );
        }
    }

    /// No family is both checked and not.
    #[test]
    fn checked_or_not() {
        for f in NOT_CHECKED {
            assert!(FAMILIES.iter().all(|g| g.name != f.name), "{}", f.name);
        }
    }
}
