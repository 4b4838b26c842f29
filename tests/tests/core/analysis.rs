//! `spirv_core::analysis`: the call graph, static use, control-flow graphs and the type
//! table on crafted modules (recursion, unreachable blocks, a function without an end,
//! call paths that meet) and over the corpus against plain one-walk-per-question
//! answers; and reflection from a `globals_only` read equal to reflection from a full
//! read on every corpus module.

use spirv_asm_macros::spirv_asm;
use spirv_core::analysis::{CallGraph, CallRules, Cfg, Type, TypeTable};
use spirv_core::reflect::Reflection;
use spirv_core::spv::Opcode;
use spirv_core::target_env_version;
use spirv_core::{Id, Module, ReadOptions};
use spirv_tests::{files, read_words, require_corpus};

fn module(words: &[u32]) -> Module {
    Module::from_words(words).expect("reads")
}

/// A module from `(opcode, operands)` pairs, for shapes the assembler's text would not
/// make readable (a function without its end).
fn raw(insts: &[(Opcode, &[u32])], bound: u32) -> Vec<u32> {
    let mut w = vec![spirv_core::binary::MAGIC, 0x0001_0000, 0, bound, 0];
    for (op, ops) in insts {
        w.push(((ops.len() as u32 + 1) << 16) | u32::from(op.0));
        w.extend_from_slice(ops);
    }
    w
}

/// The globals an entry point's function reaches, by a walk of its own: the answer
/// [`StaticUse`](spirv_core::analysis::StaticUse) must give.
fn walked_use(g: &CallGraph, function: Option<usize>) -> Vec<Id> {
    let reached = g.reached(function);
    let used: std::collections::HashSet<Id> = (0..g.functions().len())
        .filter(|&f| reached[f])
        .flat_map(|f| g.uses(f))
        .collect();
    g.globals()
        .iter()
        .copied()
        .filter(|v| used.contains(v))
        .collect()
}

const RECURSION: &[u32] = spirv_asm!(
    r#"
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpEntryPoint GLCompute %self "self"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
        %ptr = OpTypePointer Private %uint
          %a = OpVariable %ptr Private
          %b = OpVariable %ptr Private
          %c = OpVariable %ptr Private
       %main = OpFunction %void None %fn
          %1 = OpLabel
          %2 = OpFunctionCall %void %ping
          %3 = OpFunctionCall %void %ping
               OpReturn
               OpFunctionEnd
       %ping = OpFunction %void None %fn
          %4 = OpLabel
          %5 = OpLoad %uint %a
          %6 = OpFunctionCall %void %pong
               OpReturn
               OpFunctionEnd
       %pong = OpFunction %void None %fn
          %7 = OpLabel
          %8 = OpLoad %uint %b
          %9 = OpFunctionCall %void %ping
               OpReturn
               OpFunctionEnd
       %self = OpFunction %void None %fn
         %10 = OpLabel
         %11 = OpLoad %uint %c
         %12 = OpFunctionCall %void %self
               OpReturn
               OpFunctionEnd
"#
);

#[test]
fn recursion_is_found_and_static_use_crosses_it() {
    let m = module(RECURSION);
    let g = CallGraph::new(&m);
    assert_eq!(g.functions().len(), 4);
    assert_eq!(g.globals().len(), 3);
    let [main, ping, pong, own] = [0, 1, 2, 3];
    // Each callee once, however often it is called.
    assert_eq!(g.callees(main).collect::<Vec<_>>(), [ping]);
    assert_eq!(g.callees(ping).collect::<Vec<_>>(), [pong]);
    assert_eq!(g.callees(own).collect::<Vec<_>>(), [own]);
    assert!(!g.is_recursive(main));
    assert!(g.is_recursive(ping) && g.is_recursive(pong) && g.is_recursive(own));
    assert_eq!(g.reached([ping]), [false, true, true, false]);
    let used = g.static_use();
    assert_eq!(used.len(), 2);
    assert_eq!(used.globals(0), &g.globals()[..2]);
    assert_eq!(used.globals(1), &g.globals()[2..]);
    assert!(used.globals(2).is_empty(), "past the last entry point");
    // Reflection answers the same, one entry point or all at once.
    let r = Reflection::new(&m);
    for (i, e) in r.entry_points().iter().enumerate() {
        assert_eq!(r.used_variables(e), used.globals(i));
        assert_eq!(r.static_use().globals(i), used.globals(i));
    }
}

