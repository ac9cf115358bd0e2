//! The PDF packet (PRODUCT.md): header, the ECF QPF 15 diagram, findings
//! with citations, the recommended ruling, a progress table for ground (b),
//! a clock chart, the scoresheet with both clocks, and a decision box. The
//! model (`model`) is built from finished rulings; `layout` draws it. One
//! renderer serves `claim` and `adjudicate --packets`.

mod layout;
mod model;

pub use crate::report::pdf::{Made, Paper};
pub use layout::render;
pub use model::{claim_packet, game_packet, Packet};
