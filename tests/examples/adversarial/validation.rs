//! The validator's classes of the adversarial example, and the validation it runs:
//! many forward references (names of ids defined later, and of ids never defined),
//! long id lists (a struct of many members, an entry point's long interface), and a
//! deep chain of structs nested in structs.

use super::{Input, Mod, shader_header};
use spirv_core::TargetEnv;
use spirv_core::spv::Opcode;
use spirv_core::validate::{Options, validate_all};

/// Validates under SPIR-V 1.6, every fault streamed to a counter, as a caller that
/// prints them as they come would; returns the number of faults.
pub fn validate(words: &mut Vec<u32>) -> usize {
    let options = Options {
        target_env: TargetEnv::Universal1_6,
        ..Options::default()
    };
    let mut faults = 0;
    // In place, as `spirv-asm val` validates the words it read: the validator takes
    // them and gives them back, without a copy.
    validate_all(
        spirv_core::validate::Input::InPlace(words),
        &options,
        &mut |_| faults += 1,
    );
    faults
}

/// `OpName`s of `n` ids: the even ones defined later as types, the odd ones never, so
/// that the forward-reference set grows and shrinks and ends with n/2 ids.
pub fn forward_references(n: usize) -> Input {
    let mut m = Mod::new();
    shader_header(&mut m);
    for i in 0..n as u32 {
        m.string(Opcode::Name, &[10 + i], b"f");
    }
    for i in (0..n as u32).step_by(2) {
        m.push(Opcode::TypeInt, &[10 + i, 32, 0]);
    }
    m.done(n + 11)
}

/// About n ids in lists: structs of 60,000 members and entry points with interfaces of
/// 60,000 ids (an instruction has at most 65,535 words), half of the ids each.
pub fn long_id_lists(n: usize) -> Input {
    const LIST: usize = 60_000;
    let mut m = Mod::new();
    shader_header(&mut m);
    let lists = (n / 2).div_ceil(LIST) as u32;
    for k in 0..lists {
        let mut interface = vec![5, 2];
        spirv_core::codec::encode_string(format!("main{k}").as_bytes(), &mut interface);
        interface.extend((0..LIST as u32).map(|i| 100 + i));
        m.push(Opcode::EntryPoint, &interface);
    }
    m.push(Opcode::TypeInt, &[3, 32, 0]);
    for k in 0..lists {
        let mut members = vec![LIST as u32 + 200 + k];
        members.extend(std::iter::repeat_n(3, LIST));
        m.push(Opcode::TypeStruct, &members);
    }
    m.done(LIST + 300 + lists as usize)
}

/// A chain of n structs, each the only member of the next.
pub fn struct_chain(n: usize) -> Input {
    let mut m = Mod::new();
    shader_header(&mut m);
    m.push(Opcode::TypeInt, &[2, 32, 0]);
    for i in 0..n as u32 {
        m.push(Opcode::TypeStruct, &[3 + i, 2 + i]);
    }
    m.done(n + 3)
}
