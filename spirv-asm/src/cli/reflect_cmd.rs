//! `spirv-asm reflect`: a module's entry points, resources, push constants, stage
//! interface, specialization constants and types as JSON, in this tool's own schema
//! (documented in the README) or, with `--format spirv-cross`, as `spirv-cross
//! --reflect` prints it.

use serde_json::{Map, Value, json};
use spirv_core::Id;
use spirv_core::grammar::Enum;
use spirv_core::reflect::{
    ArraySize, EntryPoint, InterfaceVariable, Reflection, Resource, Type, Value as Const,
};

/// Arguments of `spirv-asm reflect`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  spirv-asm reflect shader.spv\n  spirv-asm reflect --format spirv-cross shader.spv -o shader.json"
)]
pub struct Args {
    /// Input file; `-` or none reads standard input.
    input: Option<String>,
    /// Output file; `-` (the default) writes standard output.
    #[arg(short = 'o', default_value = "-")]
    output: String,
    /// `json` (this tool's schema) or `spirv-cross` (what `spirv-cross --reflect` prints).
    #[arg(long, default_value = "json", value_parser = ["json", "spirv-cross"])]
    format: String,
    /// Leave out each entry point's statically used variables (saves walking the
    /// function bodies).
    #[arg(long = "no-static-use")]
    no_static_use: bool,
}

/// Runs the subcommand; 0, or 1 for unreadable input, 2 for a module that does not
/// read, 3 for one the spirv-cross format refuses.
pub fn run(args: Args) -> u8 {
    let words = match super::read_words(args.input.as_deref()) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    // Reflection reads the global instructions; function bodies are only split into
    // instructions (and walked for static use).
    let opts = spirv_core::ReadOptions {
        globals_only: true,
        ..spirv_core::ReadOptions::default()
    };
    let module = match spirv_core::Module::read_owned(words, &opts) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let r = Reflection::new(&module);
    let text = if args.format == "spirv-cross" {
        match spirv_asm::reflect::spirv_cross_json_of(&r) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: {e}");
                return 3;
            }
        }
    } else {
        let mut t =
            serde_json::to_string_pretty(&document(&r, !args.no_static_use)).unwrap_or_default();
        t.push('\n');
        t
    };
    let mut out = match super::output::Output::open(&args.output) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    match out.write_all(text.as_bytes()).and_then(|()| out.commit()) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}

/// The whole document (schema `spirv-asm-reflect/1`).
fn document(r: &Reflection<'_>, static_use: bool) -> Value {
    let (major, minor) = r.module().header().version();
    // Every entry point's static use, in one pass over the call graph.
    let used = static_use.then(|| r.static_use());
    json!({
        "schema": "spirv-asm-reflect/1",
        "spirv_version": format!("{major}.{minor}"),
        "entry_points": r.entry_points().iter().enumerate().map(|(i, e)| entry_point(r, e, used.as_ref().map(|u| u.globals(i)))).collect::<Vec<_>>(),
        "resources": r.resources().iter().map(|x| resource(r, x)).collect::<Vec<_>>(),
        "push_constants": r.push_constants().iter().map(|x| resource(r, x)).collect::<Vec<_>>(),
        "inputs": r.inputs().iter().map(interface).collect::<Vec<_>>(),
        "outputs": r.outputs().iter().map(interface).collect::<Vec<_>>(),
        "specialization_constants": r.spec_constants().iter().map(|s| json!({
            "id": s.id.0,
            "name": s.name,
            "spec_id": s.spec_id,
            "type": s.type_id.0,
            "default": s.default.as_ref().map_or(Value::Null, |v| value(r, s.type_id, v)),
        })).collect::<Vec<_>>(),
        "types": types(r),
    })
}

/// An enumerant's grammar name (its number if the grammar has none).
fn name<E: Enum>(v: E) -> String {
    v.name()
        .map_or_else(|| v.to_u32().to_string(), String::from)
}

fn entry_point(r: &Reflection<'_>, e: &EntryPoint, used: Option<&[Id]>) -> Value {
    let mut o = Map::new();
    o.insert("name".into(), json!(e.name));
    o.insert("execution_model".into(), json!(name(e.model)));
    o.insert("function".into(), json!(e.function.0));
    o.insert(
        "execution_modes".into(),
        json!(
            r.execution_modes(e)
                .iter()
                .map(|m| json!({"mode": name(m.mode), "operands": m.operands}))
                .collect::<Vec<_>>()
        ),
    );
    o.insert(
        "workgroup_size".into(),
        e.workgroup_size.map_or(Value::Null, |dims| {
            json!(dims.iter().map(|d| json!({"value": d.value, "constant": d.constant.map(|c| c.0), "spec_id": d.spec_id})).collect::<Vec<_>>())
        }),
    );
    o.insert("interface".into(), json!(ids(&e.interface)));
    if let Some(used) = used {
        o.insert("used_variables".into(), json!(ids(used)));
    }
    Value::Object(o)
}

fn ids(list: &[Id]) -> Vec<u32> {
    list.iter().map(|i| i.0).collect()
}

fn array(dims: impl Iterator<Item = ArraySize>) -> Value {
    json!(
        dims.map(|d| match d {
            ArraySize::Literal(n) => json!(n),
            ArraySize::Runtime => json!("runtime"),
            ArraySize::SpecConstant {
                id,
                spec_id,
                default,
            } => json!({"constant": id.0, "spec_id": spec_id, "default": default}),
        })
        .collect::<Vec<_>>()
    )
}

