//! Control flow as a picture: the blocks and branches of a module as `spirv-cfg` 2025.5
//! sees them, printed as its GraphViz DOT text byte for byte ([`ControlFlow::to_dot`])
//! or drawn as SVG without GraphViz ([`ControlFlow::to_svg`]).
//!
//! `spirv-cfg` reads the module as spirv-dis does (the same errors) and follows the
//! instruction stream, not the module's structure; its quirks are kept because its
//! output is what tools built on it expect:
//! - a block is printed when it ends in `OpBranch`, `OpBranchConditional`, `OpSwitch`,
//!   `OpKill`, `OpReturn`, `OpReturnValue` or `OpUnreachable`; a block ending in any
//!   other terminator (`OpTerminateInvocation`, `OpTerminateRayKHR`,
//!   `OpIgnoreIntersectionKHR`, `OpEmitMeshTasksEXT`) is never printed, and if it was
//!   its function's first block, the next printed block is labelled the entry;
//! - a merge or continue target declared in such a block carries over to the next
//!   printed block;
//! - all functions share one graph (the SVG draws one cluster per function).
//!
//! ```
//! use spirv_asm::{assemble_str, AsmOptions};
//! use spirv_asm::flow_graph::{ControlFlow, SvgOptions};
//!
//! let text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpName %main \"main\"
//! %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%main = OpFunction %void None %fn
//! %entry = OpLabel\nOpBranch %exit\n%exit = OpLabel\nOpReturn\nOpFunctionEnd\n";
//! let words = assemble_str(text, &AsmOptions::default()).unwrap();
//! let cfg = ControlFlow::read(&words).unwrap();
//! assert_eq!(cfg.blocks().len(), 2);
//! let dot = String::from_utf8(cfg.to_dot()).unwrap();
//! assert!(dot.ends_with("4 [label=\"4\nFn main entry\", shape=box];\n4 -> 5;\n5 [label=\"5\"];\n}\n"));
//! assert!(cfg.to_svg(&SvgOptions::default()).contains("Fn main"));
//! ```

mod layout;
mod svg;

pub use svg::SvgOptions;

use crate::DisError;
use crate::names::Names;
use spirv_core::Id;
use spirv_core::spv::{self, Opcode};
use spirv_core::walk::{self, Ids, WalkOptions};
use std::ops::Range;

/// How a block reaches another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EdgeKind {
    /// A branch target: control goes there.
    Branch,
    /// The merge block the block's `OpSelectionMerge` or `OpLoopMerge` declares (DOT
    /// `style=dashed`).
    Merge,
    /// The continue target its `OpLoopMerge` declares (DOT `style=dotted`).
    Continue,
}

/// One block as `spirv-cfg` prints it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Block {
    /// Its label's id (`Id(0)`, no id, for a terminator outside any block).
    pub label: Id,
    /// The function it is in, by id (`Id(0)` outside any function).
    pub function: Id,
    /// `spirv-cfg` labels it its function's entry (the first block printed since the
    /// function's `OpFunction`).
    pub entry: bool,
    /// Its instructions by index in the module, from its `OpLabel` (or, for a
    /// terminator that follows another with no label between, from the instruction
    /// after that one) to its terminator.
    pub instructions: Range<usize>,
    /// Where it goes, in `spirv-cfg`'s order: branch targets in operand order
    /// (`OpSwitch`'s default first; repeats kept), then the merge block, then the
    /// continue target.
    pub edges: Vec<(EdgeKind, Id)>,
}

/// The blocks of a module in the order `spirv-cfg` prints them, with friendly names.
#[derive(Debug)]
pub struct ControlFlow {
    blocks: Vec<Block>,
    names: Names,
    /// The module's words in host order, for `--with-instructions`.
    words: Vec<u32>,
}

/// What `spirv-cfg` carries from one instruction to the next.
#[derive(Default)]
struct Stream {
    function: u32,
    label: u32,
    label_index: usize,
    seen_entry: bool,
    merge: u32,
    continue_target: u32,
}

impl ControlFlow {
    /// Reads a module (either byte order) as `spirv-cfg` does.
    ///
    /// # Errors
    /// The module does not parse: the error `spirv-dis` and `spirv-cfg` report.
    pub fn read(words: &[u32]) -> Result<ControlFlow, DisError> {
        let (names, ids) = crate::dis::check_and_name(words)?;
        let mut words = words.to_vec();
        if words.first() == Some(&spirv_core::binary::MAGIC.swap_bytes()) {
            spirv_core::binary::swap_words(&mut words);
        }
        let blocks = scan(&words, &ids);
        Ok(ControlFlow {
            blocks,
            names,
            words,
        })
    }

    /// The printed blocks, in order.
    pub fn blocks(&self) -> &[Block] {
        &self.blocks
    }

