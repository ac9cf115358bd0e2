//! Spreadsheets from the tables the tool writes as CSV: an `.xlsx`
//! workbook (a sheet a table; dates as dates, clocks as durations, numbers
//! as numbers, text as text), and CSV made for Excel (`--excel`: a UTF-8
//! byte-order mark, so Müller reads as Müller, and complete dates in ISO
//! form, which Excel reads as dates). Both read the CSV the tool already
//! renders, so a spreadsheet's columns and values are the CSV's, typed by
//! what each column is; nothing is decided here.

use std::io::{self, Read, Write};

use rust_xlsxwriter::{ExcelDateTime, Format, Workbook, Worksheet, XlsxError};

use crate::model::Date;

/// How a table is written: CSV, CSV for Excel, or an `.xlsx` workbook.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum Table {
    #[default]
    Csv,
    Excel,
    Xlsx,
}

impl Table {
    /// The table for an output named `path`: `.xlsx` is a workbook, else
    /// CSV (for Excel with `excel`).
    pub(crate) fn for_path(path: Option<&std::path::Path>, excel: bool) -> Table {
        match path {
            Some(p) if is_xlsx(p) => Table::Xlsx,
            _ if excel => Table::Excel,
            _ => Table::Csv,
        }
    }
}

/// Whether a file name asks for a workbook (`results.xlsx`, any case).
pub(crate) fn is_xlsx(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xlsx"))
}

/// What a column holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Text,
    /// A count, a rating, a score: a number where the cell is one, the text
    /// as written where it is not (`?`, a penalty in words).
    Number,
    /// A calendar date where it is complete (`2009.11.12`, `2009-11-12`);
    /// a partial PGN date (`2009.??.??`) stays text.
    Date,
    /// Time on a clock, `h:mm:ss` or `h:mm:ss.t`: a duration.
    Clock,
}

/// Each column's kind, by its name: a column name means one thing in every
/// table the tool writes (results, summary, claims, findings, the season).
/// `round` is text: `1.10` is round 1, board 10, not 1.1.
pub(crate) fn kind(column: &str) -> Kind {
    match column {
        "date" | "decided_on" | "received" => Kind::Date,
        "white_clock" | "black_clock" => Kind::Clock,
        "game" | "offset" | "round_number" | "board" | "white_elo" | "black_elo" | "ply"
        | "plies" | "games" | "confirmed" | "corrected" | "review" | "unreadable" | "decided"
        | "corrected_for" | "corrected_against" | "position" | "played" | "won" | "drawn"
        | "lost" | "game_points" | "penalty" | "match_points" | "white_grade" | "black_grade"
        | "rank" | "points" | "ratio" | "matches_played" | "matches_available"
        | "grade_increase_pct" | "home_grade_total" | "away_grade_total" | "difference"
        | "handicap" | "home_boards" | "away_boards" | "home_total" | "away_total"
        | "start_rating" | "forfeit_wins" | "rating" => Kind::Number,
        _ => Kind::Text,
    }
}

/// A CSV cell read as its column's kind.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Cell<'a> {
    Empty,
    Text(&'a str),
    Number(f64),
    Date(Date),
    /// Seconds, and whether the source wrote tenths.
    Clock(f64, bool),
}

pub(crate) fn cell(kind: Kind, s: &str) -> Cell<'_> {
    if s.is_empty() {
        return Cell::Empty;
    }
    let typed = match kind {
        Kind::Text => None,
        Kind::Number => number(s).map(Cell::Number),
        Kind::Date => date(s).map(Cell::Date),
        Kind::Clock => clock(s).map(|(secs, tenths)| Cell::Clock(secs, tenths)),
    };
    typed.unwrap_or(Cell::Text(s))
}

/// A plain decimal (`12`, `-3`, `0.5`): no exponent, no `inf`, no sign
/// alone, so that nothing else is taken for a number.
fn number(s: &str) -> Option<f64> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    let (whole, frac) = digits.split_once('.').unwrap_or((digits, "0"));
    let all_digits = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    (all_digits(whole) && all_digits(frac))
        .then(|| s.parse().ok())
        .flatten()
}

/// A complete date, `YYYY.MM.DD` or `YYYY-MM-DD`, that the calendar has.
fn date(s: &str) -> Option<Date> {
    super::json::iso_date(s).and_then(|iso| Date::parse(&iso))
}

