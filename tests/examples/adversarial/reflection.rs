//! The reflection classes of the adversarial example, and the reflection it runs:
//! many entry points sharing one function's modes, many variables over a deep array
//! chain, many entry points calling one long chain of functions, many entry points
//! with their static use as `spirv-asm reflect` prints it, many compute entry points
//! with their own workgroup sizes as `spirv-asm reflect --format spirv-cross` prints
//! them; and that format's reflection of every class.

use super::{Input, Mod, shader_header};
use spirv_core::Module;
use spirv_core::reflect::Reflection;
use spirv_core::spv::Opcode;

/// Ids for the reflection classes' modules: void, its function type, a 32-bit int, a
/// `Private` pointer to it, and the first free id.
const VOID: u32 = 2;
const FN: u32 = 3;
const INT: u32 = 5;
const PRIVATE_INT: u32 = 6;
const FIRST_FREE: u32 = 100;

fn reflection_types(m: &mut Mod) {
    m.push(Opcode::TypeVoid, &[VOID]);
    m.push(Opcode::TypeFunction, &[FN, VOID]);
    m.push(Opcode::TypeInt, &[INT, 32, 0]);
    m.push(Opcode::TypePointer, &[PRIVATE_INT, 6, INT]);
}

/// A function `id` whose body loads `loads` and calls `calls`, with ids from `next`.
fn function(m: &mut Mod, id: u32, loads: &[u32], calls: &[u32], next: &mut u32) {
    m.push(Opcode::Function, &[VOID, id, 0, FN]);
    m.push(Opcode::Label, &[*next]);
    *next += 1;
    for &v in loads {
        m.push(Opcode::Load, &[INT, *next, v]);
        *next += 1;
    }
    for &f in calls {
        m.push(Opcode::FunctionCall, &[VOID, *next, f]);
        *next += 1;
    }
    m.push(Opcode::Return, &[]);
    m.push(Opcode::FunctionEnd, &[]);
}

/// Many entry points naming one function that has many execution modes: each entry
/// point has every mode (E·M if each copied them).
pub(crate) fn entry_points_sharing_modes(n: usize) -> Input {
    let count = (n / 10) as u32;
    let mut m = Mod::new();
    shader_header(&mut m);
    let f = FIRST_FREE;
    for _ in 0..count {
        m.string(Opcode::EntryPoint, &[5, f], b"m");
    }
    for _ in 0..count {
        m.push(Opcode::ExecutionMode, &[f, 17, 1, 1, 1]);
    }
    reflection_types(&mut m);
    let mut next = f + 1;
    function(&mut m, f, &[], &[], &mut next);
    m.done(next as usize)
}

/// Many `Uniform` variables over one deep chain of array types: each is a resource
/// with every dimension (V·D if each walked the chain).
pub(crate) fn variables_over_array_chain(n: usize) -> Input {
    let count = (n / 8) as u32;
    let mut m = Mod::new();
    shader_header(&mut m);
    reflection_types(&mut m);
    m.push(Opcode::Constant, &[INT, 7, 3]);
    let first = FIRST_FREE;
    for i in 0..count {
        let element = if i == 0 { INT } else { first + i - 1 };
        m.push(Opcode::TypeArray, &[first + i, element, 7]);
    }
    let pointer = first + count;
    m.push(Opcode::TypePointer, &[pointer, 2, first + count - 1]);
    for i in 0..count {
        m.push(Opcode::Variable, &[pointer, pointer + 1 + i, 2]);
    }
    m.done((pointer + 1 + count) as usize)
}

/// Many entry points, each its own function, all calling one long chain of functions
/// whose last one uses a variable (E·L if each entry point walked the chain).
pub(crate) fn entry_points_calling_a_chain(n: usize) -> Input {
    let count = (n / 30) as u32;
    let mut m = Mod::new();
    shader_header(&mut m);
    let chain = FIRST_FREE;
    let entries = chain + count;
    for e in 0..count {
        m.string(Opcode::EntryPoint, &[5, entries + e], b"m");
    }
    reflection_types(&mut m);
    let var = entries + count;
    m.push(Opcode::Variable, &[PRIVATE_INT, var, 6]);
    let mut next = var + 1;
    for k in 0..count {
        if k + 1 < count {
            function(&mut m, chain + k, &[], &[chain + k + 1], &mut next);
        } else {
            function(&mut m, chain + k, &[var], &[], &mut next);
        }
    }
    for e in 0..count {
        function(&mut m, entries + e, &[], &[chain], &mut next);
    }
    m.done(next as usize)
}

