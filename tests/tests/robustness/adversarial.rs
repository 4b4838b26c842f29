//! Crafted inputs that once crashed, stalled or exhausted the tools, kept as
//! regression tests of the invariants in ARCHITECTURE.md and docs/robustness.md. These
//! check behaviour and the work done, never time: the scaling itself is measured by
//! `cargo run --release -p spirv-tests --example adversarial`.

use spirv_asm::MAX_DERIVED_LEN;
use spirv_asm::{AsmOptions, DisOptions, assemble_str, disassemble};
use spirv_core::DecodeContext;
use spirv_core::spv::{self, Opcode};
use spirv_core::{DecodeErrorKind, Module};
use spirv_tests::{files, stem, workspace_root};

/// A module from `(opcode, operands)` pairs.
fn module(insts: &[(Opcode, Vec<u32>)], bound: u32) -> Vec<u32> {
    let mut w = vec![spirv_core::binary::MAGIC, 0x0001_0600, 0, bound, 0];
    for (op, ops) in insts {
        w.push(((ops.len() as u32 + 1) << 16) | u32::from(op.0));
        w.extend_from_slice(ops);
    }
    w
}

/// Runs `f` on a thread with a 1 MB stack: a walk one level deep fits (a debug build's
/// typed decode takes over 128 KB for one level, its frame being large), a walk whose
/// depth follows the input's 65,532 words does not.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(1024 * 1024)
        .spawn(f)
        .expect("thread")
        .join()
        .expect("no stack overflow, no panic")
}

/// The issue's 262 KB module: one `OpSpecConstantOp` whose 65,532 operand words all
/// embed `OpSpecConstantOp` again.
fn nested_spec_constant_op() -> Vec<u32> {
    let mut ops = vec![1, 2];
    ops.resize(65_534, u32::from(Opcode::SpecConstantOp.0));
    module(&[(Opcode::SpecConstantOp, ops)], 100)
}

#[test]
fn nested_spec_constant_op_is_rejected_without_recursion() {
    let words = nested_spec_constant_op();
    let (read, dis) = on_small_stack(move || {
        let read = Module::from_words(&words).map(|_| ());
        let dis = disassemble(&words, &DisOptions::default()).map(|_| ());
        (read, dis)
    });
    let e = read.expect_err("rejected");
    assert_eq!(
        (e.kind, e.offset),
        (DecodeErrorKind::InvalidSpecConstantOpcode { opcode: 52 }, 8)
    );
    let e = dis.expect_err("rejected");
    assert_eq!(
        (e.exit_code(), e.message.as_str()),
        (252, "Invalid OpSpecConstantOp opcode: 52")
    );
}

#[test]
fn typed_decode_of_nested_spec_constant_op_is_an_error() {
    let words = nested_spec_constant_op();
    let r = on_small_stack(move || {
        spv::Instruction::decode(
            Opcode::SpecConstantOp,
            &words[6..],
            &DecodeContext::default(),
        )
        .map(|_| ())
    });
    assert_eq!(
        r.expect_err("rejected").kind,
        DecodeErrorKind::InvalidSpecConstantOpcode { opcode: 52 }
    );
}

#[test]
fn the_assembler_refuses_what_the_disassembler_would_refuse() {
    let e = assemble_str(
        "%1 = OpTypeInt 32 0\n%2 = OpSpecConstantOp %1 SpecConstantOp SpecConstantOp IAdd %1 %1\n",
        &AsmOptions::default(),
    )
    .expect_err("rejected");
    assert_eq!((e.line, e.column, e.exit_code()), (2, 26, 251));
    assert_eq!(
        e.message,
        "Invalid OpSpecConstantOp opcode 'SpecConstantOp'."
    );
}

