//! Types as SPIRV-Cross sees them, for `--format spirv-cross`: each type id gets the
//! record SPIRV-Cross's parser builds (arrays and pointers copy their base type and add
//! a dimension or a pointer level; `self` stays the base's), and the GLSL names its
//! reflection prints (`vec3`, `sampler2DShadow`, `uint8_t`, a struct's `OpName`).

use spirv_core::Id;
use spirv_core::reflect::{ImageType, Reflection, Type};
use spirv_core::spv;
use std::collections::HashMap;
use std::rc::Rc;

/// SPIRV-Cross's base types, as far as its reflection tells them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Base {
    Unknown,
    Void,
    Boolean,
    SByte,
    UByte,
    Short,
    UShort,
    Int,
    UInt,
    Int64,
    UInt64,
    AtomicCounter,
    Half,
    Float,
    Double,
    Struct,
    Image,
    SampledImage,
    Sampler,
    AccelerationStructure,
    RayQuery,
}

/// One array dimension: the length (a literal) or the constant id giving it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Dim {
    pub value: u32,
    pub literal: bool,
}

/// The record SPIRV-Cross keeps per type.
#[derive(Debug, Clone)]
pub(super) struct CrossType {
    pub base: Base,
    pub vecsize: u32,
    pub columns: u32,
    pub pointer: bool,
    pub pointer_depth: u32,
    pub storage: spv::StorageClass,
    /// The type whose decorations and name this one shares.
    pub self_id: u32,
    pub parent: u32,
    pub forward_pointer: bool,
    pub image: Option<ImageType>,
    /// This level's array dimension, after those of `dims_from`.
    pub own_dim: Option<Dim>,
    /// The type whose dimensions come first (an array's element, a pointer's pointee).
    pub dims_from: Option<u32>,
    /// A struct's member types; arrays of it and pointers to it share the list, so
    /// that many of them over one wide struct cost no copies.
    pub members: Rc<[Id]>,
    /// Array and pointer levels above the base type.
    pub levels: usize,
}

/// Every type's record.
pub(super) struct CrossTypes {
    types: HashMap<u32, CrossType>,
    /// Type ids in the order first declared.
    order: Vec<u32>,
    /// Longest chain of array or pointer levels followed before giving up.
    limit: usize,
}

/// Most array dimensions or pointer levels followed for one type.
const MAX_LEVELS: usize = 64;

/// A module SPIRV-Cross's parser would refuse, as its message says.
pub(super) type Refusal = String;

