//! `--comment`: the section comments spirv-dis inserts between module sections and
//! before function bodies.

use super::State;
use super::printer::Printer;
use spirv_core::binary::RawInstructions;
use spirv_core::spv;

impl Printer<'_> {
    /// `--comment`: blank line and a heading before (headings leave the trailing-comment
    /// column as it was) the first instruction of a group.
    pub(super) fn section_comment(
        &mut self,
        st: &State<'_>,
        out: &mut Vec<u8>,
        opcode: u16,
        info: &spirv_core::grammar::InstructionInfo,
        ops: &[u32],
    ) {
        use spv::Opcode as O;
        let indent: &[u8] = if st.opts.indent {
            b"               "
        } else {
            b""
        };
        let op = spv::Opcode(opcode);
        let heading = |out: &mut Vec<u8>, text: &[u8]| {
            out.push(b'\n');
            out.extend_from_slice(indent);
            out.extend_from_slice(text);
            out.push(b'\n');
        };
        if op == O::Function {
            if st.opts.nested_indent {
                out.push(b'\n');
            }
            let mut t = b"; Function ".to_vec();
            let id = ops.get(1).copied().unwrap_or(0);
            match &st.names {
                Some(n) => n.write(id, &mut t),
                None => crate::text::push_u32(&mut t, id),
            }
            heading(out, &t);
        }
        // The grammar's classes: decorations are its Annotation class except the
        // group declaration itself; debug instructions are its Debug class.
        let class = spv::Class::of(info);
        let is_decoration = class == Some(spv::Class::Annotation) && op != O::DecorationGroup;
        if !self.inserted_decoration && is_decoration {
            self.inserted_decoration = true;
            heading(out, b"; Annotations");
        }
        let is_debug = class == Some(spv::Class::Debug);
        if !self.inserted_debug && is_debug {
            self.inserted_debug = true;
            heading(out, b"; Debug Information");
        }
        let generates_type =
            class == Some(spv::Class::TypeDeclaration) && op != O::TypeForwardPointer;
        if !self.inserted_type && generates_type {
            self.inserted_type = true;
            heading(out, b"; Types, variables and constants");
        }
    }

    /// `--comment` with `--nested-indent` or `--reorder-blocks`: spirv-dis holds a
    /// function's body back until its `OpFunctionEnd` but prints section comments as it
    /// reads, so the headings the body gets (an inner `OpFunction`'s, say) come right
    /// after the `OpFunction` line, and the body prints none.
    pub(super) fn body_comments(&mut self, st: &State<'_>, out: &mut Vec<u8>, from: usize) {
        let words = self.words;
        // Where the body ends: its `OpFunctionEnd`, an instruction pass 1 could not
        // split, or the end of the module.
        let mut stop = words.len().max(from);
        for next in RawInstructions::new(words.get(from..).unwrap_or(&[]), from) {
            let inst = match next {
                Ok(inst) if inst.opcode != spv::Opcode::FunctionEnd.0 => inst,
                Ok(inst) => {
                    stop = inst.offset;
                    break;
                }
                Err(e) => {
                    stop = e.offset;
                    break;
                }
            };
            if let Some(info) = spv::GRAMMAR.instruction(u32::from(inst.opcode)) {
                self.section_comment(st, out, inst.opcode, info, inst.operands);
            }
        }
        self.comments_until = stop;
    }
}
