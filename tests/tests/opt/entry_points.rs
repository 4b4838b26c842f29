//! The optimizer's entry points agree on what they refuse: `Optimizer::run` on words,
//! `run_owned` and `run_module` on a module already read give the same error, in
//! spirv-opt's words, for a module SPIRV-Tools' parser refuses (an unknown opcode, a
//! type or result id 0, an id defined twice), for structural and IR passes alike.
//! Needs no SPIRV-Tools: the wording is checked against spirv-opt's by the CLI test
//! `a_module_the_parser_refuses_is_refused_as_spirv_opt_refuses_it`.

use spirv_core::Module;
use spirv_tests::opt_cases::assemble;

const GOOD: &str = "OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %1 \"main\"
OpExecutionMode %1 OriginUpperLeft
%2 = OpTypeVoid
%3 = OpTypeFunction %2
%4 = OpTypeFloat 32
%5 = OpConstant %4 1
%1 = OpFunction %2 None %3
%6 = OpLabel
%7 = OpFAdd %4 %5 %5
OpReturn
OpFunctionEnd
";

fn optimizer(pass: &str) -> spirv_opt::Optimizer {
    let mut opt = spirv_opt::Optimizer::new();
    opt.skip_validation(true);
    opt.register_flag(pass).expect("a pass");
    opt
}

#[test]
fn every_entry_point_refuses_what_the_parser_refuses() {
    let words = assemble(GOOD);
    // The OpFAdd: its first word, then its type and result ids.
    let mut at = 5;
    while words[at] & 0xffff != u32::from(spirv_core::spv::Opcode::FAdd.0) {
        at += (words[at] >> 16) as usize;
    }
    let patched: [(&str, usize, u32); 4] = [
        ("type-zero", at + 1, 0),
        ("result-zero", at + 2, 0),
        ("redefined", at + 2, 4),
        ("opcode", at, (words[at] & 0xffff_0000) | 4000),
    ];
    let passes = [
        "--strip-debug",
        "--remove-duplicates",
        "--eliminate-dead-code-aggressive",
        "-O",
    ];
    for (name, word, value) in patched {
        let mut bad = words.clone();
        bad[word] = value;
        for pass in passes {
            let opt = optimizer(pass);
            let Err(e) = opt.run(&bad) else {
                panic!("{name} {pass}: run took it")
            };
            // The CLI's `error: line 11: ...`: the instruction's number, 1-based.
            let said = e.message();
            assert_eq!(said.index, 11, "{name} {pass}: {said:?}");
            let Err(owned) = opt.run_owned(bad.clone()) else {
                panic!("{name} {pass}: run_owned took it")
            };
            assert_eq!(owned.message(), said, "{name} {pass}: run_owned");
            // The module reader refuses an id defined twice itself; what it reads must
            // be refused by run_module as by run.
            let Ok(module) = Module::read(&bad, &Default::default()) else {
                assert_eq!(name, "redefined", "{pass}: the reader refused it");
                continue;
            };
            let Err(m) = opt.run_module(&module) else {
                panic!("{name} {pass}: run_module took it")
            };
            assert_eq!(m.message(), said, "{name} {pass}: run_module");
        }
    }
    // The good module goes through every entry point.
    for pass in passes {
        let opt = optimizer(pass);
        let module = Module::read(&words, &Default::default()).expect("reads");
        assert!(opt.run(&words).is_ok(), "{pass}");
        assert!(opt.run_module(&module).is_ok(), "{pass}");
    }
}
