//! The setup document that starts a game: `{"game": ..., "players": ..., "seed": ..., "options": {...}}`.

use crate::status::Failure;
use cardnet_core::{GameError, Setup};
use serde_json::{json, Value};

/// The keys a setup document may have; any other is refused so that a typo is not silently ignored.
const SETUP_KEYS: [&str; 4] = ["game", "players", "seed", "options"];

/// A parsed setup document; `players: None` means the game's default, a missing seed is 0.
pub(crate) struct SetupDoc {
    pub(crate) game: String,
    pub(crate) players: Option<usize>,
    pub(crate) seed: u64,
    pub(crate) options: Value,
}

fn bad(reason: String) -> Failure {
    GameError::BadOptions(reason).into()
}

impl SetupDoc {
    /// Reads a setup document; every malformed field is `CARDNET_STATUS_BAD_OPTIONS` naming it.
    pub(crate) fn parse(value: &Value) -> Result<Self, Failure> {
        let map = value.as_object().ok_or_else(|| bad("the setup must be a JSON object".into()))?;
        if let Some(key) = map.keys().find(|k| !SETUP_KEYS.contains(&k.as_str())) {
            return Err(bad(format!("unknown setup key {key:?} (keys: {})", SETUP_KEYS.join(", "))));
        }
        let game = match map.get("game") {
            Some(Value::String(name)) => name.clone(),
            _ => return Err(bad("the setup needs \"game\": a game name".into())),
        };
        let players = match map.get("players") {
            None | Some(Value::Null) => None,
            Some(v) => Some(
                v.as_u64()
                    .and_then(|n| usize::try_from(n).ok())
                    .ok_or_else(|| bad(format!("\"players\" must be a non-negative integer, not {v}")))?,
            ),
        };
        let seed = match map.get("seed") {
            None | Some(Value::Null) => 0,
            Some(v) => v.as_u64().ok_or_else(|| bad(format!("\"seed\" must be an integer 0..2^64, not {v}")))?,
        };
        let options = map.get("options").cloned().unwrap_or(Value::Null);
        Ok(SetupDoc { game, players, seed, options })
    }
}

/// A started game's setup as the document that starts it again.
pub(crate) fn setup_json(game: &str, setup: &Setup) -> Value {
    json!({"game": game, "players": setup.players, "seed": setup.seed, "options": setup.options})
}
