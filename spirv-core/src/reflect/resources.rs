//! Resources in Vulkan terms (descriptor type, set, binding, array dimensions, access,
//! block size), push-constant blocks, and stage inputs and outputs, from the global
//! variables.

use super::{Reflection, Type, Value};
use crate::__private::{String, Vec};
use crate::spv;
use crate::types::Id;

/// The Vulkan descriptor type a resource needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DescriptorType {
    /// A `Uniform` block.
    UniformBuffer,
    /// A `StorageBuffer` block (or a `Uniform` one decorated `BufferBlock`).
    StorageBuffer,
    /// `OpTypeSampler`.
    Sampler,
    /// An image used with a separate sampler (`sampled` 1).
    SampledImage,
    /// `OpTypeSampledImage`.
    CombinedImageSampler,
    /// A storage image (`sampled` 2).
    StorageImage,
    /// A sampled buffer image (`Buffer` dimension, `sampled` 1).
    UniformTexelBuffer,
    /// A storage buffer image (`Buffer` dimension, `sampled` 2).
    StorageTexelBuffer,
    /// A subpass-data image.
    InputAttachment,
    /// An acceleration structure.
    AccelerationStructure,
}

/// One array dimension of a resource or member.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArraySize {
    /// A length given by a constant.
    Literal(u64),
    /// A length given by a specialization constant.
    SpecConstant {
        /// The constant.
        id: Id,
        /// Its `SpecId`, if any.
        spec_id: Option<u32>,
        /// Its default value, if computable.
        default: Option<u64>,
    },
    /// `OpTypeRuntimeArray`: unbounded.
    Runtime,
}

/// The size of a buffer block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct BlockLayout {
    /// Declared size in bytes; a trailing runtime array counts as empty. `None` if the
    /// layout decorations do not give one (see [`Reflection::declared_size`]).
    pub size: Option<u64>,
    /// The `ArrayStride` of a trailing runtime array, so that the size for `n`
    /// elements is `size + n * stride`.
    pub runtime_array_stride: Option<u32>,
}

/// A resource variable: a descriptor, or a push-constant block. Its array dimensions
/// are [`Reflection::array_dims`]`(type_id)`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Resource {
    /// The variable.
    pub variable: Id,
    /// The variable's `OpName`.
    pub name: Option<String>,
    /// The variable's data type (the pointer's pointee, arrays included).
    pub type_id: Id,
    /// The data type with array dimensions stripped (the block struct, image, …).
    pub element_type: Id,
    /// Storage class.
    pub storage: spv::StorageClass,
    /// The descriptor type; `None` for push constants and types no descriptor holds.
    pub descriptor_type: Option<DescriptorType>,
    /// `DescriptorSet`.
    pub set: Option<u32>,
    /// `Binding`.
    pub binding: Option<u32>,
    /// Never written: `NonWritable` on the variable, or on every member of a block.
    pub non_writable: bool,
    /// Never read: `NonReadable` on the variable, or on every member of a block.
    pub non_readable: bool,
    /// A storage image's format (`None` if `Unknown` or not an image).
    pub image_format: Option<spv::ImageFormat>,
    /// `InputAttachmentIndex`.
    pub input_attachment_index: Option<u32>,
    /// Size of a uniform, storage or push-constant block.
    pub block: Option<BlockLayout>,
}

/// A member of an interface block.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct InterfaceMember {
    /// Member index.
    pub index: u32,
    /// `OpMemberName`.
    pub name: Option<String>,
    /// The member's type.
    pub type_id: Id,
    /// `Location`.
    pub location: Option<u32>,
    /// `Component`.
    pub component: Option<u32>,
    /// `BuiltIn`.
    pub builtin: Option<spv::BuiltIn>,
}

/// A stage input or output.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct InterfaceVariable {
    /// The variable.
    pub variable: Id,
    /// Its `OpName`.
    pub name: Option<String>,
    /// Its data type.
    pub type_id: Id,
    /// `Location`.
    pub location: Option<u32>,
    /// `Component`.
    pub component: Option<u32>,
    /// `BuiltIn` on the variable.
    pub builtin: Option<spv::BuiltIn>,
    /// `Patch`.
    pub patch: bool,
    /// For a struct (an interface block): each member's location and built-in.
    pub members: Vec<InterfaceMember>,
}

