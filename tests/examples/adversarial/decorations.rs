//! The decoration rules' classes of the adversarial example: a decoration group on
//! many targets (spirv-val copies the group's decorations into each), a block read by
//! many variables, structs nested deep behind a physical storage buffer pointer (whose
//! layout is checked in every environment), and block members over a long chain of
//! arrays (each member walks the chain), and a group on many values the optimizer folds
//! (each folded value leaves the group's target list). Each input is about n words.

use super::{Input, Mod};
use spirv_core::spv::Opcode;

/// `OpCapability Shader` and `Linkage`, `OpMemoryModel Logical GLSL450`.
fn linkage_header(m: &mut Mod) {
    m.push(Opcode::Capability, &[1]);
    m.push(Opcode::Capability, &[5]);
    m.push(Opcode::MemoryModel, &[0, 1]);
}

/// `OpCapability Shader`, `PhysicalStorageBufferAddresses` and `Linkage`,
/// `OpMemoryModel PhysicalStorageBuffer64 GLSL450`.
fn physical_header(m: &mut Mod) {
    m.push(Opcode::Capability, &[1]);
    m.push(Opcode::Capability, &[5347]);
    m.push(Opcode::Capability, &[5]);
    m.push(Opcode::MemoryModel, &[5348, 1]);
}

/// A group of n/16 `FuncParamAttr`s and a `Location`, applied to n/5 `OpUndef`s.
pub fn group_on_many_targets(n: usize) -> Input {
    let mut m = Mod::new();
    linkage_header(&mut m);
    let group = 2;
    for i in 0..(n / 16).max(1) as u32 {
        m.push(Opcode::Decorate, &[group, 38, i % 8]);
    }
    m.push(Opcode::Decorate, &[group, 30, 0]);
    m.push(Opcode::DecorationGroup, &[group]);
    let targets = (n / 5).max(1) as u32;
    let first = 10;
    for chunk in (first..first + targets).collect::<Vec<_>>().chunks(60_000) {
        let mut ops = vec![group];
        ops.extend_from_slice(chunk);
        m.push(Opcode::GroupDecorate, &ops);
    }
    m.push(Opcode::TypeInt, &[3, 32, 0]);
    for t in first..first + targets {
        m.push(Opcode::Undef, &[3, t]);
    }
    m.done((first + targets) as usize)
}

/// A `Block` struct of n/24 members with offsets (at most 16,383, the limit of a
/// struct's members, past which the module is rejected before any layout), and n/8
/// Uniform variables of it.
pub fn variables_of_one_wide_block(n: usize) -> Input {
    let mut m = Mod::new();
    linkage_header(&mut m);
    let (float, block, pointer, first) = (2, 3, 4, 10);
    let members = (n / 24).clamp(1, 16_383) as u32;
    m.push(Opcode::Decorate, &[block, 2]);
    for k in 0..members {
        m.push(Opcode::MemberDecorate, &[block, k, 35, 4 * k]);
    }
    m.push(Opcode::TypeFloat, &[float, 32]);
    let mut ops = vec![block];
    ops.extend(std::iter::repeat_n(float, members as usize));
    m.push(Opcode::TypeStruct, &ops);
    m.push(Opcode::TypePointer, &[pointer, 2, block]);
    let variables = (n / 8).max(1) as u32;
    for v in first..first + variables {
        m.push(Opcode::Variable, &[pointer, v, 2]);
    }
    m.done((first + variables) as usize)
}

/// n/14 structs, each a float and the previous one at offset 16, behind a physical
/// storage buffer pointer. Past 255 levels each struct is a fault of the nesting
/// limit; faults go on being reported, so the layout is still checked.
pub fn structs_behind_a_physical_pointer(n: usize) -> Input {
    let mut m = Mod::new();
    physical_header(&mut m);
    let depth = (n / 14).max(1) as u32;
    let (float, first) = (2, 10);
    for i in 0..depth {
        let s = first + i;
        m.push(Opcode::MemberDecorate, &[s, 0, 35, 0]);
        m.push(
            Opcode::MemberDecorate,
            &[s, 1, 35, if i == 0 { 4 } else { 16 }],
        );
    }
    m.push(Opcode::TypeFloat, &[float, 32]);
    m.push(Opcode::TypeStruct, &[first, float, float]);
    for i in 1..depth {
        m.push(Opcode::TypeStruct, &[first + i, float, first + i - 1]);
    }
    let (pointer, undef) = (first + depth, first + depth + 1);
    m.push(Opcode::TypePointer, &[pointer, 5349, first + depth - 1]);
    m.push(Opcode::Undef, &[pointer, undef]);
    m.done(undef as usize + 1)
}

