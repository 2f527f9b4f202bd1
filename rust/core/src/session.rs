//! A game plus its history: the object the bindings, the host and saved games work with.
//!
//! [`Session`] wraps any [`Game`], checks whose turn it is, keeps the moves for saving, and speaks JSON.
//! [`AnyGame`] is its object-safe face, so a caller can hold any of the four games behind one type.

#[cfg(feature = "ai")]
use crate::ai::Player;
use crate::error::GameError;
use crate::game::{Game, GameInfo, Outcome, Seat, Setup};
use crate::json::canonical;
use crate::rng::Rng;
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};
use std::sync::Arc;

/// Version of the saved-game format written by [`AnyGame::to_json`].
pub const SAVE_FORMAT: u64 = 1;

/// The keys of a saved game; any other key means the document is not one of ours. A game played from
/// its deal has `seed` and `options`; a determinized copy has `determinized` instead.
const SAVE_KEYS: [&str; 8] = ["format", "game", "players", "seed", "options", "determinized", "moves", "state"];

/// A game with its history.
#[derive(Clone)]
pub struct Session<G: Game> {
    game: G,
    history: Vec<(Seat, G::Move)>,
    /// How the state came about, which decides what a save must hold to rebuild it.
    origin: Origin<G>,
}

/// How a session's state came about.
#[derive(Clone)]
enum Origin<G: Game> {
    /// Dealt from the setup's seed: the save replays the moves from the deal.
    Dealt,
    /// Re-dealt from another session for an observer: the invented cards follow from no seed of the
    /// setup, so the save holds the recipe (that session's save, the observer and the seed), then the
    /// moves made since.
    Redealt(Arc<Redeal<G>>),
    /// Rebuilt from a seat's view: there is no deal to replay, so it cannot be saved.
    FromView,
}

/// The recipe of a determinized copy.
struct Redeal<G: Game> {
    source: Session<G>,
    observer: Option<Seat>,
    seed: u64,
    /// The length of the history when the copy was drawn; the moves after it are the copy's own.
    since: usize,
}

impl<G: Game> Session<G> {
    /// Starts a game from player count, seed and options (a JSON object or null; defaults filled in).
    pub fn start(players: Option<usize>, seed: u64, options: &Value) -> Result<Self, GameError> {
        Ok(Session { game: G::start(players, seed, options)?, history: Vec::new(), origin: Origin::Dealt })
    }

    /// A determinized session around a state built elsewhere (from a view): no history and no deal to
    /// replay, so it cannot be saved.
    pub fn from_game(game: G) -> Self {
        Session { game, history: Vec::new(), origin: Origin::FromView }
    }

    /// A copy with every hidden fact `observer` cannot know re-dealt from `seed`, which remembers how it
    /// was drawn so that it saves and loads.
    fn redealt(&self, observer: Option<Seat>, seed: u64) -> Self {
        let mut rng = Rng::new(seed);
        let since = self.history.len();
        Session {
            game: self.game.determinize(observer, &mut rng),
            history: self.history.clone(),
            origin: Origin::Redealt(Arc::new(Redeal { source: self.clone(), observer, seed, since })),
        }
    }

    /// The engine state.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Checks that `seat` may move now: `no_such_seat`, `game_over` or `not_your_turn` otherwise.
    pub fn check_turn(&self, seat: Seat) -> Result<(), GameError> {
        if seat >= self.game.setup().players {
            return Err(no_such_seat(seat, self.game.setup().players));
        }
        if self.game.is_over() {
            return Err(GameError::illegal("game_over", "the game is over"));
        }
        if !self.game.to_act().contains(seat) {
            let waiting: Vec<String> = self.game.to_act().iter().map(|s| s.to_string()).collect();
            return Err(GameError::illegal(
                "not_your_turn",
                format!("seat {seat} is not to act (waiting for seat {})", waiting.join(" and ")),
            ));
        }
        Ok(())
    }

    /// Validates and applies a typed move.
    pub fn apply(&mut self, seat: Seat, mv: G::Move) -> Result<(), GameError> {
        self.check_turn(seat)?;
        if self.game.index_of(seat, &mv).is_none() {
            return Err(self.game.explain(seat, &mv));
        }
        self.game.apply_legal(seat, &mv);
        self.history.push((seat, mv));
        Ok(())
    }

