//! Finding inputs (files, directories, stdin) and opening them, decompressing
//! zstd, gzip and bzip2 by their magic bytes whatever the file is called.

pub(crate) mod contained;
pub mod split;
pub(crate) mod text;

use std::{
    fs::File,
    io::{self, Cursor, Read},
    path::{Path, PathBuf},
};

/// One input to read, with the name to print in the CSV `source` column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Stdin,
    File { path: PathBuf, name: String },
}

impl Source {
    pub fn name(&self) -> &str {
        match self {
            Source::Stdin => "-",
            Source::File { name, .. } => name,
        }
    }
}

/// `.pgn.txt`: what Windows Notepad saves `round3.pgn` as (Explorer hides
/// the `.txt`).
const PGN_SUFFIXES: [&str; 5] = [".pgn", ".pgn.zst", ".pgn.gz", ".pgn.bz2", ".pgn.txt"];

fn is_pgn_name(p: &Path) -> bool {
    let n = p
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    PGN_SUFFIXES.iter().any(|s| n.ends_with(s))
}

/// Expands the command-line inputs: `-` is stdin, a directory gives every
/// PGN file below it (sorted, so runs are reproducible), a file is itself.
/// Problems are returned beside the sources, so one bad path does not stop the rest.
pub fn expand_inputs(inputs: &[String]) -> (Vec<Source>, Vec<String>) {
    let (sources, errors, _) = expand_inputs_noting(inputs);
    (sources, errors)
}

/// Inputs named but not read, for the screen.
#[derive(Debug)]
pub(crate) enum Skipped {
    /// Files in a folder given as input that are not PGN.
    NotPgn { input: String, files: Vec<PathBuf> },
    /// Files named twice, read once, in words.
    Twice(Vec<String>),
}

impl Skipped {
    /// One line naming the files skipped that `shown` keeps (the rest are
    /// accounted for elsewhere); none when it keeps none.
    pub(crate) fn line(&self, shown: impl Fn(&std::path::Path) -> bool) -> Option<String> {
        let (input, files) = match self {
            Skipped::Twice(said) => return Some(said.join("; ")),
            Skipped::NotPgn { input, files } => (input, files),
        };
        let files: Vec<&PathBuf> = files.iter().filter(|p| shown(p)).collect();
        if files.is_empty() {
            return None;
        }
        let names: Vec<String> = files
            .iter()
            .take(5)
            .map(|p| p.display().to_string())
            .collect();
        let more = if files.len() > 5 {
            format!(" and {} more", files.len() - 5)
        } else {
            String::new()
        };
        let count = if files.len() == 1 {
            "1 file".to_string()
        } else {
            format!("{} files", files.len())
        };
        Some(format!(
            "{input}: skipped {count} not named .pgn, .pgn.zst, .pgn.gz, .pgn.bz2 or .pgn.txt: {}{more}",
            names.join(", ")
        ))
    }
}

/// `expand_inputs`, and what was skipped in folders (the files that are
/// not PGN). A folder with no PGN at all is an error (nothing to judge is
/// not a success).
pub(crate) fn expand_inputs_noting(inputs: &[String]) -> (Vec<Source>, Vec<String>, Vec<Skipped>) {
    let (mut sources, errors, notes) = expand_each(inputs);
    // A file named twice (`a.pgn a.pgn`, or inside a folder also given) is
    // read once: read twice, its games with no moves, which no copy check
    // can match, would count twice.
    let mut seen: Vec<(std::path::PathBuf, String)> = Vec::new();
    let mut twice = Vec::new();
    sources.retain(|s| {
        let Source::File { path, name } = s else {
            return true;
        };
        let Ok(real) = std::fs::canonicalize(path) else {
            return true;
        };
        if let Some((_, first)) = seen.iter().find(|(p, _)| *p == real) {
            twice.push(if first == name {
                format!("{name} is named twice: read once")
            } else {
                format!("{name} is {first}, named already: read once")
            });
            return false;
        }
        seen.push((real, name.clone()));
        true
    });
    let mut notes = notes;
    if !twice.is_empty() {
        notes.push(Skipped::Twice(twice));
    }
    (sources, errors, notes)
}

