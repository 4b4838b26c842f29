//! Batch mode, shared by every subcommand that reads modules or text: many files or
//! directory trees, on every core, each output complete and written atomically, one
//! failing file never stopping the others, a progress bar on a terminal, and a summary
//! (or JSON Lines for build systems).
//!
//! A subcommand is in batch mode when it is given more than one input, a directory, or
//! one of `--json`, `--in-place`, `--suffix`; one plain file keeps the single-file
//! behaviour, output and exit codes of the SPIRV-Tools tool it mirrors.
//!
//! `--json` records have one shape for every subcommand, set out once in `JSON_HELP`
//! (printed by `--help`) and made by `json_record`.
//!
//! The walk runs beside the workers, on the calling thread, queueing each input as it
//! finds it, and then works too; each worker reports its own files (see [`run`]). A
//! worker the scheduler left waiting on the calling thread's CPU is let run by the
//! calling thread moving (`super::placement`); folders are read by `super::listing`.
//!
//! Memory: a worker holds one input and its output at a time, in buffers it keeps from
//! file to file (at most four times what its current file needs, or 1 MiB: see
//! [`Scratch`]); the report keeps only the lines of files finished out of order, the
//! queue the paths found and not yet taken, and the walk the output paths when two
//! inputs could share one, so the peak follows the largest input times the job count,
//! not the total input.

use super::listing::{Kind, each_entry};
use super::output::Output;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::Instant;

/// The shape of `--json`'s records, the same for every subcommand: its long help.
const JSON_HELP: &str = "\
Print one JSON record per file, in input order, then a summary record, as JSON Lines
on standard output (every subcommand alike; a key absent for a file is null):
  {\"type\": \"file\", \"command\": \"val\", \"input\": PATH, \"output\": PATH or null,
   \"status\": \"ok\" or \"error\", \"exit_code\": N, \"message\": TEXT, \"line\": N,
   \"column\": N, \"word\": N, \"errors\": [{\"message\": TEXT, \"line\": N,
   \"column\": N, \"word\": N, \"details\": [TEXT, ...]}, ...],
   \"errors_not_shown\": N, \"bytes_in\": N, \"bytes_out\": N}
  {\"type\": \"summary\", \"command\": \"val\", \"files\": N, \"succeeded\": N,
   \"failed\": N, \"bytes_in\": N, \"bytes_out\": N, \"seconds\": S, \"exit_code\": N}
`errors` lists a failed file's errors (`val --keep-going` may give several; `[]` for a
file that succeeded); `message`, `line`, `column` and `word` repeat the first one's. A
message is one line without the `error: ` prefix; further lines (the instruction
spirv-val names, a note) are its `details`. `line` and `column` place an error in text
(`as`); for `val`, `line` is spirv-val's `line N`; `word` is a word offset in a
binary. `errors_not_shown` counts what `--max-errors` left out.";

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
    /// Print one JSON record per file and a summary record, as JSON Lines on standard
    /// output (`--help` shows their shape).
    #[arg(long, help_heading = "Batch mode", long_help = JSON_HELP)]
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

/// Where a fault is, for `path:line:col` or `path: word N`.
#[derive(Debug, Clone, Copy, Default)]
pub struct At {
    /// 1-based line: of a text input (`as`), or spirv-val's instruction line (`val`).
    pub line: Option<usize>,
    /// 1-based column of a text input.
    pub column: Option<usize>,
    /// A word offset in a binary.
    pub word: Option<usize>,
}

/// One fault of a failed file.
#[derive(Debug, Clone)]
pub struct Fault {
    /// Where, as far as known.
    pub at: At,
    /// The message: one line, without the `error: ` prefix.
    pub message: String,
    /// Further lines: the instruction spirv-val names, a note.
    pub details: Vec<String>,
}

impl Fault {
    /// A fault from a message whose first line is the message and the others details.
    pub fn from_lines(at: At, text: &str) -> Fault {
        let mut lines = text.lines();
        let message = lines.next().unwrap_or("");
        Fault {
            at,
            message: message
                .strip_prefix("error: ")
                .unwrap_or(message)
                .to_owned(),
            details: lines
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_owned)
                .collect(),
        }
    }
}

/// Why one file failed.
#[derive(Debug, Clone)]
pub struct FileError {
    /// The faults reported, in order; at least one.
    pub faults: Vec<Fault>,
    /// Faults found but not reported (`val --max-errors`).
    pub not_shown: usize,
    /// The exit code the single-file mode would have returned.
    pub code: u8,
    /// The text printed for the file instead of `error: path…: message` lines, for a
    /// command that names the file itself (`val`'s `error: PATH:N: …` lines, as
    /// spirv-val prints them for a folder).
    pub rendered: Option<String>,
}

impl FileError {
    /// A failure at `at` (`message`: first line the message, others details).
    pub fn at(at: At, message: &str, code: u8) -> FileError {
        FileError {
            faults: vec![Fault::from_lines(at, message)],
            not_shown: 0,
            code,
            rendered: None,
        }
    }

    /// A failure without a position.
    pub fn plain(message: impl Into<String>, code: u8) -> FileError {
        FileError::at(At::default(), &message.into(), code)
    }

    /// A failure from a single-file message (`error: …` lines), its prefix taken off.
    pub fn from_message(message: &str, code: u8) -> FileError {
        FileError::plain(message, code)
    }

