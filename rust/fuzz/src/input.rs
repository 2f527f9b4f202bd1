//! Reading a fuzzer's bytes as a few header choices followed by text.

use cardnet_core::game::OptionKind;
use cardnet_core::{infos, GameInfo, JsonValue};
use serde_json::Map;

/// A cursor over the input: header bytes first (0 once the input is used up), then the rest as text.
pub struct Input<'a> {
    data: &'a [u8],
}

impl<'a> Input<'a> {
    /// A cursor at the start of `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Input { data }
    }

    /// The next byte, 0 past the end.
    pub fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    /// The next two bytes, little-endian.
    pub fn u16(&mut self) -> u16 {
        u16::from(self.byte()) | (u16::from(self.byte()) << 8)
    }

    /// Everything not read yet.
    pub fn rest(&self) -> &'a [u8] {
        self.data
    }
}

/// The game a header byte picks, in menu order.
pub fn game(byte: u8) -> GameInfo {
    let all = infos();
    let index = usize::from(byte) % all.len();
    all.into_iter().nth(index).unwrap_or_else(|| unreachable!("an index below the number of games"))
}

/// A player count of `info` picked by a header byte.
pub fn players(info: &GameInfo, byte: u8) -> usize {
    info.min_players + usize::from(byte) % (info.max_players - info.min_players + 1)
}

/// The option sets a header byte picks from: the defaults (`null`), then each option on a value other than
/// its default, so that every option's code is reached from a real position.
pub fn option_presets(info: &GameInfo) -> Vec<JsonValue> {
    let mut presets = vec![JsonValue::Null];
    for spec in &info.options {
        let other = match &spec.kind {
            OptionKind::Bool => JsonValue::Bool(!spec.default.as_bool().unwrap_or(false)),
            OptionKind::Int { min, max } => {
                JsonValue::from(if spec.default.as_i64() == Some(*max) { *min } else { *max })
            }
            OptionKind::IntChoice(choices) => match choices.iter().find(|c| spec.default.as_i64() != Some(**c)) {
                Some(c) => JsonValue::from(*c),
                None => continue,
            },
            OptionKind::Choice(choices) => match choices.iter().find(|c| spec.default.as_str() != Some(**c)) {
                Some(c) => JsonValue::from(*c),
                None => continue,
            },
            _ => continue,
        };
        let mut map = Map::new();
        map.insert(spec.name.to_string(), other);
        presets.push(JsonValue::Object(map));
    }
    presets
}

/// The option set a header byte picks.
pub fn options(info: &GameInfo, byte: u8) -> JsonValue {
    let presets = option_presets(info);
    presets[usize::from(byte) % presets.len()].clone()
}
