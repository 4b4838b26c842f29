//! The type table: the types a module declares, one [`Type`] per `OpType*` result, read
//! from the instruction's words, and what each array type is an array of.

use super::table::IdTable;
use crate::__private::Vec;
use crate::module::Module;
use crate::spv;
use crate::types::Id;

/// A type declared by an `OpType*` instruction. Ids name the types it is built from.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Type {
    /// `OpTypeVoid`.
    Void,
    /// `OpTypeBool`.
    Bool,
    /// `OpTypeInt`.
    Int {
        /// Width in bits.
        width: u32,
        /// Signedness.
        signed: bool,
    },
    /// `OpTypeFloat`.
    Float {
        /// Width in bits.
        width: u32,
        /// The floating-point encoding, if not IEEE 754.
        encoding: Option<spv::FPEncoding>,
    },
    /// `OpTypeVector`.
    Vector {
        /// The component type.
        component: Id,
        /// Number of components.
        count: u32,
    },
    /// `OpTypeMatrix`.
    Matrix {
        /// The column type (a vector).
        column: Id,
        /// Number of columns.
        columns: u32,
    },
    /// `OpTypeArray`.
    Array {
        /// The element type.
        element: Id,
        /// The constant giving the length.
        length: Id,
    },
    /// `OpTypeRuntimeArray`.
    RuntimeArray {
        /// The element type.
        element: Id,
    },
    /// `OpTypeStruct`.
    Struct {
        /// Member types, in order.
        members: Vec<Id>,
    },
    /// `OpTypeImage`.
    Image(ImageType),
    /// `OpTypeSampledImage`.
    SampledImage {
        /// The image type.
        image: Id,
    },
    /// `OpTypeSampler`.
    Sampler,
    /// `OpTypePointer`.
    Pointer {
        /// Storage class.
        storage: spv::StorageClass,
        /// The pointee type.
        pointee: Id,
    },
    /// `OpTypeForwardPointer` not (yet) followed by its `OpTypePointer`.
    ForwardPointer {
        /// Storage class.
        storage: spv::StorageClass,
    },
    /// `OpTypeFunction`.
    Function {
        /// Return type.
        ret: Id,
        /// Parameter types.
        params: Vec<Id>,
    },
    /// `OpTypeAccelerationStructureKHR`.
    AccelerationStructure,
    /// `OpTypeRayQueryKHR`.
    RayQuery,
    /// Any other `OpType*` (events, pipes, cooperative matrices, vendor types).
    Other {
        /// The opcode that declared it.
        opcode: spv::Opcode,
    },
}

/// The operands of `OpTypeImage`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ImageType {
    /// The sampled type (a scalar or void).
    pub sampled_type: Id,
    /// Dimensionality.
    pub dim: spv::Dim,
    /// 0 not a depth image, 1 depth, 2 unknown.
    pub depth: u32,
    /// Arrayed.
    pub arrayed: bool,
    /// Multisampled.
    pub multisampled: bool,
    /// 0 known at run time, 1 used with a sampler, 2 storage (read/write).
    pub sampled: u32,
    /// Texel format.
    pub format: spv::ImageFormat,
    /// Access qualifier (OpenCL), if given.
    pub access: Option<spv::AccessQualifier>,
}

impl Type {
    /// The type an `OpType*` instruction declares, with the id it declares
    /// (`OpTypeForwardPointer` announces the pointer it names); `None` for any other
    /// instruction or one too short.
    ///
    /// ```
    /// use spirv_core::analysis::Type;
    /// use spirv_core::{spv::inst, Builder};
    /// let mut b = Builder::new((1, 0));
    /// let int = b.id().unwrap();
    /// b.push(inst::TypeInt { result_id: int, width: 32, signedness: 1 }).unwrap();
    /// let module = b.build().unwrap();
    /// let first = module.instruction(0).unwrap();
    /// assert_eq!(
    ///     Type::from_instruction(&first),
    ///     Some((int, Type::Int { width: 32, signed: true }))
    /// );
    /// ```
    pub fn from_instruction(inst: &crate::InstRef<'_>) -> Option<(Id, Type)> {
        let ops = inst.operands();
        let t = Type::read(inst.opcode(), ops)?;
        Some((Id(*ops.first()?), t))
    }

