//! The control-flow classes of the adversarial example: functions whose graphs push
//! the validator's control-flow rules (dominators, constructs, structured exits,
//! switches, `OpPhi`, dominance of uses, blocks defined elsewhere) to their worst.
//! Each makes a shader module of about n blocks; their names begin with `cfg:`.

use super::{Input, Mod, shader_header};
use spirv_core::spv::Opcode;

/// Ids below this are the fixed ones of [`prelude`].
const FIRST: u32 = 20;

/// Capabilities, memory model, and the types and constants the classes use: `%2` void,
/// `%3` bool, `%4` true, `%5` int, `%6` 0, `%7` 1, `%8` void function type; then the
/// `OpFunction` `%9`.
fn prelude(m: &mut Mod) {
    shader_header(m);
    m.push(Opcode::Capability, &[5]); // Linkage: no entry point needed.
    m.push(Opcode::TypeVoid, &[2]);
    m.push(Opcode::TypeBool, &[3]);
    m.push(Opcode::ConstantTrue, &[3, 4]);
    m.push(Opcode::TypeInt, &[5, 32, 1]);
    m.push(Opcode::Constant, &[5, 6, 0]);
    m.push(Opcode::Constant, &[5, 7, 1]);
    m.push(Opcode::TypeFunction, &[8, 2]);
    m.push(Opcode::Function, &[2, 9, 0, 8]);
}

/// Ids handed out in order.
struct Ids(u32);

impl Ids {
    fn next(&mut self) -> u32 {
        self.0 += 1;
        self.0 - 1
    }
}

/// Selections nested 1,000 deep (just under spirv-val's nesting limit) around a chain
/// of n blocks: every block of the chain is in every construct, so that a validator
/// that lists each construct's blocks does a thousand times the work.
pub fn deep_selections(n: usize) -> Input {
    let mut m = Mod::new();
    prelude(&mut m);
    let mut ids = Ids(FIRST);
    let depth = 1000;
    let headers: Vec<u32> = (0..depth).map(|_| ids.next()).collect();
    let merges: Vec<u32> = (0..depth).map(|_| ids.next()).collect();
    let chain: Vec<u32> = (0..n).map(|_| ids.next()).collect();
    for i in 0..depth {
        let inner = if i + 1 < depth {
            headers[i + 1]
        } else {
            chain[0]
        };
        m.push(Opcode::Label, &[headers[i]]);
        m.push(Opcode::SelectionMerge, &[merges[i], 0]);
        m.push(Opcode::BranchConditional, &[4, inner, merges[i]]);
    }
    for (k, &b) in chain.iter().enumerate() {
        m.push(Opcode::Label, &[b]);
        let next = chain.get(k + 1).copied().unwrap_or(merges[depth - 1]);
        m.push(Opcode::Branch, &[next]);
    }
    for i in (0..depth).rev() {
        m.push(Opcode::Label, &[merges[i]]);
        if i > 0 {
            m.push(Opcode::Branch, &[merges[i - 1]]);
        } else {
            m.push(Opcode::Return, &[]);
        }
    }
    m.push(Opcode::FunctionEnd, &[]);
    m.done(ids.0 as usize)
}

/// A loop whose body is n selections in sequence, each breaking out of the loop:
/// every selection's structured exits are found by a walk up through all those
/// before it.
pub fn breaks_in_sequence(n: usize) -> Input {
    let mut m = Mod::new();
    prelude(&mut m);
    let mut ids = Ids(FIRST);
    let count = n / 3;
    let (entry, header, cont, merge) = (ids.next(), ids.next(), ids.next(), ids.next());
    let selections: Vec<(u32, u32)> = (0..count).map(|_| (ids.next(), ids.next())).collect();
    m.push(Opcode::Label, &[entry]);
    m.push(Opcode::Branch, &[header]);
    m.push(Opcode::Label, &[header]);
    m.push(Opcode::LoopMerge, &[merge, cont, 0]);
    m.push(Opcode::Branch, &[selections[0].0]);
    for (k, &(head, then)) in selections.iter().enumerate() {
        // The next selection's header is this one's merge block.
        let after = selections.get(k + 1).map_or(cont, |s| s.0);
        m.push(Opcode::Label, &[head]);
        m.push(Opcode::SelectionMerge, &[after, 0]);
        m.push(Opcode::BranchConditional, &[4, then, after]);
        m.push(Opcode::Label, &[then]);
        m.push(Opcode::Branch, &[merge]);
    }
    m.push(Opcode::Label, &[cont]);
    m.push(Opcode::Branch, &[header]);
    m.push(Opcode::Label, &[merge]);
    m.push(Opcode::Return, &[]);
    m.push(Opcode::FunctionEnd, &[]);
    m.done(ids.0 as usize)
}