    /// Applies the `index`-th legal move of `seat`.
    pub fn apply_index(&mut self, seat: Seat, index: usize) -> Result<(), GameError> {
        self.check_turn(seat)?;
        let mv = self.game.legal_move(seat, index).ok_or_else(|| {
            GameError::illegal(
                "no_such_move",
                format!("seat {seat} has {} legal moves; index {index} is out of range", self.game.legal_count(seat)),
            )
        })?;
        self.game.apply_legal(seat, &mv);
        self.history.push((seat, mv));
        Ok(())
    }
}

impl<G: Game> Session<G> {
    /// The canonical public view: the bytes every observer's view embeds and the state hash digests.
    fn public_json(&self) -> String {
        let mut out = String::with_capacity(1024);
        self.game.write_public_view(&mut out);
        out
    }

    /// Every legal move of `seat` as a canonical JSON array, `[]` when it is not to act.
    fn all_legal_json(&self, seat: Seat) -> String {
        let count = self.game.legal_count(seat);
        // Room for a typical listed move each, so that the list is written without growing.
        let mut out = String::with_capacity(2 + count * 48);
        out.push('[');
        for mv in (0..count).filter_map(|i| self.game.legal_move(seat, i)) {
            if out.len() > 1 {
                out.push(',');
            }
            self.game.write_move(&mv, &mut out);
        }
        out.push(']');
        out
    }

    /// Refuses an observer seat past the player count (`no_such_seat`) rather than showing it a
    /// spectator's view.
    fn check_observer(&self, seat: Option<Seat>) -> Result<(), GameError> {
        match seat {
            Some(s) if s >= self.game.setup().players => Err(no_such_seat(s, self.game.setup().players)),
            _ => Ok(()),
        }
    }

    /// The events of `seat`, already checked, as a canonical JSON array.
    fn observer_events_json(&self, seat: Option<Seat>) -> String {
        let mut out = String::with_capacity(128);
        self.game.write_events(seat, &mut out);
        out
    }

    /// Writes `{"private":...,"public":...}` (the keys' canonical order) around the encoded public part.
    fn write_view(&self, out: &mut String, seat: Option<Seat>, public: &str) {
        out.push_str("{\"private\":");
        self.game.write_private_view(seat, out);
        out.push_str(",\"public\":");
        out.push_str(public);
        out.push('}');
    }
}

