//! Where a subcommand's output goes: standard output, or a file that changes only when
//! the whole output was written.
//!
//! A file target is written through a temporary file beside it, which is renamed over
//! the target on success and removed on failure, so an error halfway (a bad
//! instruction, a full disk) leaves the old file as it was; spirv-dis also writes its
//! file only after success. Targets that are not regular files (`/dev/null`, a pipe)
//! cannot be replaced and are written directly. Every write and flush error is
//! reported.
//!
//! Batch mode, which holds each output whole before writing it, puts it the cheapest
//! way that keeps those guarantees ([`Output::put`]): a new file is written unnamed and
//! then linked at its path (Linux `O_TMPFILE`, else the temporary file renamed only onto
//! a free name); a file that already holds exactly the output is not rewritten, only
//! its modification time set to now (what build tools that skip unchanged outputs do:
//! a tool that looks at times sees it fresh, the bytes are the same, and only the
//! inode's change time, the inode itself and its owner differ from a rewrite); any
//! other file is replaced as above. On this machine's disk (ext4 without a journal, with
//! online discard), a rewrite of an unchanged output made a new inode (past every inode
//! freed in the last minutes, one look each), freed the old one and discarded its
//! blocks: 0.1–0.7 ms of kernel time per file, where the comparison costs a read from
//! the page cache (docs/performance.md, "batch on the disk").

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// An open output.
pub struct Output {
    name: String,
    w: BufWriter<Sink>,
    /// The temporary file and the target it replaces on [`Output::commit`].
    replace: Option<(PathBuf, PathBuf)>,
    /// Whether blocks were reserved or anything written (see [`Output::reserve`]).
    started: bool,
    /// Whether the target exists and is replaced (see [`Output::reserve`]).
    replaces_file: bool,
}

enum Sink {
    Stdout(std::io::Stdout),
    File(File),
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Sink::Stdout(s) => s.write(buf),
            Sink::File(f) => f.write(buf),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Sink::Stdout(s) => s.flush(),
            Sink::File(f) => f.flush(),
        }
    }
}

impl Output {
    /// Opens `path`, or standard output for `-`.
    ///
    /// # Errors
    /// The message to print: the temporary file cannot be created.
    pub fn open(path: &str) -> Result<Output, String> {
        if path == "-" {
            return Ok(Output {
                w: BufWriter::with_capacity(1 << 16, Sink::Stdout(std::io::stdout())),
                name: "standard output".to_owned(),
                replace: None,
                started: false,
                replaces_file: false,
            });
        }
        Output::open_file(Path::new(path))
    }

    /// Opens the file at `path` (`-` is a file's name here).
    ///
    /// # Errors
    /// The message to print: the temporary file cannot be created.
    pub fn open_file(path: &Path) -> Result<Output, String> {
        let name = format!("output file '{}'", path.display());
        let fail = |e: std::io::Error| format!("error: cannot write {name}: {e}");
        // Replace what the path names: through a symlink, its target. A path that
        // names nothing (the usual case in batch mode) is the target as it is.
        let existing = std::fs::metadata(path).ok();
        let target = match existing {
            Some(_) => std::fs::canonicalize(path).unwrap_or_else(|_| PathBuf::from(path)),
            None => PathBuf::from(path),
        };
        if existing.as_ref().is_some_and(|m| !m.is_file()) {
            let f = File::create(&target).map_err(fail)?;
            return Ok(Output {
                w: BufWriter::with_capacity(1 << 16, Sink::File(f)),
                name,
                replace: None,
                started: false,
                replaces_file: false,
            });
        }
        let replaces_file = existing.is_some();
        let (tmp, f) = temp_beside(&target).map_err(fail)?;
        if let Some(m) = existing {
            // Keep the target's permissions.
            let _ = std::fs::set_permissions(&tmp, m.permissions());
        }
        Ok(Output {
            w: BufWriter::with_capacity(1 << 16, Sink::File(f)),
            name,
            replace: Some((tmp, target)),
            started: false,
            replaces_file,
        })
    }