fn resource(r: &Reflection<'_>, x: &Resource) -> Value {
    json!({
        "variable": x.variable.0,
        "name": x.name,
        "descriptor_type": x.descriptor_type.map(|d| snake(&format!("{d:?}"))),
        "set": x.set,
        "binding": x.binding,
        "array": array(r.array_dims(x.type_id)),
        "type": x.type_id.0,
        "element_type": x.element_type.0,
        "storage": name(x.storage),
        "non_writable": x.non_writable,
        "non_readable": x.non_readable,
        "image_format": x.image_format.map(name),
        "input_attachment_index": x.input_attachment_index,
        "block_size": x.block.and_then(|b| b.size),
        "runtime_array_stride": x.block.and_then(|b| b.runtime_array_stride),
    })
}

fn interface(v: &InterfaceVariable) -> Value {
    json!({
        "variable": v.variable.0,
        "name": v.name,
        "type": v.type_id.0,
        "location": v.location,
        "component": v.component,
        "builtin": v.builtin.map(name),
        "patch": v.patch,
        "members": v.members.iter().map(|m| json!({
            "index": m.index,
            "name": m.name,
            "type": m.type_id.0,
            "location": m.location,
            "component": m.component,
            "builtin": m.builtin.map(name),
        })).collect::<Vec<_>>(),
    })
}

/// A constant's value: a number or boolean, a list of constituent ids for composites.
fn value(r: &Reflection<'_>, ty: Id, v: &Const) -> Value {
    match v {
        Const::Bool(b) => json!(b),
        Const::Int { .. } => match r.ty(ty) {
            Some(Type::Int { signed: true, .. }) => json!(v.as_i64()),
            _ => json!(v.as_u64()),
        },
        Const::Float { .. } => v.as_f64().map_or(Value::Null, |f| json!(f)),
        Const::Composite(parts) => json!({"constituents": ids(parts)}),
        Const::Vector(items) => {
            json!(items.iter().map(|i| value(r, Id(0), i)).collect::<Vec<_>>())
        }
        Const::Null => json!("null"),
        _ => Value::Null,
    }
}

/// Every type by id, with struct members' layout decorations and sizes.
fn types(r: &Reflection<'_>) -> Value {
    let mut o = Map::new();
    for (id, t) in r.types() {
        let mut v = match t {
            Type::Void => json!({"kind": "void"}),
            Type::Bool => json!({"kind": "bool"}),
            Type::Int { width, signed } => json!({"kind": "int", "width": width, "signed": signed}),
            Type::Float { width, .. } => json!({"kind": "float", "width": width}),
            Type::Vector { component, count } => {
                json!({"kind": "vector", "component": component.0, "count": count})
            }
            Type::Matrix { column, columns } => {
                json!({"kind": "matrix", "column": column.0, "columns": columns})
            }
            Type::Array { element, length } => json!({
                "kind": "array", "element": element.0, "length_constant": length.0,
                "length": r.value(*length).and_then(Const::as_u64),
            }),
            Type::RuntimeArray { element } => {
                json!({"kind": "runtime_array", "element": element.0})
            }
            Type::Struct { members } => {
                let list: Vec<Value> = members.iter().enumerate().map(|(i, m)| {
                    let info = r.member(id, i as u32);
                    let d = info.map(|x| &x.decorations);
                    json!({
                        "name": info.and_then(|x| x.name.clone()),
                        "type": m.0,
                        "offset": d.and_then(|d| d.offset),
                        "matrix_stride": d.and_then(|d| d.matrix_stride),
                        "row_major": d.is_some_and(|d| d.has(spirv_core::spv::Decoration::RowMajor)),
                        "builtin": d.and_then(|d| d.builtin).map(name),
                        "location": d.and_then(|d| d.location),
                    })
                }).collect();
                json!({"kind": "struct", "members": list, "size": r.declared_size(id).ok()})
            }
            Type::Image(i) => json!({
                "kind": "image", "sampled_type": i.sampled_type.0, "dim": name(i.dim),
                "depth": i.depth, "arrayed": i.arrayed, "multisampled": i.multisampled,
                "sampled": i.sampled, "format": name(i.format),
            }),
            Type::SampledImage { image } => json!({"kind": "sampled_image", "image": image.0}),
            Type::Sampler => json!({"kind": "sampler"}),
            Type::Pointer { storage, pointee } => {
                json!({"kind": "pointer", "storage": name(*storage), "pointee": pointee.0})
            }
            Type::ForwardPointer { storage } => {
                json!({"kind": "forward_pointer", "storage": name(*storage)})
            }
            Type::Function { ret, params } => {
                json!({"kind": "function", "return": ret.0, "parameters": ids(params)})
            }
            Type::AccelerationStructure => json!({"kind": "acceleration_structure"}),
            Type::RayQuery => json!({"kind": "ray_query"}),
            Type::Other { opcode } => json!({"kind": "other", "opcode": opcode.name()}),
            _ => json!({"kind": "other"}),
        };
        if let (Some(n), Value::Object(m)) = (r.name(id), &mut v) {
            m.insert("name".into(), json!(n));
        }
        if let (Some(stride), Value::Object(m)) =
            (r.decorations(id).and_then(|d| d.array_stride), &mut v)
        {
            m.insert("array_stride".into(), json!(stride));
        }
        o.insert(id.0.to_string(), v);
    }
    Value::Object(o)
}

/// `UniformBuffer` → `uniform_buffer`.
fn snake(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}