/// Headers in a chain of n, each the merge block of an unreachable selection so that
/// its nesting depth stays 0, and their merge blocks in the reverse order after the
/// chain: every construct holds every later header, n²/2 blocks in all, under
/// spirv-val's nesting limit.
pub fn shallow_overlapping(n: usize) -> Input {
    let mut m = Mod::new();
    prelude(&mut m);
    let mut ids = Ids(FIRST);
    let count = n / 3;
    let entry = ids.next();
    let headers: Vec<u32> = (0..count).map(|_| ids.next()).collect();
    let merges: Vec<u32> = (0..count).map(|_| ids.next()).collect();
    let resetters: Vec<u32> = (0..count).map(|_| ids.next()).collect();
    let last = ids.next();
    m.push(Opcode::Label, &[entry]);
    m.push(Opcode::Branch, &[headers[0]]);
    for i in 0..count {
        let inner = headers.get(i + 1).copied().unwrap_or(last);
        m.push(Opcode::Label, &[headers[i]]);
        m.push(Opcode::SelectionMerge, &[merges[i], 0]);
        m.push(Opcode::BranchConditional, &[4, inner, merges[i]]);
    }
    m.push(Opcode::Label, &[last]);
    m.push(Opcode::Branch, &[merges[count - 1]]);
    for i in (0..count).rev() {
        m.push(Opcode::Label, &[merges[i]]);
        if i > 0 {
            m.push(Opcode::Branch, &[merges[i - 1]]);
        } else {
            m.push(Opcode::Return, &[]);
        }
    }
    // Unreachable selections whose merge blocks are the headers 1.. (depth 0).
    for i in 1..count {
        m.push(Opcode::Label, &[resetters[i]]);
        m.push(Opcode::SelectionMerge, &[headers[i], 0]);
        m.push(Opcode::Switch, &[6, headers[i]]);
    }
    m.push(Opcode::FunctionEnd, &[]);
    m.done(ids.0 as usize)
}

/// A switch of n cases, each falling through to the next, the last to the merge.
pub fn switch_fall_through(n: usize) -> Input {
    let mut m = Mod::new();
    prelude(&mut m);
    let mut ids = Ids(FIRST);
    let count = (n / 2).min(16_000);
    let functions = n.div_ceil(2 * count);
    for f in 0..functions {
        if f > 0 {
            let id = ids.next();
            m.push(Opcode::Function, &[2, id, 0, 8]);
        }
        let (entry, merge) = (ids.next(), ids.next());
        let cases: Vec<u32> = (0..count).map(|_| ids.next()).collect();
        m.push(Opcode::Label, &[entry]);
        m.push(Opcode::SelectionMerge, &[merge, 0]);
        let mut ops = vec![6, merge];
        for (k, &c) in cases.iter().enumerate() {
            ops.extend_from_slice(&[k as u32, c]);
        }
        m.push(Opcode::Switch, &ops);
        for (k, &c) in cases.iter().enumerate() {
            m.push(Opcode::Label, &[c]);
            m.push(
                Opcode::Branch,
                &[cases.get(k + 1).copied().unwrap_or(merge)],
            );
        }
        m.push(Opcode::Label, &[merge]);
        m.push(Opcode::Return, &[]);
        m.push(Opcode::FunctionEnd, &[]);
    }
    m.done(ids.0 as usize)
}

