//! TEN (AEG, 2021): push-your-luck drawing and auctions of wilds, scored by runs per colour.
//! Rules: `docs/rules/ten.md`.

pub mod cards;
pub mod game;
pub mod scoring;
mod seat_scores;

pub use game::{CardSet, Phase, Prize, PublicPayment, PublicTable, SeatState, Ten, TenMove};
