//! `spirv-cross --reflect` output: entry points, struct types, resources by kind and
//! specialization constants, with the rules of SPIRV-Cross (the Debian package
//! 2021.01.15+1.3.239.0, whose output is the corpus's gold). Where SPIRV-Cross would
//! throw, this returns its message as an error.

use super::cross_types::{Base, CrossType, CrossTypes, Dim, Refusal};
use super::json::{self, Json};
use crate::fxhash::FxHashMap;
use spirv_core::Id;
use spirv_core::reflect::{Constant, ConstantKind, Decorations, EntryPoint, Reflection};
use spirv_core::spv;
use std::collections::hash_map::Entry;

/// The state of one reflection.
pub(super) struct Cross<'a, 'm> {
    pub r: &'a Reflection<'m>,
    pub types: CrossTypes,
    /// The module's `OpSource` is ESSL.
    pub es: bool,
    /// Entry points as SPIRV-Cross keeps them: one per function, the first listed.
    pub entries: Vec<&'a EntryPoint>,
    /// The constant decorated `BuiltIn WorkgroupSize`, found once for every compute
    /// entry point.
    workgroup_builtin: Option<&'a Constant>,
}

impl<'a, 'm> Cross<'a, 'm> {
    pub(super) fn new(r: &'a Reflection<'m>) -> Result<Cross<'a, 'm>, Refusal> {
        if r.capabilities().contains(&spv::Capability::Kernel) {
            return Err("Kernel capability not supported.".into());
        }
        let mut entries: Vec<&EntryPoint> = Vec::new();
        let mut functions = FxHashMap::default();
        for e in r.entry_points() {
            if functions.insert(e.function, ()).is_none() {
                entries.push(e);
            }
        }
        if entries.is_empty() {
            return Err("There is no entry point in the SPIR-V module.".into());
        }
        let es = r
            .source()
            .is_some_and(|(lang, _)| lang == spv::SourceLanguage::ESSL);
        Ok(Cross {
            r,
            types: CrossTypes::new(r)?,
            es,
            entries,
            workgroup_builtin: workgroup_builtin(r),
        })
    }

    fn ty(&self, id: u32) -> Result<&CrossType, Refusal> {
        self.types
            .get(id)
            .ok_or_else(|| format!("Bad cast: id {id} is not a type"))
    }

    fn decorations(&self, id: u32) -> Option<&Decorations> {
        self.r.decorations(Id(id))
    }

    pub(super) fn has(&self, id: u32, d: spv::Decoration) -> bool {
        self.decorations(id).is_some_and(|x| x.has(d))
    }

    fn name(&self, id: u32) -> &str {
        self.r.name(Id(id)).unwrap_or("")
    }

    fn glsl(&self, t: &CrossType) -> Result<String, Refusal> {
        self.types.glsl(self.r, t, self.es)
    }

    /// The GLSL name of type `id`.
    pub(super) fn glsl_of(&self, id: u32) -> Result<String, Refusal> {
        self.glsl(self.ty(id)?)
    }

    /// `entryPoints`: sorted by execution model, then name.
    pub(super) fn entry_points(&self, j: &mut Json<'_>) -> Result<(), Refusal> {
        let mut list = self.entries.clone();
        list.sort_by(|a, b| (a.model.0, a.name.as_bytes()).cmp(&(b.model.0, b.name.as_bytes())));
        // SPIRV-Cross finds an entry point's record by name and model: the first listed
        // of those that share them.
        let mut own: FxHashMap<(u32, &str), &EntryPoint> = FxHashMap::default();
        for e in &self.entries {
            own.entry((e.model.0, e.name.as_str())).or_insert(e);
        }
        // The default entry point's, the same for every compute entry point.
        let mut spec = None;
        j.key_array("entryPoints");
        for e in list {
            j.begin_object();
            j.string("name", &e.name);
            j.string("mode", mode_name(e.model));
            if e.model == spv::ExecutionModel::GLCompute {
                let spec = match spec {
                    Some(s) => s,
                    None => *spec.insert(self.workgroup_spec_constants()?),
                };
                let size = own
                    .get(&(e.model.0, e.name.as_str()))
                    .map_or([0; 3], |x| self.workgroup_size(x));
                j.key_array("workgroup_size");
                for i in 0..3 {
                    j.element(&spec[i].map_or(size[i], |(_, spec_id)| spec_id).to_string());
                }
                j.end_array();
                j.key_array("workgroup_size_is_spec_constant_id");
                for s in spec {
                    j.element(if s.is_some() { "true" } else { "false" });
                }
                j.end_array();
            }
            j.end_object();
        }
        j.end_array();
        Ok(())
    }