fn expand_each(inputs: &[String]) -> (Vec<Source>, Vec<String>, Vec<Skipped>) {
    let mut sources = Vec::new();
    let mut errors = Vec::new();
    let mut notes = Vec::new();
    for input in inputs {
        if input == "-" {
            sources.push(Source::Stdin);
            continue;
        }
        let path = PathBuf::from(input);
        match std::fs::metadata(&path) {
            Ok(m) if m.is_dir() => {
                let mut found = Vec::new();
                let mut skipped = Vec::new();
                walk(&path, &mut found, &mut skipped, &mut errors);
                found.sort();
                skipped.sort();
                if !skipped.is_empty() {
                    notes.push(Skipped::NotPgn {
                        input: input.clone(),
                        files: skipped,
                    });
                }
                if found.is_empty() {
                    errors.push(format!("{input}: no PGN file in this folder"));
                }
                sources.extend(found.into_iter().map(|p| Source::File {
                    name: p.display().to_string(),
                    path: p,
                }));
            }
            Ok(_) => sources.push(Source::File {
                name: input.clone(),
                path,
            }),
            Err(e) => errors.push(format!("{input}: {}", io_words(&e))),
        }
    }
    (sources, errors, notes)
}

/// An I/O error as a person reads it: "no such file or folder", not the
/// system's "No such file or directory (os error 2)".
pub(crate) fn io_words(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or folder".to_string(),
        std::io::ErrorKind::PermissionDenied => {
            "permission denied (this account may not read it)".to_string()
        }
        _ => {
            let s = e.to_string();
            match s.find(" (os error ") {
                Some(i) => s[..i].to_string(),
                None => s,
            }
        }
    }
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>, skipped: &mut Vec<PathBuf>, errors: &mut Vec<String>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            errors.push(format!("{}: {}", dir.display(), io_words(&e)));
            return;
        }
    };
    for entry in entries.flatten() {
        let p = entry.path();
        match entry.file_type() {
            Ok(t) if t.is_dir() => walk(&p, out, skipped, errors),
            Ok(_) if is_pgn_name(&p) => out.push(p),
            _ => skipped.push(p),
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Compression {
    None,
    Zstd,
    Gzip,
    Bzip2,
    /// Recognised to be refused by name: no xz decoder is built in.
    Xz,
    /// A ZIP archive, refused by name: it holds files, not one stream.
    Zip,
}

pub(crate) fn sniff(magic: &[u8]) -> Compression {
    if magic.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
        Compression::Xz
    } else if magic.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Compression::Zstd
    } else if magic.starts_with(&[0x1f, 0x8b]) {
        Compression::Gzip
    } else if magic.starts_with(b"BZh") {
        Compression::Bzip2
    } else if magic.starts_with(b"PK\x03\x04") || magic.starts_with(b"PK\x05\x06") {
        Compression::Zip
    } else {
        Compression::None
    }
}

type Stream<'a> = Box<dyn Read + Send + 'a>;

