//! The editing API (`spirv_core::edit`) and `Builder::from_module`: round trips of
//! every corpus module, each kind of edit, debug lines travelling with instructions,
//! find-or-add, and the analyses.

use spirv_asm::{AsmOptions, DisOptions, assemble_str, disassemble};
use spirv_core::edit::{Annotations, Bound, DefIndex, Editor, InstId, UseIndex};
use spirv_core::{Builder, Id, Module, spv};
use spirv_tests::{files, read_words, require_corpus};

fn module(text: &str) -> Module {
    let opts = AsmOptions {
        preserve_numeric_ids: true,
        ..AsmOptions::default()
    };
    Module::from_words(&assemble_str(text, &opts).expect("assembles")).expect("reads")
}

fn text(m: &Module) -> String {
    let opts = DisOptions {
        raw_id: true,
        header: false,
        indent: false,
        ..DisOptions::default()
    };
    String::from_utf8(disassemble(&m.to_words(), &opts).expect("disassembles")).expect("utf-8")
}

#[test]
fn corpus_modules_round_trip_through_the_editor_and_from_module() {
    let Some(dir) = require_corpus("the editor's round trip") else {
        return;
    };
    let bins = files(&dir.join("bin"), "spv");
    assert!(bins.len() >= 1000);
    let mut same = 0;
    for p in &bins {
        let words = read_words(p);
        let m = Module::from_words(&words).expect("reads");
        let b = Builder::from_module(&m).build().expect("builds");
        assert_eq!(b.to_words(), words, "Builder::from_module: {}", p.display());
        let e = Editor::new(&m).apply(Bound::Keep).expect("applies");
        let finished = Editor::new(&m).finish(Bound::Keep).expect("finishes");
        assert_eq!(
            finished,
            e.to_words(),
            "finish against apply: {}",
            p.display()
        );
        if e.to_words() == words {
            same += 1;
        } else {
            eprintln!("written back changed: {}", p.display());
        }
    }
    // Every corpus module is written back as it was: none has a redundant OpLine or a
    // line between a merge and its branch, which the writer drops as spirv-opt does.
    assert_eq!(same, bins.len(), "unedited modules written back unchanged");
}

const BASE: &str = "OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%2 = OpString \"f.glsl\"
OpName %4 \"int\"
%4 = OpTypeInt 32 1
OpLine %2 1 1
%5 = OpConstant %4 1
%6 = OpConstant %4 2
%7 = OpConstant %4 3
";

#[test]
fn removing_an_instruction_passes_its_line_to_the_next() {
    let m = module(BASE);
    let mut e = Editor::new(&m);
    // %5 carries the OpLine; %6 and %7 have copies of it.
    let five = m
        .instructions()
        .find(|i| i.result_id() == Some(Id(5)))
        .expect("%5");
    e.remove(five.index().into());
    let out = e.apply(Bound::Keep).expect("applies");
    let t = text(&out);
    assert!(
        t.contains("OpLine %2 1 1\n%6 = OpConstant %4 2\n%7 = OpConstant %4 3"),
        "{t}"
    );
}

#[test]
fn insertions_replacements_appends_and_renames() {
    let m = module(BASE);
    let mut e = Editor::new(&m);
    let six = m
        .instructions()
        .find(|i| i.result_id() == Some(Id(6)))
        .expect("%6")
        .index();
    let eight = e.new_id().expect("id");
    assert_eq!(eight, Id(8));
    let before = e
        .insert_before(
            six.into(),
            spv::inst::TypeFloat {
                result_id: eight,
                width: 32,
                floating_point_encoding: None,
            },
        )
        .expect("inserts");
    // Insertions around an inserted instruction go around it.
    let nine = e.new_id().expect("id");
    e.insert_after(before, spv::inst::TypeBool { result_id: nine })
        .expect("inserts");
    e.replace(
        six.into(),
        spv::inst::Constant {
            result_type: Id(40),
            result_id: Id(6),
            value: spirv_core::LiteralNumber::from_u32(20),
        },
    )
    .expect("replaces");
    e.push(spv::inst::Name {
        target: Id(7),
        name: "seven".into(),
    })
    .expect("pushes");
    e.map_id(Id(4), Id(40));
    let out = e.apply(Bound::Tight).expect("applies");
    let t = text(&out);
    assert_eq!(
        t,
        "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n%2 = OpString \"f.glsl\"\nOpName %40 \"int\"\nOpName %7 \"seven\"\n%40 = OpTypeInt 32 1\nOpLine %2 1 1\n%5 = OpConstant %40 1\nOpNoLine\n%8 = OpTypeFloat 32\n%9 = OpTypeBool\nOpLine %2 1 1\n%6 = OpConstant %40 20\n%7 = OpConstant %40 3\n"
    );
    // Added instructions have no line: the writer ends the one in effect before them,
    // and %6 gets its copy of it again, as spirv-opt writes them.
    // Ids are renamed in the module's instructions, not in the replacement, which
    // names %40 itself; the bound covers the largest id.
    assert_eq!(out.header().bound, 41);
    assert!(e.is_changed());
    let removed_twice = InstId(9999);
    e.remove(removed_twice);
    assert!(
        e.is_removed(removed_twice),
        "an unknown handle counts as removed"
    );
}