/// `h:mm:ss` or `h:mm:ss.t`: seconds, and whether tenths were written.
fn clock(s: &str) -> Option<(f64, bool)> {
    let (hms, tenth) = match s.split_once('.') {
        Some((hms, t)) if t.len() == 1 => (hms, Some(t)),
        Some(_) => return None,
        None => (s, None),
    };
    let mut parts = hms.split(':');
    let (h, m, sec) = (parts.next()?, parts.next()?, parts.next()?);
    let digits = |p: &str, len: Option<usize>| {
        !p.is_empty()
            && len.is_none_or(|l| p.len() == l)
            && p.len() <= 6
            && p.bytes().all(|b| b.is_ascii_digit())
    };
    if parts.next().is_some() || !digits(h, None) || !digits(m, Some(2)) || !digits(sec, Some(2)) {
        return None;
    }
    let tenths = match tenth {
        Some(t) if digits(t, Some(1)) => t.parse::<f64>().ok()?,
        Some(_) => return None,
        None => 0.0,
    };
    let (h, m, sec): (f64, f64, f64) = (h.parse().ok()?, m.parse().ok()?, sec.parse().ok()?);
    (m < 60.0 && sec < 60.0)
        .then_some((h * 3600.0 + m * 60.0 + sec + tenths / 10.0, tenth.is_some()))
}

/// Rows a worksheet holds, the header's among them (Excel's limit).
const MAX_ROWS: u32 = 1_048_576;

/// Characters a cell holds (Excel's limit): a longer text is cut, saying so.
const MAX_CELL: usize = 32_767;

fn xlsx_error(e: XlsxError) -> io::Error {
    match e {
        XlsxError::IoError(e) => e,
        e => io::Error::other(e.to_string()),
    }
}

/// The formats of a sheet's cells.
struct Formats {
    header: Format,
    date: Format,
    clock: Format,
    tenths: Format,
}

impl Formats {
    fn new() -> Formats {
        Formats {
            header: Format::new().set_bold(),
            date: Format::new().set_num_format("yyyy-mm-dd"),
            clock: Format::new().set_num_format("[h]:mm:ss"),
            tenths: Format::new().set_num_format("[h]:mm:ss.0"),
        }
    }
}

/// Column width (in characters) for a column of this name and kind.
fn width(column: &str, kind: Kind) -> f64 {
    match (column, kind) {
        ("detail" | "what" | "note" | "reasons" | "effect", _) => 60.0,
        ("final_fen" | "source" | "event" | "game_key", _) => 32.0,
        ("white" | "black" | "player" | "team" | "home" | "away" | "site", _) => 22.0,
        (_, Kind::Date) => 11.0,
        (_, Kind::Clock) => 10.0,
        _ => (column.len() as f64 + 2.0).max(8.0),
    }
}

/// Adds a sheet named `name` holding the CSV table `csv` (its header
/// first): each cell typed by its column (`kind`), the header bold and
/// frozen, with filters.
fn add_sheet(book: &mut Workbook, name: &str, csv: impl Read) -> io::Result<()> {
    let f = Formats::new();
    let sheet = book
        .add_worksheet_with_constant_memory()
        .map_err(xlsx_error)?;
    sheet.set_name(name).map_err(xlsx_error)?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(csv);
    let mut record = csv::StringRecord::new();
    let mut kinds = Vec::new();
    let mut row: u32 = 0;
    while reader.read_record(&mut record).map_err(io::Error::other)? {
        if row == 0 {
            kinds = record.iter().map(kind).collect();
            for (c, h) in record.iter().enumerate() {
                let col = u16::try_from(c).map_err(io::Error::other)?;
                sheet
                    .set_column_width(col, width(h, kinds[c]))
                    .map_err(xlsx_error)?;
                sheet
                    .write_string_with_format(0, col, h, &f.header)
                    .map_err(xlsx_error)?;
            }
        } else {
            if row >= MAX_ROWS {
                return Err(io::Error::other(format!(
                    "a spreadsheet holds at most {} rows: write CSV for a table this long",
                    MAX_ROWS - 1
                )));
            }
            write_row(sheet, &f, row, &kinds, &record)?;
        }
        row += 1;
    }
    if let (Some(last_col), true) = (kinds.len().checked_sub(1), row > 0) {
        let last_col = u16::try_from(last_col).map_err(io::Error::other)?;
        sheet
            .set_freeze_panes(1, 0)
            .and_then(|s| s.autofilter(0, 0, row.saturating_sub(1).max(1), last_col))
            .map_err(xlsx_error)?;
    }
    Ok(())
}

fn write_row(
    sheet: &mut Worksheet,
    f: &Formats,
    row: u32,
    kinds: &[Kind],
    record: &csv::StringRecord,
) -> io::Result<()> {
    for (c, value) in record.iter().enumerate() {
        let col = u16::try_from(c).map_err(io::Error::other)?;
        let k = kinds.get(c).copied().unwrap_or(Kind::Text);
        let written = match cell(k, value) {
            Cell::Empty => continue,
            // Text a cell holds as text needs no guard against formulas:
            // the CSV's apostrophe (`csv::text_cell`) comes off.
            Cell::Text(s) => sheet.write_string(row, col, cut(super::csv::unguarded(s)).as_ref()),
            Cell::Number(n) => sheet.write_number(row, col, n),
            Cell::Date(d) => match ExcelDateTime::from_ymd(d.year, d.month, d.day) {
                Ok(dt) => sheet.write_datetime_with_format(row, col, &dt, &f.date),
                // A year Excel has no date for (before 1900): as written.
                Err(_) => sheet.write_string(row, col, value),
            },
            // Excel keeps a duration as a fraction of a day.
            Cell::Clock(secs, tenths) => sheet.write_number_with_format(
                row,
                col,
                secs / 86_400.0,
                if tenths { &f.tenths } else { &f.clock },
            ),
        };
        written.map_err(xlsx_error)?;
    }
    Ok(())
}