#[test]
fn a_function_without_its_end_runs_to_the_module_end() {
    // %3 ends; %4 is called by %3 and never ends. The analyses find both in the
    // instructions themselves, whatever the reader makes of the second.
    let words = raw(
        &[
            (Opcode::EntryPoint, &[5, 3, 0]),
            (Opcode::TypeVoid, &[1]),
            (Opcode::TypeFunction, &[2, 1]),
            (Opcode::TypeInt, &[6, 32, 0]),
            (Opcode::TypePointer, &[7, 6, 6]),
            (Opcode::Variable, &[7, 8, 6]),
            (Opcode::Function, &[1, 3, 0, 2]),
            (Opcode::Label, &[10]),
            (Opcode::FunctionCall, &[1, 11, 4]),
            (Opcode::Return, &[]),
            (Opcode::FunctionEnd, &[]),
            (Opcode::Function, &[1, 4, 0, 2]),
            (Opcode::Label, &[12]),
            (Opcode::Load, &[6, 13, 8]),
            (Opcode::Branch, &[14]),
            (Opcode::Label, &[14]),
            (Opcode::Return, &[]),
        ],
        20,
    );
    let m = module(&words);
    let g = CallGraph::new(&m);
    let [done, open] = g.functions() else {
        panic!("two functions: {:?}", g.functions())
    };
    assert!(done.terminated && !open.terminated);
    assert_eq!((open.id, open.instructions.clone()), (Id(4), 11..17));
    assert_eq!(g.callees(0).collect::<Vec<_>>(), [1]);
    assert_eq!(g.static_use().globals(0), [Id(8)]);
    let cfg = Cfg::new(&m, open.instructions.clone());
    assert_eq!(cfg.len(), 2);
    assert!(cfg.end().is_err(), "no OpFunctionEnd");
    assert_eq!(cfg.instructions(1), 15..17);
    assert_eq!(cfg.successors(0).collect::<Vec<_>>(), [1]);
    // A nested OpFunction is an ordinary instruction of the function around it.
    let nested = raw(
        &[
            (Opcode::TypeVoid, &[1]),
            (Opcode::TypeFunction, &[2, 1]),
            (Opcode::Function, &[1, 3, 0, 2]),
            (Opcode::Label, &[10]),
            (Opcode::Function, &[1, 4, 0, 2]),
            (Opcode::Return, &[]),
            (Opcode::FunctionEnd, &[]),
        ],
        20,
    );
    let m = module(&nested);
    let g = CallGraph::new(&m);
    assert_eq!(g.functions().len(), 1);
    assert_eq!(g.functions()[0].instructions, 2..7);
}

#[test]
fn spirv_opt_call_rules_add_conditional_roots_exports_and_breadth_first_order() {
    let words = raw(
        &[
            (Opcode::EntryPoint, &[5, 3, 0]),
            (Opcode::ConditionalEntryPointINTEL, &[7, 5, 6, 0]),
            // LinkageAttributes "x" Export.
            (Opcode::Decorate, &[5, 41, 0x78, 0]),
            (Opcode::TypeVoid, &[1]),
            (Opcode::TypeFunction, &[2, 1]),
            (Opcode::TypeBool, &[8]),
            (Opcode::ConstantTrue, &[8, 7]),
            (Opcode::Function, &[1, 3, 0, 2]),
            (Opcode::Label, &[10]),
            (Opcode::FunctionCall, &[1, 11, 4]),
            (Opcode::FunctionCall, &[1, 12, 5]),
            (Opcode::Return, &[]),
            (Opcode::FunctionEnd, &[]),
            (Opcode::Function, &[1, 4, 0, 2]),
            (Opcode::Label, &[13]),
            (Opcode::FunctionCall, &[1, 14, 6]),
            (Opcode::Return, &[]),
            (Opcode::FunctionEnd, &[]),
            (Opcode::Function, &[1, 5, 0, 2]),
            (Opcode::Label, &[15]),
            (Opcode::FunctionCall, &[1, 16, 4]),
            (Opcode::Return, &[]),
            (Opcode::FunctionEnd, &[]),
            (Opcode::Function, &[1, 6, 0, 2]),
            (Opcode::Label, &[17]),
            (Opcode::Return, &[]),
            (Opcode::FunctionEnd, &[]),
        ],
        20,
    );
    let m = module(&words);
    let plain = CallGraph::new(&m);
    let opt = CallGraph::with_rules(&m, CallRules::SpirvOpt);
    assert_eq!(plain.roots().len(), 1, "OpEntryPoint only");
    let roots: Vec<_> = opt.roots().iter().map(|r| r.index).collect();
    assert_eq!(roots, [Some(0), Some(3)], "the conditional entry point too");
    assert_eq!(opt.exports(), [2]);
    let mut seen = vec![false; opt.functions().len()];
    // %3 calls %4 then %5, and %4 calls %6: breadth first is %3 %4 %5 %6.
    assert_eq!(opt.breadth_first([0], &mut seen), [0, 1, 2, 3]);
    assert_eq!(opt.breadth_first([2], &mut seen), [2, 1, 3]);
    assert!(seen.iter().all(|s| !s), "the flags are false again");
}

