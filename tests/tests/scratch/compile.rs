//! Compile-fail cases for `include_grammar!` (one per error class, `.stderr` goldens;
//! `TRYBUILD=overwrite` re-blesses them). trybuild builds the cases as a scratch crate,
//! so they run only with `SPIRV_SCRATCH_TESTS=1` (`.ci/run` runs them as a step of their
//! own).

#[test]
fn bad_grammars_are_rejected_with_located_errors() {
    if !spirv_tests::scratch_tests("the macros' compile-fail cases (trybuild)") {
        return;
    }
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
}
