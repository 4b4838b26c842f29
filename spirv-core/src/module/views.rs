//! Views into a module: functions, blocks and instructions, borrowed from its words.

use super::Module;
use super::layout::FunctionRec;
use crate::codec::DecodeContext;
use crate::error::{DecodeError, DecodeErrorKind};
use crate::grammar::{InstructionInfo, KindClass};
use crate::spv;
use crate::types::Id;
use crate::walk::{self, NumberType};
use core::ops::Range;

/// A function of a module, from [`Module::functions`]: its `OpFunction`, the
/// instructions before its first block (parameters), and its [`BlockRef`]s.
///
/// ```
/// use spirv_core::{spv, spv::inst, Builder, Id};
/// let mut b = Builder::new((1, 0));
/// let [void, int, fn_type] = [(); 3].map(|()| b.id().unwrap());
/// b.push(inst::TypeVoid { result_id: void })?;
/// b.push(inst::TypeInt { result_id: int, width: 32, signedness: 0 })?;
/// b.push(inst::TypeFunction { result_id: fn_type, return_type: void, parameter_types: [int].into() })?;
/// // void f(int x) { entry: branch next; next: return; }
/// let f = b.begin_function(void, spv::FunctionControl::NONE, fn_type)?;
/// let x = b.parameter(int)?;
/// let (entry, next) = (b.id()?, b.id()?);
/// b.push(inst::Label { result_id: entry })?;
/// b.push(inst::Branch { target_label: next })?;
/// b.push(inst::Label { result_id: next })?;
/// b.push(inst::Return {})?;
/// b.end_function()?;
/// let module = b.build()?;
///
/// let function = module.functions().next().unwrap();
/// assert_eq!(function.def().result_id(), Some(f));
/// let params: Vec<Option<Id>> = function.header_instructions().map(|i| i.result_id()).collect();
/// assert_eq!(params, [Some(x)]);
/// let blocks: Vec<(Id, usize)> =
///     function.blocks().map(|bl| (bl.label(), bl.instructions().len())).collect();
/// assert_eq!(blocks, [(entry, 2), (next, 2)], "label and terminator each");
/// assert!(function.is_terminated());
/// assert_eq!(function.instructions().len(), 7, "OpFunction to OpFunctionEnd");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// For successors and predecessors, build the function's
/// [`Cfg`](crate::analysis::Cfg).
#[derive(Debug, Clone, Copy)]
pub struct FunctionRef<'m> {
    pub(super) module: &'m Module,
    pub(super) rec: &'m FunctionRec,
}

impl<'m> FunctionRef<'m> {
    /// Every instruction from `OpFunction` to `OpFunctionEnd` (or to the last one of an
    /// unterminated function).
    pub fn instructions(&self) -> impl ExactSizeIterator<Item = InstRef<'m>> + 'm {
        let r = self.rec.insts.start as usize..self.rec.insts.end as usize;
        let m = self.module;
        r.map(move |index| InstRef { module: m, index })
    }
    /// The `OpFunction` instruction.
    pub fn def(&self) -> InstRef<'m> {
        InstRef {
            module: self.module,
            index: self.rec.insts.start as usize,
        }
    }
    /// Whether the function ends with `OpFunctionEnd`. A lenient read keeps a function
    /// without one (the module ended, or another `OpFunction` began); it is listed in
    /// [`Module::layout_issues`].
    pub fn is_terminated(&self) -> bool {
        self.rec.terminated
    }
    /// The index just past the function's body: its `OpFunctionEnd`, or its end.
    fn body_end(&self) -> u32 {
        self.rec.insts.end - u32::from(self.rec.terminated)
    }
    /// The blocks: each from its `OpLabel` to the instruction before the next label or
    /// the `OpFunctionEnd`.
    pub fn blocks(&self) -> impl ExactSizeIterator<Item = BlockRef<'m>> + 'm {
        let m = self.module;
        let starts = &m.blocks[self.rec.blocks.start as usize..self.rec.blocks.end as usize];
        let end = self.body_end();
        starts.iter().enumerate().map(move |(i, &s)| BlockRef {
            module: m,
            range: s..starts.get(i + 1).copied().unwrap_or(end),
        })
    }
    /// The instructions between `OpFunction` and the first label (parameters, debug info).
    pub fn header_instructions(&self) -> impl ExactSizeIterator<Item = InstRef<'m>> + 'm {
        let m = self.module;
        let start = self.rec.insts.start + 1;
        let end = m
            .blocks
            .get(self.rec.blocks.start as usize)
            .copied()
            .filter(|_| self.rec.blocks.start < self.rec.blocks.end)
            .unwrap_or(self.body_end());
        (start as usize..end as usize).map(move |index| InstRef { module: m, index })
    }
}