#[test]
fn every_allowed_spec_constant_opcode_reads_and_none_embeds_another() {
    for op in spirv_core::spec_constant_op::OPCODES {
        let info = op.info().expect("in the grammar");
        assert!(info.has_result_type() && info.has_result(), "{op:?}");
        assert!(
            !info.operands.iter().any(|o| matches!(
                o.kind.class,
                spirv_core::grammar::KindClass::SpecConstantOpcode
                    | spirv_core::grammar::KindClass::ExtInstNumber
            )),
            "{op:?} embeds an instruction"
        );
    }
    // And one of them end to end, text to binary to text.
    let text = "%1 = OpTypeInt 32 0\n%2 = OpConstant %1 5\n%3 = OpSpecConstantOp %1 IAdd %2 %2\n";
    let words = assemble_str(text, &AsmOptions::default()).expect("assembles");
    Module::from_words(&words).expect("reads");
}

/// Chains of nested types: every name stays under the documented limit, so the text
/// stays proportional to the binary.
#[test]
fn nested_type_names_stay_bounded() {
    let n = 3000u32;
    let mut insts = vec![
        (Opcode::TypeInt, vec![1, 32, 0]),
        (Opcode::Constant, vec![1, 2, 5]),
    ];
    for i in 0..n {
        insts.push((
            Opcode::TypeArray,
            vec![3 + i, if i == 0 { 1 } else { 2 + i }, 2],
        ));
    }
    for i in 0..n {
        let id = 3 + n + i;
        let pointee = if i == 0 { 3 + n - 1 } else { id - 1 };
        insts.push((Opcode::TypePointer, vec![id, 7, pointee]));
    }
    let words = module(&insts, 3 + 2 * n);
    let text = disassemble(&words, &DisOptions::default()).expect("disassembles");
    let longest = text
        .split(|&b| b == b' ' || b == b'\n')
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0);
    assert!(longest <= MAX_DERIVED_LEN + 16, "{longest}");
    assert!(text.len() <= 200 * words.len() * 4, "{} bytes", text.len());
    // Below the limit, names are spirv-dis's.
    let s = String::from_utf8_lossy(&text);
    assert!(s.contains("%_arr__arr_uint_uint_5_uint_5 = OpTypeArray"));
}

/// A 2 MB unknown token gets its error (no suggestion) instead of an edit distance
/// over its whole length against every name.
#[test]
fn huge_unknown_tokens_get_no_suggestion() {
    let token = format!("OpX{}", "x".repeat(2_000_000));
    let e = assemble_str(&token, &AsmOptions::default()).expect_err("unknown");
    assert_eq!(e.message, format!("Invalid Opcode name '{token}'"));
    let e = assemble_str(
        &format!("OpCapability Shaderr{}", "r".repeat(2_000_000)),
        &AsmOptions::default(),
    )
    .expect_err("unknown");
    assert!(!e.message.contains("Did you mean"));
    // Normal tokens keep theirs.
    let e = assemble_str("OpCapability Shaderr", &AsmOptions::default()).expect_err("unknown");
    assert!(
        e.message.ends_with("Did you mean 'Shader'?"),
        "{}",
        e.message
    );
}

/// An `OpFunction` before the open function's end belongs to that function, as in
/// spirv-dis; goldens from spirv-dis 2025.5 in `tests/fixtures/nested-function/`.
#[test]
fn a_function_inside_a_function_prints_like_spirv_dis() {
    let dir = workspace_root().join("tests/fixtures/nested-function");
    let text = std::fs::read_to_string(dir.join("nested-function.spvasm")).expect("fixture");
    let words = assemble_str(&text, &AsmOptions::default()).expect("assembles");
    let mut compared = 0;
    for gold in files(&dir, "spvasm") {
        let name = stem(&gold);
        if name == "nested-function" {
            continue;
        }
        let mut opts = DisOptions {
            header: false,
            ..DisOptions::default()
        };
        for option in name.split('+') {
            match option {
                "nested-indent" => opts.nested_indent = true,
                "reorder-blocks" => opts.reorder_blocks = true,
                "comment" => opts.comment = true,
                other => panic!("unknown option {other} in {name}"),
            }
        }
        let got = disassemble(&words, &opts).expect("disassembles");
        let want = std::fs::read(&gold).expect("golden");
        assert_eq!(
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(&want),
            "{name}"
        );
        compared += 1;
    }
    assert_eq!(compared, 6);
}