    /// Reads an `OpType*` instruction's operands (result id first); `None` if it is not
    /// a type instruction or is too short.
    pub(crate) fn read(opcode: spv::Opcode, ops: &[u32]) -> Option<Type> {
        use spv::Opcode as O;
        let at = |i: usize| ops.get(i).copied();
        let id = |i: usize| at(i).map(Id);
        Some(match opcode {
            O::TypeVoid => Type::Void,
            O::TypeBool => Type::Bool,
            O::TypeInt => Type::Int {
                width: at(1)?,
                signed: at(2)? != 0,
            },
            O::TypeFloat => Type::Float {
                width: at(1)?,
                encoding: at(2).map(spv::FPEncoding),
            },
            O::TypeVector => Type::Vector {
                component: id(1)?,
                count: at(2)?,
            },
            O::TypeMatrix => Type::Matrix {
                column: id(1)?,
                columns: at(2)?,
            },
            O::TypeArray => Type::Array {
                element: id(1)?,
                length: id(2)?,
            },
            O::TypeRuntimeArray => Type::RuntimeArray { element: id(1)? },
            O::TypeStruct => Type::Struct {
                members: ops.get(1..)?.iter().map(|&m| Id(m)).collect(),
            },
            O::TypeImage => Type::Image(ImageType {
                sampled_type: id(1)?,
                dim: spv::Dim(at(2)?),
                depth: at(3)?,
                arrayed: at(4)? != 0,
                multisampled: at(5)? != 0,
                sampled: at(6)?,
                format: spv::ImageFormat(at(7)?),
                access: at(8).map(spv::AccessQualifier),
            }),
            O::TypeSampledImage => Type::SampledImage { image: id(1)? },
            O::TypeSampler => Type::Sampler,
            O::TypePointer => Type::Pointer {
                storage: spv::StorageClass(at(1)?),
                pointee: id(2)?,
            },
            O::TypeForwardPointer => Type::ForwardPointer {
                storage: spv::StorageClass(at(1)?),
            },
            O::TypeFunction => Type::Function {
                ret: id(1)?,
                params: ops.get(2..)?.iter().map(|&p| Id(p)).collect(),
            },
            O::TypeAccelerationStructureKHR => Type::AccelerationStructure,
            O::TypeRayQueryKHR => Type::RayQuery,
            _ if opcode.info().is_some_and(|i| {
                i.has_result() && spv::Class::of(i) == Some(spv::Class::TypeDeclaration)
            }) =>
            {
                Type::Other { opcode }
            }
            _ => return None,
        })
    }
}

/// Where an array type leads: the type under all its array dimensions and how many
/// dimensions there are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ArrayChain {
    element: Id,
    depth: u32,
}

/// Every type a module declares, by id, with what each array type is an array of: built
/// once from a borrowed [`Module`] in one pass over its global instructions.
///
/// Memory follows the types the module declares, not the ids its header allows. A
/// later declaration of an id replaces an earlier one, except that an
/// `OpTypeForwardPointer` does not replace the pointer it announces.
///
/// ```
/// use spirv_core::analysis::{Type, TypeTable};
/// use spirv_core::{spv, spv::inst, Builder, LiteralNumber};
/// let mut b = Builder::new((1, 0));
/// let [int, four, row, grid] = [(); 4].map(|()| b.id().unwrap());
/// b.push(inst::TypeInt { result_id: int, width: 32, signedness: 0 }).unwrap();
/// let value = LiteralNumber::from_u32(4);
/// b.push(inst::Constant { result_type: int, result_id: four, value }).unwrap();
/// b.push(inst::TypeArray { result_id: row, element_type: int, length: four }).unwrap();
/// b.push(inst::TypeArray { result_id: grid, element_type: row, length: four }).unwrap();
/// let module = b.build().unwrap();
///
/// let types = TypeTable::new(&module);
/// assert_eq!(types.len(), 3);
/// assert_eq!(types.get(row), Some(&Type::Array { element: int, length: four }));
/// // A 4×4 grid of ints: two dimensions, outermost first.
/// assert_eq!(types.strip_arrays(grid), (int, 2));
/// let dims: Vec<_> = types.arrays(grid).map(|(id, _)| id).collect();
/// assert_eq!(dims, [grid, row]);
/// ```
#[derive(Debug, Clone)]
pub struct TypeTable {
    /// Dense tables index ids below this (the module's length in words, or the bound).
    cap: usize,
    types: IdTable<Type>,
    /// For each array type (after [`TypeTable::finish`]).
    chains: IdTable<ArrayChain>,
}

impl TypeTable {
    /// Reads every type `module` declares (its instructions before the first
    /// `OpFunction`).
    pub fn new(module: &Module) -> TypeTable {
        let mut table = TypeTable::with_cap(module);
        let globals = module.instructions();
        let globals = globals.take_while(|i| i.opcode() != spv::Opcode::Function);
        table.reserve_exact(globals.filter(|i| is_type(i.opcode())).count());
        for inst in module.instructions() {
            let opcode = inst.opcode();
            if opcode == spv::Opcode::Function {
                break;
            }
            table.observe(opcode, inst.operands());
        }
        table.finish();
        table
    }

    /// An empty table for `module`'s ids.
    pub(crate) fn with_cap(module: &Module) -> TypeTable {
        TypeTable {
            cap: (module.header().bound as usize).min(module.word_len()),
            types: IdTable::new(),
            chains: IdTable::new(),
        }
    }

    /// Makes room for `n` types at once.
    pub(crate) fn reserve_exact(&mut self, n: usize) {
        self.types.reserve_exact(n);
    }

