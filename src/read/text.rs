//! Text files a person saved (claims, seasons, spreadsheets, rulesets) as
//! Windows programs save them: UTF-8 with or without a byte-order mark,
//! UTF-16 with one (Notepad's "Unicode", Excel's "Unicode text"), or the
//! ANSI code page, Windows-1252 (Notepad's "ANSI", Excel's plain "CSV").

use std::sync::Mutex;

/// What the person at the console should know about how files were read:
/// said on stderr at the end of the command (`take_notices`).
static NOTICES: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// The notices recorded since the last call, each once, in order.
pub(crate) fn take_notices() -> Vec<String> {
    let mut all = NOTICES
        .lock()
        .map(|mut n| std::mem::take(&mut *n))
        .unwrap_or_default();
    let mut seen = std::collections::HashSet::new();
    all.retain(|n| seen.insert(n.clone()));
    all
}

/// The text of the file `name`. Bytes that are not UTF-8 and carry no
/// UTF-16 mark are read as Windows-1252 (Western European: Windows' "ANSI"
/// in Britain, America and Malaysia), which gives every byte a character:
/// nothing is refused, and "Nováková" or "£5" comes through as written.
/// That reading is a guess, so it is said (`take_notices`), with the code
/// page the letters look more like where chardetng thinks it another: a
/// guess it makes on a few names is not sure enough to read by (it takes a
/// lone "£" for a Polish "Ł"), but is worth a hint. UTF-16 without its mark
/// is told by its NUL bytes.
pub(crate) fn decode(name: &str, bytes: Vec<u8>) -> String {
    if let Some(text) = utf32(&bytes) {
        return text;
    }
    if let Some((enc, bom)) = encoding_rs::Encoding::for_bom(&bytes) {
        if enc != encoding_rs::UTF_8 {
            return enc
                .decode_without_bom_handling(&bytes[bom..])
                .0
                .into_owned();
        }
    }
    if let Some(enc) = unmarked_utf16(&bytes) {
        return enc.decode_without_bom_handling(&bytes).0.into_owned();
    }
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    match std::str::from_utf8(body) {
        Ok(s) => s.to_string(),
        Err(_) => {
            let notice = legacy_notice(name, body);
            if let Ok(mut n) = NOTICES.lock() {
                n.push(notice);
            }
            encoding_rs::WINDOWS_1252
                .decode_without_bom_handling(body)
                .0
                .into_owned()
        }
    }
}

/// The notice for a file read as Windows-1252.
fn legacy_notice(name: &str, body: &[u8]) -> String {
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(body, true);
    let guess = detector.guess(None, chardetng::Utf8Detection::Deny);
    let hint = if guess == encoding_rs::WINDOWS_1252 {
        String::new()
    } else {
        format!(" (its letters look more like {})", guess.name())
    };
    format!(
        "{name} is not UTF-8: read as Windows-1252 (Western European){hint}; \
         if any name reads wrong, save it as UTF-8 \
         (Excel: \"CSV UTF-8\"; Notepad: Encoding \"UTF-8\")"
    )
}

/// UTF-32 with its mark (which a UTF-16 reading would take for UTF-16LE).
fn utf32(bytes: &[u8]) -> Option<String> {
    let le = bytes.starts_with(&[0xFF, 0xFE, 0, 0]);
    let be = bytes.starts_with(&[0, 0, 0xFE, 0xFF]);
    if !le && !be {
        return None;
    }
    let text = bytes[4..]
        .chunks(4)
        .map(|c| {
            let mut b = [0; 4];
            b[..c.len()].copy_from_slice(c);
            let n = if le {
                u32::from_le_bytes(b)
            } else {
                u32::from_be_bytes(b)
            };
            char::from_u32(n).unwrap_or(char::REPLACEMENT_CHARACTER)
        })
        .collect();
    Some(text)
}