/// A ladder of n blocks, each branching to the next and to the last, where a naive
/// iterative dominator computation walks the whole chain for each block; without
/// `Shader`, so that only the dominator rules apply.
pub fn dominator_ladder(n: usize) -> Input {
    let mut m = Mod::new();
    m.push(Opcode::Capability, &[6]); // Kernel
    m.push(Opcode::Capability, &[5]); // Linkage
    m.push(Opcode::Capability, &[4]); // Addresses
    m.push(Opcode::MemoryModel, &[1, 2]);
    m.push(Opcode::TypeVoid, &[2]);
    m.push(Opcode::TypeBool, &[3]);
    m.push(Opcode::ConstantTrue, &[3, 4]);
    m.push(Opcode::TypeFunction, &[8, 2]);
    m.push(Opcode::Function, &[2, 9, 0, 8]);
    let mut ids = Ids(FIRST);
    let blocks: Vec<u32> = (0..n).map(|_| ids.next()).collect();
    let last = ids.next();
    for (k, &b) in blocks.iter().enumerate() {
        m.push(Opcode::Label, &[b]);
        let next = blocks.get(k + 1).copied().unwrap_or(last);
        if next == last {
            m.push(Opcode::Branch, &[last]);
        } else {
            m.push(Opcode::BranchConditional, &[4, next, last]);
        }
    }
    m.push(Opcode::Label, &[last]);
    m.push(Opcode::Return, &[]);
    m.push(Opcode::FunctionEnd, &[]);
    m.done(ids.0 as usize)
}

/// A chain of n blocks, each defining a value from the one before and branching on,
/// and a last block that merges all of them in an `OpPhi` of n values and uses each:
/// dominance of every use, and an `OpPhi` as wide as the function.
pub fn values_and_phi(n: usize) -> Input {
    let mut m = Mod::new();
    prelude(&mut m);
    let mut ids = Ids(FIRST);
    let count = (n / 2).min(30_000);
    let (entry, last) = (ids.next(), ids.next());
    let blocks: Vec<u32> = (0..count).map(|_| ids.next()).collect();
    let values: Vec<u32> = (0..count).map(|_| ids.next()).collect();
    let phi = ids.next();
    m.push(Opcode::Label, &[entry]);
    m.push(Opcode::Branch, &[blocks[0]]);
    for k in 0..count {
        m.push(Opcode::Label, &[blocks[k]]);
        let before = if k == 0 { 7 } else { values[k - 1] };
        m.push(Opcode::IAdd, &[5, values[k], before, 7]);
        m.push(
            Opcode::Branch,
            &[blocks.get(k + 1).copied().unwrap_or(last)],
        );
    }
    m.push(Opcode::Label, &[last]);
    m.push(Opcode::Phi, &[5, phi, values[count - 1], blocks[count - 1]]);
    for v in &values {
        let id = ids.next();
        m.push(Opcode::IAdd, &[5, id, *v, phi]);
    }
    m.push(Opcode::Return, &[]);
    m.push(Opcode::FunctionEnd, &[]);
    m.done(ids.0 as usize)
}

/// A function that branches to n blocks of another function: spirv-val's list of
/// blocks referenced but not defined.
pub fn foreign_blocks(n: usize) -> Input {
    let mut m = Mod::new();
    prelude(&mut m);
    let mut ids = Ids(FIRST);
    let count = (n / 2).min(16_000);
    let theirs: Vec<u32> = (0..count).map(|_| ids.next()).collect();
    for &b in &theirs {
        m.push(Opcode::Label, &[b]);
        m.push(Opcode::Return, &[]);
    }
    m.push(Opcode::FunctionEnd, &[]);
    let (f, entry, merge) = (ids.next(), ids.next(), ids.next());
    m.push(Opcode::Function, &[2, f, 0, 8]);
    m.push(Opcode::Label, &[entry]);
    m.push(Opcode::SelectionMerge, &[merge, 0]);
    let mut ops = vec![6, merge];
    for (k, &c) in theirs.iter().enumerate() {
        ops.extend_from_slice(&[k as u32, c]);
    }
    m.push(Opcode::Switch, &ops);
    m.push(Opcode::Label, &[merge]);
    m.push(Opcode::Return, &[]);
    m.push(Opcode::FunctionEnd, &[]);
    m.done(ids.0 as usize)
}
