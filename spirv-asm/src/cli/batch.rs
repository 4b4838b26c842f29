//! Batch mode, shared by every subcommand that reads modules or text: many files or
//! directory trees, on every core, each output complete and written atomically, one
//! failing file never stopping the others, a progress bar on a terminal, and a summary
//! (or JSON Lines for build systems).
//!
//! A subcommand is in batch mode when it is given more than one input, a directory, or
//! one of `--json`, `--in-place`, `--suffix`; one plain file keeps the single-file
//! behaviour, output and exit codes of the SPIRV-Tools tool it mirrors.
//!
//! Memory: a worker holds one input and its output at a time; the main thread keeps
//! only the messages of files finished out of order, so the peak follows the largest
//! input times the job count, not the total input.

use super::output::Output;
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// The batch options every subcommand takes.
#[derive(clap::Args, Debug, Default)]
pub struct BatchArgs {
    /// Files processed at once (default: one per core).
    #[arg(
        short = 'j',
        long = "jobs",
        value_name = "N",
        help_heading = "Batch mode"
    )]
    pub jobs: Option<usize>,
    /// Extension of the files taken from directories, without the dot; commas separate
    /// several (default: `spv` for binaries, `spvasm` for text). Files named on the
    /// command line are always taken.
    #[arg(long, value_name = "EXT", help_heading = "Batch mode")]
    pub ext: Option<String>,
    /// Write each output beside its input, with the output's extension (for `opt`: over
    /// the input).
    #[arg(
        long = "in-place",
        conflicts_with = "suffix",
        help_heading = "Batch mode"
    )]
    pub in_place: bool,
    /// Write each output beside its input as `<stem><SUFFIX>.<ext>`.
    #[arg(long, value_name = "SUFFIX", help_heading = "Batch mode")]
    pub suffix: Option<String>,
    /// No progress bar and no summary line; only errors.
    #[arg(short = 'q', long, help_heading = "Batch mode")]
    pub quiet: bool,
    /// Print one JSON record per file (input, output, status, exit code, message,
    /// bytes) and a summary record, as JSON Lines on standard output.
    #[arg(long, help_heading = "Batch mode")]
    pub json: bool,
    /// No summary line (`val` on one folder prints exactly what spirv-val prints).
    #[arg(skip)]
    pub no_summary: bool,
}

impl BatchArgs {
    /// Whether only the inputs call for batch mode: no batch option but `-j` is given.
    pub fn only_inputs(&self) -> bool {
        !(self.json || self.in_place || self.suffix.is_some() || self.quiet || self.ext.is_some())
    }

    /// Whether `inputs` with these options call for batch mode.
    pub fn wanted(&self, inputs: &[String]) -> bool {
        inputs.len() > 1
            || self.json
            || self.in_place
            || self.suffix.is_some()
            || inputs.iter().any(|i| i != "-" && Path::new(i).is_dir())
    }
}

/// Where a failure is, for `path:line:col` or `path: word N`.
#[derive(Debug, Clone, Copy)]
pub enum At {
    /// 1-based line and column of a text input.
    LineCol(usize, usize),
    /// A word offset in a binary.
    Word(usize),
    /// The message names the file itself and is printed as it is (`val`'s
    /// `error: PATH:N: …` lines, as spirv-val prints them for a folder).
    Rendered,
}

/// Why one file failed.
#[derive(Debug, Clone)]
pub struct FileError {
    /// Where, when known.
    pub at: Option<At>,
    /// The message, without the `error: ` prefix; further lines are details.
    pub message: String,
    /// The exit code the single-file mode would have returned.
    pub code: u8,
}

impl FileError {
    /// A failure without a position.
    pub fn plain(message: impl Into<String>, code: u8) -> FileError {
        FileError {
            at: None,
            message: message.into(),
            code,
        }
    }

    /// A failure from a single-file message (`error: …` lines), its prefix taken off.
    pub fn from_message(message: &str, code: u8) -> FileError {
        FileError::plain(message.strip_prefix("error: ").unwrap_or(message), code)
    }

    /// A disassembler's (parser's) failure, at its word.
    pub fn from_dis(e: &spirv_asm::DisError) -> FileError {
        FileError {
            at: e.instruction.map(|_| At::Word(e.offset)),
            message: e.message.clone(),
            code: e.exit_code(),
        }
    }
}

/// One subcommand's work on one file.
pub trait Job: Sync {
    /// The command's name, for the summary.
    fn name(&self) -> &'static str;
    /// The default extension of inputs taken from directories.
    fn input_ext(&self) -> &'static str;
    /// The extension of outputs; `None` for a command that writes none (`val`).
    fn output_ext(&self) -> Option<&str>;
    /// Processes one input's bytes (read from `path`): the output's bytes (empty
    /// without output).
    fn process(&self, input: Vec<u8>, path: &Path) -> Result<Vec<u8>, FileError>;
}