    /// A disassembler's (parser's) failure, at its word.
    pub fn from_dis(e: &spirv_asm::DisError) -> FileError {
        let at = At {
            word: e.instruction.map(|_| e.offset),
            ..At::default()
        };
        FileError::at(at, &e.message, e.exit_code())
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
    /// Processes `scratch.input` (read from `path`) into `scratch.output`. The default
    /// is [`Job::process`], the input moved in and the output moved out; a job that
    /// can work in the worker's kept buffers overrides it.
    fn process_in(&self, scratch: &mut Scratch, path: &Path) -> Result<(), FileError> {
        let input = std::mem::take(&mut scratch.input);
        scratch.output = self.process(input, path)?;
        Ok(())
    }
}

/// A worker's buffers, kept from one file to the next: each file's input, words and
/// output land in memory the worker already has, not in fresh pages (a buffer of 128
/// KiB or more is a fresh `mmap` from glibc every time, faulted in page by page while
/// the other worker waits on the same lock). [`Scratch::trim`] lets go of what one
/// large file left.
#[derive(Default)]
pub struct Scratch {
    /// The input's bytes, as read.
    pub input: Vec<u8>,
    /// The input as words, for a job that reads binaries.
    pub words: Vec<u32>,
    /// The output's bytes.
    pub output: Vec<u8>,
}

impl Scratch {
    /// Frees each buffer that holds over 1 MiB and more than four times what the file
    /// just done used: so a worker keeps at most about four times its current file's
    /// needs, or 1 MiB, whatever came before.
    fn trim(&mut self) {
        fn trim<T>(v: &mut Vec<T>) {
            if v.capacity() * std::mem::size_of::<T>() > 1 << 20 && v.capacity() / 4 > v.len() {
                *v = Vec::new();
            }
        }
        trim(&mut self.input);
        trim(&mut self.words);
        trim(&mut self.output);
    }
}

/// One input found.
struct Item {
    path: PathBuf,
    /// Where its output goes, if anywhere.
    output: Option<PathBuf>,
    /// The walk could not read this path (a folder it met): reported as a failed file.
    walk_error: Option<FileError>,
}

/// How one file went.
struct Record {
    message: Option<FileError>,
    bytes_in: u64,
    bytes_out: u64,
}

/// Whether workers may write their outputs: at once when no two inputs can share an
/// output, else only once the walk has found that none does.
struct Gate {
    /// The state, read without the lock once it is no longer `Closed`.
    open: AtomicU8,
    state: Mutex<GateState>,
    changed: Condvar,
}

#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum GateState {
    Open,
    Closed,
    /// The walk refused the inputs: nothing is written or reported.
    Refused,
}

impl Gate {
    fn new(state: GateState) -> Gate {
        Gate {
            open: AtomicU8::new(state as u8),
            state: Mutex::new(state),
            changed: Condvar::new(),
        }
    }

    /// Waits while closed; whether the worker may go on.
    fn pass(&self) -> bool {
        match self.open.load(Ordering::Acquire) {
            s if s == GateState::Open as u8 => return true,
            s if s == GateState::Refused as u8 => return false,
            _ => {}
        }
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        while *s == GateState::Closed {
            s = self.changed.wait(s).unwrap_or_else(PoisonError::into_inner);
        }
        *s == GateState::Open
    }

    fn set(&self, state: GateState) {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        *s = state;
        self.open.store(state as u8, Ordering::Release);
        drop(s);
        self.changed.notify_all();
    }
}

/// The inputs the walk has found and no worker has taken yet. A worker sleeps only when
/// it is empty, and the walk wakes one only then: on a walk that keeps ahead of the
/// workers, handing an input over is a lock taken and released, no system call.
struct Queue {
    state: Mutex<QueueState>,
    ready: Condvar,
}

struct QueueState {
    items: VecDeque<(Slot, Item)>,
    /// The walk has ended: no more items will come.
    closed: bool,
    /// Workers asleep on `ready`.
    waiting: usize,
    /// Of those, how many were woken and have not run yet: a push wakes one only if
    /// some sleeper is not already woken (the walk gives files faster than a woken
    /// worker gets its CPU, and each wakeup is a system call).
    woken: usize,
}

impl Queue {
    fn new() -> Queue {
        Queue {
            state: Mutex::new(QueueState {
                items: VecDeque::new(),
                closed: false,
                waiting: 0,
                woken: 0,
            }),
            ready: Condvar::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn push(&self, i: Slot, item: Item) {
        let mut s = self.lock();
        s.items.push_back((i, item));
        let wake = s.waiting > s.woken;
        s.woken += usize::from(wake);
        drop(s);
        if wake {
            self.ready.notify_one();
        }
    }

    fn close(&self) {
        let mut s = self.lock();
        s.closed = true;
        let wake = s.waiting > 0;
        drop(s);
        if wake {
            self.ready.notify_all();
        }
    }

    /// The next item, waiting for the walk if need be; `None` once it has ended and
    /// every item was taken.
    fn pop(&self) -> Option<(Slot, Item)> {
        let mut s = self.lock();
        loop {
            if let Some(next) = s.items.pop_front() {
                return Some(next);
            }
            if s.closed {
                return None;
            }
            s.waiting += 1;
            s = self.ready.wait(s).unwrap_or_else(PoisonError::into_inner);
            s.waiting -= 1;
            // Woken or not (a spurious wakeup), it runs: one fewer owed.
            s.woken = s.woken.saturating_sub(1);
        }
    }
}

/// Refuses the run and ends the queue when dropped: what an unwinding walk leaves.
struct Release<'a>(&'a Gate, &'a Queue);

impl Drop for Release<'_> {
    fn drop(&mut self) {
        self.0.set(GateState::Refused);
        self.1.close();
    }
}

/// What a file prints, made by its worker before it takes the report's lock.
enum Line {
    /// A `--json` record, for standard output.
    Json(String),
    /// An error, for standard error.
    Error(String),
}

/// The tally, and the lines of files finished before an earlier one, kept until they
/// can go out in input order. Each worker adds its files itself: no thread waits on
/// another to hear how a file went.
struct Report<'a> {
    bar: Option<&'a indicatif::ProgressBar>,
    /// The index of the first file not yet reported.
    next: usize,
    /// Files finished out of order: their lines, if any.
    pending: BTreeMap<usize, Option<Line>>,
    ok: usize,
    failed: usize,
    worst: u8,
    bytes_in: u64,
    bytes_out: u64,
}