/// A basic block of a [`FunctionRef`] (see its example): from its `OpLabel` to the
/// instruction before the next `OpLabel` or the `OpFunctionEnd`. Blocks are cut at
/// labels, not at terminators: an instruction after a terminator stays in its block.
#[derive(Debug, Clone)]
pub struct BlockRef<'m> {
    module: &'m Module,
    range: Range<u32>,
}

impl<'m> BlockRef<'m> {
    /// Its instructions, `OpLabel` first.
    pub fn instructions(&self) -> impl ExactSizeIterator<Item = InstRef<'m>> + 'm {
        let m = self.module;
        (self.range.start as usize..self.range.end as usize)
            .map(move |index| InstRef { module: m, index })
    }
    /// The label's id.
    pub fn label(&self) -> Id {
        Id(self
            .instructions()
            .next()
            .and_then(|i| i.operands().first().copied())
            .unwrap_or(0))
    }
}

/// An `OpExtInst`'s parts, from [`InstRef::ext_inst`]. Its `Debug` names the set and
/// the instruction rather than printing the set's grammar.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct ExtInstRef<'m> {
    /// The imported set's grammar, if the registry used for reading knows the set.
    pub set: Option<&'static crate::grammar::Grammar>,
    /// The `OpExtInstImport` result the instruction names.
    pub set_id: Id,
    /// The extended instruction number.
    pub number: u32,
    /// The operand words after the number.
    pub operands: &'m [u32],
}

/// `ExtInstRef { set: Some("GLSL.std.450"), instruction: Some("Sqrt"), set_id: %1,
/// number: 31, operands: [..] }`.
impl core::fmt::Debug for ExtInstRef<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ExtInstRef")
            .field("set", &self.set.map(|g| g.name))
            .field(
                "instruction",
                &self
                    .set
                    .and_then(|g| g.instruction(self.number))
                    .map(|i| i.opname),
            )
            .field("set_id", &self.set_id)
            .field("number", &self.number)
            .field("operands", &self.operands)
            .finish()
    }
}

/// A view of one instruction in a module.
#[derive(Debug, Clone, Copy)]
pub struct InstRef<'m> {
    pub(super) module: &'m Module,
    pub(super) index: usize,
}

