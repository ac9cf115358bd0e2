//! The leagues' numbers and bands as data (`templates/leagues/*.toml`),
//! embedded in the binary: boards, notice, tolerances, points, the cup
//! handicap bands, the starting ratings. The code reads them here.

use std::sync::LazyLock;

use serde::Deserialize;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Band<T> {
    /// Upper bound of the band, inclusive; the last band has none.
    #[serde(default)]
    pub(crate) up_to: Option<T>,
    #[serde(alias = "rating")]
    pub(crate) points: f64,
}

/// The first band whose bound `x` does not exceed (the open last band otherwise).
fn band<T: PartialOrd + Copy>(bands: &[Band<T>], x: T) -> f64 {
    bands
        .iter()
        .find(|b| b.up_to.is_none_or(|u| x <= u))
        .map_or(0.0, |b| b.points)
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Ddcl {
    pub(crate) league_boards: u32,
    pub(crate) cup_boards: u32,
    pub(crate) notice_hours: u32,
    pub(crate) order_tolerance: u32,
    pub(crate) win_points: f64,
    pub(crate) draw_points: f64,
    pub(crate) poy_min_share: f64,
    pub(crate) cup_handicap: Vec<Band<f64>>,
}

impl Ddcl {
    /// DDCL 14(i): handicap in board points for a grade-total difference.
    pub(crate) fn cup_handicap(&self, difference: f64) -> f64 {
        band(&self.cup_handicap, difference)
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HsLeague {
    pub(crate) varsity_boards: u32,
    pub k_factor: f64,
    pub(crate) forfeit_bonus: f64,
    pub(crate) starting_rating: Vec<Band<u32>>,
}

impl HsLeague {
    /// HSL II: the starting rating of a preseason board.
    pub(crate) fn starting_rating(&self, board: u32) -> f64 {
        band(&self.starting_rating, board)
    }
}

// Embedded files, checked by the tests below: a malformed one cannot ship.
pub(crate) static DDCL: LazyLock<Ddcl> = LazyLock::new(|| {
    toml::from_str(include_str!("../../templates/leagues/ddcl.toml"))
        .expect("templates/leagues/ddcl.toml")
});

pub static HS_LEAGUE: LazyLock<HsLeague> = LazyLock::new(|| {
    toml::from_str(include_str!("../../templates/leagues/hs-league.toml"))
        .expect("templates/leagues/hs-league.toml")
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_leagues_load_and_read_as_the_texts_say() {
        let d = &*DDCL;
        assert_eq!((d.league_boards, d.cup_boards, d.notice_hours), (5, 4, 72));
        // DDCL 14(i): up to 30 nothing, 31-40 half, 41-60 one, over 60 one and a half.
        let h: Vec<f64> = [0.0, 30.0, 30.5, 40.0, 41.0, 60.0, 61.0, 200.0]
            .iter()
            .map(|&x| d.cup_handicap(x))
            .collect();
        assert_eq!(h, [0.0, 0.0, 0.5, 0.5, 1.0, 1.0, 1.5, 1.5]);
        let s = &*HS_LEAGUE;
        let r: Vec<f64> = (1..=10).map(|b| s.starting_rating(b)).collect();
        assert_eq!(
            r,
            [1600.0, 1500.0, 1400.0, 1300.0, 1200.0, 1100.0, 1000.0, 1000.0, 900.0, 900.0]
        );
    }
}
