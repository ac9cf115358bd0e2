//! Writing output files so that an interrupted run never leaves a truncated
//! file that looks finished: write to a temporary file in the same folder,
//! then rename it over the target.

use std::{
    io::{self, Write},
    path::{Path, PathBuf},
};

/// Writes `bytes` to `path` atomically.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut pending = Pending::create(path)?;
    pending.file().write_all(bytes)?;
    pending.commit()
}

/// The temporary files being written now, for `remove_pending`: a signal
/// must not leave a hidden `.part` of tens of MB behind.
static PENDING: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

fn pending_paths() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    // A panic while the lock was held leaves the list itself intact.
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes every temporary output file not yet renamed into place; called
/// on a signal that ends the process, just before it exits.
pub(crate) fn remove_pending() {
    for p in pending_paths().drain(..) {
        let _ = std::fs::remove_file(p);
    }
}

/// On every catchable signal whose default ends the process (SIGINT,
/// SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM): remove the
/// unfinished outputs and exit with 128 + the signal's number, as a shell
/// reports a process it killed. SIGXFSZ (a file-size limit) is caught and
/// ignored, so the write fails with EFBIG and the write-error path names
/// the target and removes the file. SIGKILL cannot be caught.
#[cfg(unix)]
pub(crate) fn remove_pending_on_signals() -> io::Result<()> {
    use signal_hook::consts::{
        SIGALRM, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGXFSZ,
    };
    signal_hook::flag::register(
        SIGXFSZ,
        std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
    )?;
    let mut signals = signal_hook::iterator::Signals::new([
        SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
    ])?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(sig) = signals.forever().next() {
                remove_pending();
                std::process::exit(128 + sig);
            }
        })?;
    Ok(())
}

/// At a Windows console, Ctrl-C, Ctrl-Break or closing the window: the
/// unfinished outputs removed, exit 130 (ctrlc's handler runs on a thread
/// of its own).
#[cfg(windows)]
pub(crate) fn remove_pending_on_signals() -> io::Result<()> {
    ctrlc::set_handler(|| {
        remove_pending();
        std::process::exit(130);
    })
    .map_err(io::Error::other)
}

#[cfg(not(any(unix, windows)))]
pub(crate) fn remove_pending_on_signals() -> io::Result<()> {
    Ok(())
}

/// A file being written beside its target; `commit` renames it into place.
/// Dropped without `commit` (an error, a panic), it is removed, and the
/// target keeps what it had. A target that exists and is not a regular
/// file (`/dev/null`, a FIFO, a terminal) is written to directly: renaming
/// a file over it would replace the device itself.
pub(crate) struct Pending {
    out: Option<Out>,
    target: PathBuf,
}

enum Out {
    Temp(tempfile::NamedTempFile),
    Direct(std::fs::File),
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let Some(Out::Temp(tmp)) = &self.out {
            let path = tmp.path();
            pending_paths().retain(|p| p != path);
        }
    }
}

impl Pending {
    pub(crate) fn create(target: &Path) -> io::Result<Pending> {
        if let Ok(meta) = std::fs::metadata(target) {
            if meta.is_dir() {
                return Err(io::Error::other("is a folder"));
            }
            if !meta.is_file() {
                let f = std::fs::OpenOptions::new().write(true).open(target)?;
                return Ok(Pending {
                    out: Some(Out::Direct(f)),
                    target: target.to_path_buf(),
                });
            }
        }
        let dir = target
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".part");
        // A temporary file is private (0600); an output is an ordinary file,
        // readable as the umask allows, like one `File::create` makes.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let mut paths = pending_paths();
        let tmp = builder
            .tempfile_in(dir)
            .map_err(|e| folder_error(dir, &e))?;
        paths.push(tmp.path().to_path_buf());
        Ok(Pending {
            out: Some(Out::Temp(tmp)),
            target: target.to_path_buf(),
        })
    }

    pub(crate) fn file(&mut self) -> &mut std::fs::File {
        match &mut self.out {
            Some(Out::Temp(t)) => t.as_file_mut(),
            Some(Out::Direct(f)) => f,
            None => unreachable!("a Pending holds its file until commit"),
        }
    }

    pub(crate) fn commit(mut self) -> io::Result<()> {
        match self.out.take() {
            Some(Out::Temp(tmp)) => {
                let mut paths = pending_paths();
                paths.retain(|p| p != tmp.path());
                tmp.as_file().sync_all()?;
                tmp.persist(&self.target).map_err(|e| e.error)?;
                Ok(())
            }
            Some(Out::Direct(mut f)) => f.flush(),
            None => Ok(()),
        }
    }
}