impl CrossTypes {
    /// Builds the records in declaration order, then applies SPIRV-Cross's forward
    /// pointer fix-ups (arrays and pointers built on a forward pointer take the base type
    /// and `self` of the pointer it became).
    pub(super) fn new(r: &Reflection<'_>) -> Result<CrossTypes, Refusal> {
        let mut types: HashMap<u32, CrossType> = HashMap::new();
        let mut fixups = Vec::new();
        let mut order = Vec::new();
        // In instruction order: a forward pointer is a type of its own until its
        // OpTypePointer replaces it, and what is built on it meanwhile copies it.
        let declared = r
            .module()
            .instructions()
            .take_while(|i| i.opcode() != spv::Opcode::Function)
            .filter_map(|i| Type::from_instruction(&i));
        for (id, t) in declared {
            let id = id.0;
            let t = &t;
            let fresh = |base: Base| CrossType {
                base,
                vecsize: 1,
                columns: 1,
                pointer: false,
                pointer_depth: 0,
                storage: spv::StorageClass::Generic,
                self_id: id,
                parent: 0,
                forward_pointer: false,
                image: None,
                own_dim: None,
                dims_from: None,
                members: Rc::from([]),
                levels: 0,
            };
            let get = |other: Id| -> Result<CrossType, Refusal> {
                types
                    .get(&other.0)
                    .cloned()
                    .ok_or_else(|| match r.ty(other) {
                        Some(Type::Other { opcode }) => format!(
                            "type {} ({}) is not a type SPIRV-Cross reflects",
                            other.0,
                            opcode.name().unwrap_or("unknown")
                        ),
                        _ => format!("type {} is used before it is declared", other.0),
                    })
            };
            let ct = match t {
                Type::Void => fresh(Base::Void),
                Type::Bool => fresh(Base::Boolean),
                &Type::Int { width, signed } => {
                    let base = match (width, signed) {
                        (8, true) => Base::SByte,
                        (8, false) => Base::UByte,
                        (16, true) => Base::Short,
                        (16, false) => Base::UShort,
                        (32, true) => Base::Int,
                        (32, false) => Base::UInt,
                        (64, true) => Base::Int64,
                        (64, false) => Base::UInt64,
                        _ => return Err("Invalid bit width.".into()),
                    };
                    fresh(base)
                }
                &Type::Float { width, .. } => {
                    let base = match width {
                        16 => Base::Half,
                        32 => Base::Float,
                        64 => Base::Double,
                        _ => return Err("Unrecognized bit-width of floating point type.".into()),
                    };
                    fresh(base)
                }
                &Type::Vector { component, count } => CrossType {
                    vecsize: count,
                    self_id: id,
                    parent: component.0,
                    ..get(component)?
                },
                &Type::Matrix { column, columns } => CrossType {
                    columns,
                    self_id: id,
                    parent: column.0,
                    ..get(column)?
                },
                &Type::Array { element, length } => {
                    let base = get(element)?;
                    if base.forward_pointer {
                        fixups.push((id, element.0));
                    }
                    let literal = r.constant(length).is_some_and(|c| !c.specialization);
                    let value = if literal {
                        r.value(length).and_then(|v| v.as_u64()).unwrap_or(0) as u32
                    } else {
                        length.0
                    };
                    CrossType {
                        parent: element.0,
                        own_dim: Some(Dim { value, literal }),
                        dims_from: Some(element.0),
                        levels: base.levels + 1,
                        ..base
                    }
                }
                &Type::RuntimeArray { element } => {
                    let base = get(element)?;
                    if base.forward_pointer {
                        fixups.push((id, element.0));
                    }
                    CrossType {
                        parent: element.0,
                        own_dim: Some(Dim {
                            value: 0,
                            literal: true,
                        }),
                        dims_from: Some(element.0),
                        levels: base.levels + 1,
                        ..base
                    }
                }
                Type::Struct { members } => CrossType {
                    members: Rc::from(members.as_slice()),
                    ..fresh(Base::Struct)
                },
                Type::Image(i) => CrossType {
                    image: Some(*i),
                    ..fresh(Base::Image)
                },
                &Type::SampledImage { image } => CrossType {
                    base: Base::SampledImage,
                    self_id: id,
                    ..get(image)?
                },
                Type::Sampler => fresh(Base::Sampler),
                &Type::Pointer { storage, pointee } => {
                    let base = types.get(&pointee.0).cloned();
                    if base.as_ref().is_some_and(|b| b.forward_pointer) {
                        fixups.push((id, pointee.0));
                    }
                    let mut p = base.unwrap_or_else(|| fresh(Base::Unknown));
                    p.pointer = true;
                    p.pointer_depth += 1;
                    p.storage = storage;
                    if storage == spv::StorageClass::AtomicCounter {
                        p.base = Base::AtomicCounter;
                    }
                    p.parent = pointee.0;
                    p.own_dim = None;
                    p.dims_from = Some(pointee.0);
                    p.levels += 1;
                    p
                }
                &Type::ForwardPointer { storage } => CrossType {
                    pointer: true,
                    pointer_depth: 1,
                    storage,
                    forward_pointer: true,
                    base: if storage == spv::StorageClass::AtomicCounter {
                        Base::AtomicCounter
                    } else {
                        Base::Unknown
                    },
                    ..fresh(Base::Unknown)
                },
                Type::AccelerationStructure => fresh(Base::AccelerationStructure),
                Type::RayQuery => fresh(Base::RayQuery),
                // Function types are not SPIRV-Cross types; others it does not parse.
                _ => continue,
            };
            if ct.levels > MAX_LEVELS {
                return Err(format!(
                    "type {id} nests arrays or pointers more than {MAX_LEVELS} levels deep"
                ));
            }
            if types.insert(id, ct).is_none() {
                order.push(id);
            }
        }
        for (target, source) in fixups {
            let Some(src) = types.get(&source).cloned() else {
                continue;
            };
            if let Some(t) = types.get_mut(&target) {
                t.members = src.members;
                t.base = src.base;
                t.self_id = src.self_id;
            }
        }
        // Deeper nesting is not something a shader does; it would make the output grow
        // with the square of the input.
        let limit = MAX_LEVELS;
        Ok(CrossTypes {
            types,
            order,
            limit,
        })
    }