    /// Puts `bytes` at `path` for batch mode, the cheapest way that keeps this file's
    /// guarantees: a new file is linked in whole ([`Output::write_new`]); a file that
    /// already holds exactly `bytes` is left as it is, only its modification time set
    /// to now (so make-like tools see it fresh); any other is replaced through a
    /// temporary file ([`Output::open_file`]). `maybe_there`: whether something may be
    /// at `path` already (false in a folder this run made, where the look is skipped).
    ///
    /// # Errors
    /// The message to print; whatever was at `path` is as it was.
    pub fn put(path: &Path, bytes: &[u8], maybe_there: bool) -> Result<(), String> {
        let missing = if maybe_there {
            match holds(path, bytes) {
                Holds::Same => return Ok(()),
                Holds::Missing => true,
                Holds::Other => false,
            }
        } else {
            true
        };
        if missing && Output::write_new(path, bytes)? {
            return Ok(());
        }
        // Taken meanwhile, or a path that names no file but cannot be linked to (a
        // dangling symlink): compared as above, else replaced.
        if !missing || holds(path, bytes) != Holds::Same {
            let mut out = Output::open_file(path)?;
            out.write_all(bytes)?;
            out.commit()?;
        }
        Ok(())
    }

    /// Writes `bytes` as the file at `path` if nothing is there yet. On Linux the file
    /// is made unnamed in the target's folder (`O_TMPFILE`), written, and then given its
    /// name (`linkat`, which fails on a taken name): the target appears whole or not at
    /// all, no temporary name is ever seen, and the folder's lock is not held while the
    /// file system finds the new file an inode (ext4 without a journal skips every inode
    /// freed in the last minutes, one look each: see docs/performance.md). Else, or where
    /// the file system has no unnamed files, through a named temporary file renamed onto
    /// `path` only if it is still free (`renameat2(RENAME_NOREPLACE)`). `Ok(false)`:
    /// something is at `path` (or the platform cannot rename that way), nothing was
    /// changed, and [`Output::open_file`] is the way to replace it.
    ///
    /// # Errors
    /// The message to print; nothing is left at `path`.
    pub fn write_new(path: &Path, bytes: &[u8]) -> Result<bool, String> {
        #[cfg(target_os = "linux")]
        {
            use rustix::fs::{CWD, RenameFlags, renameat_with};
            let fail = |e: std::io::Error| {
                format!("error: cannot write output file '{}': {e}", path.display())
            };
            if let Some(done) = link_new(path, bytes) {
                return done.map_err(fail);
            }
            let (tmp, mut f) = temp_beside(path).map_err(fail)?;
            let written = f.write_all(bytes);
            drop(f);
            if let Err(e) = written {
                let _ = std::fs::remove_file(&tmp);
                return Err(fail(e));
            }
            match renameat_with(CWD, &tmp, CWD, path, RenameFlags::NOREPLACE) {
                Ok(()) => Ok(true),
                Err(e) => {
                    let _ = std::fs::remove_file(&tmp);
                    // Taken, or no such rename on this file system.
                    if e == rustix::io::Errno::EXIST || e == rustix::io::Errno::INVAL {
                        Ok(false)
                    } else {
                        Err(fail(e.into()))
                    }
                }
            }
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = (path, bytes);
            Ok(false)
        }
    }

    /// The writer.
    pub fn writer(&mut self) -> &mut dyn Write {
        &mut self.w
    }

