//! The validator's rule tests as data: every family file of `tests/fixtures/val/` (see
//! `spirv_tests::val_fixture` for the format) run through our validator, whose text must
//! be spirv-val 2025.5's as recorded there. Each family is a test of its own; each
//! reports every failing case with a diff. `BLESS=1` re-records the files from the real
//! spirv-val; in CI the recorded texts are also checked against it.

use spirv_tests::val_fixture::{self, check};

/// One test per family file.
macro_rules! families {
    ($($test:ident: $file:literal,)*) => {
        $(
            #[test]
            fn $test() {
                check($file);
            }
        )*

        /// Every family file has its test above.
        #[test]
        fn every_family_file_is_run() {
            let mut listed = [$($file),*];
            listed.sort_unstable();
            assert_eq!(val_fixture::families(), listed);
        }
    };
}

families! {
    atomics: "atomics.txt",
    builtins: "builtins.txt",
    decorations: "decorations.txt",
    derivatives: "derivatives.txt",
    extensions: "extensions.txt",
    graphs: "graphs.txt",
    images: "images.txt",
    limitations: "limitations.txt",
    logical_pointers: "logical_pointers.txt",
    memory: "memory.txt",
    mesh_shading: "mesh_shading.txt",
    modes: "modes.txt",
    non_uniform: "non_uniform.txt",
    operations: "operations.txt",
    operations_cooperative: "operations-cooperative.txt",
    primitives: "primitives.txt",
    ray_query: "ray_query.txt",
    ray_tracing: "ray_tracing.txt",
    ray_tracing_reorder: "ray_tracing_reorder.txt",
    tensors: "tensors.txt",
    types: "types.txt",
}

/// What the fixtures cannot say: modules spirv-as refuses to write, and the typed API.
mod beyond_the_fixtures {
    use spirv_asm::val::spirv_val_text;
    use spirv_asm::{AsmOptions, assemble_str};
    use spirv_core::TargetEnv;
    use spirv_core::validate::Options;
    use spirv_core::validate::{DecorationError, ValidationErrorKind, validate};

    fn assemble(text: &str) -> Vec<u32> {
        let opts = AsmOptions {
            version: Some((1, 6)),
            preserve_numeric_ids: true,
            ..AsmOptions::default()
        };
        assemble_str(text, &opts).unwrap_or_else(|e| panic!("assembles: {e:?}"))
    }

    /// A literal's high-order bits: a module spirv-as refuses to write, patched by hand.
    #[test]
    fn literal_high_bits_are_zero_or_sign_extended() {
        let text = "OpCapability Shader\nOpCapability Int16\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n%1 = OpTypeInt 16 1\n%2 = OpConstant %1 -1\n";
        let mut words = assemble(text);
        let last = words.len() - 1;
        assert_eq!(words[last], 0xFFFF_FFFF);
        let ours = |w: &[u32]| spirv_val_text(w, &Options::default()).unwrap_or_default();
        // Sign-extended: accepted.
        assert_eq!(ours(&words), "");
        // Zero-extended for a signed type: refused.
        words[last] = 0xFFFF;
        assert_eq!(
            ours(&words),
            "error: line 6: The high-order bits of a literal number in instruction <id> 2 must be 0 for a floating-point type, or 0 for an integer type with Signedness of 0, or sign extended when Signedness is 1\n  %short_65535 = OpConstant %short 65535\n\n"
        );
    }

    /// A fault is data: the decoration, the id and where it is, and its text.
    #[test]
    fn faults_carry_the_decoration_and_the_instruction() {
        let text = "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n\
                    OpDecorate %1 RelaxedPrecision\nOpDecorate %1 RelaxedPrecision\n%1 = OpTypeFloat 32\n";
        let options = Options {
            target_env: TargetEnv::Universal1_6,
            ..Options::default()
        };
        let e = validate(&assemble(text), &options).expect_err("a fault");
        // spirv-val reports the repeat at the decorated id's definition.
        assert_eq!(e.line(), 6);
        assert_eq!(
            e.kind,
            ValidationErrorKind::Decoration(DecorationError::Repeated {
                id: spirv_core::Id(1),
                member: None,
                decoration: spirv_core::spv::Decoration::RelaxedPrecision,
            })
        );
        assert_eq!(
            e.to_string(),
            "ID '1' decorated with RelaxedPrecision multiple times is not allowed. \
             (instruction 5, word 18)"
        );
    }
}

/// spirv-val's own unit tests (`../shared/valsuite`, 41,720 cases with spirv-val
/// 2025.5's answers) through our validator: no false reject, no crash, and per family at
/// least the rejections and first lines `tests/fixtures/valsuite-floors.txt` records.
/// The table by family goes to standard error. `BLESS=1` raises the floors.
#[test]
fn valsuite() {
    use spirv_tests::valsuite;
    use std::io::Write;
    let Some(dir) = valsuite::dir() else {
        spirv_tests::skip(
            "valsuite",
            "spirv-val's unit tests (../shared/valsuite, or set SPIRV_VALSUITE=dir)",
        );
        return;
    };
    let cases = valsuite::read(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        cases.len() > 40_000,
        "{}: {} cases",
        dir.display(),
        cases.len()
    );
    let (by_family, misses) = valsuite::run_all(&cases);
    let _ = std::io::stderr().write_all(valsuite::report(&by_family).as_bytes());
    let path = valsuite::floors_path();
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let floors = valsuite::read_floors(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if std::env::var_os("BLESS").is_some_and(|v| v != "0") {
        std::fs::write(&path, valsuite::write_floors(&by_family, &floors)).expect("bless");
    }
    let mut failures: Vec<String> = misses
        .iter()
        .map(|m| format!("case {}: {}", m.id, m.what))
        .collect();
    for (family, floor) in &floors {
        let t = by_family.get(family).copied().unwrap_or_default();
        if t.left_out > 0 {
            // A newer grammar changed an instruction these cases use: no floor applies.
            let _ = writeln!(
                std::io::stderr(),
                "valsuite: {family}: {} cases left out (an instruction's operands changed since SPIRV-Tools 2025.5); floor not checked",
                t.left_out
            );
            continue;
        }
        if t.detected < floor.detected || t.same_first_line < floor.same_first_line {
            failures.push(format!(
                "{family}: detected {} (floor {}), identical first line {} (floor {})",
                t.detected, floor.detected, t.same_first_line, floor.same_first_line
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "valsuite: {} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