/// Thousands of functions that never end: each region is scanned once, and nothing is
/// dropped (spirv-dis drops the text of a function without an end).
#[test]
fn unterminated_functions_print_in_binary_order() {
    let n = 2000;
    let mut insts = vec![
        (Opcode::TypeVoid, vec![1]),
        (Opcode::TypeFunction, vec![2, 1]),
    ];
    for i in 0..n {
        insts.push((Opcode::Function, vec![1, 3 + i, 0, 2]));
    }
    let words = module(&insts, 3 + n);
    let opts = DisOptions {
        nested_indent: true,
        reorder_blocks: true,
        comment: true,
        ..DisOptions::default()
    };
    let text = disassemble(&words, &opts).expect("disassembles");
    let s = String::from_utf8_lossy(&text);
    assert_eq!(s.matches("OpFunction %void None").count(), n as usize);
}

/// Selection constructs nested `depth` deep in one function.
fn nested_selections(depth: u32) -> Vec<u32> {
    let mut insts = vec![
        (Opcode::Capability, vec![1]),
        (Opcode::MemoryModel, vec![0, 1]),
        (Opcode::TypeVoid, vec![2]),
        (Opcode::TypeBool, vec![3]),
        (Opcode::ConstantTrue, vec![3, 4]),
        (Opcode::TypeFunction, vec![5, 2]),
        (Opcode::Function, vec![2, 6, 0, 5]),
    ];
    let label = |i: u32| 10 + 2 * i;
    let merge = |i: u32| 11 + 2 * i;
    for i in 0..depth {
        let inner = if i + 1 < depth {
            label(i + 1)
        } else {
            merge(i)
        };
        insts.push((Opcode::Label, vec![label(i)]));
        insts.push((Opcode::SelectionMerge, vec![merge(i), 0]));
        insts.push((Opcode::BranchConditional, vec![4, inner, merge(i)]));
    }
    for i in (0..depth).rev() {
        insts.push((Opcode::Label, vec![merge(i)]));
        insts.push((Opcode::Return, vec![]));
    }
    insts.push((Opcode::FunctionEnd, vec![]));
    module(&insts, 12 + 2 * depth)
}

/// `--nested-indent` stops indenting deeper at a documented level, so the text stays
/// proportional to the binary however deep the nesting.
#[test]
fn nested_indent_is_bounded() {
    use spirv_asm::MAX_NESTED_LEVEL;
    let words = nested_selections(400);
    let opts = DisOptions {
        nested_indent: true,
        ..DisOptions::default()
    };
    let text = disassemble(&words, &opts).expect("disassembles");
    let widest = text
        .split(|&b| b == b'\n')
        .map(|l| l.iter().take_while(|&&b| b == b' ').count())
        .max()
        .unwrap_or(0);
    assert_eq!(widest, 15 + 2 * MAX_NESTED_LEVEL as usize + 2);
    // Shallow nesting is indented as spirv-dis indents it.
    let text = disassemble(&nested_selections(3), &opts).expect("disassembles");
    let s = String::from_utf8_lossy(&text);
    assert!(s.contains("\n         %14 =         OpLabel\n"), "{s}");
}

/// `--switch-descriptorset` on a variable defined `k` times and applied a decoration
/// group `l` times: the read refuses the redefinition, and the streaming path, whose
/// scan runs before that read, must not first spend `k * l` steps on the set moves.
fn redefined_variable_in_a_long_group(k: usize, l: usize) -> Vec<u32> {
    let (group, float, pointer, var) = (1, 2, 3, 4);
    let private = spv::StorageClass::Private.0;
    let mut insts = vec![
        (Opcode::Capability, vec![spv::Capability::Shader.0]),
        (Opcode::MemoryModel, vec![0, 1]),
        // A candidate, so that each of the `k * l` steps would be a real lookup.
        (
            Opcode::Decorate,
            vec![float, spv::Decoration::DescriptorSet.0, 0],
        ),
        (Opcode::DecorationGroup, vec![group]),
        (Opcode::GroupDecorate, {
            let mut ops = vec![group];
            ops.resize(l + 1, var);
            ops
        }),
        (Opcode::TypeFloat, vec![float, 32]),
        (Opcode::TypePointer, vec![pointer, private, float]),
    ];
    insts.extend((0..k).map(|_| (Opcode::Variable, vec![pointer, var, private])));
    module(&insts, 5)
}

