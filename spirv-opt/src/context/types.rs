//! The type and constant instructions the context makes for passes (spirv-opt's
//! `TypeManager::GetTypeInstruction` and `ConstantManager`'s instruction building, kept
//! on the context): a type's instruction found or made with its decorations, pointer
//! types, constants found or declared, in spirv-opt's order so that ids come out the same.

use super::*;

impl Context {
    /// The id of `t`, its instruction made (with its parts' and its decorations) if it
    /// has none (`GetTypeInstruction`); 0 when an id cannot be taken.
    pub fn get_type_instruction(&mut self, t: TypeRef) -> u32 {
        let id = self.types().id_of(t);
        if id != 0 {
            return id;
        }
        let Some(id) = self.take_next_id() else {
            return 0;
        };
        self.types().register(id, t);
        let ty = self.types().ty(t).clone();
        let lit = |v: u32| Operand::literal(v);
        let inst = match ty {
            Ty::Void => self.make(O::TypeVoid, 0, id, &[]),
            Ty::Bool => self.make(O::TypeBool, 0, id, &[]),
            Ty::Sampler => self.make(O::TypeSampler, 0, id, &[]),
            Ty::Int { width, signed } => {
                self.make(O::TypeInt, 0, id, &[lit(width), lit(u32::from(signed))])
            }
            Ty::Float { width, .. } => self.make(O::TypeFloat, 0, id, &[lit(width)]),
            Ty::Vector { elem, count } | Ty::Matrix { col: elem, count } => {
                let op = if matches!(ty, Ty::Vector { .. }) {
                    O::TypeVector
                } else {
                    O::TypeMatrix
                };
                let sub = self.get_type_instruction(elem);
                if sub == 0 {
                    return 0;
                }
                self.make(op, 0, id, &[Operand::id(sub), lit(count)])
            }
            Ty::Image {
                sampled_type,
                params,
            } => {
                let sub = self.get_type_instruction(sampled_type);
                if sub == 0 {
                    return 0;
                }
                let mut ops = vec![Operand::id(sub), Operand::new(Kind::Enum, &[params[0]])];
                ops.extend(params[1..5].iter().map(|&p| lit(p)));
                ops.push(Operand::new(Kind::Enum, &[params[5]]));
                ops.push(Operand::new(Kind::Enum, &[params[6]]));
                self.make(O::TypeImage, 0, id, &ops)
            }
            Ty::SampledImage(image) => {
                let sub = self.get_type_instruction(image);
                if sub == 0 {
                    return 0;
                }
                self.make(O::TypeSampledImage, 0, id, &[Operand::id(sub)])
            }
            Ty::Array { elem, .. } => {
                let sub = self.get_type_instruction(elem);
                if sub == 0 {
                    return 0;
                }
                let length = self.types().array_length_id(t);
                self.make(
                    O::TypeArray,
                    0,
                    id,
                    &[Operand::id(sub), Operand::id(length)],
                )
            }
            Ty::RuntimeArray(elem) => {
                let sub = self.get_type_instruction(elem);
                if sub == 0 {
                    return 0;
                }
                self.make(O::TypeRuntimeArray, 0, id, &[Operand::id(sub)])
            }
            Ty::Struct { members, .. } => {
                let mut ops = Vec::new();
                for m in members {
                    let sub = self.get_type_instruction(m);
                    if sub == 0 {
                        return 0;
                    }
                    ops.push(Operand::id(sub));
                }
                self.make(O::TypeStruct, 0, id, &ops)
            }
            Ty::Opaque(name) => self.make(O::TypeOpaque, 0, id, &[Operand::string(&name)]),
            Ty::Pointer { pointee, storage } => match pointee {
                None => self.make(
                    O::TypeUntypedPointerKHR,
                    0,
                    id,
                    &[Operand::new(Kind::Enum, &[storage])],
                ),
                Some(p) => {
                    let sub = self.get_type_instruction(p);
                    self.make(
                        O::TypePointer,
                        0,
                        id,
                        &[Operand::new(Kind::Enum, &[storage]), Operand::id(sub)],
                    )
                }
            },
            Ty::Function { ret, params } => {
                let r = self.get_type_instruction(ret);
                if r == 0 {
                    return 0;
                }
                let mut ops = vec![Operand::id(r)];
                for p in params {
                    let sub = self.get_type_instruction(p);
                    if sub == 0 {
                        return 0;
                    }
                    ops.push(Operand::id(sub));
                }
                self.make(O::TypeFunction, 0, id, &ops)
            }
            Ty::ForwardPointer { target, storage } => self.make(
                O::TypeForwardPointer,
                0,
                0,
                &[Operand::id(target), Operand::new(Kind::Enum, &[storage])],
            ),
            Ty::Other { opcode, words } => {
                let ops: Vec<Operand> = words.iter().map(|&w| lit(w)).collect();
                self.make(O(opcode), 0, id, &ops)
            }
        };
        self.add_type(inst);
        self.analyze_def_use(inst);
        self.attach_decorations(id, t);
        id
    }

