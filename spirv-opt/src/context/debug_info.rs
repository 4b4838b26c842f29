//! The context's debug-information edits (spirv-opt's `DebugInfoManager`, kept on the
//! context as spirv-opt keeps it on the `IRContext`): the debug-info analysis with its
//! `DebugInfoNone` and empty `DebugExpression`, `DebugDeclare`s and `DebugValue`s of
//! variables, the `DebugInlinedAt` chains an inlined call makes, and the debug lines
//! and scopes instructions carry.

use super::*;

impl Context {
    /// Builds the debug-info analysis if it is not valid (`get_debug_info_mgr`): it
    /// finds the first `DebugInfoNone` and the first empty `DebugExpression`, and, as
    /// spirv-opt's does, moves each to the front of the debug-info instructions when a
    /// debug-info instruction precedes it (the expression first, then `DebugInfoNone`).
    pub fn debug_info(&mut self) {
        if self.are_valid(Analyses::DEBUG_INFO) {
            return;
        }
        self.mark_valid(Analyses::DEBUG_INFO);
        let (opencl, shader) = {
            let f = self.features();
            (f.opencl_debug_info, f.shader_debug_info)
        };
        self.debug_info_none = None;
        if opencl == 0 && shader == 0 {
            return;
        }
        let common = |ir: &Ir, i: Inst| {
            let d = ir.data(i);
            (d.opcode() == O::ExtInst && (d.in_word(0) == opencl || d.in_word(0) == shader))
                .then(|| d.in_word(1))
        };
        let mut none = None;
        let mut empty_expr = None;
        let mut deref = None;
        self.dbg_insts.clear();
        self.dbg_decls.clear();
        for i in self.ir.all_insts() {
            let c = common(&self.ir, i);
            if c.is_some() && self.ir.result_id(i) != 0 {
                self.dbg_insts.insert(self.ir.result_id(i), i);
            }
            if c == Some(28) {
                let var = self.ir.data(i).word(5);
                self.dbg_decls.entry(var).or_default().push(i);
            }
            if c == Some(29) {
                let var = self.variable_id_of_debug_value_used_for_declare(i);
                if var != 0 {
                    self.dbg_decls.entry(var).or_default().push(i);
                }
            }
            if c == Some(30) && deref.is_none() && self.is_deref_operation(i, opencl) {
                deref = Some(i);
            }
            match c {
                Some(0) if none.is_none() => none = Some(i),
                // DebugExpression with no operation.
                Some(31) if empty_expr.is_none() && self.ir.data(i).num_operands() == 4 => {
                    empty_expr = Some(i)
                }
                _ => {}
            }
        }
        for moved in [empty_expr, none].into_iter().flatten() {
            let prev_is_debug = self
                .ir
                .prev(moved)
                .is_some_and(|p| common(&self.ir, p).is_some());
            if prev_is_debug {
                if let Some(first) = self.ir.section_first(Section::ExtInstDebugInfo) {
                    self.ir.unlink(moved);
                    self.ir.insert_before(first, moved);
                }
            }
        }
        self.debug_info_none = none;
        self.empty_debug_expr = empty_expr;
        self.deref_operation = deref;
    }

    /// Whether the `DebugOperation` `i` is a `Deref` (for
    /// `NonSemantic.Shader.DebugInfo.100`, through its constant:
    /// `GetVulkanDebugOperation`).
    fn is_deref_operation(&mut self, i: Inst, opencl: u32) -> bool {
        let d = self.ir.data(i);
        if opencl != 0 && d.in_word(0) == opencl {
            return d.word(4) == 0;
        }
        let c = d.word(4);
        self.get_def(c).is_some_and(|c| {
            self.ir.opcode(c) == O::ConstantNull
                || (self.ir.data(c).num_in_operands() >= 1 && self.ir.data(c).in_word(0) == 0)
        })
    }

