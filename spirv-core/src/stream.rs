//! Typed instructions straight from a module's words, in one pass, without building a
//! [`Module`](crate::Module).
//!
//! For tools that read a binary once from front to back (an optimizer's input stage,
//! a linter, a converter), the module index is work they never use. This reader walks
//! the raw instructions and decodes each into its typed [`spv::Instruction`], keeping
//! only what decoding needs: the types of values, for `OpSwitch` case literals. Typed
//! decoding checks every operand, and definitions are checked as the module reader
//! checks them (an id defined twice is an error).
//!
//! ```
//! use spirv_core::spv::Instruction as I;
//! # let words = spirv_core::Builder::new((1, 0)).words();
//! let (header, insts) = spirv_core::stream::read(&words).unwrap();
//! for inst in insts {
//!     if let I::TypeInt(t) = inst.unwrap() {
//!         println!("{}-bit integer type %{}", t.width, t.result_id.0);
//!     }
//! }
//! # let _ = header;
//! ```

use crate::binary::{Header, RawInstructions};
use crate::codec::DecodeContext;
use crate::error::DecodeError;
use crate::grammar::KindClass;
use crate::spv;
use crate::walk::{self, ExtInstRegistry, Ids, Summary};

/// Reads the header and returns the typed instructions that follow.
///
/// # Errors
/// The header is malformed.
pub fn read(words: &[u32]) -> Result<(Header, TypedInstructions<'_>), DecodeError> {
    let (header, raw) = RawInstructions::module(words)?;
    Ok((
        header,
        TypedInstructions {
            raw,
            ids: Ids::new(words.len()),
            registry: ExtInstRegistry::empty(),
            done: false,
        },
    ))
}

/// The iterator of [`read`]. An instruction that does not decode is an `Err` item and
/// the next one is read; a malformed word count ends the iteration after its error.
#[derive(Debug)]
pub struct TypedInstructions<'w> {
    raw: RawInstructions<'w>,
    ids: Ids,
    /// Decoding needs no extended set: a typed `OpExtInst` holds its operands as ids.
    registry: ExtInstRegistry,
    done: bool,
}

impl Iterator for TypedInstructions<'_> {
    type Item = Result<spv::Instruction, DecodeError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let raw = match self.raw.next()? {
            Ok(raw) => raw,
            Err(e) => {
                self.done = true;
                return Some(Err(e));
            }
        };
        let ops = raw.operands;
        let mut ctx = DecodeContext {
            offset: raw.offset,
            instruction: raw.index,
            switch_literal_words: 1,
        };
        let info = spv::GRAMMAR.instruction(u32::from(raw.opcode));
        if info.is_some_and(|i| i.switch_literals) {
            if let Some(t) = ops
                .first()
                .and_then(|&s| self.ids.value_number_type(crate::Id(s)))
            {
                ctx.switch_literal_words = t.words().unwrap_or(2) as u32;
            }
        }
        // Record what the instruction defines, as the module reader does. This comes
        // before decoding, which needs nothing recorded here, so that the decoded
        // instruction is written straight into the returned value instead of moved there.
        if let Some(info) = info {
            let class = |i: usize| info.operands.get(i).map(|o| o.kind.class);
            let summary = match (class(0), class(1)) {
                (Some(KindClass::ResultType), Some(KindClass::Result)) => Summary {
                    result_type: ops.first().copied(),
                    result_id: ops.get(1).copied(),
                    saw_unknown: false,
                },
                (Some(KindClass::Result), _) => Summary {
                    result_id: ops.first().copied(),
                    ..Summary::default()
                },
                _ => Summary::default(),
            };
            if let Err(kind) =
                walk::observe(&mut self.ids, &self.registry, raw.opcode, ops, &summary)
            {
                return Some(Err(DecodeError::new(kind, raw.offset + 1, raw.index)));
            }
        }
        Some(spv::Instruction::decode(spv::Opcode(raw.opcode), ops, &ctx))
    }
}
