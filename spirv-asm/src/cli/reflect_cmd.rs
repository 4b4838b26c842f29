//! `spirv-asm reflect`: a module's entry points, resources, push constants, stage
//! interface, specialization constants and types as JSON, in this tool's own schema
//! (documented in docs/cli.md) or, with `--format spirv-cross`, as `spirv-cross
//! --reflect` prints it.
//!
//! The own schema is written as it is made, one item at a time (a long list, such as
//! an entry point's interface or a struct's members, one element at a time), so that
//! memory stays near the module's size however large the text is.

use serde_json::{Value, json};
use spirv_core::Id;
use spirv_core::grammar::Enum;
use spirv_core::reflect::{
    ArraySize, EntryPoint, InterfaceVariable, Reflection, Resource, Type, Value as Const,
};
use std::io::{self, Write};

/// Arguments of `spirv-asm reflect`.
#[derive(clap::Args)]
#[command(after_help = "Exit codes:
  0  written
  1  the input or output cannot be read or written (no such file, an input that is
     neither a binary nor hex text, a size that is not a multiple of 4, a full disk)
  2  the input is not a SPIR-V module that reads
  3  --format spirv-cross: a module SPIRV-Cross refuses (Kernel capability, no entry
     point, ...)

Examples:
  spirv-asm reflect shader.spv
  spirv-asm reflect --no-static-use shader.spv -o shader.json
  spirv-asm reflect --format spirv-cross shader.spv")]
pub struct Args {
    /// Input file; `-` or none reads standard input. Hex text (`0x07230203 …` words or
    /// `03 02 23 07 …` bytes) is accepted too, as by `dis`. Several files or
    /// directories: batch mode.
    #[arg(value_name = "INPUT")]
    inputs: Vec<String>,
    /// Output file; `-` (the default) writes standard output. In batch mode: the
    /// directory the outputs go to, mirroring the inputs' trees.
    #[arg(short = 'o', default_value = "-")]
    output: String,
    /// `json` (this tool's schema) or `spirv-cross` (what `spirv-cross --reflect` prints).
    #[arg(long, default_value = "json", value_parser = ["json", "spirv-cross"])]
    format: String,
    /// Leave out each entry point's statically used variables (saves walking the
    /// function bodies).
    #[arg(long = "no-static-use")]
    no_static_use: bool,
    #[command(flatten)]
    batch: super::batch::BatchArgs,
}

impl super::batch::Job for Args {
    fn name(&self) -> &'static str {
        "reflect"
    }
    fn input_ext(&self) -> &'static str {
        "spv"
    }
    fn output_ext(&self) -> Option<&str> {
        Some("json")
    }
    fn process(
        &self,
        input: Vec<u8>,
        path: &std::path::Path,
    ) -> Result<Vec<u8>, super::batch::FileError> {
        let fail =
            |(code, message): (u8, String)| super::batch::FileError::from_message(&message, code);
        let words = super::dis_cmd::words_from_bytes(input, &path.to_string_lossy())
            .map_err(|e| fail((1, e)))?;
        self.reflect(words, |t| t.into_bytes()).map_err(fail)
    }
}

/// The text `reflect` prints: the CLI's own JSON, or the spirv-cross format (written
/// out piece by piece, it is never held twice, nor at all when it is long).
enum Text<'a, 'm> {
    Bytes(Vec<u8>),
    Cross(spirv_asm::reflect_json::SpirvCrossText<'a, 'm>),
}

impl Text<'_, '_> {
    fn into_bytes(self) -> Vec<u8> {
        match self {
            Text::Bytes(b) => b,
            Text::Cross(t) => t.into_string().into_bytes(),
        }
    }
}