/// A chain of n/16 arrays of one element (each with `ArrayStride` 4), and a struct of
/// n/16 members of its last, behind a physical storage buffer pointer.
pub fn members_over_an_array_chain(n: usize) -> Input {
    let mut m = Mod::new();
    physical_header(&mut m);
    let (uint, float, one, first) = (2, 3, 4, 10);
    let depth = (n / 16).max(1) as u32;
    let members = (n / 16).max(1) as u32;
    for i in 0..depth {
        m.push(Opcode::Decorate, &[first + i, 6, 4]);
    }
    let s = first + depth;
    for k in 0..members {
        m.push(Opcode::MemberDecorate, &[s, k, 35, 4 * k]);
    }
    m.push(Opcode::TypeInt, &[uint, 32, 0]);
    m.push(Opcode::TypeFloat, &[float, 32]);
    m.push(Opcode::Constant, &[uint, one, 1]);
    m.push(Opcode::TypeArray, &[first, float, one]);
    for i in 1..depth {
        m.push(Opcode::TypeArray, &[first + i, first + i - 1, one]);
    }
    let mut ops = vec![s];
    ops.extend(std::iter::repeat_n(s - 1, members as usize));
    m.push(Opcode::TypeStruct, &ops);
    let (pointer, undef) = (s + 1, s + 2);
    m.push(Opcode::TypePointer, &[pointer, 5349, s]);
    m.push(Opcode::Undef, &[pointer, undef]);
    m.done(undef as usize + 1)
}

/// A compute shader whose one function adds 1 to a constant n/6 times, storing the sum
/// to a private variable, every sum a target of one `RelaxedPrecision` group: constant
/// propagation folds each sum and takes it out of the group's targets, one at a time.
pub fn group_on_folded_values(n: usize) -> Input {
    let mut m = Mod::new();
    m.push(Opcode::Capability, &[1]);
    m.push(Opcode::MemoryModel, &[0, 1]);
    let (main, void, func, int, one, ptr, var, group, first) = (2, 3, 4, 5, 6, 7, 8, 9, 20);
    m.string(Opcode::EntryPoint, &[5, main], b"main");
    m.push(Opcode::ExecutionMode, &[main, 17, 1, 1, 1]);
    m.push(Opcode::Decorate, &[group, 0]);
    m.push(Opcode::DecorationGroup, &[group]);
    let sums = (n / 6).max(1) as u32;
    for chunk in (first..first + sums).collect::<Vec<_>>().chunks(60_000) {
        let mut ops = vec![group];
        ops.extend_from_slice(chunk);
        m.push(Opcode::GroupDecorate, &ops);
    }
    m.push(Opcode::TypeVoid, &[void]);
    m.push(Opcode::TypeFunction, &[func, void]);
    m.push(Opcode::TypeInt, &[int, 32, 1]);
    m.push(Opcode::Constant, &[int, one, 1]);
    m.push(Opcode::TypePointer, &[ptr, 6, int]);
    m.push(Opcode::Variable, &[ptr, var, 6]);
    m.push(Opcode::Function, &[void, main, 0, func]);
    m.push(Opcode::Label, &[first + sums]);
    let mut last = one;
    for s in first..first + sums {
        m.push(Opcode::IAdd, &[int, s, last, one]);
        last = s;
    }
    m.push(Opcode::Store, &[var, last]);
    m.push(Opcode::Return, &[]);
    m.push(Opcode::FunctionEnd, &[]);
    m.done((first + sums + 1) as usize)
}