/// Any game behind one object-safe interface, speaking JSON. Implemented by every `Session<G>`.
pub trait AnyGame: Send + Sync {
    /// The game's machine name.
    fn name(&self) -> &'static str;
    /// The game's static description.
    fn info(&self) -> GameInfo;
    /// Player count, seed and resolved options.
    fn setup(&self) -> &Setup;
    /// Seats that must act now, in increasing order.
    fn to_act(&self) -> Vec<Seat>;
    /// The next decision of a playing loop: the lowest seat to act and its number of legal moves, or
    /// `None` once the game is over (Python's `Game.decision`, C's `cardnet_decision`).
    fn decision(&self) -> Option<(Seat, usize)> {
        let seat = *self.to_act().first()?;
        Some((seat, self.legal_count(seat)))
    }
    /// Whether the game is over.
    fn is_over(&self) -> bool;
    /// The result once over.
    fn outcome(&self) -> Option<Outcome>;
    /// Refuses a seat that may not move now (`no_such_seat`, `game_over`, `not_your_turn`), as `apply` does.
    fn check_turn(&self, seat: Seat) -> Result<(), GameError>;
    /// Number of legal moves of `seat` (0 when not to act).
    fn legal_count(&self, seat: Seat) -> usize;
    /// The `index`-th legal move of `seat` as JSON.
    fn legal_move(&self, seat: Seat, index: usize) -> Option<Value>;
    /// All legal moves of `seat` as JSON, in index order.
    fn legal_moves(&self, seat: Seat) -> Vec<Value>;
    /// The index of a JSON move among `seat`'s legal moves, or the reason it is refused.
    fn index_of(&self, seat: Seat, mv: &Value) -> Result<usize, GameError>;
    /// Validates and applies a JSON move.
    fn apply(&mut self, seat: Seat, mv: &Value) -> Result<(), GameError>;
    /// Applies the `index`-th legal move of `seat` (the fast path).
    fn apply_index(&mut self, seat: Seat, index: usize) -> Result<(), GameError>;
    /// The view of `seat` (`None` = spectator); a seat past the player count is `no_such_seat`.
    fn view(&self, seat: Option<Seat>) -> Result<Value, GameError>;
    /// The events of the last move as `seat` may learn them; a seat past the player count is
    /// `no_such_seat`.
    fn events(&self, seat: Option<Seat>) -> Result<Vec<Value>, GameError>;
    /// Hex SHA-256 of the canonical public view.
    fn state_hash(&self) -> String;
    /// `view(seat)` as canonical JSON, written straight from the public and private parts.
    fn view_json(&self, seat: Option<Seat>) -> Result<String, GameError>;
    /// `events(seat)` as a canonical JSON array.
    fn events_json(&self, seat: Option<Seat>) -> Result<String, GameError>;
    /// All legal moves of `seat` as one canonical JSON array (`[]` when it is not to act).
    #[deprecated(since = "0.1.1", note = "use `legal_moves_json`, the name Python and C use")]
    fn legal_json(&self, seat: Seat) -> String;
    /// All legal moves of `seat` as one canonical JSON array, in index order. A seat that may not move now
    /// is refused as [`AnyGame::apply`] would refuse it (`not_your_turn`, `game_over`, `no_such_seat`): an
    /// empty list would read as a stuck game. Python's `Game.legal_moves_json`, C's
    /// `cardnet_legal_moves_json`.
    fn legal_moves_json(&self, seat: Seat) -> Result<String, GameError> {
        self.check_turn(seat)?;
        #[allow(deprecated)]
        Ok(self.legal_json(seat))
    }
    /// Everything the host sends after a state change, as canonical bytes: the public hash, whose turn it
    /// is, the outcome, every acting seat's legal list, and each observer's view and events. The public
    /// view is built and encoded once; the hash is taken from those same bytes.
    #[doc(hidden)]
    fn fan_out(&self, observers: &[Option<Seat>]) -> FanOut;
    /// Validates and applies a move given as JSON or as a legal index; returns the applied move's canonical
    /// JSON for the host's journal (the move as given, or the listed move for an index).
    #[doc(hidden)]
    fn apply_recorded(&mut self, seat: Seat, mv: MoveInput<'_>) -> Result<String, GameError>;
    /// The moves so far as `(seat, move)` JSON pairs.
    fn history(&self) -> Vec<(Seat, Value)>;
    /// How many moves were made, without building the history.
    fn move_count(&self) -> usize;
    /// The saved-game document (format version, setup, moves and full state). A determinized copy saves
    /// its recipe instead of the setup: `determinized` holds the save of the game it was drawn from, the
    /// observer and the seed, and `moves` the moves made on the copy since. A game rebuilt from a view
    /// ([`crate::registry::from_view`]) has no deal to replay: `IllegalMove` with code `determinized`.
    fn to_json(&self) -> Result<Value, GameError>;
    /// An independent copy.
    fn clone_box(&self) -> Box<dyn AnyGame>;
    /// A copy with every hidden fact `observer` cannot know re-dealt from `seed`; it plays on, and saves
    /// and loads (see [`AnyGame::to_json`]).
    fn determinize(&self, observer: Option<Seat>, seed: u64) -> Box<dyn AnyGame>;
    /// The index a built-in player picks for `seat`: the same for the same seed, in every language
    /// (Python's `seed=None` default draws a fresh seed first).
    #[cfg(feature = "ai")]
    fn choose(&self, seat: Seat, player: Player, seed: u64) -> Result<usize, GameError>;
}

impl<G: Game> AnyGame for Session<G> {
    fn name(&self) -> &'static str {
        G::info().name
    }
    fn info(&self) -> GameInfo {
        G::info()
    }
    fn setup(&self) -> &Setup {
        self.game.setup()
    }
    fn to_act(&self) -> Vec<Seat> {
        self.game.to_act().iter().collect()
    }
    fn is_over(&self) -> bool {
        self.game.is_over()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }
    fn check_turn(&self, seat: Seat) -> Result<(), GameError> {
        Session::check_turn(self, seat)
    }
    fn legal_count(&self, seat: Seat) -> usize {
        self.game.legal_count(seat)
    }
    fn legal_move(&self, seat: Seat, index: usize) -> Option<Value> {
        self.game.legal_move(seat, index).map(|m| self.game.move_to_json(&m))
    }
    fn legal_moves(&self, seat: Seat) -> Vec<Value> {
        // One parse of the written list rather than one per move: the dict API lists every move each turn.
        match crate::json::written(|out| out.push_str(&self.all_legal_json(seat))) {
            Value::Array(moves) => moves,
            other => unreachable!("legal_json wrote {other} rather than an array"),
        }
    }
    fn index_of(&self, seat: Seat, mv: &Value) -> Result<usize, GameError> {
        self.check_turn(seat)?;
        let typed = self.game.move_from_json(seat, mv)?;
        self.game.index_of(seat, &typed).ok_or_else(|| self.game.explain(seat, &typed))
    }
    fn apply(&mut self, seat: Seat, mv: &Value) -> Result<(), GameError> {
        self.check_turn(seat)?;
        let typed = self.game.move_from_json(seat, mv)?;
        Session::apply(self, seat, typed)
    }
    fn apply_index(&mut self, seat: Seat, index: usize) -> Result<(), GameError> {
        Session::apply_index(self, seat, index)
    }
    fn view(&self, seat: Option<Seat>) -> Result<Value, GameError> {
        let written = self.view_json(seat)?;
        Ok(crate::json::written(|out| out.push_str(&written)))
    }
    fn events(&self, seat: Option<Seat>) -> Result<Vec<Value>, GameError> {
        self.check_observer(seat)?;
        Ok(self.game.events(seat))
    }
    fn state_hash(&self) -> String {
        hex_sha256(self.public_json().as_bytes())
    }
    fn view_json(&self, seat: Option<Seat>) -> Result<String, GameError> {
        self.check_observer(seat)?;
        let public = self.public_json();
        let mut out = String::with_capacity(public.len() + 256);
        self.write_view(&mut out, seat, &public);
        Ok(out)
    }
    fn events_json(&self, seat: Option<Seat>) -> Result<String, GameError> {
        self.check_observer(seat)?;
        Ok(self.observer_events_json(seat))
    }
    fn legal_json(&self, seat: Seat) -> String {
        self.all_legal_json(seat)
    }
    fn fan_out(&self, observers: &[Option<Seat>]) -> FanOut {
        let public = self.public_json();
        let state_hash = hex_sha256(public.as_bytes());
        let to_act: Vec<Seat> = self.game.to_act().iter().collect();
        let outcome = self.game.outcome().map(|o| canonical(&o.to_json()));
        let legal = to_act.iter().map(|&seat| (seat, self.game.legal_count(seat), self.all_legal_json(seat))).collect();
        let mut shared_events = self.game.events_are_public().then(|| self.observer_events_json(None));
        let seats = observers
            .iter()
            .enumerate()
            .map(|(i, &seat)| {
                // Room for the seat's private part too, so that the view is written without growing.
                let mut view = String::with_capacity(public.len() + 1024);
                self.write_view(&mut view, seat, &public);
                let events = match &mut shared_events {
                    // The last observer takes the shared list itself.
                    Some(_) if i + 1 == observers.len() => shared_events.take().unwrap_or_default(),
                    Some(shared) => shared.clone(),
                    None => self.observer_events_json(seat),
                };
                (seat, view, events)
            })
            .collect();
        FanOut { state_hash, to_act, outcome, legal, seats }
    }
    fn apply_recorded(&mut self, seat: Seat, mv: MoveInput<'_>) -> Result<String, GameError> {
        match mv {
            MoveInput::Json(value) => {
                AnyGame::apply(self, seat, value)?;
                Ok(canonical(value))
            }
            MoveInput::Index(index) => {
                Session::apply_index(self, seat, index)?;
                // The move just pushed is the listed move of that index.
                let mut listed = String::with_capacity(256);
                match self.history.last() {
                    Some((_, m)) => self.game.write_move(m, &mut listed),
                    None => listed.push_str("null"),
                }
                Ok(listed)
            }
        }
    }
    fn history(&self) -> Vec<(Seat, Value)> {
        self.history.iter().map(|(s, m)| (*s, self.game.move_to_json(m))).collect()
    }
    fn move_count(&self) -> usize {
        self.history.len()
    }
    fn to_json(&self) -> Result<Value, GameError> {
        let setup = self.game.setup();
        let moves_from = |first: usize| -> Vec<Value> {
            let made = &self.history[first..];
            made.iter().map(|(s, m)| json!({"seat": s, "move": self.game.move_to_json(m)})).collect()
        };
        match &self.origin {
            Origin::Dealt => Ok(json!({"format": SAVE_FORMAT, "game": self.name(), "players": setup.players,
                                       "seed": setup.seed, "options": setup.options, "moves": moves_from(0),
                                       "state": self.game.state_json()})),
            Origin::Redealt(redeal) => {
                let from = json!({"state": redeal.source.to_json()?, "observer": redeal.observer,
                                  "seed": redeal.seed});
                Ok(json!({"format": SAVE_FORMAT, "game": self.name(), "players": setup.players,
                          "determinized": from, "moves": moves_from(redeal.since),
                          "state": self.game.state_json()}))
            }
            Origin::FromView => Err(GameError::illegal(
                "determinized",
                "a game rebuilt from a seat's view has invented hidden cards and no deal to replay, so it \
                 cannot be saved; save the game the view was seen in",
            )),
        }
    }
    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }
    fn determinize(&self, observer: Option<Seat>, seed: u64) -> Box<dyn AnyGame> {
        Box::new(self.redealt(observer, seed))
    }
    #[cfg(feature = "ai")]
    fn choose(&self, seat: Seat, player: Player, seed: u64) -> Result<usize, GameError> {
        self.check_turn(seat)?;
        player.choose(&self.game, seat, &mut Rng::new(seed))
    }
}