    /// The module's `DebugOperation Deref`, made at the front of the debug-info
    /// instructions if it has none (`GetDebugOperationWithDeref`).
    pub fn debug_operation_with_deref(&mut self) -> Option<Inst> {
        self.debug_info();
        if let Some(i) = self.deref_operation.filter(|&i| self.ir.is_live(i)) {
            return Some(i);
        }
        let id = self.take_next_id()?;
        let opencl = self.features().opencl_debug_info;
        let operation = if opencl != 0 {
            Operand::new(Kind::Enum, &[0])
        } else {
            Operand::id(self.int_constant_id(0, false)?)
        };
        let void = self.void_type_id();
        let set = self.dbg_set_import_id();
        let i = self.make(
            O::ExtInst,
            void,
            id,
            &[
                Operand::id(set),
                Operand::new(Kind::ExtInstNumber, &[30]),
                operation,
            ],
        );
        match self.ir.section_first(Section::ExtInstDebugInfo) {
            Some(first) => self.ir.insert_before(first, i),
            None => self.ir.push_global(Section::ExtInstDebugInfo, i),
        }
        self.dbg_insts.insert(id, i);
        self.analyze_def_use(i);
        self.deref_operation = Some(i);
        Some(i)
    }

    /// A copy of the `DebugExpression` `expr` with a `Deref` operation first, at the end
    /// of the debug-info instructions (`DerefDebugExpression`).
    pub fn deref_debug_expression(&mut self, expr: Inst) -> Option<Inst> {
        let c = self.ir.clone_inst(expr)?;
        let id = self.take_next_id()?;
        self.ir.data_mut(c).set_result_id(id);
        let deref = self.debug_operation_with_deref()?;
        let deref_id = self.ir.result_id(deref);
        self.ir.data_mut(c).insert_operand(4, Operand::id(deref_id));
        self.ir.push_global(Section::ExtInstDebugInfo, c);
        self.dbg_insts.insert(id, c);
        self.analyze_def_use(c);
        Some(c)
    }

    /// The module's empty `DebugExpression`, made at the front of the debug-info
    /// instructions if it has none (`GetEmptyDebugExpression`).
    pub fn empty_debug_expression(&mut self) -> Option<Inst> {
        self.debug_info();
        if let Some(i) = self.empty_debug_expr.filter(|&i| self.ir.is_live(i)) {
            return Some(i);
        }
        let id = self.take_next_id()?;
        let void = self.void_type_id();
        let set = self.dbg_set_import_id();
        let i = self.make(
            O::ExtInst,
            void,
            id,
            &[Operand::id(set), Operand::new(Kind::ExtInstNumber, &[31])],
        );
        match self.ir.section_first(Section::ExtInstDebugInfo) {
            Some(first) => self.ir.insert_before(first, i),
            None => self.ir.push_global(Section::ExtInstDebugInfo, i),
        }
        self.dbg_insts.insert(id, i);
        if self.are_valid(Analyses::DEF_USE) {
            self.analyze_def_use(i);
        }
        self.empty_debug_expr = Some(i);
        Some(i)
    }

    /// The module's `DebugInfoNone`, made at the front of the debug-info instructions
    /// if it has none (`GetDebugInfoNone`).
    pub fn debug_info_none(&mut self) -> Option<Inst> {
        self.debug_info();
        if let Some(i) = self.debug_info_none.filter(|&i| self.ir.is_live(i)) {
            return Some(i);
        }
        let (opencl, shader) = {
            let f = self.features();
            (f.opencl_debug_info, f.shader_debug_info)
        };
        let set = if opencl != 0 { opencl } else { shader };
        let id = self.take_next_id()?;
        let void = self.void_type_id();
        let i = self.make(
            O::ExtInst,
            void,
            id,
            &[Operand::id(set), Operand::new(Kind::ExtInstNumber, &[0])],
        );
        match self.ir.section_first(Section::ExtInstDebugInfo) {
            Some(first) => self.ir.insert_before(first, i),
            None => self.ir.push_global(Section::ExtInstDebugInfo, i),
        }
        self.analyze_def_use(i);
        self.debug_info_none = Some(i);
        self.dbg_insts.insert(id, i);
        Some(i)
    }