const BRANCHES: &[u32] = spirv_asm!(
    r#"
               OpCapability Shader
               OpMemoryModel Logical GLSL450
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
        %yes = OpConstantTrue %bool
          %0 = OpConstant %uint 0
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpSelectionMerge %merge None
               OpSwitch %0 %merge 1 %one 2 %two 3 %one
        %one = OpLabel
               OpBranch %merge
        %two = OpLabel
               OpLoopMerge %exit %cont None
               OpBranchConditional %yes %cont %exit
       %cont = OpLabel
               OpBranch %two
       %exit = OpLabel
               OpBranch %merge
       %dead = OpLabel
               OpBranch %merge
      %merge = OpLabel
               OpReturn
               OpFunctionEnd
"#
);

#[test]
fn cfg_successors_predecessors_and_unreachable_blocks() {
    let m = module(BRANCHES);
    let g = CallGraph::new(&m);
    let cfg = Cfg::new(&m, g.functions()[0].instructions.clone());
    let label = |i: usize| cfg.block(i).expect("block").label;
    assert_eq!(cfg.len(), 7);
    let [entry, one, two, cont, exit, dead, merge] = [0, 1, 2, 3, 4, 5, 6];
    assert_eq!(cfg.block_of(label(merge)), Some(merge));
    // The switch's default, then its cases; a case target named twice comes twice.
    assert_eq!(
        cfg.successors(entry).collect::<Vec<_>>(),
        [merge, one, two, one]
    );
    let header = cfg.block(two).expect("loop header");
    assert_eq!(
        (header.merge, header.continue_target, header.conditional),
        (Some(label(exit)), Some(label(cont)), true)
    );
    let preds = cfg.predecessors();
    assert_eq!(preds.of(two).collect::<Vec<_>>(), [entry, cont]);
    assert_eq!(
        preds.of(merge).collect::<Vec<_>>(),
        [entry, one, exit, dead]
    );
    assert_eq!(preds.of(dead).len(), 0);
    assert_eq!(preds.of(99).len(), 0, "past the last block");
    // Structured order: constructs before their merge blocks, the unreachable block last.
    let order = cfg.structured_order();
    assert_eq!(order.last(), Some(&dead));
    assert_eq!(order[0], entry);
    let at = |b: usize| order.iter().position(|&x| x == b).expect("listed");
    assert!(at(two) < at(exit) && at(exit) < at(merge) && at(one) < at(merge));
    assert_eq!(cfg.end().map(|_| ()), Ok(()));
    // Word ranges tile the blocks.
    for i in 0..cfg.len() - 1 {
        assert_eq!(cfg.words(i).end, cfg.words(i + 1).start);
    }
}

#[test]
fn type_table_reads_every_type_once() {
    let m = module(BRANCHES);
    let types = TypeTable::new(&m);
    let kinds: Vec<_> = types.iter().map(|(_, t)| t.clone()).collect();
    assert_eq!(types.len(), 4);
    assert!(matches!(kinds[0], Type::Void));
    assert!(matches!(
        kinds[3],
        Type::Int {
            width: 32,
            signed: false
        }
    ));
    assert!(!types.is_empty());
    assert_eq!(types.strip_arrays(Id(1)), (Id(1), 0));
    assert_eq!(types.arrays(Id(1)).len(), 0);
    assert_eq!(target_env_version("vulkan1.1spv1.4"), Some((1, 4)));
}

