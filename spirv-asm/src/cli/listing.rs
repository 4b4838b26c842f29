//! Reading a folder's entries for batch mode's walk: each name and what it is, in the
//! order the file system gives them.
//!
//! On Linux the first `getdents64` asks for a few entries only (rustix's buffer starts
//! at 32 entries' headers and grows by as much per call): the walk gives the first
//! files to the workers as they are read, and a first call for 32 KiB, as the standard
//! library makes, took 0.2 ms on tmpfs for 533 entries before any file could start.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// What a folder entry is, as far as the walk cares.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// A regular file.
    File,
    /// A folder.
    Dir,
    /// A symbolic link (not followed).
    Symlink,
    /// Anything else.
    Other,
}

/// An entry read, or an entry that could not be read (where, if known, and why).
pub type Read = Result<(OsString, Kind), (Option<PathBuf>, std::io::Error)>;

/// Calls `each` with every entry of folder `dir` but `.` and `..`, as it is read;
/// `Err` from `each` stops at once and is returned as it is. The inner `Err`: the
/// folder could not be opened.
///
/// # Errors
/// What `each` returned.
#[cfg(target_os = "linux")]
pub fn each_entry(
    dir: &Path,
    each: &mut dyn FnMut(Read) -> Result<(), String>,
) -> Result<std::io::Result<()>, String> {
    use rustix::fs::{AtFlags, CWD, Dir, FileType, Mode, OFlags, openat, statat};
    use std::os::unix::ffi::OsStrExt;
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::NONBLOCK;
    let fd = match openat(CWD, dir, flags, Mode::empty()) {
        Ok(fd) => fd,
        Err(e) => return Ok(Err(e.into())),
    };
    let mut entries = match Dir::new(fd) {
        Ok(entries) => entries,
        Err(e) => return Ok(Err(e.into())),
    };
    while let Some(entry) = entries.read() {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                each(Err((None, e.into())))?;
                continue;
            }
        };
        let name = entry.file_name().to_bytes();
        if name == b"." || name == b".." {
            continue;
        }
        let name = std::ffi::OsStr::from_bytes(name);
        let kind = match entry.file_type() {
            // A file system that does not say: asked, as the standard library does.
            FileType::Unknown => match entries.fd().and_then(|fd| {
                statat(fd, name, AtFlags::SYMLINK_NOFOLLOW)
                    .map(|st| FileType::from_raw_mode(st.st_mode))
            }) {
                Ok(kind) => kind,
                Err(e) => {
                    each(Err((Some(dir.join(name)), e.into())))?;
                    continue;
                }
            },
            kind => kind,
        };
        let kind = match kind {
            FileType::RegularFile => Kind::File,
            FileType::Directory => Kind::Dir,
            FileType::Symlink => Kind::Symlink,
            _ => Kind::Other,
        };
        each(Ok((name.to_owned(), kind)))?;
    }
    Ok(Ok(()))
}

/// Calls `each` with every entry of folder `dir` but `.` and `..`, as it is read;
/// `Err` from `each` stops at once and is returned as it is. The inner `Err`: the
/// folder could not be opened.
///
/// # Errors
/// What `each` returned.
#[cfg(not(target_os = "linux"))]
pub fn each_entry(
    dir: &Path,
    each: &mut dyn FnMut(Read) -> Result<(), String>,
) -> Result<std::io::Result<()>, String> {
    let read = match std::fs::read_dir(dir) {
        Ok(read) => read,
        Err(e) => return Ok(Err(e)),
    };
    for e in read {
        let read = match e {
            Ok(e) => match e.file_type() {
                Ok(t) => Ok((
                    e.file_name(),
                    if t.is_file() {
                        Kind::File
                    } else if t.is_dir() {
                        Kind::Dir
                    } else if t.is_symlink() {
                        Kind::Symlink
                    } else {
                        Kind::Other
                    },
                )),
                Err(err) => Err((Some(e.path()), err)),
            },
            Err(err) => Err((None, err)),
        };
        each(read)?;
    }
    Ok(Ok(()))
}