/// The first bytes of a stream (up to `N`, fewer at its end), and the stream
/// again from its start.
fn peek<'a, const N: usize>(mut raw: Stream<'a>) -> io::Result<(Vec<u8>, Stream<'a>)> {
    let mut head = [0u8; N];
    let mut n = 0;
    while n < N {
        match raw.read(&mut head[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let head = head[..n].to_vec();
    Ok((head.clone(), Box::new(Cursor::new(head).chain(raw))))
}

/// Is the file at `path` uncompressed (its offsets the file's own)? Read
/// from its first bytes, as `decoder` reads them; a file that cannot be
/// read counts as plain (opening it will say why).
pub(crate) fn is_plain_file(path: &std::path::Path) -> bool {
    let (magic, n) = File::open(path)
        .and_then(|mut f| magic_of(&mut f))
        .unwrap_or(([0; 6], 0));
    sniff(&magic[..n]) == Compression::None
}

/// The length of a file whose bytes are its text (neither compressed nor
/// UTF-16), so that it can be read in parts from offsets of its own; `None`
/// for any other file, or one that cannot be read.
pub fn plain_text_len(path: &std::path::Path) -> Option<u64> {
    let mut f = File::open(path).ok()?;
    let meta = f.metadata().ok()?;
    if !meta.is_file() {
        return None;
    }
    let (magic, n) = magic_of(&mut f).ok()?;
    let head = &magic[..n];
    (sniff(head) == Compression::None && !utf16_bom(head)).then_some(meta.len())
}

/// A file's first bytes, as many as `sniff` reads (fewer in a short file).
fn magic_of(file: &mut File) -> io::Result<([u8; 6], usize)> {
    let mut magic = [0u8; 6];
    let n = file.read(&mut magic)?;
    Ok((magic, n))
}

/// A UTF-16 byte-order mark, either way round.
fn utf16_bom(head: &[u8]) -> bool {
    matches!(head, [0xff, 0xfe, ..] | [0xfe, 0xff, ..])
}

/// A plain file opened at byte `offset`.
pub fn open_at(path: &std::path::Path, offset: u64) -> io::Result<File> {
    use std::io::{Seek, SeekFrom};
    let mut f = File::open(path)?;
    f.seek(SeekFrom::Start(offset))?;
    Ok(f)
}

/// Where the parts of a plain file of `len` bytes start, for reading it
/// with `parts` readers at once: its start, then a guessed game start
/// (`split::guess_game_start`) near each `k/parts` of it. Fewer where a
/// part holds no guess (a game larger than a part); the reader of each
/// part checks the next one's start.
pub fn part_starts(path: &std::path::Path, len: u64, parts: usize) -> Vec<u64> {
    let parts = parts.max(1) as u64;
    let mut starts = vec![0];
    for k in 1..parts {
        let (lo, hi) = (len * k / parts, len * (k + 1) / parts);
        let guess = open_at(path, lo).and_then(|f| split::guess_game_start(f, lo, hi - lo));
        if let Ok(Some(at)) = guess {
            if starts.last().is_some_and(|&last| at > last) && at < len {
                starts.push(at);
            }
        }
    }
    starts
}

/// Wraps a raw stream in the decoder its first bytes call for, and a UTF-16
/// text (found by its byte-order mark) in a transcoder to UTF-8; says which
/// compression it found.
fn decoder_of<'a>(raw: Stream<'a>) -> io::Result<(Stream<'a>, Compression)> {
    let (magic, stream) = peek::<6>(raw)?;
    let compression = sniff(&magic);
    let text: Stream<'a> = match compression {
        Compression::None => stream,
        Compression::Zstd => Box::new(zstd::stream::read::Decoder::new(stream)?),
        Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(stream)),
        Compression::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(stream)),
        Compression::Zip => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "a ZIP archive, which arbiter does not open: extract it (Windows: right-click, Extract All; elsewhere: unzip) and give the folder it makes",
            ))
        }
        Compression::Xz => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "xz-compressed, which arbiter does not read: decompress it (xz -d) or recompress it as .zst, .gz or .bz2",
            ))
        }
    };
    let (bom, text) = peek::<2>(text)?;
    if utf16_bom(&bom) {
        return Ok((
            Box::new(
                encoding_rs_io::DecodeReaderBytesBuilder::new()
                    .bom_sniffing(true)
                    .strip_bom(true)
                    .build(text),
            ),
            compression,
        ));
    }
    Ok((text, compression))
}

/// Decompression on a thread of its own, a few chunks ahead of the reader
/// that splits games, so that the two run side by side (a zstd stream
/// decompresses at about the speed the splitter cuts text). At most
/// `AHEAD` chunks of `CHUNK` bytes wait; a reader that stops early drops
/// the receiver and the thread ends at its next send.
struct ReadAhead {
    rx: std::sync::mpsc::Receiver<io::Result<Vec<u8>>>,
    chunk: Vec<u8>,
    at: usize,
}

const CHUNK: usize = 1 << 20;
const AHEAD: usize = 4;

impl ReadAhead {
    fn new(mut inner: Stream<'static>) -> io::Result<ReadAhead> {
        let (tx, rx) = std::sync::mpsc::sync_channel(AHEAD);
        std::thread::Builder::new()
            .name("decompress".into())
            .spawn(move || loop {
                let mut buf = vec![0u8; CHUNK];
                let mut n = 0;
                let mut error = None;
                while n < CHUNK {
                    match inner.read(&mut buf[n..]) {
                        Ok(0) => break,
                        Ok(k) => n += k,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => {
                            error = Some(e);
                            break;
                        }
                    }
                }
                buf.truncate(n);
                // What was read before an error is handed on first: a
                // truncated stream still yields its games.
                if n > 0 && tx.send(Ok(buf)).is_err() {
                    return;
                }
                if let Some(e) = error {
                    let _ = tx.send(Err(e));
                    return;
                }
                if n < CHUNK {
                    return;
                }
            })?;
        Ok(ReadAhead {
            rx,
            chunk: Vec::new(),
            at: 0,
        })
    }
}