impl Args {
    /// The reflection of a module as this command prints it, given to `emit`; else the
    /// exit code and the message.
    fn reflect<R>(
        &self,
        words: Vec<u32>,
        emit: impl FnOnce(Text<'_, '_>) -> R,
    ) -> Result<R, (u8, String)> {
        // Reflection reads the global instructions; function bodies are only split into
        // instructions (and walked for static use).
        let opts = spirv_core::ReadOptions {
            globals_only: true,
            ..spirv_core::ReadOptions::default()
        };
        let assembly = super::dis_cmd::looks_like_assembly(&super::dis_cmd::leading_bytes(&words));
        let module = match spirv_core::Module::read_owned(words, &opts) {
            Ok(m) => m,
            Err(e) => {
                let mut message = format!("error: {e}");
                if assembly && matches!(e.kind, spirv_core::DecodeErrorKind::BadMagic { .. }) {
                    message.push('\n');
                    message.push_str(super::dis_cmd::ASSEMBLY_HINT);
                }
                return Err((2, message));
            }
        };
        let r = Reflection::new(&module);
        if self.format == "spirv-cross" {
            return match spirv_asm::reflect_json::spirv_cross_text(&r) {
                Ok(t) => Ok(emit(Text::Cross(t))),
                Err(e) => Err((3, format!("error: {e}"))),
            };
        }
        let mut out = Vec::new();
        let mut j = Pretty::new(&mut out);
        let doc = document(&mut j, &r, !self.no_static_use).and_then(|()| j.w.write_all(b"\n"));
        doc.map_err(|e| (1, format!("error: {e}")))?;
        Ok(emit(Text::Bytes(out)))
    }
}

/// Runs the subcommand and returns its exit code: 0; 1 for input or output that
/// cannot be read or written (a missing file, an input that is neither a binary nor
/// hex text); 2 for a module that does not read; 3 for one the spirv-cross format
/// refuses.
pub fn run(args: Args) -> u8 {
    if args.batch.wanted(&args.inputs) {
        let out_dir = (args.output != "-").then_some(args.output.as_str());
        return super::batch::run(&args, &args.inputs, out_dir, &args.batch);
    }
    let words = match super::dis_cmd::read_words_or_hex(args.inputs.first().map(String::as_str)) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let written = args.reflect(words, |text| {
        let mut out = super::output::Output::open(&args.output)?;
        match text {
            Text::Bytes(bytes) => out.write_all(&bytes)?,
            Text::Cross(t) => {
                out.reserve(t.len() as u64);
                out.write_through(|w| t.write_to(w))?;
            }
        }
        out.commit()
    });
    let written = match written {
        Ok(w) => w,
        Err((code, message)) => {
            eprintln!("{message}");
            return code;
        }
    };
    match written {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}

/// Writes JSON text as `serde_json::to_string_pretty` lays it out (two-space indent,
/// `"key": value`, `[]` and `{}` when empty), one piece at a time. Keys must come in
/// the order serde_json's maps keep them: sorted.
struct Pretty<'w> {
    w: &'w mut dyn Write,
    /// For each open array or object: whether it has an element yet.
    open: Vec<bool>,
}

impl<'w> Pretty<'w> {
    fn new(w: &'w mut dyn Write) -> Self {
        Pretty {
            w,
            open: Vec::new(),
        }
    }

    fn indent(&mut self, levels: usize) -> io::Result<()> {
        for _ in 0..levels {
            self.w.write_all(b"  ")?;
        }
        Ok(())
    }

    /// Starts the next element of the open container on its own line.
    fn element(&mut self) -> io::Result<()> {
        if let Some(filled) = self.open.last_mut() {
            let sep: &[u8] = if std::mem::replace(filled, true) {
                b",\n"
            } else {
                b"\n"
            };
            self.w.write_all(sep)?;
            self.indent(self.open.len())?;
        }
        Ok(())
    }

    /// `"key": `, as the next element of the open object.
    fn key(&mut self, key: &str) -> io::Result<()> {
        self.element()?;
        serde_json::to_writer(&mut *self.w, key)?;
        self.w.write_all(b": ")
    }

    /// Opens `{` or `[` where a value goes.
    fn open(&mut self, bracket: u8) -> io::Result<()> {
        self.open.push(false);
        self.w.write_all(&[bracket])
    }

    /// Closes the innermost container with `}` or `]`.
    fn close(&mut self, bracket: u8) -> io::Result<()> {
        if self.open.pop() == Some(true) {
            self.w.write_all(b"\n")?;
            self.indent(self.open.len())?;
        }
        self.w.write_all(&[bracket])
    }

