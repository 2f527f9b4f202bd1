//! The one error type of the core. Every variant has a stable `code` that crosses into Python
//! (`cardnet.CardnetError.code`) and onto the wire (the protocol's error codes).

use std::fmt;

/// Why something the caller asked for was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GameError {
    /// No game of that name exists.
    UnknownGame(String),
    /// Player count or options do not fit the game.
    BadOptions(String),
    /// A move that is not even well-formed: wrong JSON types, unknown keys, unknown card names.
    InvalidMove(String),
    /// A well-formed move the rules refuse now. `code` is a stable machine word
    /// (`not_your_turn`, `game_over`, or a game's own such as `not_stronger`); `reason` is for people.
    IllegalMove {
        /// The stable machine word.
        code: &'static str,
        /// The sentence for people.
        reason: String,
    },
    /// A saved game that cannot be loaded, naming the first bad point.
    CorruptState(String),
    /// A bug in the core; never expected.
    Internal(String),
}

impl GameError {
    /// The stable error code.
    pub fn code(&self) -> &'static str {
        match self {
            GameError::UnknownGame(_) => "unknown_game",
            GameError::BadOptions(_) => "bad_options",
            GameError::InvalidMove(_) => "invalid_move",
            GameError::IllegalMove { code, .. } => code,
            GameError::CorruptState(_) => "corrupt_state",
            GameError::Internal(_) => "internal",
        }
    }

    /// The human-readable reason.
    pub fn reason(&self) -> &str {
        match self {
            GameError::UnknownGame(r)
            | GameError::BadOptions(r)
            | GameError::InvalidMove(r)
            | GameError::CorruptState(r)
            | GameError::Internal(r) => r,
            GameError::IllegalMove { reason, .. } => reason,
        }
    }

    /// Shorthand for an [`GameError::IllegalMove`].
    pub fn illegal(code: &'static str, reason: impl Into<String>) -> Self {
        GameError::IllegalMove { code, reason: reason.into() }
    }

    /// Shorthand for an [`GameError::InvalidMove`].
    pub fn invalid(reason: impl Into<String>) -> Self {
        GameError::InvalidMove(reason.into())
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.reason())
    }
}

impl std::error::Error for GameError {}