    /// Makes the decorations of type `t` on `id` (`AttachDecorations`).
    fn attach_decorations(&mut self, id: u32, t: TypeRef) {
        let decs = self.types().decorations(t).to_vec();
        for dec in decs {
            self.create_decoration(id, &dec, None);
        }
        if let Ty::Struct {
            member_decorations, ..
        } = self.types().ty(t).clone()
        {
            for (member, decs) in member_decorations {
                for dec in decs {
                    self.create_decoration(id, &dec, Some(member));
                }
            }
        }
    }

    /// `CreateDecoration`.
    fn create_decoration(&mut self, target: u32, dec: &[u32], member: Option<u32>) {
        let mut ops = vec![Operand::id(target)];
        if let Some(m) = member {
            ops.push(Operand::literal(m));
        }
        ops.push(Operand::new(
            Kind::Enum,
            &[dec.first().copied().unwrap_or(0)],
        ));
        ops.extend(dec.iter().skip(1).map(|&w| Operand::literal(w)));
        let op = if member.is_some() {
            O::MemberDecorate
        } else {
            O::Decorate
        };
        let i = self.make(op, 0, 0, &ops);
        self.add_annotation(i);
        if self.are_valid(Analyses::DEF_USE) {
            self.analyze_uses(i);
        }
    }

    /// The id of the type `ty` with no decorations, made if the module has none
    /// (`GetTypeInstruction` of a plain type).
    pub fn type_id_of(&mut self, ty: Ty) -> u32 {
        let t = self.types().intern_plain(ty);
        self.get_type_instruction(t)
    }

    /// The void type's id (`GetVoidTypeId`).
    pub fn void_type_id(&mut self) -> u32 {
        self.type_id_of(Ty::Void)
    }

    /// The bool type's id (`GetBoolTypeId`).
    pub fn bool_type_id(&mut self) -> u32 {
        self.type_id_of(Ty::Bool)
    }

    /// The 32-bit unsigned integer type's id (`GetUIntTypeId`).
    pub fn uint_type_id(&mut self) -> u32 {
        self.type_id_of(Ty::Int {
            width: 32,
            signed: false,
        })
    }

    /// The pointer type to `type_id` in `storage`: the first such `OpTypePointer` of
    /// the module, or a new one (`FindPointerToType`, which scans the types and values:
    /// here an index the IR keeps, `ir/pointer_index.rs`).
    pub fn find_pointer_to_type(&mut self, type_id: u32, storage: u32) -> u32 {
        let pointee = self.types().get(type_id);
        if let Some(f) = self.ir.first_pointer_type(type_id, storage) {
            return self.ir.result_id(f);
        }
        let Some(id) = self.take_next_id() else {
            return 0;
        };
        let i = self.make(
            O::TypePointer,
            0,
            id,
            &[Operand::new(Kind::Enum, &[storage]), Operand::id(type_id)],
        );
        self.add_type(i);
        let pt = self.types().intern_plain(Ty::Pointer { pointee, storage });
        self.types().register(id, pt);
        id
    }

    /// The id declaring constant `c` with type `type_id` (any for 0), its instruction
    /// made at the end of the types and values if there is none
    /// (`GetDefiningInstruction`).
    pub fn get_defining_instruction(&mut self, c: ConstRef, type_id: u32) -> Option<Inst> {
        let declared = self.find_declared_constant_id(c, type_id);
        if declared != 0 {
            return self.get_def(declared);
        }
        self.build_constant_instruction(c, type_id)
    }

