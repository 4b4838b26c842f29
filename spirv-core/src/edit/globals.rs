//! Find-or-add for types and constants: the id of an existing declaration with the
//! same operands, else a new one appended to the types section.

use super::{EditError, Editor, InstId};
use crate::__private::Vec;
use crate::grammar::KindClass;
use crate::module::Section;
use crate::spv::{self, inst};
use crate::types::{Id, LiteralNumber};
use alloc::collections::{BTreeMap, BTreeSet};

/// The key of a declaration: its opcode and operand words, the result id left out.
fn key(words: &[u32]) -> Option<(Vec<u32>, usize)> {
    let op = spv::Opcode(*words.first()? as u16);
    let at = op
        .info()?
        .operands
        .iter()
        .position(|o| o.kind.class == KindClass::Result)?;
    let mut k = words.to_vec();
    // The result id's word (after the leading word) is zeroed.
    *k.get_mut(1 + at)? = 0;
    Some((k, 1 + at))
}

impl Editor<'_> {
    /// The declarations of the module's types section by key, built on first use:
    /// undecorated types and constants that are not removed.
    fn globals(&mut self) -> &mut BTreeMap<Vec<u32>, u32> {
        if self.globals.is_none() {
            let m = self.module;
            let decorated: BTreeSet<u32> = m
                .section(Section::Annotation)
                .filter_map(|i| i.operands().first().copied())
                .collect();
            let mut map = BTreeMap::new();
            for i in m.section(Section::Global) {
                if self.removed[i.index()] {
                    continue;
                }
                let Some(id) = i.result_id() else { continue };
                if decorated.contains(&id.0) {
                    continue;
                }
                if let Some((k, _)) = key(i.words()) {
                    map.entry(k).or_insert(id.0);
                }
            }
            self.globals = Some(map);
        }
        self.globals.get_or_insert_with(BTreeMap::new)
    }

    /// The id of a type or constant like the one `make` builds for a given id: an
    /// existing undecorated declaration with the same operands, or a new one (with a
    /// fresh id) appended to the types section.
    ///
    /// ```
    /// use spirv_core::edit::{Bound, Editor};
    /// use spirv_core::{spv::inst, Builder};
    /// let mut b = Builder::new((1, 0));
    /// let int = b.id()?;
    /// b.push(inst::TypeInt { result_id: int, width: 32, signedness: 1 })?;
    /// let m = b.build()?;
    /// let mut e = Editor::new(&m);
    /// assert_eq!(e.type_int(32, true)?, int, "found");
    /// let uint = e.type_int(32, false)?;
    /// assert_ne!(uint, int);
    /// assert_eq!(e.type_int(32, false)?, uint, "added once");
    /// assert_eq!(e.apply(Bound::Keep)?.len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// The instruction does not encode, has no result id, or no id is left.
    pub fn find_or_push<I: Into<spv::Instruction>>(
        &mut self,
        make: impl Fn(Id) -> I,
    ) -> Result<Id, EditError> {
        let probe = Self::encode(make(Id(1)))?;
        let (k, _) = key(&probe).ok_or(EditError::NotOneInstruction)?;
        if let Some(&id) = self.globals().get(&k) {
            return Ok(Id(id));
        }
        let id = self.new_id()?;
        let words = Self::encode(make(id))?;
        let h: InstId = self.push_words(&words)?;
        let _ = h;
        self.globals().insert(k, id.0);
        Ok(id)
    }

    /// `OpTypeVoid`, found or added.
    ///
    /// # Errors
    /// See [`Editor::find_or_push`].
    pub fn type_void(&mut self) -> Result<Id, EditError> {
        self.find_or_push(|result_id| inst::TypeVoid { result_id })
    }

    /// `OpTypeBool`, found or added.
    ///
    /// # Errors
    /// See [`Editor::find_or_push`].
    pub fn type_bool(&mut self) -> Result<Id, EditError> {
        self.find_or_push(|result_id| inst::TypeBool { result_id })
    }

    /// `OpTypeInt width signed`, found or added.
    ///
    /// # Errors
    /// See [`Editor::find_or_push`].
    pub fn type_int(&mut self, width: u32, signed: bool) -> Result<Id, EditError> {
        self.find_or_push(|result_id| inst::TypeInt {
            result_id,
            width,
            signedness: u32::from(signed),
        })
    }

    /// `OpTypeFloat width` (IEEE encoding), found or added.
    ///
    /// # Errors
    /// See [`Editor::find_or_push`].
    pub fn type_float(&mut self, width: u32) -> Result<Id, EditError> {
        self.find_or_push(|result_id| inst::TypeFloat {
            result_id,
            width,
            floating_point_encoding: None,
        })
    }

    /// `OpTypeVector component count`, found or added.
    ///
    /// # Errors
    /// See [`Editor::find_or_push`].
    pub fn type_vector(&mut self, component: Id, count: u32) -> Result<Id, EditError> {
        self.find_or_push(|result_id| inst::TypeVector {
            result_id,
            component_type: component,
            component_count: count,
        })
    }

    /// `OpTypePointer storage pointee`, found or added.
    ///
    /// # Errors
    /// See [`Editor::find_or_push`].
    pub fn type_pointer(
        &mut self,
        storage: spv::StorageClass,
        pointee: Id,
    ) -> Result<Id, EditError> {
        self.find_or_push(|result_id| inst::TypePointer {
            result_id,
            storage_class: storage,
            r#type: pointee,
        })
    }

    /// A 32-bit `OpConstant` of type `ty` with the bits `value`, found or added.
    ///
    /// # Errors
    /// See [`Editor::find_or_push`].
    pub fn constant_u32(&mut self, ty: Id, value: u32) -> Result<Id, EditError> {
        self.find_or_push(|result_id| inst::Constant {
            result_type: ty,
            result_id,
            value: LiteralNumber::from_u32(value),
        })
    }

    /// A 32-bit float `OpConstant` of type `ty`, found or added.
    ///
    /// # Errors
    /// See [`Editor::find_or_push`].
    pub fn constant_f32(&mut self, ty: Id, value: f32) -> Result<Id, EditError> {
        self.constant_u32(ty, value.to_bits())
    }

    /// `OpConstantTrue` or `OpConstantFalse` of type `ty`, found or added.
    ///
    /// # Errors
    /// See [`Editor::find_or_push`].
    pub fn constant_bool(&mut self, ty: Id, value: bool) -> Result<Id, EditError> {
        if value {
            self.find_or_push(|result_id| inst::ConstantTrue {
                result_type: ty,
                result_id,
            })
        } else {
            self.find_or_push(|result_id| inst::ConstantFalse {
                result_type: ty,
                result_id,
            })
        }
    }
}