/// Why no file could be made in `dir`, naming the folder: the temporary
/// file's name (`.results.csv.Xb3k.part`) means nothing to the user.
fn folder_error(dir: &Path, e: &io::Error) -> io::Error {
    let shown = dir.display();
    match std::fs::metadata(dir) {
        Err(m) if m.kind() == io::ErrorKind::NotFound => io::Error::new(
            io::ErrorKind::NotFound,
            format!("the folder {shown} does not exist"),
        ),
        Ok(m) if !m.is_dir() => io::Error::new(
            io::ErrorKind::NotADirectory,
            format!("{shown} is not a folder"),
        ),
        _ => io::Error::new(
            e.kind(),
            format!(
                "cannot write a file in the folder {shown}: {}",
                io::Error::from(e.kind())
            ),
        ),
    }
}

/// A CSV document in memory, for `atomic_write`.
pub(crate) fn csv_bytes<I, R>(header: &[&str], rows: I) -> Vec<u8>
where
    I: IntoIterator<Item = R>,
    R: IntoIterator<Item = String>,
{
    let mut w = csv::Writer::from_writer(Vec::new());
    // Writing into a Vec cannot fail.
    let _ = w.write_record(header);
    for r in rows {
        let r: Vec<String> = r.into_iter().collect();
        let _ = w.write_record(r.iter().map(|c| super::csv::text_cell(c.as_bytes())));
    }
    w.into_inner().unwrap_or_default()
}

/// A file-name stem made from outside text (a claim's name, a source path):
/// letters (any script: `Müller` stays), digits, `-` and `_` only, the rest
/// `_`, trimmed of `_`, at most `max` characters and 200 bytes (the end
/// kept), and never empty, hidden or a name Windows keeps for a device
/// (`nul`, `com1`).
pub(crate) fn safe_stem(s: &str, max: usize, fallback: &str) -> String {
    let mapped: String = s
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let trimmed = mapped.trim_matches('_');
    // The end kept: at most `max` characters and 200 bytes (a file name
    // may have 255 bytes, and `-game12.pdf` or `-2` may follow).
    let mut start = trimmed.len();
    for (n, (i, _)) in trimmed.char_indices().rev().enumerate() {
        if n >= max || trimmed.len() - i > 200 {
            break;
        }
        start = i;
    }
    let kept = trimmed[start..].trim_start_matches('_').to_string();
    if kept.is_empty() {
        return fallback.to_string();
    }
    let lower = kept.to_lowercase();
    let device = ["con", "prn", "aux", "nul"].contains(&lower.as_str())
        || (lower.chars().count() == 4
            && (lower.starts_with("com") || lower.starts_with("lpt"))
            && lower
                .chars()
                .nth(3)
                .is_some_and(|c| c.is_ascii_digit() || "¹²³".contains(c)));
    if device {
        format!("{kept}_")
    } else {
        kept
    }
}

/// `base`, or `base-2`, `base-3`… where `taken` holds it already; `taken`
/// compares names in any case (one file on Windows and macOS).
pub(crate) fn unique_name(base: String, taken: &mut std::collections::HashSet<String>) -> String {
    let mut name = base.clone();
    let mut n = 2;
    while !taken.insert(name.to_lowercase()) {
        name = format!("{base}-{n}");
        n += 1;
    }
    name
}

/// A packet's file name from its source and game number: safe characters
/// only, never hidden. Two sources can share it (`a b.pgn`, `a_b.pgn`):
/// a batch names its packets by `PacketNames`, which tells them apart.
pub fn packet_file_name(source: &str, index: u64) -> String {
    format!("{}-game{index}.pdf", packet_stem(source))
}

/// `packet_file_name` before its game number.
fn packet_stem(source: &str) -> String {
    if source == "-" {
        return "stdin".to_string();
    }
    let stem = source
        .trim_end_matches(".txt")
        .trim_end_matches(".zst")
        .trim_end_matches(".gz")
        .trim_end_matches(".bz2")
        .trim_end_matches(".pgn");
    safe_stem(stem, 120, "game")
}

/// The packets' file names in one batch: each source's stem as
/// `packet_file_name` makes it, and where two sources come to one stem
/// (`a b.pgn` and `a_b.pgn`; `A.pgn` and `a.pgn`, one file on Windows and
/// macOS), the later ones `-2`, `-3` after it, in the order the sources
/// are read. The review page's links and the packets written are named by
/// the same list, so a link finds its packet.
#[derive(Debug, Default)]
pub struct PacketNames {
    stems: std::collections::HashMap<String, String>,
}

impl PacketNames {
    /// The names for these sources (`Source::name`), in reading order.
    pub fn new<'a>(sources: impl IntoIterator<Item = &'a str>) -> PacketNames {
        let mut taken = std::collections::HashSet::new();
        let mut stems = std::collections::HashMap::new();
        for source in sources {
            if stems.contains_key(source) {
                continue;
            }
            let stem = unique_name(packet_stem(source), &mut taken);
            stems.insert(source.to_string(), stem);
        }
        PacketNames { stems }
    }

    /// The packet file of game `index` of `source`.
    pub fn file(&self, source: &str, index: u64) -> String {
        match self.stems.get(source) {
            Some(stem) => format!("{stem}-game{index}.pdf"),
            None => packet_file_name(source, index),
        }
    }
}