    /// A new instruction declaring `c` with type `type_id` (the type `c` has for 0),
    /// made at the end of the types and values even if one exists
    /// (`BuildInstructionAndAddToModule`).
    pub fn build_constant_instruction(&mut self, c: ConstRef, type_id: u32) -> Option<Inst> {
        let id = self.take_next_id()?;
        let value = self.constants().value(c).clone();
        let ty = if type_id != 0 {
            type_id
        } else {
            self.types().id_of(value.ty())
        };
        let inst = match value {
            Const::Null(_) => self.make(O::ConstantNull, ty, id, &[]),
            Const::Bool(_, v) => self.make(
                if v { O::ConstantTrue } else { O::ConstantFalse },
                ty,
                id,
                &[],
            ),
            Const::Scalar(_, words) => self.make(
                O::Constant,
                ty,
                id,
                &[Operand::new(Kind::TypedNumber, &words)],
            ),
            Const::Composite(_, comps) => {
                let type_inst = self.get_def(type_id);
                let mut ops = Vec::new();
                for (k, comp) in comps.iter().enumerate() {
                    let component_type = match type_inst {
                        Some(ti) if self.ir.opcode(ti) == O::TypeStruct => {
                            self.ir.data(ti).in_word(k)
                        }
                        Some(ti) if self.ir.opcode(ti) == O::TypeArray => {
                            self.ir.data(ti).in_word(0)
                        }
                        _ => 0,
                    };
                    let cid = self.find_declared_constant_id(*comp, component_type);
                    if cid == 0 {
                        return None;
                    }
                    ops.push(Operand::id(cid));
                }
                self.make(O::ConstantComposite, ty, id, &ops)
            }
        };
        self.ir.push_global(Section::TypesValues, inst);
        self.analyze_def_use(inst);
        self.constants().map_to_id(c, id);
        Some(inst)
    }

    /// The first id declaring `c` whose type is `type_id` (any for 0), or 0
    /// (`FindDeclaredConstant(c, type_id)`, which looks the ids' types up in def-use).
    pub fn find_declared_constant_id(&mut self, c: ConstRef, type_id: u32) -> u32 {
        let ids = self.constants().ids_of(c).to_vec();
        for id in ids {
            let def = self.get_def(id);
            if type_id == 0 || def.is_some_and(|d| self.ir.type_id(d) == type_id) {
                return id;
            }
        }
        0
    }

    /// The constant instruction `i` declares, if it is one the constant manager models
    /// (`GetConstantFromInst`).
    pub(crate) fn constant_of_inst(&mut self, i: Inst) -> Option<ConstRef> {
        self.constants();
        let types = self.types.as_ref().expect("built");
        self.constants
            .as_mut()
            .expect("built")
            .of_inst(&self.ir, types, i)
    }

    /// The constant of type `type_id` with these literal words or component ids
    /// (`GetConstant`).
    pub fn get_constant(&mut self, type_id: u32, words: &[u32]) -> Option<ConstRef> {
        let t = self.types().get(type_id)?;
        self.constants();
        let types = self.types.as_ref().expect("built");
        self.constants.as_mut().expect("built").get(types, t, words)
    }

    /// The pooled constant of type `t` with these literal words or component ids
    /// (`GetConstant` by type).
    pub fn constant_of(&mut self, t: TypeRef, words: &[u32]) -> Option<ConstRef> {
        self.constants();
        let types = self.types.as_ref().expect("built");
        self.constants.as_mut().expect("built").get(types, t, words)
    }

    /// The id of the 32-bit integer constant `value` (signed or not), its type and
    /// instruction made where missing (`InstructionBuilder::GetIntConstant`).
    pub fn int_constant_id(&mut self, value: u32, signed: bool) -> Option<u32> {
        let ty = self.type_id_of(Ty::Int { width: 32, signed });
        if ty == 0 {
            return None;
        }
        let c = self.get_constant(ty, &[value])?;
        self.get_defining_instruction(c, 0)
            .map(|i| self.ir.result_id(i))
    }

    /// The `OpConstantTrue`/`OpConstantFalse`, made where missing
    /// (`InstructionBuilder::GetBoolConstant`).
    pub fn bool_constant(&mut self, value: bool) -> Option<Inst> {
        let ty = self.bool_type_id();
        let c = self.get_constant(ty, &[u32::from(value)])?;
        self.get_defining_instruction(c, 0)
    }
}
