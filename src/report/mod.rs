//! Writers: pure functions from the model to bytes; the CLI owns the files.

pub mod batch;
pub(crate) mod csv;
pub mod diagram;
pub mod json;
pub mod packet;
pub(crate) mod pdf;
pub(crate) mod pgn;
pub(crate) mod review;
pub(crate) mod season;
pub(crate) mod sheet;
pub(crate) mod summary;
pub(crate) mod trf;
pub mod tsv;
pub mod write;
