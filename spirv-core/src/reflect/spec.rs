//! Values reflection computes rather than reads: constants' values (including
//! `OpSpecConstantOp` results), workgroup sizes resolved to specialization constants,
//! and the list of specialization constants with their defaults.

use super::constants::{self, Constant, ConstantKind, Value};
use super::{Reflection, SpecConstant, WorkgroupDim};
use crate::__private::Vec;
use crate::spv;
use crate::types::Id;

impl Reflection<'_> {
    /// The value of a constant being defined, from the values of those before it.
    pub(super) fn value_of_new(&self, c: &Constant) -> Option<Value> {
        let scalar = self.types.get(c.type_id).and_then(constants::Scalar::of);
        match &c.kind {
            ConstantKind::Bool(b) => Some(Value::Bool(*b)),
            ConstantKind::Scalar(words) => scalar.map(|s| constants::literal_value(s, *words)),
            ConstantKind::Composite(ids) => Some(Value::Composite(ids.clone())),
            ConstantKind::Null => Some(Value::Null),
            ConstantKind::Op { opcode, operands } => self.evaluate_op(*opcode, operands, scalar),
            ConstantKind::Other { .. } => None,
        }
    }

    fn evaluate_op(
        &self,
        opcode: spv::Opcode,
        operands: &[u32],
        scalar: Option<constants::Scalar>,
    ) -> Option<Value> {
        use spv::Opcode as O;
        match opcode {
            O::CompositeExtract => {
                let mut v = self.values.get(*operands.first()?)?.clone();
                for &index in operands.get(1..)? {
                    v = match v {
                        Value::Composite(ids) => {
                            self.values.get(ids.get(index as usize)?.0)?.clone()
                        }
                        Value::Vector(items) => items.get(index as usize)?.clone(),
                        _ => return None,
                    };
                }
                Some(v)
            }
            O::VectorShuffle => {
                let parts = |id: u32| -> Option<Vec<Value>> {
                    match self.values.get(id)? {
                        Value::Composite(ids) => {
                            ids.iter().map(|c| self.values.get(c.0).cloned()).collect()
                        }
                        Value::Vector(items) => Some(items.clone()),
                        _ => None,
                    }
                };
                let mut all = parts(*operands.first()?)?;
                all.extend(parts(*operands.get(1)?)?);
                let picks = operands.get(2..)?;
                if picks.len() > 16 {
                    return None;
                }
                picks
                    .iter()
                    .map(|&p| all.get(p as usize).cloned())
                    .collect::<Option<Vec<_>>>()
                    .map(Value::Vector)
            }
            _ => {
                let args: Vec<Option<&Value>> = operands
                    .iter()
                    .take(3)
                    .map(|&o| self.values.get(o))
                    .collect();
                constants::evaluate(opcode, scalar?, &args)
            }
        }
    }

    /// The `WorkgroupSize` built-in constant overrides every entry point's size (as the
    /// specification says); else `LocalSizeId`, else `LocalSize`.
    pub(super) fn resolve_workgroup_sizes(&mut self) {
        let builtin = self.constants.iter().find_map(|(id, _)| {
            (self.decorations.get(id)?.builtin == Some(spv::BuiltIn::WorkgroupSize)).then_some(id)
        });
        let dims: Vec<Option<[WorkgroupDim; 3]>> = self
            .entry_points
            .iter()
            .map(|e| {
                if let Some(id) = builtin {
                    let Some(Constant {
                        kind: ConstantKind::Composite(parts),
                        ..
                    }) = self.constants.get(id)
                    else {
                        return None;
                    };
                    let d = |i: usize| {
                        parts.get(i).map_or(
                            WorkgroupDim {
                                value: None,
                                constant: None,
                                spec_id: None,
                            },
                            |c| self.dim_of(c.0),
                        )
                    };
                    return Some([d(0), d(1), d(2)]);
                }
                let m = self.local_size_mode(e)?;
                let d = |i: usize| {
                    let w = m.operands.get(i).copied();
                    if m.by_id {
                        w.map_or(
                            WorkgroupDim {
                                value: None,
                                constant: None,
                                spec_id: None,
                            },
                            |c| self.dim_of(c),
                        )
                    } else {
                        WorkgroupDim {
                            value: w,
                            constant: None,
                            spec_id: None,
                        }
                    }
                };
                Some([d(0), d(1), d(2)])
            })
            .collect();
        for (e, d) in self.entry_points.iter_mut().zip(dims) {
            e.workgroup_size = d;
        }
    }

    fn dim_of(&self, constant: u32) -> WorkgroupDim {
        let spec = self
            .constants
            .get(constant)
            .is_some_and(|c| c.specialization);
        WorkgroupDim {
            value: self
                .values
                .get(constant)
                .and_then(Value::as_u64)
                .and_then(|v| u32::try_from(v).ok()),
            constant: Some(Id(constant)),
            spec_id: if spec {
                self.decorations.get(constant).and_then(|d| d.spec_id)
            } else {
                None
            },
        }
    }

    pub(super) fn collect_spec_constants(&mut self) {
        let list = self
            .constants
            .iter()
            .filter(|(_, c)| c.specialization)
            .map(|(id, c)| SpecConstant {
                id: Id(id),
                name: self.names.get(id).cloned(),
                spec_id: self.decorations.get(id).and_then(|d| d.spec_id),
                type_id: c.type_id,
                default: self.values.get(id).cloned(),
            })
            .collect();
        self.spec_constants = list;
    }
}