#[test]
fn set_moves_of_a_redefined_variable_stay_linear() {
    use spirv_opt::structural::{StructuralPass, run_words};
    let words = redefined_variable_in_a_long_group(60_000, 60_000);
    let err = Module::from_words(&words).expect_err("a redefinition");
    assert!(
        matches!(err.kind, DecodeErrorKind::IdRedefined { .. }),
        "{err}"
    );
    let passes = [
        StructuralPass::SwitchDescriptorSet { from: 0, to: 1 },
        StructuralPass::CompactIds,
    ];
    let streamed = run_words(&words, &passes, None).expect_err("the read's error");
    assert_eq!(
        streamed.to_string(),
        spirv_core::edit::EditError::from(err).to_string()
    );
}

/// `--format spirv-cross` on 20,000 compute entry points, each its own function with its
/// own variable and `LocalSize`, the first listing every variable: each gets its own
/// size. SPIRV-Cross finds an entry point's record by name and model, and lists a
/// variable when the first entry point's interface has it; looked up among all entry
/// points, or in that list, each would be a step per entry point and the whole run
/// 400 million of them.
#[test]
fn spirv_cross_reflection_of_many_compute_entry_points() {
    let count = 20_000u32;
    let mut text = String::from("OpCapability Shader\nOpMemoryModel Logical GLSL450\n");
    for e in 0..count {
        text += &format!("OpEntryPoint GLCompute %f{e} \"main{e}\"");
        if e == 0 {
            (0..count).for_each(|v| text += &format!(" %v{v}"));
        } else {
            text += &format!(" %v{e}");
        }
        text += "\n";
    }
    for e in 0..count {
        text += &format!("OpExecutionMode %f{e} LocalSize {} 1 1\n", e % 64 + 1);
    }
    text += "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%int = OpTypeInt 32 0\n";
    text += "%ptr = OpTypePointer Private %int\n";
    for e in 0..count {
        text += &format!("%v{e} = OpVariable %ptr Private\n");
    }
    for e in 0..count {
        text += &format!(
            "%f{e} = OpFunction %void None %fn\n%l{e} = OpLabel\n%x{e} = OpLoad %int %v{e}\nOpReturn\nOpFunctionEnd\n"
        );
    }
    let words = assemble_str(&text, &AsmOptions::default()).expect("assembles");
    let m = Module::from_words(&words).expect("reads");
    let json = spirv_asm::reflect_json::spirv_cross_json(&m).expect("reflects");
    let doc: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let entries = doc["entryPoints"].as_array().expect("entry points");
    assert_eq!(entries.len(), count as usize);
    for e in entries {
        let name = e["name"].as_str().expect("a name");
        let index: u32 = name["main".len()..].parse().expect("mainN");
        assert_eq!(e["workgroup_size"][0], index % 64 + 1, "{name}");
    }
}

/// `--inline-entry-points-exhaustive` with validation skipped: the run's error message.
fn inline_error(words: &[u32]) -> Option<String> {
    let mut opt = spirv_opt::Optimizer::new();
    opt.skip_validation(true);
    opt.register_flag("--inline-entry-points-exhaustive")
        .expect("a pass");
    opt.run(words).err().map(|e| e.message().text)
}