    /// Type ids in the order first declared.
    pub(super) fn order(&self) -> &[u32] {
        &self.order
    }

    /// The record of type `id`.
    pub(super) fn get(&self, id: u32) -> Option<&CrossType> {
        self.types.get(&id)
    }

    /// Array dimensions of `t`, innermost first (SPIRV-Cross's order).
    pub(super) fn dims(&self, t: &CrossType) -> Vec<Dim> {
        let mut own = Vec::new();
        let mut at = Some(t);
        for _ in 0..=self.limit {
            let Some(cur) = at else { break };
            if let Some(d) = cur.own_dim {
                own.push(d);
            }
            at = cur.dims_from.and_then(|f| self.types.get(&f));
        }
        own.reverse();
        own
    }

    /// Whether `t` is a pointer to physical storage buffer memory itself (not an array
    /// of them).
    pub(super) fn is_top_level_physical_pointer(&self, t: &CrossType) -> bool {
        t.pointer
            && t.storage == spv::StorageClass::PhysicalStorageBuffer
            && self
                .types
                .get(&t.parent)
                .is_some_and(|p| t.pointer_depth > p.pointer_depth)
    }

    /// A physical pointer, or an array of them.
    pub(super) fn is_reference(&self, t: &CrossType) -> bool {
        self.is_top_level_physical_pointer(t)
            || (!self.dims(t).is_empty()
                && self
                    .types
                    .get(&t.parent)
                    .is_some_and(|p| self.is_top_level_physical_pointer(p)))
    }

    /// SPIRV-Cross's `type_to_glsl` with Vulkan semantics; `es` is the `OpSource` ESSL
    /// flag (it spells 1D images as 2D).
    pub(super) fn glsl(
        &self,
        r: &Reflection<'_>,
        t: &CrossType,
        es: bool,
    ) -> Result<String, Refusal> {
        // A physical pointer to a non-struct: the pointee's name, its dimensions, "Pointer".
        let mut suffix = String::new();
        let mut t = t;
        for _ in 0..self.limit {
            if !(t.pointer
                && t.storage == spv::StorageClass::PhysicalStorageBuffer
                && t.base != Base::Struct)
            {
                break;
            }
            let mut part = String::new();
            for d in self.dims(t) {
                if d.literal {
                    part.push_str(&format!("{}_", d.value));
                } else {
                    part.push_str(&format!("id{}_", d.value));
                }
            }
            part.push_str("Pointer");
            suffix.insert_str(0, &part);
            t = self
                .types
                .get(&t.parent)
                .ok_or("pointer to an undeclared type")?;
        }
        Ok(self.plain_glsl(r, t, es)? + &suffix)
    }