impl Report<'_> {
    fn add(&mut self, i: usize, record: &Record, line: Option<Line>) {
        if let Some(bar) = self.bar {
            bar.inc(1);
        }
        self.bytes_in += record.bytes_in;
        self.bytes_out += record.bytes_out;
        match &record.message {
            None => self.ok += 1,
            Some(e) => {
                self.failed += 1;
                self.worst = self.worst.max(e.code.max(1));
            }
        }
        if i != self.next {
            self.pending.insert(i, line);
            return;
        }
        self.print(line);
        self.next += 1;
        while let Some(line) = self.pending.remove(&self.next) {
            self.print(line);
            self.next += 1;
        }
    }

    fn print(&self, line: Option<Line>) {
        match line {
            None => {}
            Some(Line::Json(j)) => {
                let _ = writeln!(std::io::stdout().lock(), "{j}");
            }
            Some(Line::Error(e)) => match self.bar {
                Some(bar) => bar.suspend(|| eprintln!("{e}")),
                None => eprintln!("{e}"),
            },
        }
    }
}

/// What the walk ended with: how many items it gave, or why it refused the inputs.
type WalkEnd = Result<usize, String>;

/// Where a queued file stands in input order.
#[derive(Clone, Copy)]
enum Slot {
    /// Its index.
    Index(usize),
    /// Given early (see [`Given::Early`]): the id its index comes under later.
    Early(u32),
}

/// How many files the walk gives before it looks whether a worker still waits to
/// start (see `run`).
const STEP_ASIDE_AFTER: usize = 8;

/// What the walk gives, in order.
enum Given {
    /// The input with this index.
    Item(usize, Item),
    /// An input given while its folder was still being read, before its index is
    /// known, so that the first file starts on the folder's first `getdents64` batch
    /// rather than once the whole folder is read and sorted; it comes under this id.
    Early(u32, Item),
    /// The index of the input given early under this id, once its folder is sorted.
    Placed(u32, usize),
}

/// A file given early, as far as it has got: its index known, or its record made.
enum Early {
    Index(usize),
    Done(Record, Option<Line>),
}