    /// The debug-info instruction (of `OpenCL.DebugInfo.100` or
    /// `NonSemantic.Shader.DebugInfo.100`) defining `id` (`GetDbgInst`).
    pub fn dbg_inst(&mut self, id: u32) -> Option<Inst> {
        self.debug_info();
        self.dbg_insts
            .get(&id)
            .copied()
            .filter(|&i| self.ir.is_live(i))
    }

    /// The instruction number of `i` when it is an `OpExtInst` of
    /// `OpenCL.DebugInfo.100` or `NonSemantic.Shader.DebugInfo.100`
    /// (`GetCommonDebugOpcode`).
    pub fn common_debug_opcode(&mut self, i: Inst) -> Option<u32> {
        let d = self.ir.data(i);
        if !matches!(d.opcode(), O::ExtInst | O::ExtInstWithForwardRefsKHR) {
            return None;
        }
        let set = d.in_word(0);
        let n = d.in_word(1);
        let f = self.features();
        let known = (f.opencl_debug_info != 0 && set == f.opencl_debug_info)
            || (f.shader_debug_info != 0 && set == f.shader_debug_info);
        known.then_some(n)
    }

    /// Whether `i` is an `OpExtInst` of a `NonSemantic.` set
    /// (`IsNonSemanticInstruction`).
    pub fn is_non_semantic_instruction(&mut self, i: Inst) -> bool {
        let d = self.ir.data(i);
        if d.opcode() != O::ExtInst || d.result_id() == 0 {
            return false;
        }
        let set = d.in_word(0);
        self.features().non_semantic_sets.contains(&set)
    }

    /// `CollectNonSemanticTree`: adds to `to_kill` the non-semantic instructions that
    /// use `i`'s result, directly or through each other.
    pub fn collect_non_semantic_tree(&mut self, i: Inst, to_kill: &mut HashSet<Inst>) {
        if self.ir.result_id(i) == 0 || self.ir.is_debug_line_inst(i) {
            return;
        }
        let mut work = vec![i];
        let mut seen: HashSet<Inst> = HashSet::new();
        while let Some(w) = work.pop() {
            let id = self.ir.result_id(w);
            for user in self.users(id) {
                if self.is_non_semantic_instruction(user) && seen.insert(user) {
                    work.push(user);
                    to_kill.insert(user);
                }
            }
        }
    }

    /// `GetVariableIdOfDebugValueUsedForDeclare`: the function-scope variable of a
    /// `DebugValue` whose expression is a single `Deref`, else 0.
    pub fn variable_id_of_debug_value_used_for_declare(&mut self, i: Inst) -> u32 {
        if self.common_debug_opcode(i) != Some(29) {
            return 0;
        }
        let Some(expr) = self.dbg_inst(self.ir.data(i).word(6)) else {
            return 0;
        };
        if self.ir.data(expr).num_operands() != 5 {
            return 0;
        }
        let Some(operation) = self.dbg_inst(self.ir.data(expr).word(4)) else {
            return 0;
        };
        let opencl = self.features().opencl_debug_info;
        let is_opencl = opencl != 0 && self.ir.data(i).in_word(0) == opencl;
        let deref = if is_opencl {
            self.ir.data(operation).word(4) == 0
        } else {
            // `GetVulkanDebugOperation`: the operation's constant.
            self.get_def(self.ir.data(operation).word(4))
                .is_some_and(|c| {
                    self.ir.data(c).num_in_operands() >= 1 && self.ir.data(c).in_word(0) == 0
                })
        };
        // Reading the constant above built def-use; spirv-opt gives up without it.
        if !deref || !self.are_valid(Analyses::DEF_USE) {
            return 0;
        }
        let var_id = self.ir.data(i).word(5);
        match self.get_def(var_id) {
            Some(v) if self.ir.opcode(v) == O::Variable && self.ir.data(v).word(2) == 7 => var_id,
            _ => 0,
        }
    }