/// 2,000 entry points each calling the head of one chain of 2,000 functions: inlining
/// every chain into every entry point takes 8 million ids, past the bound of 4,194,303.
/// spirv-opt copies until the ids run out (and reports "ID overflow" for each function
/// it gets to); the inliner works the ids out first and fails before copying anything,
/// where the copies used to take 600 MB.
#[test]
fn inlining_past_the_id_bound_fails_before_copying() {
    let count = 2_000u32;
    let (void, func, chain) = (2, 3, 10);
    let entries = chain + count;
    let mut insts = vec![
        (Opcode::Capability, vec![1]),
        (Opcode::MemoryModel, vec![0, 1]),
    ];
    insts.extend((0..count).map(|e| (Opcode::EntryPoint, vec![5, entries + e, 0x6d])));
    insts.push((Opcode::TypeVoid, vec![void]));
    insts.push((Opcode::TypeFunction, vec![func, void]));
    let mut next = entries + count;
    for f in chain..entries + count {
        insts.push((Opcode::Function, vec![void, f, 0, func]));
        insts.push((Opcode::Label, vec![next]));
        let callee = if f < entries { f + 1 } else { chain };
        if callee < entries {
            insts.push((Opcode::FunctionCall, vec![void, next + 1, callee]));
        }
        insts.push((Opcode::Return, vec![]));
        insts.push((Opcode::FunctionEnd, vec![]));
        next += 2;
    }
    let words = module(&insts, next);
    assert_eq!(
        inline_error(&words).as_deref(),
        Some("ID overflow. Try running compact-ids.")
    );
}

/// One function of `stores` stores (no result ids) called `calls` times.
fn many_calls_of_a_long_body(stores: u32, calls: u32) -> Vec<u32> {
    let (void, func, int, ptr, var, one, body, main) = (2, 3, 4, 5, 6, 7, 8, 9);
    let mut insts = vec![
        (Opcode::Capability, vec![1]),
        (Opcode::MemoryModel, vec![0, 1]),
        (Opcode::EntryPoint, vec![5, main, 0x6d]),
        (Opcode::TypeVoid, vec![void]),
        (Opcode::TypeFunction, vec![func, void]),
        (Opcode::TypeInt, vec![int, 32, 0]),
        (Opcode::TypePointer, vec![ptr, 6, int]),
        (Opcode::Variable, vec![ptr, var, 6]),
        (Opcode::Constant, vec![int, one, 1]),
        (Opcode::Function, vec![void, body, 0, func]),
        (Opcode::Label, vec![10]),
    ];
    insts.extend((0..stores).map(|_| (Opcode::Store, vec![var, one])));
    insts.push((Opcode::Return, vec![]));
    insts.push((Opcode::FunctionEnd, vec![]));
    insts.push((Opcode::Function, vec![void, main, 0, func]));
    insts.push((Opcode::Label, vec![11]));
    insts.extend((0..calls).map(|c| (Opcode::FunctionCall, vec![void, 12 + c, body])));
    insts.push((Opcode::Return, vec![]));
    insts.push((Opcode::FunctionEnd, vec![]));
    module(&insts, 12 + calls)
}

/// A body of 5,000 stores inlined at 5,000 calls is 75 million words of copies for
/// 5,000 ids: spirv-opt copies them all; the inliner refuses past its budget (2^24
/// words plus 16 per word of the module), and inlines a small case as before.
#[test]
fn inlining_has_a_budget_of_words() {
    let message = inline_error(&many_calls_of_a_long_body(5_000, 5_000)).expect("refused");
    assert!(message.contains("budget"), "{message}");
    assert_eq!(inline_error(&many_calls_of_a_long_body(100, 100)), None);
}

