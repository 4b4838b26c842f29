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