    /// Whether a `DebugDeclare` (or a `DebugValue` used as one) was seen for
    /// `var_id` since the debug-info analysis was built (`IsVariableDebugDeclared`).
    pub fn is_variable_debug_declared(&mut self, var_id: u32) -> bool {
        self.debug_info();
        self.dbg_decls.contains_key(&var_id)
    }

    /// Whether `i` is a `DebugDeclare`, or a `DebugValue` used as one
    /// (`IsDebugDeclare`).
    pub fn is_debug_declare(&mut self, i: Inst) -> bool {
        self.common_debug_opcode(i) == Some(28)
            || self.variable_id_of_debug_value_used_for_declare(i) != 0
    }

    /// The live declarations of `var_id` (`var_id_to_dbg_decl_`). spirv-opt keeps them
    /// in an unordered set of pointers; here they are in the order they were made.
    pub fn debug_declares(&mut self, var_id: u32) -> Vec<Inst> {
        self.debug_info();
        let mut v: Vec<Inst> = self
            .dbg_decls
            .get(&var_id)
            .map(|d| d.iter().copied().filter(|&i| self.ir.is_live(i)).collect())
            .unwrap_or_default();
        v.sort_by_key(|&i| self.ir.uid(i));
        v.dedup();
        v
    }

    /// `KillDebugDeclares`: kills the declarations of `var_id` and forgets it.
    pub fn kill_debug_declares(&mut self, var_id: u32) -> bool {
        self.debug_info();
        let Some(decls) = self.dbg_decls.remove(&var_id) else {
            return false;
        };
        let mut modified = false;
        for d in decls {
            if self.ir.is_live(d) {
                self.kill_inst(d);
            }
            modified = true;
        }
        modified
    }

    /// `AddDebugValueForVariable`: after `insert_pos` (past phis and variables), a
    /// `DebugValue` of `value_id` for each declaration of `var_id`, with the last line
    /// of `line` and the declaration's scope. `None` when ids ran out.
    pub fn add_debug_value_for_variable(
        &mut self,
        line: Inst,
        var_id: u32,
        value_id: u32,
        insert_pos: Inst,
    ) -> Option<bool> {
        if !self.is_variable_debug_declared(var_id) {
            return Some(false);
        }
        let mut modified = false;
        for decl in self.debug_declares(var_id) {
            let mut before = self.ir.next(insert_pos);
            while let Some(b) =
                before.filter(|&b| matches!(self.ir.opcode(b), O::Phi | O::Variable))
            {
                before = self.ir.next(b);
            }
            let Some(before) = before else { continue };
            modified |= self
                .add_debug_value_for_decl(decl, value_id, before, Some(line))?
                .is_some();
        }
        Some(modified)
    }

    /// `AddDebugValueForDecl`: a `DebugValue` of `value_id` copied from the declaration
    /// `decl`, before `before`. `None` when ids ran out.
    pub fn add_debug_value_for_decl(
        &mut self,
        decl: Inst,
        value_id: u32,
        before: Inst,
        line: Option<Inst>,
    ) -> Option<Option<Inst>> {
        if !self.is_debug_declare(decl) {
            return Some(None);
        }
        let val = self.ir.clone_inst(decl)?;
        let id = self.take_next_id()?;
        self.ir.data_mut(val).set_result_id(id);
        self.ir.data_mut(val).set_in_operand(1, &[29]);
        self.ir.data_mut(val).set_operand(5, &[value_id]);
        let expr = self.empty_debug_expression()?;
        let expr_id = self.ir.result_id(expr);
        self.ir.data_mut(val).set_operand(6, &[expr_id]);
        self.update_debug_info_from(val, decl, line)?;
        self.ir.insert_before(before, val);
        self.dbg_insts.insert(id, val);
        if self.are_valid(Analyses::DEF_USE) {
            self.analyze_def_use(val);
        }
        Some(Some(val))
    }