/// One input found.
struct Item {
    path: PathBuf,
    /// Where its output goes, if anywhere.
    output: Option<PathBuf>,
}

/// How one file went.
struct Record {
    message: Option<FileError>,
    bytes_in: u64,
    bytes_out: u64,
}

/// Runs `job` over `inputs`, writing outputs under `out_dir` (mirroring each named
/// directory's tree) or as the batch options say; returns the exit code: 0, or the
/// worst (highest) code of a failed file, or 1 for a usage error.
pub fn run(job: &dyn Job, inputs: &[String], out_dir: Option<&str>, args: &BatchArgs) -> u8 {
    let items = match collect(job, inputs, out_dir, args) {
        Ok(items) => items,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    let started = Instant::now();
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, items.len().max(1));
    let show_bar = !args.quiet
        && !args.json
        && std::io::stderr().is_terminal()
        && std::env::var_os("CI").is_none();
    let bar = if show_bar {
        let bar = indicatif::ProgressBar::new(items.len() as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} files  {per_sec}  ETA {eta}",
        ) {
            bar.set_style(style);
        }
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Record)>();
    let mut stdout = std::io::stdout().lock();
    let (mut ok, mut failed, mut worst, mut bytes_in, mut bytes_out) =
        (0usize, 0usize, 0u8, 0u64, 0u64);
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (items, next) = (&items, &next);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    if tx.send((i, one(job, item))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Reports go out in input order, whatever the order of completion.
        let mut pending: BTreeMap<usize, Record> = BTreeMap::new();
        let mut shown = 0usize;
        for (i, record) in rx {
            bar.inc(1);
            pending.insert(i, record);
            while let Some(record) = pending.remove(&shown) {
                let item = &items[shown];
                shown += 1;
                bytes_in += record.bytes_in;
                bytes_out += record.bytes_out;
                match &record.message {
                    None => ok += 1,
                    Some(e) => {
                        failed += 1;
                        worst = worst.max(e.code.max(1));
                    }
                }
                if args.json {
                    let _ = writeln!(stdout, "{}", json_record(item, &record));
                } else if let Some(e) = &record.message {
                    bar.suspend(|| eprintln!("{}", human(&item.path, e)));
                }
            }
        }
    });
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        let summary = serde_json::json!({
            "type": "summary",
            "command": job.name(),
            "files": items.len(),
            "succeeded": ok,
            "failed": failed,
            "bytes_in": bytes_in,
            "bytes_out": bytes_out,
            "seconds": (seconds * 1000.0).round() / 1000.0,
            "exit_code": worst,
        });
        let _ = writeln!(stdout, "{summary}");
    } else if !args.quiet && !args.no_summary {
        eprintln!(
            "{}: {} files, {ok} succeeded, {failed} failed; {} in, {} out; {seconds:.2} s",
            job.name(),
            items.len(),
            human_bytes(bytes_in),
            human_bytes(bytes_out)
        );
    }
    let _ = stdout.flush();
    worst
}

/// Reads, processes and writes one file.
fn one(job: &dyn Job, item: &Item) -> Record {
    let fail = |e: FileError, bytes_in| Record {
        message: Some(e),
        bytes_in,
        bytes_out: 0,
    };
    let input = match std::fs::read(&item.path) {
        Ok(b) => b,
        Err(e) => {
            return fail(
                FileError::plain(format!("cannot open input file: {e}"), 1),
                0,
            );
        }
    };
    let bytes_in = input.len() as u64;
    let output = match job.process(input, &item.path) {
        Ok(o) => o,
        Err(e) => return fail(e, bytes_in),
    };
    let Some(path) = &item.output else {
        return Record {
            message: None,
            bytes_in,
            bytes_out: 0,
        };
    };
    let written = (|| {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create directory '{}': {e}", dir.display()))?;
        }
        let strip = |m: String| m.strip_prefix("error: ").map(str::to_owned).unwrap_or(m);
        let mut out = Output::open_file(path).map_err(strip)?;
        out.write_all(&output).map_err(strip)?;
        out.commit().map_err(strip)
    })();
    match written {
        Ok(()) => Record {
            message: None,
            bytes_in,
            bytes_out: output.len() as u64,
        },
        Err(m) => fail(FileError::plain(m, 1), bytes_in),
    }
}