/// Many entry points, each its own function using its own variable, as `spirv-asm
/// reflect` prints them with their static use (E·module if each entry point's use
/// were computed over the whole module).
pub(crate) fn entry_points_with_static_use(n: usize) -> Input {
    let count = (n / 20) as u32;
    let mut m = Mod::new();
    shader_header(&mut m);
    let functions = FIRST_FREE;
    let vars = functions + count;
    for e in 0..count {
        m.string(Opcode::EntryPoint, &[5, functions + e], b"m");
    }
    reflection_types(&mut m);
    for e in 0..count {
        m.push(Opcode::Variable, &[PRIVATE_INT, vars + e, 6]);
    }
    let mut next = vars + count;
    for e in 0..count {
        function(&mut m, functions + e, &[vars + e], &[], &mut next);
    }
    m.done(next as usize)
}

/// Many compute entry points, each its own function using its own variable with its
/// own `LocalSize`, every variable in every interface list (SPIR-V 1.4 lists all the
/// globals an entry point uses, so one list naming them all is valid): E·E if the
/// spirv-cross format looked an entry point's own record or modes up among all of
/// them, or a variable in the default entry point's list.
pub(crate) fn compute_entry_points(n: usize) -> Input {
    let count = (n / 24) as u32;
    let mut m = Mod::new();
    shader_header(&mut m);
    let functions = FIRST_FREE;
    let vars = functions + count;
    for e in 0..count {
        // The first lists every variable; the others their own.
        let mut ops = vec![5, functions + e];
        let mut name = Vec::new();
        spirv_core::codec::encode_string(format!("main{e}").as_bytes(), &mut name);
        ops.extend(name);
        if e == 0 {
            ops.extend(vars..vars + count);
        } else {
            ops.push(vars + e);
        }
        m.push(Opcode::EntryPoint, &ops);
    }
    for e in 0..count {
        m.push(
            Opcode::ExecutionMode,
            &[functions + e, 17, e % 64 + 1, 1, 1],
        );
    }
    reflection_types(&mut m);
    for e in 0..count {
        m.push(Opcode::Variable, &[PRIVATE_INT, vars + e, 6]);
    }
    let mut next = vars + count;
    for e in 0..count {
        function(&mut m, functions + e, &[vars + e], &[], &mut next);
    }
    m.done(next as usize)
}

/// Reads `read` (the words of `input`) for reflection as `spirv-asm reflect` reads
/// the words it loaded: owned, function bodies split but not read, without a copy; the
/// module gives them back afterwards (a module that does not read consumes them, and
/// they are copied again from `input`).
fn with_module<R>(input: &[u32], read: &mut Vec<u32>, f: impl FnOnce(&Module) -> R) -> Option<R> {
    let opts = spirv_core::ReadOptions {
        globals_only: true,
        ..spirv_core::ReadOptions::default()
    };
    match Module::read_owned(std::mem::take(read), &opts) {
        Ok(m) => {
            let out = f(&m);
            *read = m.into_words();
            Some(out)
        }
        Err(_) => {
            *read = input.to_vec();
            None
        }
    }
}

/// Reflects as `spirv-asm reflect --format spirv-cross` does and prints that format;
/// returns its length (0 where SPIRV-Cross would refuse the module).
pub(crate) fn spirv_cross(input: &[u32], read: &mut Vec<u32>) -> usize {
    with_module(input, read, |m| {
        let r = Reflection::new(m);
        // Written out piece by piece, as the command line writes it.
        spirv_asm::reflect_json::spirv_cross_text(&r).map_or(0, |t| {
            let mut sink = crate::Count(0);
            let _ = t.write_to(&mut sink);
            sink.0
        })
    })
    .unwrap_or(0)
}

/// Reflects as `spirv-asm reflect` does, and with `static_use` finds every entry
/// point's statically used variables; returns the number of resources and used
/// variables found.
pub(crate) fn reflect(input: &[u32], read: &mut Vec<u32>, static_use: bool) -> usize {
    with_module(input, read, |m| {
        let r = Reflection::new(m);
        let mut found = r.resources().len() + r.inputs().len();
        if static_use {
            let used = r.static_use();
            found += (0..used.len())
                .map(|i| used.globals(i).len())
                .sum::<usize>();
        }
        found
    })
    .unwrap_or(0)
}