impl Read for ReadAhead {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.at == self.chunk.len() {
            match self.rx.recv() {
                Ok(Ok(chunk)) => {
                    self.chunk = chunk;
                    self.at = 0;
                }
                Ok(Err(e)) => return Err(e),
                // The thread is done: the end of the stream.
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.chunk.len() - self.at);
        out[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// A compressed stream gets its decompression thread.
fn ahead(stream: Stream<'static>, c: Compression) -> io::Result<Box<dyn Read + Send>> {
    Ok(match c {
        Compression::None => stream,
        _ => Box::new(ReadAhead::new(stream)?),
    })
}

pub fn open(source: &Source) -> io::Result<Box<dyn Read + Send>> {
    match source {
        Source::Stdin => {
            let (s, c) = decoder_of(Box::new(io::stdin()))?;
            ahead(s, c)
        }
        Source::File { path, .. } => {
            let f = File::open(path)?;
            if f.metadata()?.is_dir() {
                return Err(io::Error::other("is a directory"));
            }
            let (s, c) = decoder_of(Box::new(f)).map_err(|e| spreadsheet_said(path, e))?;
            ahead(s, c)
        }
    }
}

/// An Excel or OpenDocument workbook is a ZIP archive too: said as what it
/// is, not as an archive to extract.
fn spreadsheet_said(path: &Path, e: io::Error) -> io::Error {
    let ext = path
        .extension()
        .and_then(|x| x.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("xlsx" | "xlsm" | "ods") if e.kind() == io::ErrorKind::InvalidData => {
            io::Error::new(
                io::ErrorKind::InvalidData,
                "a spreadsheet workbook, not games: give the games as PGN files (a results sheet is no record of the moves)",
            )
        }
        _ => e,
    }
}

/// memchr pays a set-up cost that short comments (`{ [%clk 0:01:00] }`)
/// never earn back: look at the first bytes plainly, then hand over.
#[inline]
pub(crate) fn find(needle: u8, hay: &[u8]) -> Option<usize> {
    let head = hay.len().min(48);
    match hay[..head].iter().position(|&b| b == needle) {
        Some(i) => Some(i),
        None if hay.len() > head => memchr::memchr(needle, &hay[head..]).map(|i| i + head),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The decompression thread hands on every byte, in order, over many
    /// chunks; and a truncated stream its bytes before the error, then the error.
    #[test]
    fn read_ahead_keeps_every_byte_and_the_error() {
        let text: Vec<u8> = (0..3 * CHUNK + 12345)
            .map(|i| b'a' + (i % 26) as u8)
            .collect();
        let zst = zstd::encode_all(&text[..], 1).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.pgn.zst");
        std::fs::write(&path, &zst).unwrap();
        let source = Source::File {
            path: path.clone(),
            name: "t".into(),
        };
        let mut out = Vec::new();
        open(&source).unwrap().read_to_end(&mut out).unwrap();
        assert!(out == text);
        std::fs::write(&path, &zst[..zst.len() / 2]).unwrap();
        let mut r = open(&source).unwrap();
        let mut got = Vec::new();
        let mut buf = [0u8; 4096];
        let err = loop {
            match r.read(&mut buf) {
                Ok(0) => panic!("a truncated stream ended without an error"),
                Ok(n) => got.extend_from_slice(&buf[..n]),
                Err(e) => break e,
            }
        };
        assert!(
            !got.is_empty() && text.starts_with(&got),
            "{} bytes",
            got.len()
        );
        assert!(!err.to_string().is_empty());
    }

    #[test]
    fn sniffs_magic() {
        assert_eq!(sniff(&[0x28, 0xb5, 0x2f, 0xfd]), Compression::Zstd);
        assert_eq!(sniff(&[0x1f, 0x8b, 8, 0]), Compression::Gzip);
        assert_eq!(sniff(b"BZh9"), Compression::Bzip2);
        assert_eq!(sniff(b"[Eve"), Compression::None);
        assert_eq!(sniff(b"PK\x03\x04\x14\x00"), Compression::Zip);
    }

    #[test]
    fn decompresses_each_format() {
        let text = b"[Event \"x\"]\n\n1. e4 *\n".to_vec();
        let zst = zstd::encode_all(&text[..], 3).unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        io::Write::write_all(&mut gz, &text).unwrap();
        let gz = gz.finish().unwrap();
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
        io::Write::write_all(&mut bz, &text).unwrap();
        let bz = bz.finish().unwrap();
        for data in [text.clone(), zst, gz, bz] {
            let mut out = Vec::new();
            decoder_of(Box::new(Cursor::new(data)))
                .unwrap()
                .0
                .read_to_end(&mut out)
                .unwrap();
            assert_eq!(out, text);
        }
    }
}
