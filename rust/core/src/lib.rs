//! The rules engines of the cardnet card games — Matchstick Tycoon, A Fistful of Gold, Cherki and TEN —
//! with redacted per-seat views, deterministic seeded dealing, save/replay, batch self-play, built-in
//! players and a reinforcement-learning layer. Pure Rust; the Python package `cardnet` wraps it through
//! the thin `cardnet-py` crate and every other language through the C ABI of `cardnet-ffi`.
//!
//! # Starting a game, by name
//! [`new_game`] starts any game from its name, a player count (`None`: the game's usual one), a seed and
//! its options (a JSON object; `null` for the defaults). The game behind [`AnyGame`] speaks JSON.
//!
//! ```
//! use cardnet_core::{new_game, GameError};
//! use serde_json::json;
//!
//! # fn main() -> Result<(), GameError> {
//! let mut game = new_game("matchstick", Some(4), 7, &json!({"expansion": 2}))?;
//! while let Some(&seat) = game.to_act().first() {
//!     // Every legal move is a JSON object; index 0 is the first in the game's fixed order.
//!     let first = game.legal_move(seat, 0).expect("a seat to act has a legal move");
//!     game.apply(seat, &first)?;
//! }
//! let outcome = game.outcome().expect("the game is over");
//! assert_eq!(outcome.kind.name(), "ranking");
//! println!("{}", outcome.to_json());
//! # Ok(())
//! # }
//! ```
//!
//! # Refusals change nothing
//! A move that is not well-formed is [`GameError::InvalidMove`]; one the rules refuse now is
//! [`GameError::IllegalMove`] with a stable [`code`](GameError::code) (`not_your_turn`, `game_over`,
//! `no_such_seat`, `no_such_move` or a game's own). Either way the state is untouched.
//!
//! ```
//! # use cardnet_core::{new_game, GameError};
//! # use serde_json::json;
//! # fn main() -> Result<(), GameError> {
//! let mut game = new_game("matchstick", Some(3), 7, &serde_json::Value::Null)?;
//! let seat = game.to_act()[0];
//! let before = game.state_hash();
//! let refused = game.apply(seat, &json!({"type": "pass"})).unwrap_err(); // nobody passes on a lead
//! assert!(matches!(refused, GameError::IllegalMove { .. }));
//! assert_eq!(game.apply(seat, &json!({"type": "fly"})).unwrap_err().code(), "invalid_move");
//! assert_eq!(game.state_hash(), before);
//! # Ok(())
//! # }
//! ```
//!
//! # The typed API
//! Each game is also its own type implementing [`Game`]: moves are typed, and the hot path
//! (`legal_count`, `apply_index`, `clone`) allocates nothing. [`session::Session`] adds turn checks and the
//! history; [`ai::Player`] is a built-in player.
//!
//! ```
//! # #[cfg(feature = "ai")]
//! # fn main() -> Result<(), cardnet_core::GameError> {
//! use cardnet_core::ai::Player;
//! use cardnet_core::games::fistful::Fistful;
//! use cardnet_core::rng::Rng;
//! use cardnet_core::session::Session;
//! use cardnet_core::Game;
//!
//! let mut duel = Session::<Fistful>::start(None, 42, &serde_json::json!({"length": "short"}))?;
//! let mut rng = Rng::new(7);
//! while let Some(seat) = duel.game().to_act().first() {
//!     let index = Player::Heuristic.choose(duel.game(), seat, &mut rng)?;
//!     duel.apply_index(seat, index)?;
//! }
//! assert!(duel.game().is_over());
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "ai"))]
//! # fn main() {}
//! ```
//!
//! # Views and redaction
//! [`AnyGame::view`] of a seat holds what that seat may see: `{"public": ..., "private": ...}`, the
//! public part identical for everyone and the private part `null` for a spectator (`None`). Events are
//! redacted the same way. [`AnyGame::state_hash`] is the SHA-256 of the canonical public view, the same
//! in Rust, Python and C, so peers can check that they agree without revealing anything.
//!
//! ```
//! # use cardnet_core::{new_game, GameError};
//! # fn main() -> Result<(), GameError> {
//! let game = new_game("cherki", Some(4), 3, &serde_json::Value::Null)?;
//! let mine = game.view(Some(0))?;
//! let spectator = game.view(None)?;
//! assert_eq!(mine["public"], spectator["public"]);
//! assert!(spectator["private"].is_null() && !mine["private"].is_null());
//! assert_eq!(game.view(Some(9)).unwrap_err().code(), "no_such_seat");
//! # Ok(())
//! # }
//! ```
//!
//! # Determinization, saves and players that see only their view
//! [`AnyGame::determinize`] deals every fact an observer cannot know anew — what a search samples. A game
//! saves to JSON and [`load_game`] replays it, checking every move and the final state; a determinized
//! copy saves as its recipe (the save of the game it was drawn from, the observer and the seed, then its
//! own moves) and loads back exactly. [`registry::from_view`] rebuilds a
//! full game from nothing but a seat's view, which is how a network bot uses the built-in players.
//!
//! ```
//! # use cardnet_core::{load_game, new_game, GameError};
//! # fn main() -> Result<(), GameError> {
//! let mut game = new_game("ten", Some(3), 5, &serde_json::Value::Null)?;
//! let seat = game.to_act()[0];
//! game.apply_index(seat, 0)?;
//! let sample = game.determinize(Some(seat), 99);
//! assert_eq!(sample.view(Some(seat))?, game.view(Some(seat))?);
//! let saved = cardnet_core::json::canonical(&game.to_json()?);
//! assert_eq!(load_game(&saved)?.state_hash(), game.state_hash());
//! let saved_sample = cardnet_core::json::canonical(&sample.to_json()?);
//! assert_eq!(load_game(&saved_sample)?.state_hash(), sample.state_hash());
//! # Ok(())
//! # }
//! ```
//!
//! # Built-in players
//! [`ai::Player::parse`] reads `random`, `heuristic`, `ismcts:N` or a level (`easy`, `normal`, `hard`);
//! [`AnyGame::choose`] returns the index it picks, deterministically for a seed.
//!
//! ```
//! # #[cfg(feature = "ai")]
//! # fn main() -> Result<(), cardnet_core::GameError> {
//! # use cardnet_core::{ai::Player, new_game};
//! let game = new_game("fistful", None, 1, &serde_json::Value::Null)?;
//! let seat = game.to_act()[0];
//! let index = game.choose(seat, Player::parse("ismcts:50")?, 7)?;
//! assert!(index < game.legal_count(seat));
//! assert_eq!(index, game.choose(seat, Player::parse("ismcts:50")?, 7)?);
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "ai"))]
//! # fn main() {}
//! ```
//!
//! # Seven-segment transforms
//! Matchstick Tycoon's cards are seven-segment glyphs that may be turned and extended with matchsticks;
//! [`segments`] computes what each printed card can show and at what cost.
//!
//! ```
//! use cardnet_core::segments::{segments_to_str, transforms, CardType};
//!
//! let six_nine = CardType::parse("69").expect("a printed card type");
//! let shown: Vec<(&str, bool, u8)> =
//!     transforms(six_nine, false).iter().map(|t| (t.value.name(), t.rotated, t.matchsticks)).collect();
//! assert!(shown.contains(&("6", false, 0)) && shown.contains(&("9", true, 0)));
//! let eight = transforms(six_nine, false).into_iter().find(|t| t.value.name() == "8").expect("6 + b = 8");
//! assert_eq!((eight.matchsticks, segments_to_str(eight.added).len()), (1, 1));
//! ```
//!
//! # Reinforcement learning
//! [`rl`] (feature `rl`, on by default) gives every game fixed action ids, observation and information-state tensors computed from a
//! seat's view alone, legal masks and a vectorized environment.
//!
//! ```
//! # #[cfg(feature = "rl")]
//! # fn main() -> Result<(), cardnet_core::GameError> {
//! let mut env = cardnet_core::rl::new_rl("matchstick", Some(4), 1, &serde_json::Value::Null, false)?;
//! let mut observation = vec![0.0f32; env.observation_len()];
//! while let Some(seat) = env.first_to_act() {
//!     env.write_observation(seat, &mut observation);
//!     let ids = env.legal_action_ids(seat);
//!     env.apply_action_id(seat, ids[0])?;
//! }
//! assert_eq!(env.returns().len(), 4);
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "rl"))]
//! # fn main() {}
//! ```
//!
//! # Features
//! All on by default; each can be turned off (`default-features = false`, then pick).
//! - `ai`: the built-in players ([`ai`]), [`AnyGame::choose`] and batch self-play ([`simulate`],
//!   [`registry::simulate`], [`registry::play_games`]).
//! - `rl` (needs `ai`): the reinforcement-learning layer, [`rl`].
//! - `clock` (needs `ai`): the per-decision think times of [`simulate::play_games`] are the thread's CPU
//!   time (through `libc` on Unix); without it they are wall-clock time.
//! - `serde`: `Serialize`/`Deserialize` on the typed moves (their serde form is the move's JSON),
//!   [`Outcome`], [`Setup`], [`SeatSet`] and TEN's cards, and `Serialize` on the typed views
//!   ([`games::fistful::FistfulSight`], [`games::ten::PublicTable`]).
//! - `toml` (needs `serde`): [`games::ten::cards::TenData::load`] reads a corrected TEN data file in the
//!   format of `data/ten.toml`. The rules never need it: TEN's box is compiled in as Rust constants.
//!
//! With `default-features = false` the crate is the rules alone — every game, views and redaction,
//! saves and replay, determinization, the seven-segment transforms — on `serde_json` and `sha2`:
//! 13 crates besides this one (`cargo tree -e normal`), against 29 with every feature. Eight of the 13
//! come with `sha2`, kept because the state hash runs on every move and `sha2` uses the CPU's SHA
//! instructions. CI checks the minimal build, each feature alone, and that count
//! (`scripts/check-features`).
//!
//! # Guarantees
//! - **Determinism.** A game is fixed by its name, player count, options and seed: the same deals, the
//!   same legal-move order and the same state hashes on every platform and in every language, because the
//!   generator ([`rng`]) is the crate's own and no hash-map order reaches any output. Batch game `i` of
//!   seed `S` is dealt from [`rng::derive`]`(S, i)`.
//! - **Threads.** Every game state, [`AnyGame`] included, is `Send + Sync`; clones are independent.
//! - **No panics on input.** Bad names, options, moves, saves and views are [`GameError`]s.
//! - **Semantic versioning.** Before 1.0, a bump of the minor version (0.1 → 0.2) may break the API, a
//!   save format or the rules' outcome for a seed; a patch bump does neither. Changing what a seed deals,
//!   the canonical JSON of a view or the state hash counts as breaking. The saved-game format carries its
//!   own version ([`session::SAVE_FORMAT`]) and the RL layouts theirs ([`rl::LAYOUT_VERSION`]). The minimum
//!   supported Rust version (`rust-version`, 1.87) is raised only in a minor release. See `CHANGELOG.md`.

#![warn(missing_docs)]

/// The crate README's example, run as a doctest so that it cannot go stale.
#[doc = include_str!("../README.md")]
#[cfg(all(doctest, feature = "ai"))]
pub struct ReadmeDoctests;

#[cfg(feature = "ai")]
pub mod ai;
/// The conformance harness of the crate's own tests (it reads `CARDNET_BLESS` and writes golden files);
/// public for the integration tests only, no part of the stable API.
#[doc(hidden)]
pub mod conformance;
pub mod error;
pub mod game;
pub mod games;
pub mod json;
pub mod registry;
#[cfg(feature = "rl")]
pub mod rl;
pub mod rng;
pub mod segments;
pub mod session;
#[cfg(feature = "ai")]
pub mod simulate;

pub use error::GameError;
pub use game::{Game, GameInfo, Outcome, OutcomeKind, Search, Seat, SeatSet, Setup};
pub use registry::{from_view as game_from_view, infos, load_game, new_game};
/// The JSON value of every dynamic call (options, moves, views, outcomes), re-exported so that embedders
/// name the same `serde_json` version as the crate; `segments::Value` is a seven-segment value, not JSON.
pub use serde_json::Value as JsonValue;
pub use session::AnyGame;
