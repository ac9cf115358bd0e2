//! Writers: pure functions from the model to bytes; the CLI owns the files.

pub mod csv;
pub mod diagram;
pub mod packet;
pub mod pdf;
pub mod season;
pub mod tsv;
pub mod write;