    /// The component values SPIRV-Cross copied into a composite constant: an
    /// `OpSpecConstantOp` constituent reads as 0.
    fn composite_part(&self, c: &Constant, i: usize) -> (u32, Option<Id>) {
        let ConstantKind::Composite(parts) = &c.kind else {
            return (self.scalar(c), None);
        };
        let Some(&part) = parts.get(i) else {
            return (0, None);
        };
        match self.r.constant(part) {
            Some(pc) => {
                let value = if matches!(pc.kind, ConstantKind::Op { .. }) {
                    0
                } else {
                    self.scalar(pc)
                };
                (value, pc.specialization.then_some(part))
            }
            None => (0, None),
        }
    }

    /// SPIRV-Cross's `scalar()` of a constant: the low word of its first value.
    fn scalar(&self, c: &Constant) -> u32 {
        match &c.kind {
            ConstantKind::Bool(b) => u32::from(*b),
            ConstantKind::Scalar(w) => *w as u32,
            ConstantKind::Composite(parts) => {
                // A vector or matrix copies its constituents' values; structs and arrays
                // hold none of their own.
                let is_vector = self
                    .types
                    .get(c.type_id.0)
                    .is_some_and(|t| t.base != Base::Struct && self.types.dims(t).is_empty());
                match (is_vector, parts.first().and_then(|p| self.r.constant(*p))) {
                    (true, Some(pc)) if !matches!(pc.kind, ConstantKind::Op { .. }) => {
                        self.scalar(pc)
                    }
                    _ => 0,
                }
            }
            _ => 0,
        }
    }

    /// An entry point's own workgroup size: the built-in constant's values if there is
    /// one, else its last `LocalSize`, else zeros (`LocalSizeId` gives no values).
    fn workgroup_size(&self, e: &EntryPoint) -> [u32; 3] {
        if let Some(c) = self.workgroup_builtin {
            return [0, 1, 2].map(|i| self.composite_part(c, i).0);
        }
        let mut size = [0; 3];
        for m in self.r.execution_modes(e) {
            if m.mode == spv::ExecutionMode::LocalSize && !m.by_id {
                for (i, s) in size.iter_mut().enumerate() {
                    *s = m.operands.get(i).copied().unwrap_or(0);
                }
            }
        }
        size
    }

    /// The specialization constants of the *default* (first) entry point's workgroup
    /// size: `(constant, SpecId)` per dimension.
    fn workgroup_spec_constants(&self) -> Result<[Option<(Id, u32)>; 3], Refusal> {
        let spec_id = |id: Id| self.decorations(id.0).and_then(|d| d.spec_id).unwrap_or(0);
        if let Some(c) = self.workgroup_builtin {
            return Ok([0, 1, 2].map(|i| self.composite_part(c, i).1.map(|p| (p, spec_id(p)))));
        }
        let default = self.entries[0];
        let Some(m) = (self.r.execution_modes(default).iter())
            .rev()
            .find(|m| m.mode == spv::ExecutionMode::LocalSizeId)
        else {
            return Ok([None; 3]);
        };
        let mut out = [None; 3];
        for (i, o) in out.iter_mut().enumerate() {
            let id = Id(m.operands.get(i).copied().unwrap_or(0));
            match self.r.constant(id) {
                Some(c)
                    if !matches!(c.kind, ConstantKind::Op { .. } | ConstantKind::Other { .. }) =>
                {
                    if c.specialization {
                        *o = Some((id, spec_id(id)));
                    }
                }
                _ => return Err("Bad cast".into()),
            }
        }
        Ok(out)
    }