#[test]
fn compact_and_tight_bounds() {
    let m = module(BASE);
    let compact = Editor::new(&m).apply(Bound::Compact).expect("applies");
    assert_eq!(compact.header().bound, 6);
    assert!(text(&compact).starts_with("OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n%1 = OpString \"f.glsl\"\nOpName %2 \"int\"\n"));
    let mut loose = m.clone();
    loose.set_bound(100).expect("a bound above every id");
    assert_eq!(
        Editor::new(&loose)
            .apply(Bound::Keep)
            .expect("keeps")
            .header()
            .bound,
        100
    );
    assert_eq!(
        Editor::new(&loose)
            .apply(Bound::Tight)
            .expect("tightens")
            .header()
            .bound,
        8
    );
}

#[test]
fn find_or_add_reuses_undecorated_declarations() {
    let m = module(
        "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\nOpDecorate %3 RelaxedPrecision\n%1 = OpTypeInt 32 0\n%2 = OpTypeFloat 32\n%3 = OpConstant %1 7\n",
    );
    let mut e = Editor::new(&m);
    assert_eq!(e.type_int(32, false).expect("found"), Id(1));
    assert_eq!(e.type_float(32).expect("found"), Id(2));
    // %3 is decorated, so an undecorated 7 is a new constant.
    let seven = e.constant_u32(Id(1), 7).expect("added");
    assert_eq!(seven, Id(4));
    assert_eq!(e.constant_u32(Id(1), 7).expect("found"), seven);
    let b = e.type_bool().expect("added");
    let t = e.constant_bool(b, true).expect("added");
    let v = e.type_vector(Id(2), 4).expect("added");
    let p = e
        .type_pointer(spv::StorageClass::Function, v)
        .expect("added");
    let out = e.apply(Bound::Keep).expect("applies");
    assert_eq!((b, t, v, p), (Id(5), Id(6), Id(7), Id(8)));
    assert!(text(&out).ends_with("%4 = OpConstant %1 7\n%5 = OpTypeBool\n%6 = OpConstantTrue %5\n%7 = OpTypeVector %2 4\n%8 = OpTypePointer Function %7\n"));
}

#[test]
fn analyses_find_definitions_uses_names_and_decorations() {
    let m = module(BASE);
    let defs = DefIndex::new(&m);
    assert_eq!(defs.get(Id(4)), Some(5));
    let uses = UseIndex::new(&m).expect("indexes");
    assert_eq!(uses.uses(Id(4)).len(), 4, "OpName and three constants");
    assert!(!uses.is_used(Id(7)));
    let notes = Annotations::new(&m);
    assert_eq!(notes.names(Id(4)), [4]);
    assert!(notes.decorations(Id(4)).is_empty());
}