    /// A whole value where a value goes, laid out at the current depth.
    fn value(&mut self, v: &Value) -> io::Result<()> {
        let text = serde_json::to_string_pretty(v)?;
        // JSON strings escape their newlines: every newline is layout.
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                self.w.write_all(b"\n")?;
                self.indent(self.open.len())?;
            }
            self.w.write_all(line.as_bytes())?;
        }
        Ok(())
    }

    /// `"key": value`.
    fn field(&mut self, key: &str, v: &Value) -> io::Result<()> {
        self.key(key)?;
        self.value(v)
    }

    /// `"key": [ ... ]`, one element per item.
    fn list<T>(
        &mut self,
        key: &str,
        items: impl IntoIterator<Item = T>,
        mut each: impl FnMut(&mut Self, T) -> io::Result<()>,
    ) -> io::Result<()> {
        self.key(key)?;
        self.open(b'[')?;
        for item in items {
            self.element()?;
            each(self, item)?;
        }
        self.close(b']')
    }

    /// `"key": [ids]`.
    fn ids(&mut self, key: &str, ids: &[Id]) -> io::Result<()> {
        self.list(key, ids, |j, id| write!(j.w, "{}", id.0))
    }
}

/// The whole document (schema `spirv-asm-reflect/1`), keys in serde_json's order.
fn document(j: &mut Pretty<'_>, r: &Reflection<'_>, static_use: bool) -> io::Result<()> {
    let (major, minor) = r.module().header().version();
    let used = static_use.then(|| r.static_use());
    j.open(b'{')?;
    let entries = r.entry_points().iter().enumerate();
    j.list("entry_points", entries, |j, (i, e)| {
        entry_point(j, r, e, used.as_ref().map(|u| u.globals(i)))
    })?;
    j.list("inputs", r.inputs(), |j, v| interface(j, v))?;
    j.list("outputs", r.outputs(), |j, v| interface(j, v))?;
    j.list("push_constants", r.push_constants(), |j, x| {
        j.value(&resource(r, x))
    })?;
    j.list("resources", r.resources(), |j, x| j.value(&resource(r, x)))?;
    j.field("schema", &json!("spirv-asm-reflect/1"))?;
    j.list("specialization_constants", r.spec_constants(), |j, s| {
        j.value(&json!({
            "id": s.id.0,
            "name": s.name,
            "spec_id": s.spec_id,
            "type": s.type_id.0,
            "default": s.default.as_ref().map_or(Value::Null, |v| value(r, s.type_id, v)),
        }))
    })?;
    j.field("spirv_version", &json!(format!("{major}.{minor}")))?;
    j.key("types")?;
    types(j, r)?;
    j.close(b'}')
}

/// An enumerant's grammar name (its number if the grammar has none).
fn name<E: Enum>(v: E) -> String {
    v.name()
        .map_or_else(|| v.to_u32().to_string(), String::from)
}

