//! The audited list as a FIDE TRF-16 report (`audit --trf FILE`), laid out
//! column by column as the FIDE Handbook's C.04 Annex 2 ("TRF16") fixes it:
//! tournament lines `012`…`132` and `XXR` (the number of rounds, which a
//! pairing engine needs), then one `001` line per player — starting rank at
//! 5–8, title at 11–13, name at 15–47, rating at 49–52, federation at
//! 54–56, FIDE id at 58–68, points at 81–84, rank at 86–89, and ten columns
//! per round from 92 (opponent 92–95, colour 97, result 99).

use crate::audit::report::TrfReport;

/// A line with `fields` placed at their 1-based columns, trailing blanks cut.
fn line(fields: &[(usize, &str)]) -> String {
    let mut l: Vec<char> = Vec::new();
    for (col, text) in fields {
        let at = col - 1;
        let chars: Vec<char> = text.chars().collect();
        if l.len() < at + chars.len() {
            l.resize(at + chars.len(), ' ');
        }
        l[at..at + chars.len()].copy_from_slice(&chars);
    }
    l.into_iter().collect::<String>().trim_end().to_string()
}

fn fit(s: &str, width: usize) -> String {
    s.chars().take(width).collect()
}

pub(crate) fn trf(r: &TrfReport) -> String {
    let mut out = String::new();
    // TRF-16: "each line ends with CR"; with LF after it, as Swiss-Manager
    // writes, every reader (and a Unix one) takes the lines.
    let mut push = |l: String| {
        out.push_str(&crate::model::one_line(&l));
        out.push_str("\r\n");
    };
    let mut dates = vec![(1, "132".to_string())];
    for (i, d) in r.round_dates.iter().enumerate() {
        dates.push((92 + 10 * i, d.clone()));
    }
    let dates: Vec<(usize, &str)> = dates.iter().map(|(c, s)| (*c, s.as_str())).collect();
    let mut header = vec![
        format!("012 {}", r.event),
        format!("022 {}", r.site),
        format!("032 {}", r.federation),
        format!("042 {}", r.start),
        format!("052 {}", r.end),
        format!("062 {}", r.players.len()),
        format!(
            "072 {}",
            r.players.iter().filter(|p| p.rating.is_some()).count()
        ),
        format!("092 {}", r.kind),
        format!("102 {}", r.arbiter),
        format!("122 {}", r.time_control),
        line(&dates),
    ];
    // A tournament file's own header lines (`082`, `112`…) in their
    // numbered places; the rest (`XXC`, `XXS`…) after `XXR`.
    let numbered = |l: &str| l.len() >= 3 && l.as_bytes()[..3].iter().all(u8::is_ascii_digit);
    let mut after = vec![format!("XXR {}", r.rounds)];
    for l in &r.kept_before {
        if numbered(l) {
            let at = header
                .iter()
                .position(|h| h.get(..3) > l.get(..3))
                .unwrap_or(header.len());
            header.insert(at, l.clone());
        } else {
            after.push(l.clone());
        }
    }
    for l in header.into_iter().chain(after) {
        push(l);
    }
    for p in &r.players {
        let number = format!("{:>4}", p.number);
        let name = fit(&p.name, 33);
        let rating = p.rating.map(|e| format!("{e:>4}")).unwrap_or_default();
        // Right-aligned: "GM" in 12-13, as readers of two-letter titles
        // take it, "WGM" in 11-13.
        let title = format!("{:>3}", fit(&p.title, 3));
        let federation = fit(&p.federation, 3);
        let fide_id = format!("{:>11}", fit(&p.fide_id, 11));
        let sex = fit(&p.sex, 1);
        let birth = fit(&p.birth, 10);
        let points = format!("{:>4.1}", f64::from(p.half_points) / 2.0);
        let rank = format!("{:>4}", p.rank);
        let rounds: Vec<(String, String, String)> = p
            .rounds
            .iter()
            .map(|g| match g {
                // Opponent 0: a bye, `0000`.
                Some((0, colour, code)) => ("0000".into(), colour.to_string(), code.to_string()),
                Some((opp, colour, code)) => {
                    (format!("{opp:>4}"), colour.to_string(), code.to_string())
                }
                // Not in this round: TRF-16's "not paired" (0000, -, Z).
                None => ("0000".into(), "-".into(), "Z".into()),
            })
            .collect();
        let mut fields: Vec<(usize, &str)> = vec![
            (1, "001"),
            (5, &number),
            (10, &sex),
            (11, &title),
            (15, &name),
            (49, &rating),
            (54, &federation),
            (58, &fide_id),
            (70, &birth),
            (81, &points),
            (86, &rank),
        ];
        for (i, (opp, colour, code)) in rounds.iter().enumerate() {
            fields.push((92 + 10 * i, opp));
            fields.push((97 + 10 * i, colour));
            fields.push((99 + 10 * i, code));
        }
        push(line(&fields));
    }
    for l in &r.kept_after {
        push(l.clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_land_in_their_columns() {
        assert_eq!(
            line(&[(1, "001"), (5, "   1"), (15, "Lim")]),
            "001    1      Lim"
        );
        let l = line(&[(1, "001"), (92, "   2"), (97, "w"), (99, "1")]);
        assert_eq!(&l[91..95], "   2");
        assert_eq!(&l[96..97], "w");
        assert_eq!(&l[98..99], "1");
    }
}
