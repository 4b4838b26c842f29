//! Compile-fail cases for `include_grammar!` (one per error class, `.stderr` goldens;
//! `TRYBUILD=overwrite` re-blesses them).

#[test]
fn bad_grammars_are_rejected_with_located_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
}