/// Fills the resource, push-constant and interface lists of `r`.
pub(super) fn collect(r: &mut Reflection<'_>) {
    // Each list gets its size at once (resources: at most), so that memory is what the
    // lists hold, without a growing vector's spare room and copies.
    let count = |classes: &[spv::StorageClass]| {
        r.variables
            .iter()
            .filter(|v| classes.contains(&v.storage))
            .count()
    };
    let descriptors = [
        spv::StorageClass::Uniform,
        spv::StorageClass::UniformConstant,
        spv::StorageClass::StorageBuffer,
    ];
    let mut resources = Vec::with_capacity(count(&descriptors));
    let mut push = Vec::with_capacity(count(&[spv::StorageClass::PushConstant]));
    let mut inputs = Vec::with_capacity(count(&[spv::StorageClass::Input]));
    let mut outputs = Vec::with_capacity(count(&[spv::StorageClass::Output]));
    let mut places = Vec::with_capacity(r.variables.len());
    for v in &r.variables {
        let at = places.len();
        places.push(super::view::NO_PLACE);
        let Some(Type::Pointer { pointee, .. }) = r.ty(v.pointer_type) else {
            continue;
        };
        let data = *pointee;
        let (element, _) = r.types.strip_arrays(data);
        let decorations = r.decorations(v.id).cloned().unwrap_or_default();
        use spv::StorageClass as S;
        match v.storage {
            S::Input | S::Output => {
                let item = interface(r, v.id, data, element, &decorations);
                let list = if v.storage == S::Input {
                    &mut inputs
                } else {
                    &mut outputs
                };
                places[at] = list.len() as u32;
                list.push(item);
            }
            S::Uniform | S::UniformConstant | S::StorageBuffer | S::PushConstant => {
                let element_decorations = r.decorations(element);
                let is = |d| element_decorations.is_some_and(|e| e.has(d));
                let descriptor_type = match (v.storage, r.ty(element)) {
                    (S::PushConstant, _) => None,
                    (S::Uniform, _) if is(spv::Decoration::BufferBlock) => {
                        Some(DescriptorType::StorageBuffer)
                    }
                    (S::Uniform, _) => Some(DescriptorType::UniformBuffer),
                    (S::StorageBuffer, _) => Some(DescriptorType::StorageBuffer),
                    (_, Some(t)) => descriptor_of(r, t),
                    (_, None) => None,
                };
                let block = matches!(r.ty(element), Some(Type::Struct { .. }))
                    && matches!(v.storage, S::Uniform | S::StorageBuffer | S::PushConstant);
                let (non_writable, non_readable) = access(r, element, &decorations, block);
                let image_format = match r.ty(element) {
                    Some(Type::Image(i))
                        if i.sampled == 2 && i.format != spv::ImageFormat::Unknown =>
                    {
                        Some(i.format)
                    }
                    _ => None,
                };
                let res = Resource {
                    variable: v.id,
                    name: r.name(v.id).map(String::from),
                    type_id: data,
                    element_type: element,
                    storage: v.storage,
                    descriptor_type,
                    set: decorations.descriptor_set,
                    binding: decorations.binding,
                    non_writable,
                    non_readable,
                    image_format,
                    input_attachment_index: decorations.input_attachment_index,
                    block: block.then(|| BlockLayout {
                        size: r.declared_size(element).ok(),
                        runtime_array_stride: runtime_array_stride(r, element),
                    }),
                };
                if v.storage == S::PushConstant {
                    places[at] = push.len() as u32;
                    push.push(res);
                } else if res.descriptor_type.is_some() {
                    places[at] = resources.len() as u32;
                    resources.push(res);
                }
            }
            _ => {}
        }
    }
    r.resources = resources;
    r.push_constants = push;
    r.inputs = inputs;
    r.outputs = outputs;
    r.places = places;
}

fn descriptor_of(r: &Reflection<'_>, t: &Type) -> Option<DescriptorType> {
    use DescriptorType as D;
    Some(match t {
        Type::Sampler => D::Sampler,
        Type::SampledImage { image } => match r.ty(*image) {
            Some(Type::Image(i)) if i.dim == spv::Dim::Buffer => D::UniformTexelBuffer,
            _ => D::CombinedImageSampler,
        },
        Type::Image(i) => match (i.dim, i.sampled) {
            (spv::Dim::SubpassData, _) => D::InputAttachment,
            (spv::Dim::Buffer, 2) => D::StorageTexelBuffer,
            (spv::Dim::Buffer, _) => D::UniformTexelBuffer,
            (_, 2) => D::StorageImage,
            _ => D::SampledImage,
        },
        Type::AccelerationStructure => D::AccelerationStructure,
        _ => return None,
    })
}

/// The array dimensions of a type, outermost first: from [`Reflection::array_dims`].
#[derive(Debug, Clone)]
pub struct ArrayDims<'r, 'm> {
    r: &'r Reflection<'m>,
    arrays: crate::analysis::Arrays<'r>,
}

