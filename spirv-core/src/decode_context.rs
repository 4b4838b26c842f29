//! The context of a typed decode: what decoding one instruction needs from outside its
//! words. Its own private module so that its one public path is the crate root's, which
//! generated code names.

/// What typed decode needs to know from outside the instruction's words: for an
/// instruction decoded alone, `DecodeContext::default()`; [`InstRef::decode`](crate::InstRef::decode)
/// fills it in from the module.
#[derive(Debug, Clone, Copy, Default)]
pub struct DecodeContext {
    /// Words per `OpSwitch` case literal (1 or 2), from the selector's type; 0 means 1.
    pub switch_literal_words: u32,
    /// Word offset of the operand slice in the module, added to error offsets.
    pub offset: usize,
    /// Instruction index (0-based), copied into errors.
    pub instruction: usize,
}