    /// The debug-info instruction set in use, `OpenCL.DebugInfo.100` first
    /// (`GetDbgSetImportId`); 0 for none.
    pub fn dbg_set_import_id(&mut self) -> u32 {
        let f = self.features();
        if f.opencl_debug_info != 0 {
            f.opencl_debug_info
        } else {
            f.shader_debug_info
        }
    }

    /// `BuildDebugScope`: `scope` with the inlined-at chain for the call of `cx`.
    pub fn build_debug_scope(
        &mut self,
        scope: DebugScope,
        cx: &mut InlinedAtContext,
    ) -> DebugScope {
        DebugScope {
            lexical_scope: scope.lexical_scope,
            inlined_at: self.build_debug_inlined_at_chain(scope.inlined_at, cx),
        }
    }

    /// `BuildDebugInlinedAtChain`: the head of a copy of the chain `callee_inlined_at`
    /// ending in a new `DebugInlinedAt` for the call of `cx` (0 where the call has no
    /// scope), made once per chain and call.
    pub fn build_debug_inlined_at_chain(
        &mut self,
        callee_inlined_at: u32,
        cx: &mut InlinedAtContext,
    ) -> u32 {
        self.debug_info();
        if cx.scope.lexical_scope == 0 {
            return 0;
        }
        if let Some(&head) = cx.chains.get(&callee_inlined_at).filter(|&&h| h != 0) {
            return head;
        }
        let new_at = self.create_debug_inlined_at(cx.line, cx.scope);
        if new_at == 0 {
            return 0;
        }
        if callee_inlined_at == 0 {
            cx.chains.insert(0, new_at);
            return new_at;
        }
        let mut head = 0;
        let mut iter = callee_inlined_at;
        let mut last: Option<Inst> = None;
        while let Some(new) = self.clone_debug_inlined_at(iter, last) {
            if head == 0 {
                head = self.ir.result_id(new);
            }
            if let Some(l) = last {
                let id = self.ir.result_id(new);
                set_inlined_operand(&mut self.ir, l, id);
            }
            last = Some(new);
            let d = self.ir.data(new);
            iter = if d.num_operands() <= 6 { 0 } else { d.word(6) };
            if iter == 0 {
                break;
            }
        }
        if let Some(l) = last {
            set_inlined_operand(&mut self.ir, l, new_at);
        }
        cx.chains.insert(callee_inlined_at, head);
        head
    }

    /// `CreateDebugInlinedAt`: a `DebugInlinedAt` for `line` (or the line of the
    /// lexical scope of `scope`) in `scope`, at the end of the debug-info
    /// instructions; 0 where the module has no debug-info set.
    fn create_debug_inlined_at(&mut self, line: Option<Inst>, scope: DebugScope) -> u32 {
        let set = self.dbg_set_import_id();
        if set == 0 {
            return 0;
        }
        let shader = self.features().shader_debug_info;
        let as_id = set == shader;
        let line_number = match line {
            None => {
                let Some(lex) = self.dbg_inst(scope.lexical_scope) else {
                    return 0;
                };
                let d = self.ir.data(lex);
                match d.in_word(1) {
                    // DebugFunction, DebugLexicalBlock.
                    20 => d.word(7),
                    21 => d.word(5),
                    _ => 0,
                }
            }
            Some(l) => {
                let d = self.ir.data(l);
                if d.opcode() == O::Line {
                    let n = d.word(1);
                    if as_id {
                        // Def-use is never valid while inlining: `AddNewConstInGlobals`.
                        let Some(id) = self.take_next_id() else {
                            return 0;
                        };
                        let uint = self.uint_type_id();
                        let c = self.make(O::Constant, uint, id, &[Operand::literal(n)]);
                        self.ir.push_global(Section::TypesValues, c);
                        self.invalidate(Analyses::CONSTANTS | Analyses::DEF_USE);
                        id
                    } else {
                        n
                    }
                } else {
                    d.word(5)
                }
            }
        };
        let Some(id) = self.take_next_id() else {
            return 0;
        };
        let void = self.void_type_id();
        let line_op = if as_id {
            Operand::id(line_number)
        } else {
            Operand::literal(line_number)
        };
        let mut ops = vec![
            Operand::id(set),
            Operand::new(Kind::ExtInstNumber, &[25]),
            line_op,
            Operand::id(scope.lexical_scope),
        ];
        if scope.inlined_at != 0 {
            ops.push(Operand::id(scope.inlined_at));
        }
        let i = self.make(O::ExtInst, void, id, &ops);
        self.dbg_insts.insert(id, i);
        if self.are_valid(Analyses::DEF_USE) {
            self.analyze_def_use(i);
        }
        self.ir.push_global(Section::ExtInstDebugInfo, i);
        id
    }