/// A text cut to what a cell holds, at a character boundary.
fn cut(s: &str) -> std::borrow::Cow<'_, str> {
    if s.chars().count() <= MAX_CELL {
        return s.into();
    }
    let note = " … (cut: a spreadsheet cell holds 32,767 characters)";
    let keep: String = s.chars().take(MAX_CELL - note.chars().count()).collect();
    format!("{keep}{note}").into()
}

/// A workbook of the CSV tables `sheets` (name, CSV with its header), one
/// sheet each, written to `out`.
pub(crate) fn xlsx<R: Read>(sheets: Vec<(&str, R)>, out: impl Write + Send) -> io::Result<()> {
    let mut book = Workbook::new();
    for (name, csv) in sheets {
        add_sheet(&mut book, name, csv)?;
    }
    book.save_to_writer(out).map_err(xlsx_error)
}

/// The CSV table `csv` as CSV for Excel, to `out`: a UTF-8 byte-order
/// mark first, and each complete date column in ISO form.
pub(crate) fn excel_csv(csv: impl Read, out: impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    out.write_all("\u{feff}".as_bytes())?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(csv);
    let mut writer = csv::Writer::from_writer(out);
    let mut record = csv::StringRecord::new();
    let mut kinds: Vec<Kind> = Vec::new();
    let mut first = true;
    while reader.read_record(&mut record).map_err(io::Error::other)? {
        if first {
            kinds = record.iter().map(kind).collect();
            writer.write_record(&record)?;
            first = false;
            continue;
        }
        let cells = record
            .iter()
            .enumerate()
            .map(|(c, v)| match (kinds.get(c), date(v)) {
                (Some(Kind::Date), Some(d)) => d.to_string(),
                _ => v.to_string(),
            });
        writer.write_record(cells)?;
    }
    writer.flush()
}

/// The CSV bytes `csv` as `table`: as they are, for Excel, or a workbook
/// with one sheet named `name`.
pub(crate) fn render(table: Table, name: &str, csv: &[u8]) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    match table {
        Table::Csv => out.extend_from_slice(csv),
        Table::Excel => excel_csv(csv, &mut out)?,
        Table::Xlsx => xlsx(vec![(name, csv)], &mut out)?,
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_read_as_their_columns_say() {
        assert_eq!(cell(kind("game"), "12"), Cell::Number(12.0));
        assert_eq!(cell(kind("white_elo"), "?"), Cell::Text("?"));
        assert_eq!(cell(kind("round"), "1.10"), Cell::Text("1.10"));
        assert_eq!(cell(kind("points"), "1.5"), Cell::Number(1.5));
        assert_eq!(cell(kind("points"), "1e5"), Cell::Text("1e5"));
        assert_eq!(cell(kind("penalty"), "-1"), Cell::Number(-1.0));
        assert_eq!(cell(kind("penalty"), "-"), Cell::Text("-"));
        assert_eq!(
            cell(kind("date"), "2009.11.12"),
            Cell::Date(Date {
                year: 2009,
                month: 11,
                day: 12
            })
        );
        assert_eq!(cell(kind("date"), "2009.??.??"), Cell::Text("2009.??.??"));
        assert_eq!(cell(kind("date"), "2025.02.30"), Cell::Text("2025.02.30"));
        assert_eq!(
            cell(kind("white_clock"), "0:01:05"),
            Cell::Clock(65.0, false)
        );
        assert_eq!(
            cell(kind("black_clock"), "1:00:00.5"),
            Cell::Clock(3600.5, true)
        );
        assert_eq!(cell(kind("black_clock"), "0:61:00"), Cell::Text("0:61:00"));
        assert_eq!(cell(kind("black_clock"), ""), Cell::Empty);
        assert_eq!(cell(kind("detail"), "Müller"), Cell::Text("Müller"));
    }

    #[test]
    fn excel_csv_has_a_mark_and_iso_dates() {
        let csv = "white,date,round\nMüller,2009.11.12,1.10\nDvořák,2009.??.??,2\n";
        let mut out = Vec::new();
        excel_csv(csv.as_bytes(), &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\u{feff}white,date,round\nMüller,2009-11-12,1.10\nDvořák,2009.??.??,2\n"
        );
    }

    #[test]
    fn a_long_text_is_cut_to_a_cell() {
        let long = "x".repeat(40_000);
        let c = cut(&long);
        assert_eq!(c.chars().count(), MAX_CELL);
        assert!(c.ends_with("(cut: a spreadsheet cell holds 32,767 characters)"));
    }
}