/// Declared sizes are one word per struct: a size, an error of the struct's own, or the
/// nested struct an error came from. Every kind reads back as it was found, in
/// declaration order (a member struct declared later has no size yet), for ids in the
/// dense part and above it, and a chain of 100,000 nested structs needs no recursion.
#[test]
fn declared_sizes_of_nested_structs() {
    use spirv_core::Id;
    use spirv_core::reflect::{LayoutError, Reflection};
    const OFFSET: u32 = 35;
    const ARRAY_STRIDE: u32 = 6;
    let (int, two) = (2, 3);
    let far = 1_000_000; // above the dense cap: the module is far shorter
    let mut insts = vec![
        (Opcode::Capability, vec![1]),
        (Opcode::MemoryModel, vec![0, 1]),
    ];
    let offset =
        |st: u32, member: u32, at: u32| (Opcode::MemberDecorate, vec![st, member, OFFSET, at]);
    insts.extend([
        offset(11, 0, 0),
        offset(12, 0, 4),
        offset(20, 0, 8),
        offset(21, 0, 16),
        offset(30, 0, 0),
        offset(31, 0, 0),
        offset(41, 0, 0),
        offset(51, 0, 0),
        offset(52, 0, 0),
        offset(far, 0, 0),
        offset(far + 1, 0, 4),
        offset(60, 0, 0),
        (Opcode::Decorate, vec![61, ARRAY_STRIDE, 4]),
        offset(62, 0, 0),
        offset(63, 0, 0),
        offset(70, 0, 0),
    ]);
    insts.extend([
        (Opcode::TypeInt, vec![int, 32, 0]),
        (Opcode::Constant, vec![int, two, 2]),
        // Own error, handed on twice.
        (Opcode::TypeStruct, vec![10, int]),
        (Opcode::TypeStruct, vec![11, 10]),
        (Opcode::TypeStruct, vec![12, 11]),
        // Sizes.
        (Opcode::TypeStruct, vec![20, int]),
        (Opcode::TypeStruct, vec![21, 20]),
        // A member struct declared later.
        (Opcode::TypeStruct, vec![30, 31]),
        (Opcode::TypeStruct, vec![31, int]),
        // Empty, handed on.
        (Opcode::TypeStruct, vec![40]),
        (Opcode::TypeStruct, vec![41, 40]),
        // An array without a stride, handed on twice.
        (Opcode::TypeArray, vec![50, int, two]),
        (Opcode::TypeStruct, vec![51, 50]),
        (Opcode::TypeStruct, vec![52, 51]),
        // Above the cap.
        (Opcode::TypeStruct, vec![far, int]),
        (Opcode::TypeStruct, vec![far + 1, far]),
        (Opcode::TypeStruct, vec![60, far + 1]),
        // An array with a stride, twice nested.
        (Opcode::TypeArray, vec![61, int, two]),
        (Opcode::TypeStruct, vec![62, 61]),
        (Opcode::TypeStruct, vec![63, 62]),
        // Itself.
        (Opcode::TypeStruct, vec![70, 70]),
    ]);
    let words = module(&insts, far + 2);
    let m = Module::from_words(&words).expect("reads");
    let r = Reflection::new(&m);
    let size = |id: u32| r.declared_size(Id(id));
    let missing = LayoutError::MissingOffset {
        ty: Id(10),
        member: 0,
    };
    assert_eq!([size(10), size(11), size(12)], [Err(missing); 3]);
    assert_eq!([size(20), size(21)], [Ok(12), Ok(28)]);
    assert_eq!(size(30), Err(LayoutError::Opaque { ty: Id(31) }));
    assert_eq!(size(31), Ok(4));
    let empty = LayoutError::Empty { ty: Id(40) };
    assert_eq!([size(40), size(41)], [Err(empty); 2]);
    let stride = LayoutError::MissingArrayStride { ty: Id(50) };
    assert_eq!([size(51), size(52)], [Err(stride); 2]);
    assert_eq!([size(far), size(far + 1), size(60)], [Ok(4), Ok(8), Ok(8)]);
    assert_eq!([size(62), size(63)], [Ok(8), Ok(8)]);
    assert_eq!(size(70), Err(LayoutError::Opaque { ty: Id(70) }));
    assert_eq!(size(int), Err(LayoutError::Opaque { ty: Id(int) }));
    assert_eq!(size(99), Err(LayoutError::Opaque { ty: Id(99) }));

    // A chain of 100,000 structs, each at offset 4 in the next.
    let n = 100_000u32;
    let mut insts = vec![
        (Opcode::Capability, vec![1]),
        (Opcode::MemoryModel, vec![0, 1]),
    ];
    insts.extend((0..n).map(|i| offset(3 + i, 0, 4)));
    insts.push((Opcode::TypeInt, vec![int, 32, 0]));
    insts.extend((0..n).map(|i| (Opcode::TypeStruct, vec![3 + i, 2 + i])));
    let words = module(&insts, n + 3);
    let top = on_small_stack(move || {
        let m = Module::from_words(&words).expect("reads");
        Reflection::new(&m).declared_size(Id(n + 2))
    });
    assert_eq!(top, Ok(4 * u64::from(n) + 4));
}