/// The inputs: files as named, directories walked (sorted by name, symlinked
/// directories not followed) for files with the input extension; with each one's
/// output path. Two inputs with the same output are refused before anything runs.
fn collect(
    job: &dyn Job,
    inputs: &[String],
    out_dir: Option<&str>,
    args: &BatchArgs,
) -> Result<Vec<Item>, String> {
    let exts: Vec<String> = args
        .ext
        .as_deref()
        .unwrap_or(job.input_ext())
        .split(',')
        .map(|e| e.trim_start_matches('.').to_owned())
        .filter(|e| !e.is_empty())
        .collect();
    if inputs.is_empty() {
        return Err("no input files".into());
    }
    let out_ext = job.output_ext();
    if out_ext.is_some() && out_dir.is_none() && !args.in_place && args.suffix.is_none() {
        return Err(format!(
            "several inputs need an output directory (-o DIR), --in-place or --suffix SUFFIX; `{}` writes no output beside its inputs unless asked",
            job.name()
        ));
    }
    if out_ext.is_none() && (out_dir.is_some() || args.in_place || args.suffix.is_some()) {
        return Err(format!("`{}` writes no output files", job.name()));
    }
    let mut found: Vec<(PathBuf, PathBuf)> = Vec::new(); // (path, relative path for -o)
    for input in inputs {
        if input == "-" {
            return Err("standard input cannot be one of several inputs".into());
        }
        let root = Path::new(input);
        let meta =
            std::fs::metadata(root).map_err(|e| format!("cannot open input '{input}': {e}"))?;
        if !meta.is_dir() {
            let name = root.file_name().map(PathBuf::from).unwrap_or_default();
            found.push((root.to_path_buf(), name));
            continue;
        }
        for entry in walkdir::WalkDir::new(root).sort_by_file_name() {
            let entry = entry.map_err(|e| format!("cannot walk '{input}': {e}"))?;
            let path = entry.path();
            let is_file =
                entry.file_type().is_file() || (entry.path_is_symlink() && path.is_file());
            let wanted = path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| exts.iter().any(|x| x == e));
            if is_file && wanted {
                let rel = path.strip_prefix(root).unwrap_or(path).to_path_buf();
                found.push((path.to_path_buf(), rel));
            }
        }
    }
    let mut items = Vec::with_capacity(found.len());
    let mut taken: BTreeMap<PathBuf, usize> = BTreeMap::new();
    for (path, rel) in found {
        let output = out_ext.map(|ext| {
            let (base, rel) = match out_dir {
                Some(dir) => (PathBuf::from(dir), rel),
                None => (
                    path.parent().map(Path::to_path_buf).unwrap_or_default(),
                    PathBuf::from(path.file_name().unwrap_or_default()),
                ),
            };
            let stem = rel
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let name = format!("{stem}{}.{ext}", args.suffix.as_deref().unwrap_or(""));
            base.join(rel.with_file_name(name))
        });
        if let Some(o) = &output {
            if let Some(&first) = taken.get(o) {
                let other: &Item = &items[first];
                return Err(format!(
                    "'{}' and '{}' would both write '{}'",
                    other.path.display(),
                    path.display(),
                    o.display()
                ));
            }
            taken.insert(o.clone(), items.len());
        }
        items.push(Item { path, output });
    }
    if items.is_empty() {
        return Err(format!(
            "no input files (looked for .{} files)",
            exts.join(", .")
        ));
    }
    Ok(items)
}

/// `error: path:line:col: message` or `error: path: word N: message`, details indented.
fn human(path: &Path, e: &FileError) -> String {
    let at = match e.at {
        Some(At::LineCol(l, c)) => format!(":{l}:{c}:"),
        Some(At::Word(w)) => format!(": word {w}:"),
        Some(At::Rendered) => {
            return e
                .message
                .strip_suffix('\n')
                .unwrap_or(&e.message)
                .to_owned();
        }
        None => ":".to_owned(),
    };
    let mut lines = e.message.lines();
    let mut s = format!(
        "error: {}{at} {}",
        path.display(),
        lines.next().unwrap_or("")
    );
    for l in lines.filter(|l| !l.is_empty()) {
        s.push_str("\n  ");
        s.push_str(l.trim_start());
    }
    s
}

fn json_record(item: &Item, r: &Record) -> serde_json::Value {
    let (line, column, word) = match r.message.as_ref().and_then(|e| e.at) {
        Some(At::LineCol(l, c)) => (Some(l), Some(c), None),
        Some(At::Word(w)) => (None, None, Some(w)),
        _ => (None, None, None),
    };
    serde_json::json!({
        "type": "file",
        "input": item.path.to_string_lossy(),
        "output": if r.message.is_none() { item.output.as_ref().map(|o| o.to_string_lossy()) } else { None },
        "status": if r.message.is_none() { "ok" } else { "error" },
        "exit_code": r.message.as_ref().map_or(0, |e| e.code.max(1)),
        "message": r.message.as_ref().map(|e| e.message.clone()),
        "line": line,
        "column": column,
        "word": word,
        "bytes_in": r.bytes_in,
        "bytes_out": r.bytes_out,
    })
}

fn human_bytes(n: u64) -> String {
    match n {
        n if n >= 1 << 20 => format!("{:.1} MB", n as f64 / f64::from(1u32 << 20)),
        n if n >= 1 << 10 => format!("{:.1} KB", n as f64 / 1024.0),
        n => format!("{n} B"),
    }
}
