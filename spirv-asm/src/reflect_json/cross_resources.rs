//! The resource lists of `spirv-cross --reflect` (`inputs`, `ubos`, `textures`, …):
//! which variables SPIRV-Cross lists, under which kind and name, with which fields.

use super::cross::Cross;
use super::cross_types::{Base, Refusal};
use super::json::Json;
use crate::fxhash::FxHashMap;
use spirv_core::Id;
use spirv_core::reflect::Variable;
use spirv_core::spv;

/// One listed variable: the variable, its pointer type, the type's `self` and the name.
struct Res<'v> {
    var: &'v Variable,
    base_type: u32,
    name: String,
    /// Per [`QUALIFIERS`] entry: every member of its type has it.
    every_member: [bool; QUALIFIERS.len()],
}

/// The access qualifiers a resource prints, with their decorations.
const QUALIFIERS: [(spv::Decoration, &str); 5] = [
    (spv::Decoration::NonReadable, "writeonly"),
    (spv::Decoration::NonWritable, "readonly"),
    (spv::Decoration::Restrict, "restrict"),
    (spv::Decoration::Coherent, "coherent"),
    (spv::Decoration::Volatile, "volatile"),
];

/// What the members of a struct type say about its variables.
#[derive(Clone, Copy)]
struct TypeFacts {
    /// A member is decorated `BuiltIn`: the variable is a built-in block.
    builtin_member: bool,
    /// Per [`QUALIFIERS`] entry: every member has it.
    every_member: [bool; QUALIFIERS.len()],
}

/// The kinds, in the order SPIRV-Cross prints them.
const KINDS: [&str; 12] = [
    "subpass_inputs",
    "inputs",
    "outputs",
    "textures",
    "separate_images",
    "separate_samplers",
    "images",
    "ssbos",
    "ubos",
    "push_constants",
    "counters",
    "acceleration_structures",
];