/// The adversarial example's "logical pointer chains" with the chain's pointers in
/// `class`: n `OpSelect`s each choosing between the previous one and `%b`, and a ring
/// of n/4 phis taking the last.
fn selected_pointer_chain(n: usize, class: &str) -> Vec<u32> {
    use std::fmt::Write;
    let mut t = format!(
        "OpCapability Shader\nOpCapability VariablePointers\n\
         OpExtension \"SPV_KHR_variable_pointers\"\n\
         OpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\" %a %b\n\
         OpExecutionMode %main LocalSize 1 1 1\nOpDecorate %blk Block\n\
         OpMemberDecorate %blk 0 Offset 0\n\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%bool = OpTypeBool\n\
         %uint = OpTypeInt 32 0\n%blk = OpTypeStruct %uint\n\
         %pblk = OpTypePointer StorageBuffer %blk\n%pc = OpTypePointer {class} %blk\n\
         %a = OpVariable %pblk StorageBuffer\n%b = OpVariable %pblk StorageBuffer\n\
         %true = OpConstantTrue %bool\n\
         %main = OpFunction %void None %fn\n%entry = OpLabel\n%p0 = OpCopyObject %pc %a\n"
    );
    for i in 0..n {
        let _ = writeln!(t, "%p{} = OpSelect %pc %true %p{i} %b", i + 1);
    }
    let ring = (n / 4).max(2);
    t.push_str("OpBranch %loop\n%loop = OpLabel\n");
    for k in 0..ring {
        let prev = (k + ring - 1) % ring;
        let _ = writeln!(t, "%r{k} = OpPhi %pc %p{n} %entry %r{prev} %cont");
    }
    t.push_str(
        "OpLoopMerge %merge %cont None\nOpBranch %cont\n%cont = OpLabel\n\
         OpBranchConditional %true %loop %merge\n%merge = OpLabel\nOpReturn\nOpFunctionEnd\n",
    );
    assemble_str(&t, &AsmOptions::default()).expect("assembles")
}

/// `--fix-storage-class` walks the uses of each variable's every use: here `%b`'s n
/// uses each reach the rest of the chain and, from the last select, each phi of the
/// ring round the ring, n³/16 steps in all (7 s in a release build at n = 1,000, and
/// spirv-opt's walk is the same). A walk that would repeat one that changed nothing is
/// skipped now, so each pointer is walked about once; chains already in the variables'
/// class and chains each pointer of which the pass fixes.
#[test]
fn storage_class_walks_of_selected_pointer_chains_are_not_repeated() {
    for class in ["StorageBuffer", "Function"] {
        let words = selected_pointer_chain(1_000, class);
        for flag in ["--fix-storage-class", "--legalize-hlsl"] {
            let mut opt = spirv_opt::Optimizer::new();
            opt.skip_validation(true);
            opt.register_flag(flag).expect("a pass");
            let out = opt.run(&words).expect("optimizes").words;
            // Every pointer ends in the variables' class: no instruction's result
            // type is a pointer to a function's storage.
            let mut function_pointers = Vec::new();
            let mut at = 5;
            while at < out.len() {
                let (len, op) = ((out[at] >> 16) as usize, (out[at] & 0xffff) as u16);
                let inst = &out[at..at + len.max(1)];
                if op == Opcode::TypePointer.0 && inst[2] == spv::StorageClass::Function.0 {
                    function_pointers.push(inst[1]);
                }
                let typed = [Opcode::Select.0, Opcode::Phi.0, Opcode::CopyObject.0];
                if typed.contains(&op) {
                    assert!(!function_pointers.contains(&inst[1]), "{class} {flag}");
                }
                at += len.max(1);
            }
        }
    }
}