    /// Records the type an instruction declares, if it declares one; returns whether
    /// it is a type instruction.
    pub(crate) fn observe(&mut self, opcode: spv::Opcode, ops: &[u32]) -> bool {
        let Some(t) = Type::read(opcode, ops) else {
            return false;
        };
        if let Some(&id) = ops.first() {
            // A forward pointer does not replace the pointer it announces.
            let announced =
                matches!(t, Type::ForwardPointer { .. }) && self.types.get(id).is_some();
            if !announced {
                self.types.insert(id, t, self.cap);
            }
        }
        true
    }

    /// Follows every array type to the type under its dimensions, once: each type is
    /// stepped through once however many arrays are built on it. A chain that comes
    /// back to a type (a malformed module) stops there: each array type of the cycle
    /// is its own element, under as many dimensions as the cycle has types.
    pub(crate) fn finish(&mut self) {
        // A type on the path being followed is marked with this depth, and the walk's
        // number as its element, until its chain is known.
        const ON_PATH: u32 = u32::MAX;
        let mut chains: IdTable<ArrayChain> = IdTable::new();
        chains.reserve_exact(
            self.types
                .iter()
                .filter(|(_, t)| array_element(t).is_some())
                .count(),
        );
        let mut path: Vec<u32> = Vec::new();
        for (walk, (start, t)) in self.types.iter().enumerate() {
            let walk = Id(walk as u32);
            if array_element(t).is_none() || chains.get(start).is_some() {
                continue;
            }
            path.clear();
            let mut at = start;
            // Where the path ends: a type with a known chain, or a cycle's first type.
            let (below, cycle_from) = loop {
                if let Some(&known) = chains.get(at) {
                    if known.depth != ON_PATH {
                        break (known, None);
                    }
                    if known.element == walk {
                        break (known, path.iter().position(|&p| p == at));
                    }
                }
                let Some(element) = self.types.get(at).and_then(array_element) else {
                    let plain = ArrayChain {
                        element: Id(at),
                        depth: 0,
                    };
                    break (plain, None);
                };
                let mark = ArrayChain {
                    element: walk,
                    depth: ON_PATH,
                };
                chains.insert(at, mark, self.cap);
                path.push(at);
                at = element.0;
            };
            let (mut chain, tail) = match cycle_from {
                Some(from) => {
                    let depth = (path.len() - from) as u32;
                    for &member in &path[from..] {
                        let chain = ArrayChain {
                            element: Id(member),
                            depth,
                        };
                        chains.insert(member, chain, self.cap);
                    }
                    let entry = ArrayChain {
                        element: Id(path[from]),
                        depth,
                    };
                    (entry, from)
                }
                None => (below, path.len()),
            };
            for &ty in path[..tail].iter().rev() {
                chain.depth = chain.depth.saturating_add(1).min(ON_PATH - 1);
                chains.insert(ty, chain, self.cap);
            }
        }
        self.chains = chains;
    }

    /// The type `id`.
    pub fn get(&self, id: Id) -> Option<&Type> {
        self.types.get(id.0)
    }

    /// Every type, in the order the ids were first declared.
    pub fn iter(&self) -> impl Iterator<Item = (Id, &Type)> {
        self.types.iter().map(|(id, t)| (Id(id), t))
    }

    /// Number of types.
    pub fn len(&self) -> usize {
        self.types.len()
    }

    /// Whether the module declares no type.
    pub fn is_empty(&self) -> bool {
        self.types.len() == 0
    }

    /// The type under all array dimensions of `ty` (`OpTypeArray`,
    /// `OpTypeRuntimeArray`) and the number of dimensions; `(ty, 0)` for a type that is
    /// not an array. Constant time.
    pub fn strip_arrays(&self, ty: Id) -> (Id, usize) {
        match self.chains.get(ty.0) {
            Some(c) => (c.element, c.depth as usize),
            None => (ty, 0),
        }
    }

    /// The array types of `ty`'s dimensions, outermost first (`ty` itself first when
    /// it is an array), with their declarations: as many as
    /// [`strip_arrays`](Self::strip_arrays) counts.
    pub fn arrays(&self, ty: Id) -> Arrays<'_> {
        Arrays {
            table: self,
            at: ty,
            left: self.strip_arrays(ty).1,
        }
    }
}

/// Whether an opcode declares a type (as [`Type::read`] reads them).
pub(crate) fn is_type(opcode: spv::Opcode) -> bool {
    opcode
        .info()
        .is_some_and(|i| spv::Class::of(i) == Some(spv::Class::TypeDeclaration))
}

/// The element of an array type.
fn array_element(t: &Type) -> Option<Id> {
    match t {
        Type::Array { element, .. } | Type::RuntimeArray { element } => Some(*element),
        _ => None,
    }
}

/// The dimensions of an array type, outermost first: from [`TypeTable::arrays`].
#[derive(Debug, Clone)]
pub struct Arrays<'t> {
    table: &'t TypeTable,
    at: Id,
    left: usize,
}

impl<'t> Iterator for Arrays<'t> {
    type Item = (Id, &'t Type);
    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        let ty = self.at;
        let t = self.table.get(ty)?;
        self.at = array_element(t)?;
        self.left -= 1;
        Some((ty, t))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

// Every step of a counted chain is an array type (that is how it was counted).
impl ExactSizeIterator for Arrays<'_> {}
