//! Writers: pure functions from the model to bytes; the CLI owns the files.

pub mod batch;
pub mod csv;
pub mod diagram;
pub mod json;
pub mod packet;
pub mod pdf;
pub mod pgn;
pub mod review;
pub mod season;
pub mod summary;
pub mod trf;
pub mod tsv;
pub mod write;