impl<'m> InstRef<'m> {
    /// Word offset of the leading word from the module start.
    pub fn offset(&self) -> usize {
        self.module.offsets[self.index] as usize
    }
    /// 0-based instruction index.
    pub fn index(&self) -> usize {
        self.index
    }
    /// All words, leading word included.
    pub fn words(&self) -> &'m [u32] {
        let off = self.offset();
        let count = (self.module.words[off] >> 16) as usize;
        &self.module.words[off..off + count]
    }
    /// The opcode.
    pub fn opcode(&self) -> spv::Opcode {
        spv::Opcode(self.module.words[self.offset()] as u16)
    }
    /// The operand words.
    pub fn operands(&self) -> &'m [u32] {
        &self.words()[1..]
    }
    /// The grammar entry, if the opcode is known.
    pub fn info(&self) -> Option<&'static InstructionInfo> {
        spv::GRAMMAR.instruction(u32::from(self.opcode().0))
    }
    /// The result id, if the instruction has one.
    pub fn result_id(&self) -> Option<Id> {
        let info = self.info()?;
        let at = info
            .operands
            .iter()
            .position(|o| o.kind.class == KindClass::Result)?;
        self.operands().get(at).copied().map(Id)
    }
    /// Decodes into the typed instruction. `OpSwitch` case literals are sized by the
    /// selector's type as recorded while reading.
    ///
    /// ```
    /// use spirv_core::{spv::inst, spv::Instruction as I, Builder, LiteralNumber};
    /// let mut b = Builder::new((1, 0));
    /// let (int, seven) = (b.id()?, b.id()?);
    /// b.push(inst::TypeInt { result_id: int, width: 32, signedness: 1 })?;
    /// b.push(inst::Constant { result_type: int, result_id: seven, value: LiteralNumber::from_u32(7) })?;
    /// let module = b.build()?;
    ///
    /// let decoded = module.instruction(0).unwrap().decode()?;
    /// assert_eq!(format!("{decoded:?}"), "OpTypeInt { result_id: %1, width: 32, signedness: 1 }");
    /// match module.instruction(1).unwrap().decode()? {
    ///     I::Constant(c) => assert_eq!((c.result_type, c.value.as_u64()), (int, 7)),
    ///     other => panic!("not a constant: {other:?}"),
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// The instruction does not decode (unknown opcode, or operands the layout rejects).
    pub fn decode(&self) -> Result<spv::Instruction, DecodeError> {
        let ops = self.operands();
        let mut ctx = DecodeContext {
            offset: self.offset(),
            instruction: self.index,
            switch_literal_words: 1,
        };
        if self.info().is_some_and(|i| i.switch_literals) {
            if let Some(t) = ops
                .first()
                .and_then(|&s| self.module.ids.value_number_type(Id(s)))
            {
                ctx.switch_literal_words = t.words().unwrap_or(2) as u32;
            }
        }
        spv::Instruction::decode(self.opcode(), ops, &ctx)
    }
    /// Like [`Self::decode`], keeping anything that does not decode as raw words.
    pub fn decode_lossless(&self) -> spv::Instruction {
        self.decode().unwrap_or_else(|_| {
            spv::Instruction::Unknown(crate::RawInstruction::new(
                u32::from(self.opcode().0),
                self.operands(),
            ))
        })
    }
    /// Calls `f(class, id)` for every id the instruction defines or uses, in operand
    /// order: where the grammar (and, for `OpExtInst`, the imported set's grammar)
    /// puts them.
    ///
    /// ```
    /// use spirv_core::{grammar::KindClass, spv::inst, Builder, Id};
    /// let mut b = Builder::new((1, 0));
    /// let (int, c) = (b.id()?, b.id()?);
    /// b.push(inst::TypeInt { result_id: int, width: 32, signedness: 0 })?;
    /// b.push(inst::Constant { result_type: int, result_id: c, value: spirv_core::LiteralNumber::from_u32(7) })?;
    /// let module = b.build()?;
    /// let mut ids = Vec::new();
    /// module.instruction(1).unwrap().visit_ids(|class, id| ids.push((class, id)))?;
    /// assert_eq!(ids, [(KindClass::ResultType, Id(1)), (KindClass::Result, Id(2))]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// Some ids cannot be found: an unknown opcode, an unknown enumerant that may take
    /// parameters, an `OpExtInst` of a set that is neither registered nor
    /// `NonSemantic.`, or operands that do not read (possible in a function body of a
    /// module read with [`ReadOptions::globals_only`](crate::ReadOptions)). `f` has
    /// then seen the ids before the operand that could not be laid out.
    pub fn visit_ids(&self, mut f: impl FnMut(KindClass, Id)) -> Result<(), DecodeError> {
        let ops = self.operands();
        self.visit_id_words(|class, word| f(class, Id(ops[word])))
    }

    /// [`InstRef::visit_ids`], giving each id operand's index among the operand words.
    pub(crate) fn visit_id_words(
        &self,
        mut f: impl FnMut(KindClass, usize),
    ) -> Result<(), DecodeError> {
        let at = |kind, word: usize| DecodeError::new(kind, self.offset() + 1 + word, self.index);
        let Some(info) = self.info() else {
            return Err(DecodeError::new(
                DecodeErrorKind::UnknownOpcode {
                    opcode: u32::from(self.opcode().0),
                },
                self.offset(),
                self.index,
            ));
        };
        walk::id_words(
            info,
            self.opcode().0,
            self.operands(),
            &self.module.ids,
            &mut f,
        )
        .map_err(|(kind, word)| at(kind, word))
    }
    /// For `OpExtInst`: the imported set, the extended instruction number and its
    /// operand words, ready for the set's typed decode
    /// (`spirv_core::ext::glsl_std_450::Instruction::decode` with the `typed-ext`
    /// feature, or a set generated in another crate).
    pub fn ext_inst(&self) -> Option<ExtInstRef<'m>> {
        if self.opcode() != spv::Opcode::ExtInst {
            return None;
        }
        let ops = self.operands();
        let set_id = *ops.get(2)?;
        let set = self.module.ids.ext_set(Id(set_id))?;
        Some(ExtInstRef {
            set: set.grammar,
            set_id: Id(set_id),
            number: *ops.get(3)?,
            operands: ops.get(4..)?,
        })
    }

    /// For an `OpExtInst` of the set whose generated `Instruction` type is `I`: the
    /// extended instruction, decoded into it. `None` for any other instruction (another
    /// set's, or not an `OpExtInst`).
    ///
    /// ```
    /// # #[cfg(feature = "typed-ext")] {
    /// use spirv_core::{ext::glsl_std_450 as glsl, spv, spv::inst, Builder};
    /// let mut b = Builder::new((1, 0));
    /// let set = b.id()?;
    /// b.push(inst::ExtInstImport { result_id: set, name: "GLSL.std.450".into() })?;
    /// let (void, float, fnty, x) = (b.id()?, b.id()?, b.id()?, b.id()?);
    /// b.push(inst::TypeVoid { result_id: void })?;
    /// b.push(inst::TypeFloat { result_id: float, width: 32, floating_point_encoding: None })?;
    /// b.push(inst::TypeFunction { result_id: fnty, return_type: void, parameter_types: [].into() })?;
    /// b.push(inst::Undef { result_type: float, result_id: x })?;
    /// b.begin_function(void, spv::FunctionControl::NONE, fnty)?;
    /// b.begin_block()?;
    /// b.ext_inst(float, set, &glsl::Instruction::from(glsl::inst::Sqrt { x }))?;
    /// b.push(inst::Return {})?;
    /// b.end_function()?;
    /// let module = b.build()?;
    ///
    /// let roots: Vec<glsl::Instruction> = module
    ///     .instructions()
    ///     .filter_map(|i| i.decode_ext::<glsl::Instruction>())
    ///     .collect::<Result<_, _>>()?;
    /// assert_eq!(roots, [glsl::Instruction::Sqrt(glsl::inst::Sqrt { x })]);
    /// # }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// The operands do not decode as that instruction of the set.
    pub fn decode_ext<I: crate::typed::InstructionSet>(&self) -> Option<Result<I, DecodeError>> {
        let ext = self.ext_inst()?;
        if !ext.set.is_some_and(|g| core::ptr::eq(g, I::grammar())) {
            return None;
        }
        let ctx = DecodeContext {
            // The set's operands start after the result type, result, set and number.
            offset: self.offset() + 4,
            instruction: self.index,
            switch_literal_words: 1,
        };
        Some(I::decode_number(ext.number, ext.operands, &ctx))
    }

    /// The number type of the literal in `OpConstant`/`OpSpecConstant`.
    pub fn constant_type(&self) -> Option<NumberType> {
        self.operands()
            .first()
            .and_then(|&t| self.module.ids.number_type(Id(t)))
    }
}

impl spv::Opcode {
    /// The typed form of a `u16` opcode, for symmetry with
    /// [`Enum::from_u32`](crate::grammar::Enum::from_u32).
    pub fn of(opcode: u16) -> Self {
        spv::Opcode(opcode)
    }
}