/// A module of functions `100 + k`, function `k` loading the variables `uses[k]`
/// (`50 + v`) and calling `calls[k]`, with an entry point for each of `entries`.
fn call_module(calls: &[Vec<u32>], uses: &[Vec<u32>], entries: &[u32]) -> Vec<u32> {
    let mut insts: Vec<(Opcode, Vec<u32>)> = Vec::new();
    for &e in entries {
        insts.push((Opcode::EntryPoint, vec![5, 100 + e, 0]));
    }
    insts.push((Opcode::TypeVoid, vec![1]));
    insts.push((Opcode::TypeFunction, vec![2, 1]));
    insts.push((Opcode::TypeInt, vec![3, 32, 0]));
    insts.push((Opcode::TypePointer, vec![4, 6, 3]));
    for v in 0..40 {
        insts.push((Opcode::Variable, vec![4, 50 + v, 6]));
    }
    let mut next = 1000;
    for (k, callees) in calls.iter().enumerate() {
        insts.push((Opcode::Function, vec![1, 100 + k as u32, 0, 2]));
        insts.push((Opcode::Label, vec![next]));
        next += 1;
        for &v in &uses[k] {
            insts.push((Opcode::Load, vec![3, next, 50 + v]));
            next += 1;
        }
        for &c in callees {
            insts.push((Opcode::FunctionCall, vec![1, next, 100 + c]));
            next += 1;
        }
        insts.push((Opcode::Return, vec![]));
        insts.push((Opcode::FunctionEnd, vec![]));
    }
    let refs: Vec<(Opcode, &[u32])> = insts.iter().map(|(o, v)| (*o, &v[..])).collect();
    raw(&refs, next)
}

/// Many entry points over shared functions (diamonds, chains, callees reached from
/// several regions, cycles, entry points that call each other, one function named by
/// two entry points): the one-pass answer equals a walk per entry point, on a fixed
/// graph and on 300 random ones.
#[test]
fn static_use_of_shared_call_paths_equals_one_walk_per_entry_point() {
    let calls: Vec<Vec<u32>> = [
        &[1, 2][..], // 0: entry
        &[3],        // 1
        &[3],        // 2: diamond 0 → 1, 2 → 3
        &[4],        // 3
        &[5],        // 4: chain
        &[],         // 5
        &[3, 7],     // 6: entry, joins the diamond's bottom
        &[5],        // 7
        &[8],        // 8: calls itself
        &[6, 8, 0],  // 9: entry over everything
    ]
    .iter()
    .map(|c| c.to_vec())
    .collect();
    let uses: Vec<Vec<u32>> = (0..calls.len() as u32).map(|k| vec![k % 7]).collect();
    let mut cases = vec![(calls, uses, vec![0, 6, 9, 6, 5])];
    // A small linear congruential generator: the same graphs on every run.
    let mut seed = 0x2545_f491_u64;
    let mut rand = |below: u32| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        ((seed >> 33) % u64::from(below.max(1))) as u32
    };
    for _ in 0..300 {
        let n = 1 + rand(24);
        let calls = (0..n)
            .map(|_| (0..rand(4)).map(|_| rand(n)).collect())
            .collect();
        let uses = (0..n)
            .map(|_| (0..rand(3)).map(|_| rand(40)).collect())
            .collect();
        let entries = (0..1 + rand(6)).map(|_| rand(n)).collect();
        cases.push((calls, uses, entries));
    }
    for (case, (calls, uses, entries)) in cases.iter().enumerate() {
        let m = module(&call_module(calls, uses, entries));
        let g = CallGraph::new(&m);
        assert_eq!(g.functions().len(), calls.len());
        let used = g.static_use();
        for (i, root) in g.roots().iter().enumerate() {
            assert_eq!(
                used.globals(i),
                walked_use(&g, root.index),
                "case {case}, entry point {i}: {calls:?} {entries:?}"
            );
        }
        // A function is recursive when it reaches itself through a callee.
        for f in 0..calls.len() {
            let through = g.reached(g.callees(f));
            assert_eq!(g.is_recursive(f), through[f], "case {case}, function {f}");
        }
    }
}