/// The refusal of a seat that a game of `players` does not have.
fn no_such_seat(seat: Seat, players: usize) -> GameError {
    GameError::illegal("no_such_seat", format!("seat {seat} does not exist in a {players}-player game"))
}

/// SHA-256 of `bytes`.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// Hex SHA-256 of `bytes`.
pub fn hex_sha256(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(64);
    for b in sha256(bytes) {
        out.push(char::from(HEX[usize::from(b >> 4)]));
        out.push(char::from(HEX[usize::from(b & 15)]));
    }
    out
}

/// A move as the host received it: a JSON object from a peer, or the index of a listed legal move.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum MoveInput<'a> {
    /// A move object as a peer sent it.
    Json(&'a Value),
    /// The index of a listed legal move.
    Index(usize),
}

/// The host's per-state-change output of [`AnyGame::fan_out`], every fragment canonical JSON.
#[doc(hidden)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FanOut {
    /// Hex SHA-256 of the canonical public view (the bytes spliced into every view below).
    pub state_hash: String,
    /// Seats that must act now, in increasing order.
    pub to_act: Vec<Seat>,
    /// The outcome once over.
    pub outcome: Option<String>,
    /// For every seat in `to_act`: `(seat, legal count, legal list)`.
    pub legal: Vec<(Seat, usize, String)>,
    /// For every observer asked for (`None` = spectator): `(observer, view, events)`.
    pub seats: Vec<(Option<Seat>, String, String)>,
}