    /// `CloneDebugInlinedAt`: a copy, with a fresh id, of the `DebugInlinedAt` `id`,
    /// before `before` or at the end of the debug-info instructions.
    fn clone_debug_inlined_at(&mut self, id: u32, before: Option<Inst>) -> Option<Inst> {
        let at = self.dbg_inst(id)?;
        let d = self.ir.data(at);
        if d.opcode() != O::ExtInst || d.in_word(1) != 25 {
            return None;
        }
        let new = self.ir.clone_inst(at)?;
        let nid = self.take_next_id()?;
        self.ir.data_mut(new).set_result_id(nid);
        self.dbg_insts.insert(nid, new);
        if self.are_valid(Analyses::DEF_USE) {
            self.analyze_def_use(new);
        }
        match before {
            Some(b) => self.ir.insert_before(b, new),
            None => self.ir.push_global(Section::ExtInstDebugInfo, new),
        }
        Some(new)
    }

    // ---- debug lines and scopes ----

    /// Drops `i`'s debug lines (`ClearDbgLineInsts`).
    pub fn clear_dbg_line_insts(&mut self, i: Inst) {
        let old = self.ir.lines(i).to_vec();
        if self.are_valid(Analyses::DEF_USE) {
            let ir = &self.ir;
            if let Some(du) = self.def_use.as_mut() {
                for &l in &old {
                    du.clear_inst(ir, l);
                }
            }
        }
        for l in &old {
            self.ir.mark_dead(*l);
        }
        self.ir.set_lines(i, Vec::new());
    }

    /// Attaches a copy of line `line` to `i` (`AddDebugLine`): a new creation number,
    /// and a fresh id for a `DebugLine`. `None` when an id cannot be taken.
    pub fn add_debug_line(&mut self, i: Inst, line: Inst) -> Option<()> {
        let d = self.ir.data(line).clone();
        let copy = self.ir.create(d);
        self.ir.push_line(i, copy);
        if self.ir.is_debug_line_inst(copy) {
            let id = self.take_next_id()?;
            self.ir.data_mut(copy).set_result_id(id);
        }
        if self.are_valid(Analyses::DEF_USE) {
            let (du, ir) = self.def_use_ir();
            du.analyze_def_use(ir, copy);
        }
        Some(())
    }

    /// Gives `i` the last debug line of `line` (or of `from`) and the debug scope of
    /// `from` (`UpdateDebugInfoFrom`).
    pub fn update_debug_info_from(
        &mut self,
        i: Inst,
        from: Inst,
        line: Option<Inst>,
    ) -> Option<()> {
        self.clear_dbg_line_insts(i);
        let from_line = line.unwrap_or(from);
        if let Some(&last) = self.ir.lines(from_line).last() {
            self.add_debug_line(i, last)?;
        }
        let scope = self.ir.scope(from);
        self.ir.set_scope(i, scope);
        Some(())
    }
}

/// `SetInlinedOperand`: makes `id` the `Inlined` operand of the `DebugInlinedAt` `i`.
fn set_inlined_operand(ir: &mut Ir, i: Inst, id: u32) {
    let d = ir.data_mut(i);
    if d.num_operands() <= 6 {
        d.add_operand(Operand::id(id));
    } else {
        d.set_operand(6, &[id]);
    }
}