#[test]
fn corpus_analyses_agree_with_plain_walks() {
    let Some(dir) = require_corpus("the analyses over the corpus") else {
        return;
    };
    let (mut modules, mut functions, mut blocks) = (0, 0, 0);
    for path in files(&dir.join("bin"), "spv") {
        let Ok(m) = Module::from_words(&read_words(&path)) else {
            continue;
        };
        modules += 1;
        let name = path.display();
        let g = CallGraph::new(&m);
        // The reader's functions are the call graph's terminated ones.
        let read: Vec<_> = m.functions().map(|f| f.def().result_id()).collect();
        let found: Vec<_> = (g.functions().iter())
            .filter(|f| f.terminated)
            .map(|f| Some(f.id))
            .collect();
        assert_eq!(read, found, "{name}");
        let used = g.static_use();
        for (i, root) in g.roots().iter().enumerate() {
            assert_eq!(used.globals(i), walked_use(&g, root.index), "{name}");
        }
        for (f, rf) in g.functions().iter().zip(m.functions()) {
            functions += 1;
            let cfg = Cfg::new(&m, f.instructions.clone());
            assert_eq!(cfg.len(), rf.blocks().len(), "{name}");
            blocks += cfg.len();
            let mut order = cfg.structured_order();
            order.sort_unstable();
            assert!(order.iter().copied().eq(0..cfg.len()), "{name}");
            let preds = cfg.predecessors();
            for (i, b) in rf.blocks().enumerate() {
                assert_eq!(cfg.block(i).map(|c| c.label), Some(b.label()), "{name}");
                let first = b.instructions().next().map(|x| x.index());
                assert_eq!(Some(cfg.instructions(i).start), first, "{name}");
                for s in cfg.successors(i) {
                    assert!(preds.of(s).any(|p| p == i), "{name}");
                }
            }
        }
        // The type table is reflection's.
        let types = TypeTable::new(&m);
        let r = Reflection::new(&m);
        assert!(types.iter().eq(r.types()), "{name}");
    }
    println!("analyses: {modules} modules, {functions} functions, {blocks} blocks");
    assert!(modules > 1000 && blocks > 8000);
}

/// Reflection reads only the globals: with function bodies split but not read
/// (`globals_only`, as `spirv-asm reflect` reads) it answers exactly as from a full
/// read, static use included.
#[test]
fn reflection_from_globals_only_equals_reflection_from_a_full_read() {
    let Some(dir) = require_corpus("reflection from a globals_only read") else {
        return;
    };
    let globals_only = ReadOptions {
        globals_only: true,
        ..ReadOptions::default()
    };
    let mut compared = 0;
    for path in files(&dir.join("bin"), "spv") {
        let words = read_words(&path);
        let Ok(full) = Module::from_words(&words) else {
            continue;
        };
        let light = Module::read(&words, &globals_only).expect("a full read succeeds, so this");
        let (a, b) = (Reflection::new(&full), Reflection::new(&light));
        let name = path.display();
        assert_eq!(a.entry_points(), b.entry_points(), "{name}");
        for e in a.entry_points() {
            assert_eq!(a.execution_modes(e), b.execution_modes(e), "{name}");
        }
        assert_eq!(a.resources(), b.resources(), "{name}");
        assert_eq!(a.push_constants(), b.push_constants(), "{name}");
        assert_eq!(a.inputs(), b.inputs(), "{name}");
        assert_eq!(a.outputs(), b.outputs(), "{name}");
        assert_eq!(a.spec_constants(), b.spec_constants(), "{name}");
        assert_eq!(a.variables(), b.variables(), "{name}");
        assert_eq!(a.capabilities(), b.capabilities(), "{name}");
        assert_eq!(a.source(), b.source(), "{name}");
        assert!(a.types().eq(b.types()), "{name}");
        assert!(a.constants().eq(b.constants()), "{name}");
        for (id, t) in a.types() {
            assert_eq!(a.name(id), b.name(id), "{name}");
            assert_eq!(a.decorations(id), b.decorations(id), "{name}");
            assert_eq!(a.value(id), b.value(id), "{name}");
            assert!(a.array_dims(id).eq(b.array_dims(id)), "{name}");
            if matches!(t, Type::Struct { .. }) {
                assert_eq!(a.declared_size(id), b.declared_size(id), "{name}");
                assert!(a.member_infos(id).eq(b.member_infos(id)), "{name}");
            }
        }
        let (ua, ub) = (a.static_use(), b.static_use());
        for i in 0..a.entry_points().len() {
            assert_eq!(ua.globals(i), ub.globals(i), "{name}");
        }
        assert_eq!(
            spirv_asm::reflect_json::spirv_cross_json_of(&a).ok(),
            spirv_asm::reflect_json::spirv_cross_json_of(&b).ok(),
            "{name}"
        );
        compared += 1;
    }
    println!("reflection: {compared} modules equal from a globals_only and a full read");
    assert!(compared > 1000);
}
