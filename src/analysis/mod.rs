//! Questions asked of positions and clocks: can a side still mate, what the
//! clocks say about flags, and how the USCF material list reads a position.

pub mod clocks;
pub mod forced;
pub mod mate;