/// The adversarial example's "alternating storage classes": n variables whose classes
/// cycle through StorageBuffer, Uniform and Workgroup, and one chain of `OpSelect`s
/// typed as StorageBuffer pointers, the k-th choosing between the previous one and
/// the k-th variable.
fn alternating_storage_classes(n: usize) -> Vec<u32> {
    use std::fmt::Write;
    let classes = [
        ("StorageBuffer", "psb"),
        ("Uniform", "pu"),
        ("Workgroup", "pwg"),
    ];
    let mut t = String::from(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
         OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n\
         OpDecorate %blk Block\nOpMemberDecorate %blk 0 Offset 0\n\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%bool = OpTypeBool\n\
         %uint = OpTypeInt 32 0\n%blk = OpTypeStruct %uint\n%true = OpConstantTrue %bool\n",
    );
    for (class, name) in classes {
        let _ = writeln!(t, "%{name} = OpTypePointer {class} %blk");
    }
    for k in 0..n {
        let (class, name) = classes[k % 3];
        let _ = writeln!(t, "%v{k} = OpVariable %{name} {class}");
    }
    t.push_str(
        "%main = OpFunction %void None %fn\n%entry = OpLabel\n%c0 = OpCopyObject %psb %v0\n",
    );
    for k in 1..n {
        let _ = writeln!(t, "%c{k} = OpSelect %psb %true %c{} %v{k}", k - 1);
    }
    let _ = writeln!(t, "%x = OpLoad %blk %c{}\nOpReturn\nOpFunctionEnd", n - 1);
    assemble_str(&t, &AsmOptions::default()).expect("assembles")
}

/// `--fix-storage-class` walks the uses of each variable in turn; here the k-th
/// variable's walk changes every select after the k-th to its class, which the next
/// variable's walk changes again: n²/2 changes by spirv-opt's rules (its
/// `FindPointerToType` also scanned the types and values for each). Small, every select
/// ends in its variable's class; past the pass's step budget (proportional to the
/// module) the pass fails with a message, it does not run on.
#[test]
fn storage_class_walks_that_keep_changing_a_chain_are_bounded() {
    let run = |words: &[u32], flag: &str| {
        let mut opt = spirv_opt::Optimizer::new();
        opt.skip_validation(true);
        opt.register_flag(flag).expect("a pass");
        opt.run(words)
    };
    let n = 60;
    let out = run(&alternating_storage_classes(n), "--fix-storage-class")
        .expect("optimizes")
        .words;
    let (mut classes, mut var_class, mut selects) = (Vec::new(), Vec::new(), 0);
    let mut at = 5;
    while at < out.len() {
        let (len, op) = ((out[at] >> 16) as usize, (out[at] & 0xffff) as u16);
        let inst = &out[at..at + len.max(1)];
        let class_of =
            |ty: u32, classes: &Vec<(u32, u32)>| classes.iter().find(|c| c.0 == ty).map(|c| c.1);
        if op == Opcode::TypePointer.0 {
            classes.push((inst[1], inst[2]));
        } else if op == Opcode::Variable.0 {
            var_class.push((inst[2], inst[3]));
        } else if op == Opcode::Select.0 {
            let var = var_class.iter().find(|v| v.0 == inst[5]).map(|v| v.1);
            assert_eq!(class_of(inst[1], &classes), var, "select %{}", inst[2]);
            selects += 1;
        }
        at += len.max(1);
    }
    assert_eq!(selects, n - 1);
    for flag in ["--fix-storage-class", "--legalize-hlsl"] {
        let e = run(&alternating_storage_classes(400), flag).expect_err("over the budget");
        let text = e.to_string();
        assert!(
            text.contains("--fix-storage-class: ") && text.contains("steps"),
            "{text}"
        );
    }
}