impl Cross<'_, '_> {
    /// Every resource list that is not empty.
    pub(super) fn resources(&self, j: &mut Json<'_>) -> Result<(), Refusal> {
        let mut lists: [Vec<Res<'_>>; 12] = Default::default();
        let version = self.r.module().header().version;
        let default = self.entries[0];
        let interface: FxHashMap<Id, ()> = default.interface.iter().map(|&v| (v, ())).collect();
        let ssbo_instance_name = self.ssbo_instance_name_is_significant();
        // Per struct type: whether a member is a built-in, and which access qualifiers
        // every member has; many variables may share one wide block.
        let mut type_facts: FxHashMap<(u32, usize), TypeFacts> = FxHashMap::default();
        for var in self.r.variables() {
            let t = self.types.get(var.pointer_type.0);
            let Some(t) = t.filter(|t| t.pointer) else {
                continue;
            };
            use spv::StorageClass as S;
            // Before SPIR-V 1.4 only inputs and outputs are checked against the entry
            // point's interface (and not at all with one entry point).
            let listed = || interface.contains_key(&var.id);
            let active = if version < 0x0001_0400 {
                !matches!(var.storage, S::Input | S::Output) || self.entries.len() <= 1 || listed()
            } else {
                listed()
            };
            if !active {
                continue;
            }
            let facts = *type_facts
                .entry((t.self_id, t.members.len()))
                .or_insert_with(|| self.type_facts(t.self_id, t.members.len()));
            if facts.builtin_member
                || self
                    .r
                    .decorations(var.id)
                    .is_some_and(|d| d.has(spv::Decoration::BuiltIn))
            {
                continue;
            }
            let block = |d| self.has(t.self_id, d);
            let block_name = || -> String {
                match self.r.name(Id(t.self_id)) {
                    Some(n) if !n.is_empty() => n.to_owned(),
                    _ => match self.r.name(var.id) {
                        Some(n) if !n.is_empty() => n.to_owned(),
                        _ => format!("_{}_{}", t.self_id, var.id.0),
                    },
                }
            };
            let var_name = || self.r.name(var.id).unwrap_or("").to_owned();
            let instance_or_block = || {
                if ssbo_instance_name {
                    match self.r.name(var.id) {
                        Some(n) if !n.is_empty() => n.to_owned(),
                        _ => format!("_{}", var.id.0),
                    }
                } else {
                    block_name()
                }
            };
            let image = t.image;
            let (kind, name) = if var.storage == S::Input {
                (
                    1,
                    if block(spv::Decoration::Block) {
                        block_name()
                    } else {
                        var_name()
                    },
                )
            } else if var.storage == S::UniformConstant
                && image.is_some_and(|i| i.dim == spv::Dim::SubpassData)
            {
                (0, var_name())
            } else if var.storage == S::Output {
                (
                    2,
                    if block(spv::Decoration::Block) {
                        block_name()
                    } else {
                        var_name()
                    },
                )
            } else if t.storage == S::Uniform && block(spv::Decoration::Block) {
                (8, block_name())
            } else if (t.storage == S::Uniform && block(spv::Decoration::BufferBlock))
                || t.storage == S::StorageBuffer
            {
                (7, instance_or_block())
            } else if t.storage == S::PushConstant {
                (9, var_name())
            } else if t.storage == S::ShaderRecordBufferKHR {
                continue; // listed by SPIRV-Cross, but not printed by its reflection
            } else if t.storage == S::UniformConstant
                && t.base == Base::Image
                && image.is_some_and(|i| i.sampled == 2)
            {
                (6, var_name())
            } else if t.storage == S::UniformConstant
                && t.base == Base::Image
                && image.is_some_and(|i| i.sampled == 1)
            {
                (4, var_name())
            } else if t.storage == S::UniformConstant && t.base == Base::Sampler {
                (5, var_name())
            } else if t.storage == S::UniformConstant && t.base == Base::SampledImage {
                (3, var_name())
            } else if t.storage == S::AtomicCounter {
                (10, var_name())
            } else if t.storage == S::UniformConstant && t.base == Base::AccelerationStructure {
                (11, var_name())
            } else {
                continue;
            };
            lists[kind].push(Res {
                var,
                base_type: t.self_id,
                name,
                every_member: facts.every_member,
            });
        }
        for (kind, list) in KINDS.iter().zip(&lists) {
            if !list.is_empty() {
                j.key_array(kind);
                for res in list {
                    self.resource(j, res)?;
                }
                j.end_array();
            }
        }
        Ok(())
    }

    /// What a struct type's members say about the variables of it: one walk of its
    /// named or decorated members.
    fn type_facts(&self, type_self: u32, members: usize) -> TypeFacts {
        let mut facts = TypeFacts {
            builtin_member: false,
            every_member: [false; QUALIFIERS.len()],
        };
        let mut counts = [0usize; QUALIFIERS.len()];
        for (i, m) in self.r.member_infos(Id(type_self)) {
            facts.builtin_member |= m.decorations.has(spv::Decoration::BuiltIn);
            if (i as usize) < members {
                for (count, (d, _)) in counts.iter_mut().zip(QUALIFIERS) {
                    *count += usize::from(m.decorations.has(d));
                }
            }
        }
        for (every, count) in facts.every_member.iter_mut().zip(counts) {
            *every = members > 0 && count >= members;
        }
        facts
    }

    /// Whether SSBOs are named by their instance: HLSL source, or, without `OpSource`,
    /// a block type shared by two SSBOs.
    fn ssbo_instance_name_is_significant(&self) -> bool {
        if let Some((lang, _)) = self.r.source() {
            use spv::SourceLanguage as L;
            if matches!(lang, L::ESSL | L::GLSL | L::HLSL) {
                return lang == L::HLSL;
            }
        }
        let mut seen = FxHashMap::default();
        for var in self.r.variables() {
            let Some(t) = self.types.get(var.pointer_type.0).filter(|t| t.pointer) else {
                continue;
            };
            let ssbo = var.storage == spv::StorageClass::StorageBuffer
                || (var.storage == spv::StorageClass::Uniform
                    && self.has(t.self_id, spv::Decoration::BufferBlock));
            if ssbo && seen.insert(t.self_id, ()).is_some() {
                return true;
            }
        }
        false
    }

    fn resource(&self, j: &mut Json<'_>, res: &Res<'_>) -> Result<(), Refusal> {
        let var = res.var;
        let t = self
            .types
            .get(var.pointer_type.0)
            .ok_or("variable of an undeclared type")?;
        let dec = self.r.decorations(var.id);
        let has = |d| dec.is_some_and(|x| x.has(d));
        let value = |f: fn(&spirv_core::reflect::Decorations) -> Option<u32>| {
            dec.and_then(f).unwrap_or(0).to_string()
        };
        use spv::Decoration as D;
        use spv::StorageClass as S;
        let is_block = self.has(t.self_id, D::Block) || self.has(t.self_id, D::BufferBlock);
        let is_push_constant = var.storage == S::PushConstant;
        j.begin_object();
        if t.base == Base::Struct {
            j.string("type", &format!("_{}", res.base_type));
        } else {
            j.string("type", &self.glsl_of(var.pointer_type.0)?);
        }
        let name = if !res.name.is_empty() {
            res.name.clone()
        } else if !is_push_constant && is_block {
            format!("_{}", res.base_type)
        } else {
            format!("_{}", var.id.0)
        };
        j.string("name", &name);
        let ssbo_block = t.storage == S::StorageBuffer
            || (t.storage == S::Uniform && self.has(t.self_id, D::BufferBlock));
        // A buffer block's access comes from the variable and from what every member has.
        for ((d, key), every_member) in QUALIFIERS.into_iter().zip(res.every_member) {
            if has(d) || (ssbo_block && every_member) {
                j.raw(key, "true");
            }
        }
        self.array_of(j, t);
        if is_block
            && matches!(
                var.storage,
                S::Uniform | S::UniformConstant | S::StorageBuffer
            )
        {
            let size = self
                .r
                .declared_size(Id(res.base_type))
                .map_err(|e| e.to_string())?;
            j.raw("block_size", &(size as u32).to_string());
        }
        if t.storage == S::PushConstant {
            j.raw("push_constant", "true");
        }
        if has(D::Location) {
            j.raw("location", &value(|d| d.location));
        }
        if has(D::RowMajor) {
            j.raw("row_major", "true");
        }
        if has(D::ColMajor) {
            j.raw("column_major", "true");
        }
        if has(D::Index) {
            j.raw("index", &value(|d| d.index));
        }
        if t.storage != S::PushConstant && has(D::DescriptorSet) {
            j.raw("set", &value(|d| d.descriptor_set));
        }
        if has(D::Binding) {
            j.raw("binding", &value(|d| d.binding));
        }
        if has(D::InputAttachmentIndex) {
            j.raw(
                "input_attachment_index",
                &value(|d| d.input_attachment_index),
            );
        }
        if has(D::Offset) {
            j.raw("offset", &value(|d| d.offset));
        }
        if let Some(img) = t.image.filter(|i| t.base == Base::Image && i.sampled == 2) {
            if let Some(f) = format_name(img.format) {
                j.string("format", f);
            }
        }
        j.end_object();
        Ok(())
    }
}

/// GLSL's spelling of an image format; `None` for `Unknown`.
fn format_name(f: spv::ImageFormat) -> Option<&'static str> {
    use spv::ImageFormat as F;
    Some(match f {
        F::Rgba32f => "rgba32f",
        F::Rgba16f => "rgba16f",
        F::R32f => "r32f",
        F::Rgba8 => "rgba8",
        F::Rgba8Snorm => "rgba8_snorm",
        F::Rg32f => "rg32f",
        F::Rg16f => "rg16f",
        F::R11fG11fB10f => "r11f_g11f_b10f",
        F::R16f => "r16f",
        F::Rgba16 => "rgba16",
        F::Rgb10A2 => "rgb10_a2",
        F::Rg16 => "rg16",
        F::Rg8 => "rg8",
        F::R16 => "r16",
        F::R8 => "r8",
        F::Rgba16Snorm => "rgba16_snorm",
        F::Rg16Snorm => "rg16_snorm",
        F::Rg8Snorm => "rg8_snorm",
        F::R16Snorm => "r16_snorm",
        F::R8Snorm => "r8_snorm",
        F::Rgba32i => "rgba32i",
        F::Rgba16i => "rgba16i",
        F::Rgba8i => "rgba8i",
        F::R32i => "r32i",
        F::Rg32i => "rg32i",
        F::Rg16i => "rg16i",
        F::Rg8i => "rg8i",
        F::R16i => "r16i",
        F::R8i => "r8i",
        F::Rgba32ui => "rgba32ui",
        F::Rgba16ui => "rgba16ui",
        F::Rgba8ui => "rgba8ui",
        F::R32ui => "r32ui",
        F::Rgb10a2ui => "rgb10_a2ui",
        F::Rg32ui => "rg32ui",
        F::Rg16ui => "rg16ui",
        F::Rg8ui => "rg8ui",
        F::R16ui => "r16ui",
        F::R8ui => "r8ui",
        _ => return None,
    })
}
