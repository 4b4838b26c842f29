//! Making instructions at a place in a block (spirv-opt's `InstructionBuilder`): each
//! `add_*` takes the result id first (as spirv-opt does, before it makes the
//! instruction), inserts the instruction before the insertion point (or at the end of
//! the block), and records it in def-use when that analysis is valid and the builder
//! was asked to keep it.

use crate::analysis::Analyses;
use crate::context::Context;
use crate::ir::{Block, Inst, InstData, Kind, Operand};
use spirv_core::spv::Opcode as O;

/// Where new instructions go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InsertPoint {
    /// Before this instruction.
    Before(Inst),
    /// At the end of this block.
    End(Block),
}

/// An instruction builder.
#[derive(Debug, Clone, Copy)]
pub struct Builder {
    /// Where new instructions go.
    pub at: InsertPoint,
    preserved: Analyses,
}

impl Builder {
    /// A builder inserting before `inst`, keeping the analyses of `preserved` (def-use
    /// and the instruction-to-block map are the only ones it updates).
    pub fn before(inst: Inst, preserved: Analyses) -> Builder {
        Builder {
            at: InsertPoint::Before(inst),
            preserved,
        }
    }

    /// A builder appending to `block`.
    pub fn at_end(block: Block, preserved: Analyses) -> Builder {
        Builder {
            at: InsertPoint::End(block),
            preserved,
        }
    }

    /// Inserts a made instruction (`AddInstruction`).
    pub fn add_instruction(&self, cx: &mut Context, i: Inst) -> Inst {
        match self.at {
            InsertPoint::Before(at) => cx.ir.insert_before(at, i),
            InsertPoint::End(b) => cx.ir.push_block_inst(b, i),
        }
        if self.preserved.contains(Analyses::DEF_USE) && cx.are_valid(Analyses::DEF_USE) {
            cx.analyze_def_use(i);
        }
        i
    }

    /// A result id for an instruction of type `type_id` (none for 0); `None` when ids
    /// ran out.
    fn result(cx: &mut Context, type_id: u32) -> Option<u32> {
        if type_id == 0 {
            Some(0)
        } else {
            cx.take_next_id()
        }
    }

    /// An instruction with operands `ops` (`AddNaryOp` and the like).
    pub fn add_op(
        &self,
        cx: &mut Context,
        type_id: u32,
        opcode: O,
        ops: &[Operand],
    ) -> Option<Inst> {
        let id = Self::result(cx, type_id)?;
        let i = cx.create(InstData::new(opcode, type_id, id, ops));
        Some(self.add_instruction(cx, i))
    }

    /// `AddNullaryOp`.
    pub fn add_nullary_op(&self, cx: &mut Context, type_id: u32, opcode: O) -> Option<Inst> {
        self.add_op(cx, type_id, opcode, &[])
    }

    /// `AddUnaryOp`.
    pub fn add_unary_op(&self, cx: &mut Context, type_id: u32, opcode: O, a: u32) -> Option<Inst> {
        self.add_op(cx, type_id, opcode, &[Operand::id(a)])
    }

    /// `AddBinaryOp`.
    pub fn add_binary_op(
        &self,
        cx: &mut Context,
        type_id: u32,
        opcode: O,
        a: u32,
        b: u32,
    ) -> Option<Inst> {
        self.add_op(cx, type_id, opcode, &[Operand::id(a), Operand::id(b)])
    }

    /// `AddNaryOp`.
    pub fn add_nary_op(
        &self,
        cx: &mut Context,
        type_id: u32,
        opcode: O,
        ids: &[u32],
    ) -> Option<Inst> {
        let ops: Vec<Operand> = ids.iter().map(|&x| Operand::id(x)).collect();
        self.add_op(cx, type_id, opcode, &ops)
    }

    /// `AddFunctionCall`: the id is taken after the operands are made, as spirv-opt
    /// takes it.
    pub fn add_function_call(
        &self,
        cx: &mut Context,
        ret: u32,
        function: u32,
        args: &[u32],
    ) -> Option<Inst> {
        let mut ops = vec![Operand::id(function)];
        ops.extend(args.iter().map(|&a| Operand::id(a)));
        let id = cx.take_next_id()?;
        let i = cx.create(InstData::new(O::FunctionCall, ret, id, &ops));
        Some(self.add_instruction(cx, i))
    }

    /// `AddUnreachable`.
    pub fn add_unreachable(&self, cx: &mut Context) -> Inst {
        let i = cx.create(InstData::new(O::Unreachable, 0, 0, &[]));
        self.add_instruction(cx, i)
    }

    /// `AddBranch`.
    pub fn add_branch(&self, cx: &mut Context, label: u32) -> Inst {
        let i = cx.create(InstData::new(O::Branch, 0, 0, &[Operand::id(label)]));
        self.add_instruction(cx, i)
    }

    /// `AddSelectionMerge`.
    pub fn add_selection_merge(&self, cx: &mut Context, merge: u32, control: u32) -> Inst {
        let i = cx.create(InstData::new(
            O::SelectionMerge,
            0,
            0,
            &[Operand::id(merge), Operand::new(Kind::Mask, &[control])],
        ));
        self.add_instruction(cx, i)
    }

    /// `AddConditionalBranch`, with an `OpSelectionMerge` first when `merge` is given.
    pub fn add_conditional_branch(
        &self,
        cx: &mut Context,
        cond: u32,
        t: u32,
        f: u32,
        merge: Option<(u32, u32)>,
    ) -> Inst {
        if let Some((m, control)) = merge {
            self.add_selection_merge(cx, m, control);
        }
        let i = cx.create(InstData::new(
            O::BranchConditional,
            0,
            0,
            &[Operand::id(cond), Operand::id(t), Operand::id(f)],
        ));
        self.add_instruction(cx, i)
    }

    /// `AddPhi`: incoming (value, block) pairs; a fresh id unless `result` is given.
    pub fn add_phi(
        &self,
        cx: &mut Context,
        ty: u32,
        incoming: &[u32],
        result: Option<u32>,
    ) -> Option<Inst> {
        let id = match result {
            Some(r) => r,
            None => cx.take_next_id()?,
        };
        let ops: Vec<Operand> = incoming.iter().map(|&x| Operand::id(x)).collect();
        let i = cx.create(InstData::new(O::Phi, ty, id, &ops));
        Some(self.add_instruction(cx, i))
    }

    /// `AddLoad`.
    pub fn add_load(&self, cx: &mut Context, ty: u32, ptr: u32) -> Option<Inst> {
        let id = cx.take_next_id()?;
        let i = cx.create(InstData::new(O::Load, ty, id, &[Operand::id(ptr)]));
        Some(self.add_instruction(cx, i))
    }
}