    /// `types`: every struct that is not an array or pointer, then the pointee types of
    /// physical pointers that are not such structs.
    pub(super) fn types(&self, j: &mut Json<'_>) -> Result<(), Refusal> {
        let mut opened = false;
        let mut pointees: Vec<u32> = Vec::new();
        let mut listed = FxHashMap::default();
        for &id in self.types.order() {
            let t = self.ty(id)?;
            if self.naturally_emitted(t) {
                self.emit_type(j, id, &mut opened)?;
            } else if self.types.is_reference(t) {
                let parent = self.ty(t.parent)?;
                if !self.naturally_emitted(parent) {
                    if let Entry::Vacant(v) = listed.entry(t.parent) {
                        v.insert(());
                        pointees.push(t.parent);
                    }
                }
            }
        }
        for id in pointees {
            self.emit_type(j, id, &mut opened)?;
        }
        if opened {
            j.end_object();
        }
        Ok(())
    }

    fn naturally_emitted(&self, t: &CrossType) -> bool {
        t.base == Base::Struct && !t.pointer && self.types.dims(t).is_empty()
    }

    fn emit_type(&self, j: &mut Json<'_>, id: u32, opened: &mut bool) -> Result<(), Refusal> {
        let t = self.ty(id)?;
        let name = self.glsl(t)?;
        if !*opened {
            j.key_object("types");
            *opened = true;
        }
        j.key_object(&format!("_{id}"));
        j.string("name", &name);
        if self.types.is_top_level_physical_pointer(t) {
            j.string("type", &format!("_{}", t.parent));
            j.raw("physical_pointer", "true");
        } else if !self.types.dims(t).is_empty() {
            self.array_of(j, t);
            j.string("type", &format!("_{}", t.parent));
            let stride = self
                .decorations(id)
                .and_then(|d| d.array_stride)
                .unwrap_or(0);
            j.raw("array_stride", &stride.to_string());
        } else {
            j.key_array("members");
            for (i, &m) in t.members.iter().enumerate() {
                self.member(j, t, i as u32, m.0)?;
            }
            j.end_array();
        }
        j.end_object();
        Ok(())
    }

    fn member(
        &self,
        j: &mut Json<'_>,
        st: &CrossType,
        index: u32,
        member_type: u32,
    ) -> Result<(), Refusal> {
        let mt = self.ty(member_type)?;
        j.begin_object();
        let info = self.r.member(Id(st.self_id), index);
        let name = match info.and_then(|i| i.name.as_deref()) {
            Some(n) if !n.is_empty() => n.to_owned(),
            _ => format!("_m{index}"),
        };
        j.string("name", &name);
        if self.types.is_reference(mt) {
            j.string("type", &format!("_{}", mt.parent));
        } else if mt.base == Base::Struct {
            j.string("type", &format!("_{}", mt.self_id));
        } else {
            j.string("type", &self.glsl(mt)?);
        }
        self.array_of(j, mt);
        // Member decorations exist only up to the highest member named or decorated.
        if index < self.r.member_records(Id(st.self_id)) {
            let dec = info.map(|i| &i.decorations);
            let has = |d| dec.is_some_and(|x| x.has(d));
            if has(spv::Decoration::Location) {
                j.raw(
                    "location",
                    &dec.and_then(|d| d.location).unwrap_or(0).to_string(),
                );
            }
            if has(spv::Decoration::Offset) {
                j.raw(
                    "offset",
                    &dec.and_then(|d| d.offset).unwrap_or(0).to_string(),
                );
            }
            if self.has(member_type, spv::Decoration::ArrayStride) {
                let stride = self
                    .decorations(member_type)
                    .and_then(|d| d.array_stride)
                    .unwrap_or(0);
                j.raw("array_stride", &stride.to_string());
            }
            if has(spv::Decoration::MatrixStride) {
                j.raw(
                    "matrix_stride",
                    &dec.and_then(|d| d.matrix_stride).unwrap_or(0).to_string(),
                );
            }
            if has(spv::Decoration::RowMajor) {
                j.raw("row_major", "true");
            }
            if self.types.is_top_level_physical_pointer(mt) {
                j.raw("physical_pointer", "true");
            }
        }
        j.end_object();
        Ok(())
    }

