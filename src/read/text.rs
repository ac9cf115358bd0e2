//! Text files a person saved (claims, seasons, spreadsheets, rulesets) as
//! Windows programs save them: UTF-8 with or without a byte-order mark,
//! UTF-16 with one (Notepad's "Unicode", Excel's "Unicode text"), or the
//! ANSI code page, Windows-1252 (Notepad's "ANSI", Excel's plain "CSV").

/// The file's text. Bytes that are not UTF-8 and carry no UTF-16 mark are
/// read as Windows-1252, which gives every byte a character: nothing is
/// refused, and a name like "Nováková" comes through as written.
pub(crate) fn decode(bytes: Vec<u8>) -> String {
    if let Some((enc, bom)) = encoding_rs::Encoding::for_bom(&bytes) {
        if enc != encoding_rs::UTF_8 {
            return enc
                .decode_without_bom_handling(&bytes[bom..])
                .0
                .into_owned();
        }
    }
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    match std::str::from_utf8(body) {
        Ok(s) => s.to_string(),
        Err(_) => encoding_rs::WINDOWS_1252
            .decode_without_bom_handling(body)
            .0
            .into_owned(),
    }
}

/// The character between a spreadsheet's columns, from its header line:
/// a comma, or where the header has none, the semicolon Excel writes under
/// a European list separator, or a tab ("Unicode text").
pub(crate) fn delimiter(text: &str) -> u8 {
    let header = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    [b',', b';', b'\t']
        .into_iter()
        .find(|&d| header.as_bytes().contains(&d))
        .unwrap_or(b',')
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
        for bytes in [
            want.as_bytes().to_vec(),
            [b"\xEF\xBB\xBF".as_slice(), want.as_bytes()].concat(),
            utf16le,
            utf16be,
            ansi,
        ] {
            assert_eq!(decode(bytes.clone()), want, "{bytes:?}");
        }
    }

    #[test]
    fn the_header_says_what_separates_the_columns() {
        assert_eq!(delimiter("name,club\nA;B,C\n"), b',');
        assert_eq!(delimiter("\nname;club;division\nA;B;1\n"), b';');
        assert_eq!(delimiter("name\tclub\n"), b'\t');
        assert_eq!(delimiter("name\n"), b',');
    }
}