/// Replays a saved game document into a session of `G`, checking every move and the final state.
pub(crate) fn replay<G: Game>(doc: &Map<String, Value>) -> Result<Session<G>, GameError> {
    let corrupt = |what: String| GameError::CorruptState(what);
    if let Some(key) = doc.keys().find(|k| !SAVE_KEYS.contains(&k.as_str())) {
        return Err(corrupt(format!("unknown key {key:?} in the saved game")));
    }
    let players = doc.get("players").and_then(Value::as_u64).ok_or_else(|| corrupt("no player count".into()))?;
    let mut session = match doc.get("determinized") {
        Some(from) => {
            if doc.contains_key("seed") || doc.contains_key("options") {
                return Err(corrupt("a determinized copy's save has its setup in its source, not beside it".into()));
            }
            redeal::<G>(from)?
        }
        None => {
            let seed = doc.get("seed").and_then(Value::as_u64).ok_or_else(|| corrupt("no seed".into()))?;
            let options = match doc.get("options") {
                Some(options @ Value::Object(_)) => options.clone(),
                _ => return Err(corrupt("no options object".into())),
            };
            Session::<G>::start(Some(players as usize), seed, &options)
                .map_err(|e| corrupt(format!("setup: {}", e.reason())))?
        }
    };
    if session.game.setup().players as u64 != players {
        return Err(corrupt(format!("the player count {players} differs from the source's")));
    }
    let moves = doc.get("moves").and_then(Value::as_array).ok_or_else(|| corrupt("no move list".into()))?;
    for (i, entry) in moves.iter().enumerate() {
        let seat = entry.get("seat").and_then(Value::as_u64).ok_or_else(|| corrupt(format!("move {i}: no seat")))?;
        let mv = entry.get("move").ok_or_else(|| corrupt(format!("move {i}: no move")))?;
        AnyGame::apply(&mut session, seat as usize, mv)
            .map_err(|e| corrupt(format!("move {i} (seat {seat}) does not replay: {e}")))?;
    }
    let stored = doc.get("state").ok_or_else(|| corrupt("no state".into()))?;
    let replayed = session.game.state_json();
    if let Some(path) = first_difference(stored, &replayed, "state") {
        return Err(corrupt(format!("the stored state differs from the replayed one at {path}")));
    }
    Ok(session)
}

