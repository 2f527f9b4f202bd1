//! cardnet-core: the rules engines of the cardnet card games, with redacted per-seat views, deterministic
//! seeded dealing, save/replay, batch self-play and built-in players. Pure Rust; the Python package
//! `cardnet` wraps it through the thin `cardnet-py` crate, and any Rust tool can embed it directly.
//!
//! Start with [`registry::new_game`] (any game by name, JSON in and out) or with a game's own type and
//! the [`game::Game`] trait (typed, allocation-free hot path).

pub mod ai;
pub mod conformance;
pub mod error;
pub mod game;
pub mod games;
pub mod json;
pub mod registry;
pub mod rl;
pub mod rng;
pub mod segments;
pub mod session;
pub mod simulate;

pub use error::GameError;
pub use game::{Game, GameInfo, Outcome, OutcomeKind, Search, Seat, SeatSet, Setup};
pub use registry::{infos, load_game, new_game};
pub use session::AnyGame;