impl Iterator for ArrayDims<'_, '_> {
    type Item = ArraySize;
    fn next(&mut self) -> Option<ArraySize> {
        Some(match self.arrays.next()?.1 {
            Type::Array { length, .. } => array_size(self.r, *length),
            _ => ArraySize::Runtime,
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.arrays.size_hint()
    }
}

impl ExactSizeIterator for ArrayDims<'_, '_> {}

impl<'m> Reflection<'m> {
    /// The array dimensions of type `ty`, outermost first (none for a type that is not
    /// an array): what a resource's [`type_id`](Resource::type_id) adds to its
    /// [`element_type`](Resource::element_type). Each array type is followed once for
    /// the whole module, so this costs one step per dimension.
    ///
    /// ```
    /// use spirv_core::reflect::{ArraySize, Reflection};
    /// use spirv_core::{spv, spv::inst, Builder, LiteralNumber};
    /// let mut b = Builder::new((1, 0));
    /// let [float, image, four, sized, images, ptr, var] = [(); 7].map(|()| b.id().unwrap());
    /// b.push(inst::TypeFloat { result_id: float, width: 32, floating_point_encoding: None }).unwrap();
    /// b.push(inst::TypeImage {
    ///     result_id: image, sampled_type: float, dim: spv::Dim::Dim2D, depth: 0, arrayed: 0,
    ///     ms: 0, sampled: 1, image_format: spv::ImageFormat::Unknown, access_qualifier: None,
    /// }).unwrap();
    /// let uint = b.id().unwrap();
    /// b.push(inst::TypeInt { result_id: uint, width: 32, signedness: 0 }).unwrap();
    /// b.push(inst::Constant { result_type: uint, result_id: four, value: LiteralNumber::from_u32(4) }).unwrap();
    /// b.push(inst::TypeArray { result_id: sized, element_type: image, length: four }).unwrap();
    /// b.push(inst::TypeRuntimeArray { result_id: images, element_type: sized }).unwrap();
    /// b.push(inst::TypePointer { result_id: ptr, storage_class: spv::StorageClass::UniformConstant, r#type: images }).unwrap();
    /// b.push(inst::Variable { result_type: ptr, result_id: var, storage_class: spv::StorageClass::UniformConstant, initializer: None }).unwrap();
    /// let module = b.build().unwrap();
    ///
    /// // texture2D textures[][4]: a runtime array of arrays of four images.
    /// let r = Reflection::new(&module);
    /// let res = &r.resources()[0];
    /// let dims: Vec<_> = r.array_dims(res.type_id).collect();
    /// println!("{dims:?}"); // [Runtime, Literal(4)]
    /// assert_eq!(dims, [ArraySize::Runtime, ArraySize::Literal(4)]);
    /// assert_eq!(res.element_type, image);
    /// ```
    pub fn array_dims(&self, ty: Id) -> ArrayDims<'_, 'm> {
        ArrayDims {
            r: self,
            arrays: self.types.arrays(ty),
        }
    }
}

/// The length an array-length constant gives.
fn array_size(r: &Reflection<'_>, length: Id) -> ArraySize {
    let default = r.value(length).and_then(Value::as_u64);
    match r.constant(length) {
        Some(c) if c.specialization => ArraySize::SpecConstant {
            id: length,
            spec_id: r.decorations(length).and_then(|d| d.spec_id),
            default,
        },
        _ => ArraySize::Literal(default.unwrap_or(0)),
    }
}

/// `NonWritable`/`NonReadable` of a variable, or of every member of its block.
fn access(
    r: &Reflection<'_>,
    element: Id,
    decorations: &super::Decorations,
    block: bool,
) -> (bool, bool) {
    let mut nw = decorations.has(spv::Decoration::NonWritable);
    let mut nr = decorations.has(spv::Decoration::NonReadable);
    if let (true, Some(Type::Struct { members })) = (block, r.ty(element)) {
        if !members.is_empty() {
            let all = |d| {
                (0..members.len() as u32)
                    .all(|i| r.member(element, i).is_some_and(|m| m.decorations.has(d)))
            };
            nw |= all(spv::Decoration::NonWritable);
            nr |= all(spv::Decoration::NonReadable);
        }
    }
    (nw, nr)
}

/// The stride of a struct's last member when it is a runtime array.
fn runtime_array_stride(r: &Reflection<'_>, st: Id) -> Option<u32> {
    let Some(Type::Struct { members }) = r.ty(st) else {
        return None;
    };
    let last = *members.last()?;
    match r.ty(last) {
        Some(Type::RuntimeArray { .. }) => r.decorations(last)?.array_stride,
        _ => None,
    }
}

fn interface(
    r: &Reflection<'_>,
    var: Id,
    data: Id,
    element: Id,
    d: &super::Decorations,
) -> InterfaceVariable {
    let members = match r.ty(element) {
        Some(Type::Struct { members }) => members
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                let info = r.member(element, i as u32);
                let md = info.map(|i| &i.decorations);
                InterfaceMember {
                    index: i as u32,
                    name: info.and_then(|i| i.name.clone()),
                    type_id: m,
                    location: md.and_then(|d| d.location),
                    component: md.and_then(|d| d.component),
                    builtin: md.and_then(|d| d.builtin),
                }
            })
            .collect(),
        _ => Vec::new(),
    };
    InterfaceVariable {
        variable: var,
        name: r.name(var).map(String::from),
        type_id: data,
        location: d.location,
        component: d.component,
        builtin: d.builtin,
        patch: d.has(spv::Decoration::Patch),
        members,
    }
}