/// Runs `job` over `inputs`, writing outputs under `out_dir` (mirroring each named
/// directory's tree) or as the batch options say; returns the exit code: 0, or the
/// worst (highest) code of a failed file, or 1 for a usage error.
///
/// The calling thread walks and queues each input as it finds it; `jobs` workers (new
/// threads, and the calling thread once the walk is done, when `jobs` > 1) take them
/// from the queue, and each reports its own files. Two inputs with one output are
/// refused before anything is written: where that cannot happen (one input folder and
/// one extension; or no outputs) the workers write as they go, else each worker, with
/// its first file done, waits for the walk to finish.
pub fn run(job: &dyn Job, inputs: &[String], out_dir: Option<&str>, args: &BatchArgs) -> u8 {
    let plan = match Plan::new(job, inputs, out_dir, args) {
        Ok(plan) => plan,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    let started = Instant::now();
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let show_bar = !args.quiet
        && !args.json
        && std::io::stderr().is_terminal()
        && std::env::var_os("CI").is_none();
    let bar = show_bar.then(|| {
        let bar = indicatif::ProgressBar::new(0);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} files  {rate}  ETA {eta}")
        {
            let rate = |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&rate_text(state.per_sec()));
            };
            bar.set_style(style.with_key("rate", rate));
        }
        bar
    });
    let check = plan.collisions_possible();
    let gate = Gate::new(if check {
        GateState::Closed
    } else {
        GateState::Open
    });
    let dirs = Dirs::default();
    let queue = Queue::new();
    let early: Mutex<HashMap<u32, Early>> = Mutex::new(HashMap::new());
    // Workers that have begun running.
    let running = AtomicUsize::new(0);
    let report = Mutex::new(Report {
        bar: bar.as_ref(),
        next: 0,
        pending: BTreeMap::new(),
        ok: 0,
        failed: 0,
        worst: 0,
        bytes_in: 0,
        bytes_out: 0,
    });
    let work = || {
        let mut scratch = Scratch::default();
        while let Some((slot, item)) = queue.pop() {
            let done = match &item.walk_error {
                Some(e) => Err((e.clone(), 0)),
                None => process(job, &item, &mut scratch),
            };
            if !gate.pass() {
                break;
            }
            let record = write(&item, done.map(|n| (&scratch.output[..], n)), &dirs);
            scratch.trim();
            let line = if args.json {
                Some(Line::Json(
                    json_record(job.name(), &item, &record).to_string(),
                ))
            } else {
                record
                    .message
                    .as_ref()
                    .map(|e| Line::Error(human(&item.path, e)))
            };
            let i = match slot {
                Slot::Index(i) => i,
                // Reported now if the walk has placed it, else by the walk when it does.
                Slot::Early(id) => {
                    let mut e = lock(&early);
                    match e.remove(&id) {
                        Some(Early::Index(i)) => i,
                        _ => {
                            e.insert(id, Early::Done(record, line));
                            continue;
                        }
                    }
                }
            };
            lock(&report).add(i, &record, line);
        }
        // Freed by the caller once every worker is done: freeing a large buffer is an
        // `munmap`, which, while another thread of the process runs, waits for that
        // thread's CPU to flush its TLB (about 50 µs a buffer on this machine, traced).
        scratch
    };
    let kept = Mutex::new(Vec::with_capacity(jobs));
    let end = std::thread::scope(|scope| {
        // The calling thread walks, then works (with one job it only walks, beside the
        // one worker): `jobs` threads in all, never more busy threads than jobs once
        // the walk is over. It walks rather than a new thread because it is running
        // already: a new thread runs about 0.3 ms after `clone3` is called (traced on
        // this machine, more when the other core is busy), and no file can start before
        // the walk gives it; so the workers' start overlaps the walk's first read.
        let spawned = jobs.max(2) - 1;
        for _ in 0..spawned {
            scope.spawn(|| {
                running.fetch_add(1, Ordering::Relaxed);
                let scratch = work();
                lock(&kept).push(scratch);
            });
        }
        // Once there is work for a while, a worker not started yet may be waiting on
        // this thread's CPU: this thread then moves (see `placement`). Not for the
        // first few files: a batch of a handful is done sooner than the move pays
        // (reading `/proc` and moving take about 0.1 ms), by this thread if need be.
        let mut look = STEP_ASIDE_AFTER;
        // Should the walk panic, the workers are let go before the scope waits for them.
        let release = Release(&gate, &queue);
        // A few files per worker may be given early (their lines are held until the
        // walk places them), where the plan allows.
        let early_files = if plan.may_give_early(check) {
            jobs.saturating_mul(16).min(256)
        } else {
            0
        };
        let end = plan.walk(check, early_files, |given| {
            let (slot, item) = match given {
                Given::Item(i, item) => (Slot::Index(i), item),
                Given::Early(id, item) => (Slot::Early(id), item),
                Given::Placed(id, i) => {
                    let mut e = lock(&early);
                    match e.remove(&id) {
                        Some(Early::Done(record, line)) => {
                            drop(e);
                            lock(&report).add(i, &record, line);
                        }
                        _ => {
                            e.insert(id, Early::Index(i));
                        }
                    }
                    return;
                }
            };
            if let Some(bar) = &bar {
                bar.inc_length(1);
            }
            queue.push(slot, item);
            if look > 0 {
                look -= 1;
                if look == 0 && running.load(Ordering::Relaxed) < spawned {
                    super::placement::step_aside();
                }
            }
        });
        std::mem::forget(release);
        gate.set(if end.is_ok() {
            GateState::Open
        } else {
            GateState::Refused
        });
        queue.close();
        if jobs > 1 {
            let scratch = work();
            lock(&kept).push(scratch);
        }
        // The scope waits for the workers' closures, not for their threads to end (a
        // `join` would wait for that too: glibc's stack release, another shootdown).
        end
    });
    drop(kept);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let Report {
        ok,
        failed,
        worst,
        bytes_in,
        bytes_out,
        ..
    } = report.into_inner().unwrap_or_else(PoisonError::into_inner);
    let files = match end {
        Ok(files) => files,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        let summary = serde_json::json!({
            "type": "summary",
            "command": job.name(),
            "files": files,
            "succeeded": ok,
            "failed": failed,
            "bytes_in": bytes_in,
            "bytes_out": bytes_out,
            "seconds": (seconds * 1000.0).round() / 1000.0,
            "exit_code": worst,
        });
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "{summary}");
        let _ = stdout.flush();
    } else if !args.quiet && !args.no_summary {
        eprintln!(
            "{}: {files} files, {ok} succeeded, {failed} failed; {} in, {} out; {seconds:.2} s",
            job.name(),
            human_bytes(bytes_in),
            human_bytes(bytes_out)
        );
    }
    worst
}