/// The determinized copy a save's `determinized` part describes: its source loaded (the same game, checked
/// move by move), then re-dealt for the same observer with the same seed.
fn redeal<G: Game>(from: &Value) -> Result<Session<G>, GameError> {
    let corrupt = |what: &str| GameError::CorruptState(format!("determinized: {what}"));
    let from = from.as_object().ok_or_else(|| corrupt("not an object"))?;
    if let Some(key) = from.keys().find(|k| !["state", "observer", "seed"].contains(&k.as_str())) {
        return Err(corrupt(&format!("unknown key {key:?}")));
    }
    let source = from.get("state").and_then(Value::as_object).ok_or_else(|| corrupt("no source save"))?;
    if source.get("format").and_then(Value::as_u64) != Some(SAVE_FORMAT) {
        return Err(corrupt("the source is not a save of this format"));
    }
    if source.get("game").and_then(Value::as_str) != Some(G::info().name) {
        return Err(corrupt("the source is a save of another game"));
    }
    let source = replay::<G>(source).map_err(|e| corrupt(&format!("source: {}", e.reason())))?;
    let seed = from.get("seed").and_then(Value::as_u64).ok_or_else(|| corrupt("no seed"))?;
    let observer = match from.get("observer") {
        Some(Value::Null) => None,
        Some(seat) => match seat.as_u64() {
            Some(s) if (s as usize) < source.game.setup().players => Some(s as usize),
            _ => return Err(corrupt("the observer is not a seat of the game")),
        },
        None => return Err(corrupt("no observer")),
    };
    Ok(source.redealt(observer, seed))
}

/// The path of the first place where two JSON values differ.
fn first_difference(a: &Value, b: &Value, path: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for key in x.keys().chain(y.keys()) {
                match (x.get(key), y.get(key)) {
                    (Some(p), Some(q)) => {
                        if let Some(d) = first_difference(p, q, &format!("{path}.{key}")) {
                            return Some(d);
                        }
                    }
                    _ => return Some(format!("{path}.{key}")),
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Some(format!("{path} (length {} vs {})", x.len(), y.len()));
            }
            x.iter().zip(y).enumerate().find_map(|(i, (p, q))| first_difference(p, q, &format!("{path}[{i}]")))
        }
        _ if a == b => None,
        _ => Some(path.to_string()),
    }
}