    /// The friendly name of `id` as spirv-dis makes it, or its number.
    pub fn name(&self, id: Id) -> String {
        let mut out = Vec::new();
        self.names.write(id.0, &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// The ids of the functions that have printed blocks, in order of first block.
    pub fn functions(&self) -> Vec<Id> {
        let mut seen = std::collections::HashSet::new();
        self.blocks
            .iter()
            .map(|b| b.function)
            .filter(|f| seen.insert(*f))
            .collect()
    }

    /// Keeps only the blocks of the function named `name`: its friendly name, or its
    /// id as `5` or `%5`. `false` (and nothing removed) when no function with printed
    /// blocks has that name.
    pub fn retain_function(&mut self, name: &str) -> bool {
        let number = name.strip_prefix('%').unwrap_or(name).parse::<u32>().ok();
        let wanted = self
            .functions()
            .into_iter()
            .find(|&f| Some(f.0) == number || self.name(f) == name);
        match wanted {
            Some(f) => {
                self.blocks.retain(|b| b.function == f);
                true
            }
            None => false,
        }
    }

    /// `spirv-cfg`'s output: the legend, then each block's node and its edges.
    pub fn to_dot(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(512 + self.blocks.len() * 64);
        out.extend_from_slice(
            b"digraph {\n\
legend_merge_src [shape=plaintext, label=\"\"];\n\
legend_merge_dest [shape=plaintext, label=\"\"];\n\
legend_merge_src -> legend_merge_dest [label=\" merge\",style=dashed];\n\
legend_continue_src [shape=plaintext, label=\"\"];\n\
legend_continue_dest [shape=plaintext, label=\"\"];\n\
legend_continue_src -> legend_continue_dest [label=\" continue\",style=dotted];\n",
        );
        for b in &self.blocks {
            crate::text::push_u32(&mut out, b.label.0);
            out.extend_from_slice(b" [label=\"");
            self.names.write(b.label.0, &mut out);
            if b.entry {
                // A real newline inside the quoted label, as spirv-cfg writes it.
                out.extend_from_slice(b"\nFn ");
                self.names.write(b.function.0, &mut out);
                out.extend_from_slice(b" entry\", shape=box];\n");
            } else {
                out.extend_from_slice(b"\"];\n");
            }
            for &(kind, to) in &b.edges {
                crate::text::push_u32(&mut out, b.label.0);
                out.extend_from_slice(b" -> ");
                crate::text::push_u32(&mut out, to.0);
                out.extend_from_slice(match kind {
                    EdgeKind::Branch => b";\n",
                    EdgeKind::Merge => b" [style=dashed];\n",
                    EdgeKind::Continue => b" [style=dotted];\n",
                });
            }
        }
        out.extend_from_slice(b"}\n");
        out
    }

    /// The graph drawn as a standalone SVG document: one cluster per function, the
    /// entry boxed, merge edges dashed and continue edges dotted.
    pub fn to_svg(&self, opts: &SvgOptions) -> String {
        svg::render(self, opts)
    }

    /// The text of each instruction of every block (for `--with-instructions`), by
    /// block, one line per instruction with friendly names.
    fn instruction_texts(&self) -> Vec<Vec<String>> {
        let wanted: Vec<usize> = self
            .blocks
            .iter()
            .flat_map(|b| b.instructions.clone())
            .collect();
        let Some((_, texts)) = crate::dis::instruction_texts(&self.words, &wanted, None, false)
        else {
            return vec![Vec::new(); self.blocks.len()];
        };
        let mut texts = texts.into_iter();
        self.blocks
            .iter()
            .map(|b| {
                (&mut texts)
                    .take(b.instructions.len())
                    .map(|t| String::from_utf8_lossy(&t).into_owned())
                    .collect()
            })
            .collect()
    }
}

/// Follows the instruction stream as `spirv-cfg`'s `DotConverter` does. The module has
/// parsed, so every operand the grammar requires is there.
fn scan(words: &[u32], ids: &Ids) -> Vec<Block> {
    let mut blocks = Vec::new();
    let Ok((_, insts)) = spirv_core::binary::RawInstructions::module(words) else {
        return blocks;
    };
    let mut st = Stream::default();
    for inst in insts.map_while(Result::ok) {
        let ops = inst.operands;
        let op = |i: usize| ops.get(i).copied().unwrap_or(0);
        let targets: Vec<u32> = match Opcode(inst.opcode) {
            Opcode::Function => {
                st.function = op(1);
                st.seen_entry = false;
                continue;
            }
            Opcode::FunctionEnd => {
                st.function = 0;
                continue;
            }
            Opcode::Label => {
                st.label = op(0);
                st.label_index = inst.index;
                continue;
            }
            Opcode::LoopMerge => {
                st.merge = op(0);
                st.continue_target = op(1);
                continue;
            }
            Opcode::SelectionMerge => {
                st.merge = op(0);
                continue;
            }
            Opcode::Branch => vec![op(0)],
            Opcode::BranchConditional => vec![op(1), op(2)],
            Opcode::Switch => {
                let mut t = Vec::new();
                if let Some(info) = spv::GRAMMAR.instruction(u32::from(inst.opcode)) {
                    // Case literals sized as the parser that read the module sized them.
                    let strict = WalkOptions {
                        strict: true,
                        ..WalkOptions::default()
                    };
                    let _ = walk::walk(info, ops, ids, strict, &mut |p| {
                        if p.kind.is_id() && p.start > 0 {
                            t.push(ops[p.start]);
                        }
                    });
                }
                t
            }
            Opcode::Kill | Opcode::Return | Opcode::ReturnValue | Opcode::Unreachable => Vec::new(),
            _ => continue,
        };
        let mut edges: Vec<(EdgeKind, Id)> = targets
            .into_iter()
            .map(|t| (EdgeKind::Branch, Id(t)))
            .collect();
        if st.merge != 0 {
            edges.push((EdgeKind::Merge, Id(st.merge)));
        }
        if st.continue_target != 0 {
            edges.push((EdgeKind::Continue, Id(st.continue_target)));
        }
        blocks.push(Block {
            label: Id(st.label),
            function: Id(st.function),
            entry: !st.seen_entry,
            instructions: st.label_index.min(inst.index)..inst.index + 1,
            edges,
        });
        st.seen_entry = true;
        st.merge = 0;
        st.continue_target = 0;
        // A terminator with no label since the last one starts a block of its own
        // (spirv-cfg prints it under the same label): its instructions start after the
        // last terminator, so that the blocks' ranges do not overlap (n terminators
        // after one label listed n²/2 instructions).
        st.label_index = inst.index + 1;
    }
    blocks
}