/// Reads the file at `path` into `buf` (its old bytes replaced, its memory kept), with
/// the system calls `std::fs::read` makes: the length asked for once (room for it and
/// one byte more, so the read that finds the end needs no growth), then reads to the
/// end. (`File::read_to_end` would also ask for the position, one more call a file.)
fn read_into(path: &Path, buf: &mut Vec<u8>) -> std::io::Result<()> {
    use std::io::Read;
    let mut f = std::fs::File::open(path)?;
    let hint = f
        .metadata()
        .map_or(0, |m| usize::try_from(m.len()).unwrap_or(0));
    // Room is asked for, not assumed (as `std::fs::read` does): a file too large for
    // memory fails alone, with an error, instead of ending the process.
    let grow = |buf: &mut Vec<u8>, len: usize| {
        buf.try_reserve(len.saturating_sub(buf.len()))
            .map_err(|_| std::io::Error::from(std::io::ErrorKind::OutOfMemory))?;
        buf.resize(len, 0);
        Ok::<(), std::io::Error>(())
    };
    buf.clear();
    grow(buf, hint.saturating_add(1).max(64))?;
    let mut filled = 0;
    loop {
        if filled == buf.len() {
            grow(buf, buf.len().saturating_mul(2))?;
        }
        match f.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    buf.truncate(filled);
    Ok(())
}

/// Locks `m`, whatever a panicking thread left.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Reads and processes one file in `scratch` (its output left in `scratch.output`):
/// the bytes read, or the failure and the bytes read.
fn process(job: &dyn Job, item: &Item, scratch: &mut Scratch) -> Result<u64, (FileError, u64)> {
    let read = read_into(&item.path, &mut scratch.input);
    read.map_err(|e| {
        (
            FileError::plain(format!("cannot open input file: {e}"), 1),
            0,
        )
    })?;
    let bytes_in = scratch.input.len() as u64;
    job.process_in(scratch, &item.path)
        .map_err(|e| (e, bytes_in))?;
    Ok(bytes_in)
}

/// The output folders made or found so far, so that each is made once, not once per
/// file; each with whether this run made it (then nothing in it is older than the run,
/// and a new output needs no look at what its path holds).
#[derive(Default)]
struct Dirs(Mutex<HashMap<PathBuf, bool>>);

impl Dirs {
    /// Makes `dir` if need be: whether this run made it.
    fn make(&self, dir: &Path) -> Result<bool, String> {
        if let Some(&made) = self.lock().get(dir) {
            return Ok(made);
        }
        let fail = |e: std::io::Error| format!("cannot create directory '{}': {e}", dir.display());
        let made = match std::fs::create_dir(dir) {
            Ok(()) => true,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::create_dir_all(dir).map_err(fail)?;
                true
            }
            // There already (or not a folder, which creating it all then says).
            Err(_) => {
                std::fs::create_dir_all(dir).map_err(fail)?;
                false
            }
        };
        // Two workers may make it at once: one made it, the other found it.
        let mut dirs = self.lock();
        let entry = dirs.entry(dir.to_path_buf()).or_insert(false);
        *entry |= made;
        Ok(*entry)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, bool>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Writes one processed file's output, if it has one, and says how the file went.
fn write(item: &Item, done: Result<(&[u8], u64), (FileError, u64)>, dirs: &Dirs) -> Record {
    let (output, bytes_in) = match done {
        Ok(d) => d,
        Err((e, bytes_in)) => {
            return Record {
                message: Some(e),
                bytes_in,
                bytes_out: 0,
            };
        }
    };
    let Some(path) = &item.output else {
        return Record {
            message: None,
            bytes_in,
            bytes_out: 0,
        };
    };
    let written = (|| {
        let made = match path.parent().filter(|d| !d.as_os_str().is_empty()) {
            Some(dir) => dirs.make(dir)?,
            None => false,
        };
        let strip = |m: String| m.strip_prefix("error: ").map(str::to_owned).unwrap_or(m);
        Output::put(path, output, !made).map_err(strip)
    })();
    match written {
        Ok(()) => Record {
            message: None,
            bytes_in,
            bytes_out: output.len() as u64,
        },
        Err(m) => Record {
            message: Some(FileError::plain(m, 1)),
            bytes_in,
            bytes_out: 0,
        },
    }
}

/// What to walk and where outputs go, checked before anything runs.
struct Plan<'a> {
    inputs: &'a [String],
    exts: Vec<String>,
    out_ext: Option<&'a str>,
    out_dir: Option<&'a str>,
    suffix: Option<&'a str>,
}

impl<'a> Plan<'a> {
    /// Refuses what can be refused without walking: no inputs, standard input among
    /// several, outputs without a destination, a destination without outputs.
    fn new(
        job: &'a dyn Job,
        inputs: &'a [String],
        out_dir: Option<&'a str>,
        args: &'a BatchArgs,
    ) -> Result<Plan<'a>, String> {
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
        if inputs.iter().any(|i| i == "-") {
            return Err("standard input cannot be one of several inputs".into());
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
        Ok(Plan {
            inputs,
            exts,
            out_ext,
            out_dir,
            suffix: args.suffix.as_deref(),
        })
    }

    /// Whether two inputs might share an output, or an output appear where the walk
    /// has yet to look. Neither can with no outputs, or with one input and one
    /// extension (file names in a folder are unique, and so are their stems with one
    /// extension) whose outputs go beside the inputs (into folders the walk has read
    /// whole before giving their files) or into a folder outside the input.
    fn collisions_possible(&self) -> bool {
        if self.out_ext.is_none() {
            return false;
        }
        if self.inputs.len() != 1 || self.exts.len() != 1 {
            return true;
        }
        match self.out_dir {
            None => false,
            Some(dir) => may_lie_inside(Path::new(dir), Path::new(&self.inputs[0])),
        }
    }

    /// Whether files may be given before their folder is read whole
    /// ([`Given::Early`]), `check` being [`Plan::collisions_possible`]: only when no two
    /// inputs can share an output (so outputs are written at once, with no gate to wait
    /// for) and no output goes beside an input (an output with a wanted name, made in a
    /// folder still being read, could be read back as an input).
    fn may_give_early(&self, check: bool) -> bool {
        !check && (self.out_ext.is_none() || self.out_dir.is_some())
    }

    /// Walks the inputs in order: files as named, directories (depth first, each
    /// folder's entries sorted by name, symlinked directories not followed) for files
    /// with the input extensions; gives each item with its index as it is found. A
    /// folder the walk cannot read is an item that fails. Refuses a named input that
    /// does not exist, two inputs with one output (looked for when `check`: see
    /// [`Plan::collisions_possible`]), and finding nothing. Up to `early` regular files
    /// of the first folder read are given early ([`Given::Early`]), as its entries come;
    /// the order of the indices is the same.
    fn walk(&self, check: bool, early: usize, mut give: impl FnMut(Given)) -> WalkEnd {
        let mut taken: HashMap<PathBuf, PathBuf> = HashMap::new();
        let mut count = 0usize;
        let mut early = u32::try_from(early).unwrap_or(u32::MAX);
        let mut found = |found: Found| -> Result<(), String> {
            match found {
                Found::Item(item) => {
                    if check {
                        self.claim(&mut taken, &item)?;
                    }
                    give(Given::Item(count, item));
                }
                Found::Placed(id) => give(Given::Placed(id, count)),
                Found::Early(id, item) => {
                    give(Given::Early(id, item));
                    return Ok(());
                }
            }
            count += 1;
            Ok(())
        };
        for input in self.inputs {
            let root = Path::new(input);
            let meta =
                std::fs::metadata(root).map_err(|e| format!("cannot open input '{input}': {e}"))?;
            if meta.is_dir() {
                self.walk_folder(root, std::mem::take(&mut early), &mut found)?;
            } else {
                let name = root.file_name().map(PathBuf::from).unwrap_or_default();
                found(Found::Item(self.item(root.to_path_buf(), name)))?;
            }
        }
        if count == 0 {
            return Err(format!(
                "no input files (looked for .{} files)",
                self.exts.join(", .")
            ));
        }
        Ok(count)
    }

    /// Walks the folder `root` for [`Plan::walk`], with a stack of open folders (no
    /// recursion, however deep the tree). Each folder is read whole and its names
    /// sorted as bytes before any of its entries is given, and the paths are built by
    /// joining names, never parsed back: this runs before the first file can start.
    fn walk_folder(
        &self,
        root: &Path,
        early: u32,
        found: &mut impl FnMut(Found) -> Result<(), String>,
    ) -> Result<(), String> {
        /// A folder being walked: its path, its outputs' folder (`-o DIR`'s mirror of
        /// it), and its entries not yet visited.
        struct Open {
            path: PathBuf,
            out: Option<PathBuf>,
            entries: std::vec::IntoIter<Entry>,
        }
        let failed = |path: PathBuf, e: &std::io::Error| {
            Found::Item(Item {
                path,
                output: None,
                walk_error: Some(FileError::plain(format!("cannot walk the folder: {e}"), 1)),
            })
        };
        let mut stack = Vec::new();
        let root_out = self.out_dir.map(PathBuf::from);
        // The root's regular files with a wanted name are given early, as read, up to
        // `early` of them; the sorted walk below then only places them.
        let mut given = 0u32;
        let mut give_early = |name: &std::ffi::OsStr, kind: Kind| {
            if given == early || kind != Kind::File || !self.wanted(name) {
                return Ok(None);
            }
            let item = self.file_item(joined(root, name), root_out.as_deref(), name);
            found(Found::Early(given, item))?;
            given += 1;
            Ok(Some(given - 1))
        };
        match read_sorted(root, &mut give_early)? {
            Ok(entries) => stack.push(Open {
                path: root.to_path_buf(),
                out: root_out.clone(),
                entries: entries.into_iter(),
            }),
            Err(e) => found(failed(root.to_path_buf(), &e))?,
        }
        let mut never = |_: &std::ffi::OsStr, _| Ok(None);
        while let Some(open) = stack.last_mut() {
            let Some(entry) = open.entries.next() else {
                stack.pop();
                continue;
            };
            let (name, kind) = match entry {
                Entry::Named(_, _, Some(id)) => {
                    found(Found::Placed(id))?;
                    continue;
                }
                Entry::Named(name, kind, None) => (name, kind),
                Entry::Failed(path, e) => {
                    found(failed(path.unwrap_or_else(|| root.to_path_buf()), &e))?;
                    continue;
                }
            };
            let path = joined(&open.path, &name);
            if kind == Kind::Dir {
                let out = open.out.as_ref().map(|o| o.join(&name));
                match read_sorted(&path, &mut never)? {
                    Ok(entries) => stack.push(Open {
                        path,
                        out,
                        entries: entries.into_iter(),
                    }),
                    Err(e) => found(failed(path, &e))?,
                }
                continue;
            }
            if self.wanted(&name)
                && (kind == Kind::File || (kind == Kind::Symlink && path.is_file()))
            {
                let item = self.file_item(path, open.out.as_deref(), &name);
                found(Found::Item(item))?;
            }
        }
        Ok(())
    }

    /// Whether a file named `name` found in a folder is an input: its extension is one
    /// of the input extensions.
    fn wanted(&self, name: &std::ffi::OsStr) -> bool {
        bare_split(name)
            .1
            .is_some_and(|e| self.exts.iter().any(|x| x.as_bytes() == e))
    }

    /// The item of the file at `path`, named `name`, found in a folder whose outputs go
    /// to `out` (`None`: beside it).
    fn file_item(&self, path: PathBuf, out: Option<&Path>, name: &std::ffi::OsStr) -> Item {
        let output = self.out_ext.map(|ext| {
            let folder = match out {
                Some(out) => out,
                None => path.parent().unwrap_or(Path::new("")),
            };
            let file = self.output_name(&String::from_utf8_lossy(bare_split(name).0), ext);
            joined(folder, file.as_ref())
        });
        Item {
            path,
            output,
            walk_error: None,
        }
    }

    /// The item of the input at `path`, `rel` its path relative to its named folder.
    fn item(&self, path: PathBuf, rel: PathBuf) -> Item {
        let output = self.out_ext.map(|ext| {
            let (base, rel) = match self.out_dir {
                Some(dir) => (PathBuf::from(dir), rel),
                None => (
                    path.parent().map(Path::to_path_buf).unwrap_or_default(),
                    PathBuf::from(path.file_name().unwrap_or_default()),
                ),
            };
            let stem = rel.file_stem().unwrap_or_default().to_string_lossy();
            base.join(rel.with_file_name(self.output_name(&stem, ext)))
        });
        Item {
            path,
            output,
            walk_error: None,
        }
    }

    /// The file name of the output of an input whose name has the stem `stem`: the
    /// stem, the suffix, and the output extension (built in one allocation: the walk
    /// names one output per file).
    fn output_name(&self, stem: &str, ext: &str) -> String {
        let suffix = self.suffix.unwrap_or("");
        let mut file = String::with_capacity(stem.len() + suffix.len() + 1 + ext.len());
        file.push_str(stem);
        file.push_str(suffix);
        file.push('.');
        file.push_str(ext);
        file
    }

    /// Takes an item's output for it; refuses one another item took.
    fn claim(&self, taken: &mut HashMap<PathBuf, PathBuf>, item: &Item) -> Result<(), String> {
        let Some(o) = &item.output else {
            return Ok(());
        };
        if let Some(other) = taken.get(o) {
            return Err(format!(
                "'{}' and '{}' would both write '{}'",
                other.display(),
                item.path.display(),
                o.display()
            ));
        }
        taken.insert(o.clone(), item.path.clone());
        Ok(())
    }
}

/// `dir.join(name)` for a name read from a folder, built in one allocation: the walk
/// makes two paths per file, and `join` copies `dir` and then grows it.
fn joined(dir: &Path, name: &std::ffi::OsStr) -> PathBuf {
    let mut path = PathBuf::with_capacity(dir.as_os_str().len() + 1 + name.len());
    path.push(dir);
    path.push(name);
    path
}

/// `name`, a file name read from a folder (one component), split into its stem and
/// extension as `Path::file_stem` and `Path::extension` split it, without parsing it
/// as a path (the walk looks at each name twice): the stem is all before the last `.`,
/// or all of the name when it has no `.` but a leading one (then no extension); `.`
/// and `..` name no file.
fn bare_split(name: &std::ffi::OsStr) -> (&[u8], Option<&[u8]>) {
    let bytes = name.as_encoded_bytes();
    if bytes == b"." || bytes == b".." {
        return (&[], None);
    }
    match bytes.iter().rposition(|&b| b == b'.') {
        None | Some(0) => (bytes, None),
        Some(dot) => (&bytes[..dot], Some(&bytes[dot + 1..])),
    }
}

/// An entry of a folder, as [`read_sorted`] gives it.
enum Entry {
    /// A name, what it is (a symlink as a symlink), and the id it was given early
    /// under, if it was.
    Named(std::ffi::OsString, Kind, Option<u32>),
    /// An entry that could not be read: where, if known, and why.
    Failed(Option<PathBuf>, std::io::Error),
}

/// What the walk finds, for [`Plan::walk`] to number and give.
enum Found {
    /// An input (or a folder it could not read), next in order.
    Item(Item),
    /// An input given early under this id: see [`Given::Early`].
    Early(u32, Item),
    /// The input given early under this id comes next in order.
    Placed(u32),
}

/// The entries of folder `dir`, sorted by name (as bytes), the unreadable ones first;
/// `early` sees each entry as it is read and may give it at once (its id), or refuse
/// the whole walk (the outer `Err`).
fn read_sorted(
    dir: &Path,
    early: &mut impl FnMut(&std::ffi::OsStr, Kind) -> Result<Option<u32>, String>,
) -> Result<std::io::Result<Vec<Entry>>, String> {
    let mut entries = Vec::new();
    let read = each_entry(dir, &mut |read| {
        entries.push(match read {
            Ok((name, kind)) => {
                let id = early(&name, kind)?;
                Entry::Named(name, kind, id)
            }
            Err((path, err)) => Entry::Failed(path, err),
        });
        Ok(())
    })?;
    if let Err(e) = read {
        return Ok(Err(e));
    }
    entries.sort_by(|a, b| match (a, b) {
        (Entry::Named(a, ..), Entry::Named(b, ..)) => {
            a.as_encoded_bytes().cmp(b.as_encoded_bytes())
        }
        (Entry::Failed(..), Entry::Named(..)) => std::cmp::Ordering::Less,
        (Entry::Named(..), Entry::Failed(..)) => std::cmp::Ordering::Greater,
        (Entry::Failed(..), Entry::Failed(..)) => std::cmp::Ordering::Equal,
    });
    Ok(Ok(entries))
}

/// Whether folder `dir` (which need not exist yet) may lie inside `root`, or be it:
/// both resolved, through the part of `dir` that exists. True when unsure.
fn may_lie_inside(dir: &Path, root: &Path) -> bool {
    let Ok(root) = std::fs::canonicalize(root) else {
        return true;
    };
    let Ok(mut existing) = std::path::absolute(dir) else {
        return true;
    };
    let mut rest = Vec::new();
    let resolved = loop {
        if let Ok(c) = std::fs::canonicalize(&existing) {
            break c;
        }
        match existing.components().next_back() {
            Some(std::path::Component::Normal(name)) => rest.push(name.to_owned()),
            // `..` or `.` past what exists: left to the conservative answer.
            _ => return true,
        }
        if !existing.pop() {
            return true;
        }
    };
    let full = rest.iter().rev().fold(resolved, |p, name| p.join(name));
    full.starts_with(&root)
}

/// `error: path:line:col: message` or `error: path: word N: message` per fault,
/// details indented, then how many were not shown; or the job's own text.
fn human(path: &Path, e: &FileError) -> String {
    if let Some(text) = &e.rendered {
        return text.strip_suffix('\n').unwrap_or(text).to_owned();
    }
    let mut s = String::new();
    for f in &e.faults {
        if !s.is_empty() {
            s.push('\n');
        }
        let at = match (f.at.line, f.at.column, f.at.word) {
            (Some(l), Some(c), _) => format!(":{l}:{c}:"),
            (Some(l), None, _) => format!(":{l}:"),
            (None, _, Some(w)) => format!(": word {w}:"),
            _ => ":".to_owned(),
        };
        s.push_str(&format!("error: {}{at} {}", path.display(), f.message));
        for l in &f.details {
            s.push_str("\n  ");
            s.push_str(l);
        }
    }
    if e.not_shown > 0 {
        s.push('\n');
        s.push_str(&not_shown_note(e.not_shown));
    }
    s
}

/// The line that says how many faults `--max-errors` left out.
pub fn not_shown_note(n: usize) -> String {
    format!("note: {n} more errors not shown (--max-errors 0 shows them all)")
}

/// The JSON Lines record of one file; see [`BatchArgs::json`] for the shape.
fn json_record(command: &str, item: &Item, r: &Record) -> serde_json::Value {
    let fault = |f: &Fault| {
        serde_json::json!({
            "message": f.message,
            "line": f.at.line,
            "column": f.at.column,
            "word": f.at.word,
            "details": f.details,
        })
    };
    let first = r.message.as_ref().and_then(|e| e.faults.first());
    serde_json::json!({
        "type": "file",
        "command": command,
        "input": item.path.to_string_lossy(),
        "output": if r.message.is_none() { item.output.as_ref().map(|o| o.to_string_lossy()) } else { None },
        "status": if r.message.is_none() { "ok" } else { "error" },
        "exit_code": r.message.as_ref().map_or(0, |e| e.code.max(1)),
        "message": first.map(|f| f.message.clone()),
        "line": first.and_then(|f| f.at.line),
        "column": first.and_then(|f| f.at.column),
        "word": first.and_then(|f| f.at.word),
        "errors": r.message.as_ref().map_or(Vec::new(), |e| e.faults.iter().map(fault).collect()),
        "errors_not_shown": r.message.as_ref().map_or(0, |e| e.not_shown),
        "bytes_in": r.bytes_in,
        "bytes_out": r.bytes_out,
    })
}

/// The progress bar's rate, rounded for reading: `12,407 files/s`, `8.5 files/s`.
fn rate_text(per_sec: f64) -> String {
    if !per_sec.is_finite() || per_sec < 0.0 {
        return "– files/s".to_owned();
    }
    if per_sec < 10.0 {
        return format!("{per_sec:.1} files/s");
    }
    let digits = format!("{:.0}", per_sec.round());
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(d);
    }
    grouped + " files/s"
}