    /// Writes all of `bytes`.
    ///
    /// # Errors
    /// The message to print.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), String> {
        // A first write is often the whole output: its blocks are reserved (never
        // more than is written).
        if !self.started {
            self.reserve(bytes.len() as u64);
        }
        let r = self.w.write_all(bytes);
        r.map_err(|e| self.message(&e))
    }

    /// Runs `write` with this output as an [`std::io::Write`] (for writers that stream
    /// their text or words, such as the optimizer's and reflection's), each piece going
    /// through [`Output::write_all`].
    ///
    /// # Errors
    /// The message of the output's own first error if that is what stopped `write`,
    /// else `error: ` and the writer's.
    pub fn write_through(
        &mut self,
        write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
    ) -> Result<(), String> {
        let mut adapter = Through {
            out: self,
            failed: None,
        };
        match write(&mut adapter) {
            Ok(()) => Ok(()),
            Err(e) => Err(adapter.failed.unwrap_or_else(|| format!("error: {e}"))),
        }
    }

    /// Says that `len` bytes (no more) will be written, so that the blocks of a file
    /// that replaces another are reserved before the writes (on Linux, `fallocate`
    /// without changing the size). ext4 flushes a file whose blocks are not yet
    /// allocated when it is renamed over another, which took longer than the rest of
    /// writing a 5 MB module; a reserved file is renamed at once. A new target is not
    /// flushed, and is left to the file system's delayed allocation. Best effort: a
    /// file system that cannot reserve is written as before.
    pub fn reserve(&mut self, len: u64) {
        self.started = true;
        #[cfg(target_os = "linux")]
        if self.replace.is_some() && self.replaces_file {
            if let Sink::File(f) = self.w.get_ref() {
                use rustix::fs::{FallocateFlags, fallocate};
                let _ = fallocate(f, FallocateFlags::KEEP_SIZE, 0, len);
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = len;
    }

    /// Writes `words` as little-endian bytes: straight from the words on a
    /// little-endian host, else converted a chunk at a time, so that a large module is
    /// never held a second time as bytes.
    ///
    /// # Errors
    /// The message to print.
    pub fn write_words(&mut self, words: &[u32]) -> Result<(), String> {
        // The file's words are little-endian: on such a host they are written as they
        // are, with no copy.
        if cfg!(target_endian = "little") {
            return self.write_all(bytemuck::cast_slice(words));
        }
        let mut chunk = Vec::with_capacity(1 << 16);
        for part in words.chunks(1 << 14) {
            chunk.clear();
            chunk.extend(part.iter().flat_map(|w| w.to_le_bytes()));
            self.write_all(&chunk)?;
        }
        Ok(())
    }

    /// Flushes everything and, for a file, puts it in place of the target.
    ///
    /// # Errors
    /// The message to print; the target is unchanged.
    pub fn commit(mut self) -> Result<(), String> {
        let r = self.w.flush();
        r.map_err(|e| self.message(&e))?;
        if let Some((tmp, target)) = self.replace.take() {
            let renamed = std::fs::rename(&tmp, &target);
            if let Err(e) = renamed {
                let _ = std::fs::remove_file(&tmp);
                return Err(self.message(&e));
            }
        }
        Ok(())
    }

    fn message(&self, e: &std::io::Error) -> String {
        format!("error: cannot write {}: {e}", self.name)
    }
}

impl Drop for Output {
    /// Not committed: the temporary file goes, the target stays as it was.
    fn drop(&mut self) {
        if let Some((tmp, _)) = self.replace.take() {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// Creates a new file beside `target`, named after it, that no other process is using.
fn temp_beside(target: &Path) -> std::io::Result<(PathBuf, File)> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let base = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // The process id, asked for once (each call is a system call).
    static PID: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    let pid = *PID.get_or_init(std::process::id);
    let mut n = 0u32;
    loop {
        let tmp = dir.join(format!(".{base}.{pid}.{n}.tmp"));
        match File::create_new(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 100 => n += 1,
            Err(e) => return Err(e),
        }
    }
}

/// What a path holds, against the bytes about to be written there.
#[derive(PartialEq, Eq)]
enum Holds {
    /// Nothing: the path names no file.
    Missing,
    /// A regular file with exactly these bytes; its modification time is now set.
    Same,
    /// Anything else (or it could not be read, or its time not set): replace it.
    Other,
}

/// Whether `path` already holds exactly `bytes` (read back, from the page cache
/// usually: far cheaper than a new inode, its blocks and the old file's freeing); if it
/// does, its modification time is set to now, as a rewrite would. Only the inode's
/// change time then differs from a rewrite (and the inode, its owner and its links are
/// kept, where a rewrite makes a new file with the target's permissions).
fn holds(path: &Path, bytes: &[u8]) -> Holds {
    use std::io::Read;
    let f = match open_to_compare(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Holds::Missing,
        Err(_) => return Holds::Other,
    };
    let mut f = match f.metadata() {
        Ok(m) if m.is_file() && m.len() == bytes.len() as u64 => f,
        _ => return Holds::Other,
    };
    // Compared a chunk at a time, and one byte past the end to see that it ends there.
    let mut buf = vec![0u8; (bytes.len() + 1).min(1 << 16)];
    let mut at = 0;
    loop {
        let n = match f.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return Holds::Other,
        };
        if bytes.get(at..at + n) != Some(&buf[..n]) {
            return Holds::Other;
        }
        at += n;
    }
    if at != bytes.len() || f.set_modified(std::time::SystemTime::now()).is_err() {
        return Holds::Other;
    }
    Holds::Same
}

/// Opens `path` for reading without waiting on it: a FIFO put where an output goes opens
/// at once (and is then not a regular file, so it is written as before).
fn open_to_compare(path: &Path) -> std::io::Result<File> {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{Mode, OFlags, open};
        let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC;
        Ok(File::from(open(path, flags, Mode::empty())?))
    }
    #[cfg(not(target_os = "linux"))]
    {
        if !std::fs::metadata(path)?.is_file() {
            return Err(std::io::Error::other("not a regular file"));
        }
        File::open(path)
    }
}

/// Writes `bytes` as a new, unnamed file in `path`'s folder and links it at `path`
/// (see [`Output::write_new`]): `Some(Ok(true))` done, `Some(Ok(false))` the name is
/// taken, `Some(Err)` a write failed; `None` when unnamed files cannot be made or
/// linked here (an older kernel or another file system, no `/proc`), nothing done.
#[cfg(target_os = "linux")]
fn link_new(path: &Path, bytes: &[u8]) -> Option<std::io::Result<bool>> {
    use rustix::fs::{AtFlags, CWD, Mode, OFlags, linkat, open};
    use std::os::fd::AsRawFd;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let flags = OFlags::WRONLY | OFlags::TMPFILE | OFlags::CLOEXEC;
    // Any failure here (no such file system support, or a real fault) is left to the
    // named temporary file's way, which reports faults as it always has.
    let mut f = File::from(open(dir, flags, Mode::from_bits_truncate(0o666)).ok()?);
    if let Err(e) = f.write_all(bytes) {
        // Unnamed: closing it frees it, nothing is left anywhere.
        return Some(Err(e));
    }
    // By the descriptor (`AT_EMPTY_PATH`: Linux 6.10 on allows it for a file the caller
    // opened, before only with a capability), else through /proc (what an unprivileged
    // process may link on older kernels; resolving the /proc path was 1 to 2% of a
    // `dis -o` run's time on tmpfs). A refused `AT_EMPTY_PATH` is not tried again.
    use std::sync::atomic::{AtomicBool, Ordering};
    static BY_DESCRIPTOR_REFUSED: AtomicBool = AtomicBool::new(false);
    let mut linked = Err(rustix::io::Errno::PERM);
    if !BY_DESCRIPTOR_REFUSED.load(Ordering::Relaxed) {
        linked = linkat(&f, "", CWD, path, AtFlags::EMPTY_PATH);
        if linked
            .as_ref()
            .is_err_and(|&e| e == rustix::io::Errno::PERM || e == rustix::io::Errno::NOENT)
        {
            BY_DESCRIPTOR_REFUSED.store(true, Ordering::Relaxed);
        }
    }
    if linked
        .as_ref()
        .is_err_and(|&e| e != rustix::io::Errno::EXIST)
    {
        let proc_path = format!("/proc/self/fd/{}", f.as_raw_fd());
        linked = linkat(CWD, proc_path.as_str(), CWD, path, AtFlags::SYMLINK_FOLLOW);
    }
    match linked {
        Ok(()) => Some(Ok(true)),
        Err(e) if e == rustix::io::Errno::EXIST => Some(Ok(false)),
        Err(_) => None,
    }
}

/// [`Output`] as an [`std::io::Write`] for [`Output::write_through`], keeping the
/// message of its first error.
struct Through<'o> {
    out: &'o mut Output,
    failed: Option<String>,
}

impl Write for Through<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        match self.out.write_all(bytes) {
            Ok(()) => Ok(bytes.len()),
            Err(message) => {
                let e = std::io::Error::other(message.clone());
                self.failed = Some(message);
                Err(e)
            }
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