/// An entry point: keys in serde_json's (sorted) order.
fn entry_point(
    j: &mut Pretty<'_>,
    r: &Reflection<'_>,
    e: &EntryPoint,
    used: Option<&[Id]>,
) -> io::Result<()> {
    j.open(b'{')?;
    j.field("execution_model", &json!(name(e.model)))?;
    j.list("execution_modes", r.execution_modes(e), |j, m| {
        j.value(&json!({"mode": name(m.mode), "operands": m.operands}))
    })?;
    j.field("function", &json!(e.function.0))?;
    j.ids("interface", &e.interface)?;
    j.field("name", &json!(e.name))?;
    if let Some(used) = used {
        j.ids("used_variables", used)?;
    }
    j.field(
        "workgroup_size",
        &e.workgroup_size.map_or(Value::Null, |dims| {
            json!(dims.iter().map(|d| json!({"value": d.value, "constant": d.constant.map(|c| c.0), "spec_id": d.spec_id})).collect::<Vec<_>>())
        }),
    )?;
    j.close(b'}')
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

/// A stage input or output: keys in serde_json's (sorted) order.
fn interface(j: &mut Pretty<'_>, v: &InterfaceVariable) -> io::Result<()> {
    j.open(b'{')?;
    j.field("builtin", &json!(v.builtin.map(name)))?;
    j.field("component", &json!(v.component))?;
    j.field("location", &json!(v.location))?;
    j.list("members", &v.members, |j, m| {
        j.value(&json!({
            "index": m.index,
            "name": m.name,
            "type": m.type_id.0,
            "location": m.location,
            "component": m.component,
            "builtin": m.builtin.map(name),
        }))
    })?;
    j.field("name", &json!(v.name))?;
    j.field("patch", &json!(v.patch))?;
    j.field("type", &json!(v.type_id.0))?;
    j.field("variable", &json!(v.variable.0))?;
    j.close(b'}')
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

/// Every type by id (keys sorted as text, as serde_json's map sorts them), with struct
/// members' layout decorations and sizes.
fn types(j: &mut Pretty<'_>, r: &Reflection<'_>) -> io::Result<()> {
    let mut keys: Vec<(String, Id)> = r.types().map(|(id, _)| (id.0.to_string(), id)).collect();
    keys.sort_unstable();
    j.open(b'{')?;
    for (key, id) in keys {
        let Some(t) = r.ty(id) else { continue };
        j.key(&key)?;
        let stride = r.decorations(id).and_then(|d| d.array_stride);
        if let Type::Struct { members } = t {
            // Members one at a time: a struct may have many.
            j.open(b'{')?;
            if let Some(stride) = stride {
                j.field("array_stride", &json!(stride))?;
            }
            j.field("kind", &json!("struct"))?;
            j.list("members", members.iter().enumerate(), |j, (i, m)| {
                j.value(&member(r, id, i as u32, *m))
            })?;
            if let Some(n) = r.name(id) {
                j.field("name", &json!(n))?;
            }
            j.field("size", &json!(r.declared_size(id).ok()))?;
            j.close(b'}')?;
            continue;
        }
        let mut v = type_value(r, t);
        if let (Some(n), Value::Object(m)) = (r.name(id), &mut v) {
            m.insert("name".into(), json!(n));
        }
        if let (Some(stride), Value::Object(m)) = (stride, &mut v) {
            m.insert("array_stride".into(), json!(stride));
        }
        j.value(&v)?;
    }
    j.close(b'}')
}

/// Member `i` (of type `m`) of struct `id`.
fn member(r: &Reflection<'_>, id: Id, i: u32, m: Id) -> Value {
    let info = r.member(id, i);
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
}

/// A type other than a struct: `kind` and its fields.
fn type_value(r: &Reflection<'_>, t: &Type) -> Value {
    match t {
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
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Written piece by piece, the text is serde_json's pretty text of the same value,
    /// empty lists and objects included.
    #[test]
    fn pretty_pieces_lay_out_as_serde_json_does() {
        let mut text = Vec::new();
        let mut j = Pretty::new(&mut text);
        let written = (|| {
            j.open(b'{')?;
            j.ids("a", &[Id(1), Id(2)])?;
            j.ids("b", &[])?;
            j.list("c", [1, 2], |j, n| {
                j.open(b'{')?;
                j.field("x", &json!({"y": [n, n], "z": {}}))?;
                j.list("zz", 0..n - 1, |j, k| j.value(&json!(k)))?;
                j.close(b'}')
            })?;
            j.key("d")?;
            j.open(b'{')?;
            j.close(b'}')?;
            j.field("e", &json!("a\nb"))?;
            j.close(b'}')
        })();
        assert!(written.is_ok());
        let want = json!({
            "a": [1, 2], "b": [],
            "c": [{"x": {"y": [1, 1], "z": {}}, "zz": []}, {"x": {"y": [2, 2], "z": {}}, "zz": [0]}],
            "d": {}, "e": "a\nb",
        });
        let want = serde_json::to_string_pretty(&want).unwrap_or_default();
        assert_eq!(String::from_utf8_lossy(&text), want);
    }
}