/// Text never holds a NUL; UTF-16 without its mark holds one in every
/// other byte of its ASCII letters: on the odd bytes little-endian, on the
/// even ones big-endian.
fn unmarked_utf16(bytes: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    let nul_at = |parity: usize| {
        bytes
            .iter()
            .skip(parity)
            .step_by(2)
            .filter(|&&b| b == 0)
            .count()
    };
    let (even, odd) = (nul_at(0), nul_at(1));
    let half = bytes.len() / 4;
    if odd > half && odd > even {
        Some(encoding_rs::UTF_16LE)
    } else if even > half && even > odd {
        Some(encoding_rs::UTF_16BE)
    } else {
        None
    }
}

/// The character between a spreadsheet's columns, from its header line:
/// whichever of comma, semicolon (Excel under a European list separator)
/// and tab ("Unicode text") it has most of outside quotes; a comma where
/// it has none.
pub(crate) fn delimiter(text: &str) -> u8 {
    let header = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let mut counts = [(b',', 0), (b';', 0), (b'\t', 0)];
    let mut quoted = false;
    for b in header.bytes() {
        if b == b'"' {
            quoted = !quoted;
        } else if !quoted {
            if let Some(c) = counts.iter_mut().find(|(d, _)| *d == b) {
                c.1 += 1;
            }
        }
    }
    // The first of the most frequent: a comma wins a tie.
    let most = counts.iter().map(|c| c.1).max().unwrap_or(0);
    counts
        .iter()
        .find(|c| c.1 == most && most > 0)
        .map_or(b',', |c| c.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_way_windows_saves_text_reads_the_same() {
        let want = "name = \"Nováková, Eva\"\n";
        let utf16le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(want.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let utf16be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain(want.encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        let ansi = encoding_rs::WINDOWS_1252.encode(want).0.into_owned();
        assert_ne!(ansi, want.as_bytes());
        let unmarked_le = utf16le[2..].to_vec();
        let unmarked_be = utf16be[2..].to_vec();
        let utf32le: Vec<u8> = [0xFF, 0xFE, 0, 0]
            .into_iter()
            .chain(want.chars().flat_map(|c| u32::from(c).to_le_bytes()))
            .collect();
        let utf32be: Vec<u8> = [0, 0, 0xFE, 0xFF]
            .into_iter()
            .chain(want.chars().flat_map(|c| u32::from(c).to_be_bytes()))
            .collect();
        for bytes in [
            want.as_bytes().to_vec(),
            [b"\xEF\xBB\xBF".as_slice(), want.as_bytes()].concat(),
            utf16le,
            utf16be,
            unmarked_le,
            unmarked_be,
            utf32le,
            utf32be,
            ansi,
        ] {
            assert_eq!(decode("t", bytes.clone()), want, "{bytes:?}");
        }
    }

    #[test]
    fn a_legacy_reading_is_said_with_a_hint_where_the_letters_disagree() {
        let western = encoding_rs::WINDOWS_1252
            .encode("player\nMuñoz, José\n£5 fee\n")
            .0;
        let notice = legacy_notice("a.csv", &western);
        assert!(
            notice.starts_with("a.csv is not UTF-8: read as Windows-1252 (Western European); "),
            "{notice}"
        );
        // Read as 1252 all the same: the pound sign stays a pound sign.
        assert_eq!(
            decode("a.csv", western.into_owned()),
            "player\nMuñoz, José\n£5 fee\n"
        );
        let czech = encoding_rs::WINDOWS_1250.encode("player\nDvořák, Jiří\n").0;
        let notice = legacy_notice("b.csv", &czech);
        assert!(
            notice.contains("(Western European) (its letters look more like windows-1250);"),
            "{notice}"
        );
    }

    #[test]
    fn the_header_says_what_separates_the_columns() {
        assert_eq!(delimiter("name,club\nA;B,C\n"), b',');
        assert_eq!(delimiter("\nname;club;division\nA;B;1\n"), b';');
        assert_eq!(delimiter("name\tclub\n"), b'\t');
        assert_eq!(delimiter("name\n"), b',');
        // Separators inside quotes are the cell's.
        assert_eq!(delimiter("game_key;\"note, optional\";result\n"), b';');
        assert_eq!(delimiter("fen\t\"a, b\"\tc\n"), b'\t');
        assert_eq!(delimiter("\"Surname; Forename\",club\n"), b',');
    }
}