    /// `array` and `array_size_is_literal`, unless `t` is a physical pointer.
    pub(super) fn array_of(&self, j: &mut Json<'_>, t: &CrossType) {
        let dims: Vec<Dim> = self.types.dims(t);
        if self.types.is_top_level_physical_pointer(t) || dims.is_empty() {
            return;
        }
        j.key_array("array");
        for d in &dims {
            j.element(&d.value.to_string());
        }
        j.end_array();
        j.key_array("array_size_is_literal");
        for d in &dims {
            j.element(if d.literal { "true" } else { "false" });
        }
        j.end_array();
    }

    /// `specialization_constants`: every `OpSpecConstant*` (not `OpSpecConstantOp`)
    /// with a `SpecId`.
    pub(super) fn spec_constants(&self, j: &mut Json<'_>) -> Result<(), Refusal> {
        let list: Vec<_> = self
            .r
            .constants()
            .filter(|(id, c)| {
                c.specialization
                    && !matches!(c.kind, ConstantKind::Op { .. } | ConstantKind::Other { .. })
                    && self.has(id.0, spv::Decoration::SpecId)
            })
            .collect();
        if list.is_empty() {
            return Ok(());
        }
        j.key_array("specialization_constants");
        for (id, c) in list {
            let t = self.ty(c.type_id.0)?;
            j.begin_object();
            j.string("name", self.name(id.0));
            let spec_id = self.decorations(id.0).and_then(|d| d.spec_id).unwrap_or(0);
            j.raw("id", &spec_id.to_string());
            j.string("type", &self.glsl(t)?);
            j.raw("variable_id", &id.0.to_string());
            let s = self.scalar(c);
            match t.base {
                Base::UInt => j.raw("default_value", &s.to_string()),
                Base::Int => j.raw("default_value", &(s as i32).to_string()),
                Base::Float => j.raw("default_value", &json::float(f32::from_bits(s))),
                Base::Boolean => j.raw("default_value", if s != 0 { "true" } else { "false" }),
                _ => {}
            }
            j.end_object();
        }
        j.end_array();
        Ok(())
    }
}

/// The constant decorated `BuiltIn WorkgroupSize` (the last one; SPIRV-Cross reads only
/// plain and specialization constants, not `OpSpecConstantOp`).
fn workgroup_builtin<'a>(r: &'a Reflection<'_>) -> Option<&'a Constant> {
    r.constants()
        .filter(|(id, c)| {
            !matches!(c.kind, ConstantKind::Op { .. } | ConstantKind::Other { .. })
                && r.decorations(*id).and_then(|d| d.builtin) == Some(spv::BuiltIn::WorkgroupSize)
        })
        .map(|(_, c)| c)
        .last()
}

fn mode_name(m: spv::ExecutionModel) -> &'static str {
    use spv::ExecutionModel as M;
    match m {
        M::Vertex => "vert",
        M::TessellationControl => "tesc",
        M::TessellationEvaluation => "tese",
        M::Geometry => "geom",
        M::Fragment => "frag",
        M::GLCompute => "comp",
        M::RayGenerationKHR => "rgen",
        M::IntersectionKHR => "rint",
        M::AnyHitKHR => "rahit",
        M::ClosestHitKHR => "rchit",
        M::MissKHR => "rmiss",
        M::CallableKHR => "rcall",
        _ => "???",
    }
}