fn human_bytes(n: u64) -> String {
    match n {
        n if n >= 1 << 20 => format!("{:.1} MB", n as f64 / f64::from(1u32 << 20)),
        n if n >= 1 << 10 => format!("{:.1} KB", n as f64 / 1024.0),
        n => format!("{n} B"),
    }
}

#[cfg(test)]
mod tests {
    use super::{bare_split, joined, rate_text};
    use std::ffi::OsStr;
    use std::path::Path;

    #[test]
    fn bare_names_split_and_join_as_paths_do() {
        for name in [
            "a.spv", "a.b.spv", ".spv", "a.", "a", ".", "..", ".a.spv", "é.spv", "a..spv",
        ] {
            let (stem, ext) = bare_split(OsStr::new(name));
            let path = Path::new(name);
            let std_stem = path.file_stem().unwrap_or_default().as_encoded_bytes();
            assert_eq!(stem, std_stem, "{name}");
            assert_eq!(
                ext,
                path.extension().map(|e| e.as_encoded_bytes()),
                "{name}"
            );
            for dir in ["", "d", "d/", "/d/e", "."] {
                assert_eq!(
                    joined(Path::new(dir), OsStr::new(name)),
                    Path::new(dir).join(name)
                );
            }
        }
    }

    #[test]
    fn the_progress_rate_is_rounded() {
        assert_eq!(rate_text(12_407.409_6), "12,407 files/s");
        assert_eq!(rate_text(1_234_567.5), "1,234,568 files/s");
        assert_eq!(rate_text(999.5), "1,000 files/s");
        assert_eq!(rate_text(10.2), "10 files/s");
        assert_eq!(rate_text(8.54), "8.5 files/s");
        assert_eq!(rate_text(0.0), "0.0 files/s");
        assert_eq!(rate_text(f64::NAN), "– files/s");
    }
}