    fn plain_glsl(&self, r: &Reflection<'_>, t: &CrossType, es: bool) -> Result<String, Refusal> {
        use Base as B;
        Ok(match t.base {
            B::Struct => match r.name(Id(t.self_id)) {
                Some(n) if !n.is_empty() => n.to_owned(),
                _ => format!("_{}", t.self_id),
            },
            B::Image | B::SampledImage => self.image_glsl(t, es)?,
            B::Sampler => "sampler".into(),
            B::AccelerationStructure => "accelerationStructureNV".into(),
            B::RayQuery => "rayQueryEXT".into(),
            B::Void => "void".into(),
            _ => {
                let scalar = match t.base {
                    B::Boolean => "bool",
                    B::SByte => "int8_t",
                    B::UByte => "uint8_t",
                    B::Short => "int16_t",
                    B::UShort => "uint16_t",
                    B::Int => "int",
                    B::UInt => "uint",
                    B::AtomicCounter => "atomic_uint",
                    B::Half => "float16_t",
                    B::Float => "float",
                    B::Double => "double",
                    B::Int64 => "int64_t",
                    B::UInt64 => "uint64_t",
                    _ => "???",
                };
                if t.vecsize == 1 && t.columns == 1 {
                    scalar.into()
                } else if t.columns == 1 {
                    let prefix = match t.base {
                        B::Boolean => "bvec",
                        B::SByte => "i8vec",
                        B::UByte => "u8vec",
                        B::Short => "i16vec",
                        B::UShort => "u16vec",
                        B::Int => "ivec",
                        B::UInt => "uvec",
                        B::Half => "f16vec",
                        B::Float => "vec",
                        B::Double => "dvec",
                        B::Int64 => "i64vec",
                        B::UInt64 => "u64vec",
                        _ => return Ok("???".into()),
                    };
                    format!("{prefix}{}", t.vecsize)
                } else {
                    let prefix = match t.base {
                        B::Boolean => "bmat",
                        B::Int => "imat",
                        B::UInt => "umat",
                        B::Half => "f16mat",
                        B::Float => "mat",
                        B::Double => "dmat",
                        _ => return Ok("???".into()),
                    };
                    if t.vecsize == t.columns {
                        format!("{prefix}{}", t.vecsize)
                    } else {
                        format!("{prefix}{}x{}", t.columns, t.vecsize)
                    }
                }
            }
        })
    }

    fn image_glsl(&self, t: &CrossType, es: bool) -> Result<String, Refusal> {
        let Some(img) = t.image else {
            return Ok("???".into());
        };
        let mut res = String::from(match self.types.get(&img.sampled_type.0).map(|s| s.base) {
            Some(Base::Int | Base::Short | Base::SByte) => "i",
            Some(Base::UInt | Base::UShort | Base::UByte) => "u",
            _ => "",
        });
        if t.base == Base::Image && img.dim == spv::Dim::SubpassData {
            res.push_str("subpassInput");
            if img.multisampled {
                res.push_str("MS");
            }
            return Ok(res);
        }
        if t.base == Base::Image {
            res.push_str(if img.dim == spv::Dim::Buffer && img.sampled == 1 {
                "sampler"
            } else if img.sampled == 2 {
                "image"
            } else {
                "texture"
            });
        } else {
            res.push_str("sampler");
        }
        res.push_str(match img.dim {
            spv::Dim::Dim1D if es => "2D",
            spv::Dim::Dim1D => "1D",
            spv::Dim::Dim2D => "2D",
            spv::Dim::Dim3D => "3D",
            spv::Dim::Cube => "Cube",
            spv::Dim::Rect if es => {
                return Err("Rectangle textures are not supported on OpenGL ES.".into());
            }
            spv::Dim::Rect => "2DRect",
            spv::Dim::Buffer => "Buffer",
            spv::Dim::SubpassData => "2D",
            _ => {
                return Err(
                    "Only 1D, 2D, 2DRect, 3D, Buffer, InputTarget and Cube textures supported."
                        .into(),
                );
            }
        });
        if img.multisampled {
            res.push_str("MS");
        }
        if img.arrayed {
            res.push_str("Array");
        }
        // Depth: only combined image samplers (and samplers) say "Shadow".
        if matches!(t.base, Base::SampledImage | Base::Sampler)
            && img.depth == 1
            && img.format == spv::ImageFormat::Unknown
        {
            res.push_str("Shadow");
        }
        Ok(res)
    }
}
