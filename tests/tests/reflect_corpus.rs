//! `spirv-asm reflect --format spirv-cross` against `spirv-cross --reflect`'s gold for
//! every corpus binary it accepts: equal as parsed JSON (numbers compared by value), and
//! byte for byte as text; and an answer or an error, never a panic, for the modules it
//! refuses.

use serde_json::Value;
use spirv_tests::{read_words, require_corpus};

/// Parsed-JSON equality, numbers by value (SPIRV-Cross writes `1.0` where we might
/// write `1`; both are the number one).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

#[test]
fn spirv_cross_format_matches_the_gold() {
    let Some(dir) = require_corpus("reflection against spirv-cross's gold") else {
        return;
    };
    let status = std::fs::read_to_string(dir.join("reflect.tsv")).expect("reflect.tsv");
    let (mut compared, mut refused, mut identical) = (0, 0, 0);
    let mut failures = Vec::new();
    for line in status.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (name, rc) = (cols[0], cols[1]);
        let words = read_words(&dir.join("bin").join(format!("{name}.spv")));
        let module = spirv_core::Module::from_words(&words);
        let ours = module
            .as_ref()
            .map_err(|e| e.to_string())
            .and_then(|m| spirv_asm::reflect::spirv_cross_json(m).map_err(|e| e.message));
        if rc != "0" {
            // SPIRV-Cross refused or crashed: we answer or give a clear error.
            refused += 1;
            continue;
        }
        compared += 1;
        let gold_text = std::fs::read_to_string(dir.join("reflect").join(format!("{name}.json")))
            .expect("gold");
        let gold: Value = serde_json::from_str(&gold_text).expect("gold parses");
        if ours.as_ref().is_ok_and(|t| *t == gold_text) {
            identical += 1;
        }
        match ours {
            Ok(text) => match serde_json::from_str::<Value>(&text) {
                Ok(v) if same(&v, &gold) => {}
                Ok(_) => failures.push(format!("{name}: differs")),
                Err(e) => failures.push(format!("{name}: our JSON does not parse: {e}")),
            },
            Err(e) => failures.push(format!("{name}: error {e}")),
        }
    }
    println!(
        "reflect: {} of {compared} equal to spirv-cross's gold as JSON, {identical} byte for byte; {refused} modules spirv-cross refuses answered without a panic",
        compared - failures.len()
    );
    assert_eq!(compared, 1141);
    assert_eq!(identical, compared, "some outputs differ as text");
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}
