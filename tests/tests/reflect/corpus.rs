//! `spirv-asm reflect --format spirv-cross` against `spirv-cross --reflect`'s gold for
//! every corpus binary it accepts: equal as parsed JSON (numbers compared by value), and
//! byte for byte as text. Of the 38 modules spirv-cross refuses, the 28 OpenCL kernels get
//! its error (`Kernel capability not supported.`); of the 10 it throws on or crashes on, 9
//! get an answer and one ([`REFUSED_BY_BOTH`]) an error of ours.

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

/// The modules spirv-cross throws on that we refuse too, with our error: a type its format
/// has no name for (spirv-cross 2021.01.15 throws "Currently no block to insert opcode.").
const REFUSED_BY_BOTH: &[(&str, &str)] = &[(
    "glslang__spv.coopmat.comp",
    "type 32 (OpTypeCooperativeMatrixNV) is not a type SPIRV-Cross reflects",
)];

#[test]
fn spirv_cross_format_matches_the_gold() {
    let Some(dir) = require_corpus("reflection against spirv-cross's gold") else {
        return;
    };
    let status = std::fs::read_to_string(dir.join("reflect.tsv")).expect("reflect.tsv");
    let (mut compared, mut identical) = (0, 0);
    let (mut kernels, mut answered, mut both) = (0, 0, 0);
    let (mut failures, mut refusals) = (Vec::new(), Vec::new());
    for line in status.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (name, rc, note) = (cols[0], cols[1], cols.get(2).copied().unwrap_or(""));
        let words = read_words(&dir.join("bin").join(format!("{name}.spv")));
        let module = spirv_core::Module::from_words(&words);
        let ours = module
            .as_ref()
            .map_err(|e| e.to_string())
            .and_then(|m| spirv_asm::reflect_json::spirv_cross_json(m).map_err(|e| e.message));
        if rc != "0" {
            // SPIRV-Cross refused: a kernel gets its error, the others an answer that
            // parses, but for the few both refuse.
            let expected = REFUSED_BY_BOTH.iter().find(|(n, _)| *n == name);
            if note.contains("Kernel capability not supported.") {
                kernels += 1;
                match &ours {
                    Err(e) if e == "Kernel capability not supported." => {}
                    other => refusals.push(format!("{name}: a kernel, but {other:?}")),
                }
            } else if let Some((_, message)) = expected {
                both += 1;
                match &ours {
                    Err(e) if e == message => {}
                    other => refusals.push(format!("{name}: expected {message:?}, got {other:?}")),
                }
            } else {
                answered += 1;
                match &ours {
                    Ok(text) if serde_json::from_str::<Value>(text).is_ok() => {}
                    Ok(_) => refusals.push(format!("{name}: our JSON does not parse")),
                    Err(e) => refusals.push(format!("{name}: error {e:?}, not an answer")),
                }
            }
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
        "reflect: {} of {compared} equal to spirv-cross's gold as JSON, {identical} byte for byte; of the modules spirv-cross refuses, {kernels} kernels get its error, {answered} others an answer, {both} our error",
        compared - failures.len()
    );
    assert_eq!(compared, 1141);
    assert!(refusals.is_empty(), "{}", refusals.join("\n"));
    assert_eq!(
        (kernels, answered, both),
        (28, 9, REFUSED_BY_BOTH.len()),
        "the modules spirv-cross refuses"
    );
    assert_eq!(identical, compared, "some outputs differ as text");
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}
