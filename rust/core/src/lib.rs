//! cardnet-core: rules engines for the cardnet card games.

pub mod segments;
