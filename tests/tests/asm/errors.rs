//! Assembler errors against spirv-as 2025.5's, recorded as goldens in
//! `tests/fixtures/asm-errors/` (`NAME.spvasm` and `NAME.expected`: exit code, arguments,
//! spirv-as's stderr). Our exit code and line:column must be the same, and our message
//! must start with spirv-as's (we may add a suggestion). `BLESS=1` re-records the goldens
//! when spirv-as 2025.5 is on PATH.

use spirv_asm::{AsmOptions, assemble};
use spirv_core::target_env_version;
use spirv_tests::{files, stem, workspace_root};

#[test]
fn errors_match_spirv_as_line_column_and_exit_code() {
    let dir = workspace_root().join("tests/fixtures/asm-errors");
    let bless = std::env::var_os("BLESS").is_some();
    if let Some(tools) = spirv_tests::spirv_tools().filter(|_| bless) {
        for path in files(&dir, "spvasm") {
            let name = stem(&path);
            let expected_path = dir.join(format!("{name}.expected"));
            let old = std::fs::read_to_string(&expected_path).unwrap_or_default();
            let args = old
                .lines()
                .nth(1)
                .unwrap_or("args:")
                .trim_start_matches("args:")
                .trim()
                .to_owned();
            let out = std::process::Command::new(tools.join("spirv-as"))
                .args(args.split_whitespace())
                .arg(&path)
                .args(["-o", "/dev/null"])
                .output()
                .expect("spirv-as runs");
            let mut text = format!(
                "{}\nargs:{}{}\n",
                out.status.code().unwrap_or(-1),
                if args.is_empty() { "" } else { " " },
                args
            )
            .into_bytes();
            text.extend_from_slice(&out.stderr);
            std::fs::write(&expected_path, text).expect("bless");
        }
    }
    let mut failures = Vec::new();
    let mut exact = 0;
    let cases = files(&dir, "spvasm");
    assert!(cases.len() >= 25);
    for path in &cases {
        let name = stem(path);
        let text = std::fs::read(path).expect("case");
        let expected = std::fs::read(dir.join(format!("{name}.expected"))).expect("golden");
        let expected = String::from_utf8_lossy(&expected).into_owned();
        let mut lines = expected.splitn(3, '\n');
        let code: u8 = lines
            .next()
            .and_then(|l| l.trim().parse().ok())
            .expect("exit code");
        let args = lines
            .next()
            .unwrap_or("")
            .trim_start_matches("args:")
            .trim()
            .to_owned();
        let stderr = lines.next().unwrap_or("");
        let rest = stderr.strip_prefix("error: ").expect("spirv-as error line");
        let mut parts = rest.splitn(3, ": ");
        let line: usize = parts.next().and_then(|s| s.parse().ok()).expect("line");
        let col: usize = parts.next().and_then(|s| s.parse().ok()).expect("column");
        let msg = parts.next().unwrap_or("").trim_end_matches('\n');
        let mut opts = AsmOptions::default();
        let argv: Vec<&str> = args.split_whitespace().collect();
        if let Some(i) = argv.iter().position(|a| *a == "--target-env") {
            opts.version = target_env_version(argv[i + 1]);
        }
        match assemble(&text, &opts) {
            Ok(_) => failures.push(format!("{name}: assembled, spirv-as said {stderr}")),
            Err(e) => {
                if (e.exit_code(), e.line, e.column) != (code, line, col)
                    || !e.message.starts_with(msg)
                {
                    failures.push(format!(
                        "{name}: got {} [{}] {}:{}: {}\n   want [{code}] {line}:{col}: {msg}",
                        name,
                        e.exit_code(),
                        e.line,
                        e.column,
                        e.message
                    ));
                }
                exact += usize::from(e.message == msg);
                // The rendered form has the caret line.
                assert!(e.render(&text).lines().count() >= 3, "{name}");
            }
        }
    }
    println!(
        "{} cases, {exact} with spirv-as's exact message",
        cases.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Token mutants of the corpus's assembly (a word replaced by a troublesome one, deleted,
/// doubled or cut short), assembled by spirv-as 2025.5 and by us: same exit code, same
/// `line: column: message` (ours may add a suggestion), and the same bytes when both
/// accept. The differences on purpose (docs/cli.md): a redefined id is an error to us,
/// and so is an `OpExtInstImport` whose name follows an `!<integer>`. `ASM_MUTANTS` mutants (default 300), seed `ASM_MUTANT_SEED`.
#[test]
fn text_mutants_match_spirv_as() {
    use spirv_tests::mutate::Rng;
    let Some(corpus) = spirv_tests::require_corpus("assembler text mutants") else {
        return;
    };
    let Some(tools) = spirv_tests::require_spirv_tools("assembler text mutants") else {
        return;
    };
    let count: usize = std::env::var("ASM_MUTANTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let seed: u64 = std::env::var("ASM_MUTANT_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(29);
    const WORDS: &[&str] = &[
        "Foo",
        "1",
        "-",
        "-1",
        "1.5",
        "\"s\"",
        "%x",
        "%1",
        "OpNop",
        "0x10",
        "!5",
        "|",
        "Bias|Foo",
        "2D",
        "=",
        "\"",
        "99999999999",
        "-0",
        "0.",
        ".5",
        "1e5",
        "0x",
        "Op",
        "%",
        "%%",
        "Opx",
    ];
    let texts = files(&corpus.join("asm"), "spvasm");
    assert!(!texts.is_empty(), "no corpus assembly");
    let scratch = std::env::temp_dir().join(format!("asm-mutants-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    let input = scratch.join("m.spvasm");
    let output = scratch.join("m.spv");
    let mut rng = Rng::new(seed);
    let (mut failures, mut rejected, mut redefined, mut left_out) = (Vec::new(), 0, 0, 0);
    let newer = spirv_tests::reference::Newer::of_vendored();
    for n in 0..count {
        let path = &texts[rng.below(texts.len())];
        let text = std::fs::read_to_string(path).expect("corpus text");
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        let candidates: Vec<usize> = (0..lines.len())
            .filter(|&i| !lines[i].trim().is_empty() && !lines[i].starts_with(';'))
            .collect();
        let Some(&at) = rng.pick(&candidates) else {
            continue;
        };
        // Under a newer vendored grammar (the drill), an instruction whose operands grew
        // or changed reads text otherwise than spirv-as 2025.5: leave out mutants of it
        // and of the line after it (whose words it may take as operands).
        let opname = |i: usize| lines[i].split_whitespace().find(|t| t.starts_with("Op"));
        let grew = |i: usize| {
            opname(i).is_some_and(|o| {
                newer.layout_changed(o) || newer.extended_layouts.iter().any(|l| l == o)
            })
        };
        if grew(at) || (at > 0 && grew(at - 1)) {
            left_out += 1;
            continue;
        }
        let mut tokens: Vec<String> = lines[at].split(' ').map(str::to_owned).collect();
        let words: Vec<usize> = (0..tokens.len())
            .filter(|&j| !tokens[j].is_empty())
            .collect();
        let j = words[rng.below(words.len())];
        let pick = WORDS[rng.below(WORDS.len())].to_owned();
        match rng.below(4) {
            0 => tokens[j] = pick,
            1 => {
                tokens.remove(j);
            }
            2 => tokens.insert(j + 1, pick),
            _ => {
                tokens[j].pop();
                if tokens[j].is_empty() {
                    tokens[j] = "X".into();
                }
            }
        }
        lines[at] = tokens.join(" ");
        let mutant = lines.join("\n");
        std::fs::write(&input, &mutant).expect("write mutant");
        let theirs = std::process::Command::new(tools.join("spirv-as"))
            .arg(&input)
            .arg("-o")
            .arg(&output)
            .output()
            .expect("spirv-as runs");
        let code = theirs.status.code().unwrap_or(-1);
        let first = String::from_utf8_lossy(&theirs.stderr)
            .lines()
            .next()
            .unwrap_or("")
            .to_owned();
        let opts = AsmOptions {
            generator: 0x0007_0000,
            ..AsmOptions::default()
        };
        let what = format!(
            "mutant {n} of {}, line {}: {:?}",
            stem(path),
            at + 1,
            lines[at]
        );
        match assemble(mutant.as_bytes(), &opts) {
            Ok(words) if code == 0 => {
                let want = read_words_file(&output);
                if words != want {
                    failures.push(format!("{what}: both accept, the words differ"));
                }
            }
            Ok(_) => failures.push(format!("{what}: we accept; spirv-as: [{code}] {first}")),
            Err(e) if code == 0 => {
                // Errors to us on purpose (docs/cli.md): a redefined id, and an import
                // whose name stands after an `!<integer>`.
                let alternate_import = lines[at].contains("OpExtInstImport")
                    && lines[at].contains('!')
                    && e.message.starts_with("Invalid extended instruction import");
                if e.message.contains("is defined more than once")
                    || e.message
                        .contains("has already been used to generate a type")
                    || alternate_import
                {
                    redefined += 1;
                } else {
                    failures.push(format!(
                        "{what}: we reject ({}), spirv-as accepts",
                        e.message
                    ));
                }
            }
            Err(e) => {
                rejected += 1;
                let ours = format!("error: {}: {}: {}", e.line, e.column, e.message);
                // A redefinition we stop at, where spirv-as goes on to fail later.
                let later = first
                    .strip_prefix("error: ")
                    .and_then(|r| r.split(':').next())
                    .and_then(|l| l.trim().parse::<usize>().ok())
                    .is_some_and(|line| line > e.line);
                if later && e.message.contains("is defined more than once") {
                    redefined += 1;
                    continue;
                }
                if i32::from(e.exit_code()) != code || !ours.starts_with(&first) {
                    failures.push(format!(
                        "{what}:\n   ours   [{}] {ours}\n   theirs [{code}] {first}",
                        e.exit_code()
                    ));
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    println!(
        "{count} text mutants: {rejected} rejected by both, {redefined} rejected on purpose, \
         {left_out} left out (a newer grammar's operands), {} differences",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn read_words_file(path: &std::path::Path) -> Vec<u32> {
    spirv_tests::read_words(path)
}