/// `Editor::finish` gives the words `apply` gives, and fails where it fails, whether the
/// module's id facts serve as they are or have to follow the edits.
#[test]
fn finish_gives_what_apply_gives() {
    let m = module(BASE);
    let nth = |op: spv::Opcode, n: usize| -> InstId {
        let i = m
            .instructions()
            .filter(|i| i.opcode() == op)
            .nth(n)
            .expect("there");
        i.index().into()
    };
    type Edit = fn(&mut Editor<'_>, &dyn Fn(spv::Opcode, usize) -> InstId);
    let edits: [(&str, Edit); 7] = [
        ("nothing", |_, _| {}),
        ("remove a name", |e, at| e.remove(at(spv::Opcode::Name, 0))),
        ("remove a string and its line", |e, at| {
            e.remove(at(spv::Opcode::String, 0));
            e.remove(at(spv::Opcode::Line, 0));
        }),
        ("remove the number type", |e, at| {
            e.remove(at(spv::Opcode::TypeInt, 0))
        }),
        ("add a type", |e, _| {
            let id = e.new_id().expect("an id");
            e.push(spv::inst::TypeFloat {
                result_id: id,
                width: 32,
                floating_point_encoding: None,
            })
            .expect("pushes");
        }),
        ("replace a constant", |e, at| {
            e.replace_words(at(spv::Opcode::Constant, 1), &[4 << 16 | 43, 4, 6, 9])
                .expect("replaces");
        }),
        ("define an id twice", |e, _| {
            e.push_words(&[4 << 16 | 21, 5, 32, 0]).expect("pushes");
        }),
    ];
    let mut loose = m.clone();
    loose.set_bound(100).expect("a bound above every id");
    for base in [&m, &loose] {
        for (what, edit) in &edits {
            for bound in [Bound::Keep, Bound::Tight, Bound::Compact] {
                let mut e = Editor::new(base);
                edit(&mut e, &nth);
                let applied = e.apply(bound).map(Module::into_words);
                let finished = e.finish(bound);
                match (&applied, &finished) {
                    (Ok(a), Ok(f)) => assert_eq!(a, f, "{what}, {bound:?}"),
                    (Err(_), Err(_)) => {}
                    _ => panic!("{what}, {bound:?}: {applied:?} against {finished:?}"),
                }
            }
        }
    }
}

/// `run_to_words` gives `run`'s words, on a module the writer changes (an `OpNop` in a
/// function, a repeated line) and on one it does not, before `--compact-ids`.
#[test]
fn run_to_words_gives_what_run_gives() {
    use spirv_opt::structural::{StructuralPass, run, run_words};
    let function = "%v = OpTypeVoid
%f = OpTypeFunction %v
%s = OpString \"a\"
%main = OpFunction %v None %f
%l = OpLabel
OpLine %s 1 1
OpLine %s 1 1
OpNop
OpReturn
OpFunctionEnd
";
    let plain = BASE.to_owned();
    let changed = format!("{BASE}{function}");
    for text in [&plain, &changed] {
        let m = module(text);
        for passes in [
            &[StructuralPass::CompactIds][..],
            &[StructuralPass::StripDebug, StructuralPass::CompactIds],
            &[StructuralPass::CompactIds, StructuralPass::StripDebug],
            &[StructuralPass::EliminateDeadConst],
            &[],
        ] {
            let (a, ca) = run(&m, passes, None).expect("runs");
            let (w, cw) = run_words(m.to_words(), passes, None).expect("runs");
            assert_eq!((a.to_words(), ca), (w, cw), "{passes:?} on {text}");
        }
    }
}

/// `run_words` streams the passes that decide instruction by instruction on nearly every
/// corpus module, and gives what the general path gives: the words, and whether the
/// module changed.
#[test]
fn run_words_streams_the_corpus_as_the_general_path_runs_it() {
    use spirv_opt::structural::{StructuralPass, run, run_streamed};
    let Some(dir) = require_corpus("the streaming passes") else {
        return;
    };
    let switch = |from, to| StructuralPass::SwitchDescriptorSet { from, to };
    let lists: [&[StructuralPass]; 7] = [
        &[
            StructuralPass::StripDebug,
            switch(0, 5),
            StructuralPass::CompactIds,
        ],
        &[StructuralPass::StripDebug],
        &[StructuralPass::StripDebug, StructuralPass::CompactIds],
        &[StructuralPass::CompactIds],
        &[switch(0, 0), StructuralPass::CompactIds],
        &[switch(1, 2)],
        &[],
    ];
    let paths = files(&dir.join("bin"), "spv");
    assert!(paths.len() >= 1000, "corpus binaries missing");
    let mut streamed = [0usize; 7];
    for path in &paths {
        let words = read_words(path);
        let m = Module::from_words(&words).expect("a corpus module reads");
        for (k, list) in lists.iter().enumerate() {
            let Some(fast) = run_streamed(&words, list) else {
                continue;
            };
            streamed[k] += 1;
            let general = run(&m, list, None)
                .map(|(m, c)| (m.into_words(), c))
                .expect("the passes run");
            assert!(fast == general, "{list:?} on {}", path.display());
        }
    }
    // Every module with `--strip-debug`; without it, those with no debug lines or
    // debug-info instructions.
    let n = paths.len();
    for (k, &s) in streamed.iter().enumerate() {
        let floor = if k < 3 { n } else { n * 3 / 4 };
        assert!(s >= floor, "{:?}: streamed {s} of {n}", lists[k]);
    }
}

/// The streaming path on what spirv-opt's decoration manager and `KillInst` make subtle:
/// decoration groups (a group's set moved once for all its variables, or for each when
/// the set moves to itself), an `OpMemberDecorate` whose member number is
/// `DescriptorSet`'s, decorations of a string `--strip-debug` removes, strings a
/// non-semantic instruction keeps, a switch, and `OpNop`s: where it runs it gives the
/// general path's words (or declines), and it runs where it models the module.
#[test]
fn run_words_streams_groups_kills_and_kept_strings_as_the_general_path() {
    use spirv_opt::structural::{StructuralPass, run, run_streamed};
    let head = "OpCapability Shader
OpCapability Linkage
OpExtension \"SPV_KHR_non_semantic_info\"
%p = OpExtInstImport \"NonSemantic.DebugPrintf\"
OpMemoryModel Logical GLSL450
%fmt = OpString \"x=%d\"
%gone = OpString \"unused\"
OpSource GLSL 450
OpName %a \"a\"
";
    let tail = "%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%c1 = OpConstant %int 1
%ptr = OpTypePointer Uniform %int
%a = OpVariable %ptr Uniform
%b = OpVariable %ptr Uniform
%c = OpVariable %ptr Uniform
%main = OpFunction %void None %fn
%l0 = OpLabel
OpLine %fmt 1 1
%r = OpExtInst %void %p 1 %fmt %c1
OpNop
OpSelectionMerge %l2 None
OpSwitch %c1 %l2 1 %l1
%l1 = OpLabel
OpBranch %l2
%l2 = OpLabel
OpReturn
OpFunctionEnd
";
    let group = "OpDecorate %g DescriptorSet 0
%g = OpDecorationGroup
OpGroupDecorate %g %a %b
OpDecorate %b DescriptorSet 0
OpMemberDecorate %c 34 RelaxedPrecision
OpDecorate %gone RelaxedPrecision
";
    let killed_in_group = "OpDecorate %g RelaxedPrecision
%g = OpDecorationGroup
OpGroupDecorate %g %a %gone
";
    let switch = |from, to| StructuralPass::SwitchDescriptorSet { from, to };
    let lists: [&[StructuralPass]; 7] = [
        &[switch(0, 5)],
        &[switch(0, 0), StructuralPass::CompactIds],
        &[
            StructuralPass::StripDebug,
            switch(0, 5),
            StructuralPass::CompactIds,
        ],
        &[StructuralPass::StripDebug, switch(0, 0)],
        &[StructuralPass::StripDebug],
        &[StructuralPass::CompactIds],
        &[switch(0, 34)],
    ];
    for (annotations, streams) in [(group, true), (killed_in_group, false)] {
        let m = module(&format!("{head}{annotations}{tail}"));
        let words = m.to_words();
        for list in lists {
            let general = run(&m, list, None).map(|(m, c)| (m.into_words(), c));
            let fast = run_streamed(&words, list);
            if let Some(fast) = &fast {
                assert_eq!(
                    general.as_ref().ok(),
                    Some(fast),
                    "{list:?} on {annotations}"
                );
            }
            // Strip runs whenever groups keep their targets; without it, the lines
            // in the function are the general path's.
            let strip = list.first() == Some(&StructuralPass::StripDebug);
            if strip {
                assert_eq!(fast.is_some(), streams, "{list:?} on {annotations}");
            } else {
                assert!(fast.is_none(), "{list:?} on {annotations}: lines to carry");
            }
        }
    }
}
