//! Writing observation tensors: a cursor over a `f32` buffer that also records the layout.
//!
//! Every game's encoder reads only the seat's own view (`Game::view(Some(seat))`), which the conformance
//! harness proves holds nothing `determinize` would re-deal; a tensor built from it cannot leak another
//! seat's hidden cards. The same encoder runs in a counting mode to give the shape and the named layout.

use serde_json::Value;

/// One named block of a tensor: `len` floats from `offset`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// What the block holds (`hand`, `table`, ...).
    pub name: String,
    /// Index of its first float.
    pub offset: usize,
    /// Number of floats.
    pub len: usize,
}

/// A cursor writing floats in order; with no buffer it only counts and names the blocks.
///
/// The buffer is zeroed once, so every block writes its non-zero entries only; the game encoders that
/// run every step write straight into [`Encoder::block`]'s slots.
pub struct Encoder<'a> {
    /// The tensor (empty when measuring).
    out: &'a mut [f32],
    measuring: bool,
    pos: usize,
    blocks: Vec<Block>,
}

impl<'a> Encoder<'a> {
    /// An encoder writing into `out` (which must be exactly the tensor's length; it is zeroed first).
    pub fn writing(out: &'a mut [f32]) -> Self {
        out.fill(0.0);
        Encoder { out, measuring: false, pos: 0, blocks: Vec::new() }
    }

    /// An encoder that only measures the layout.
    pub fn measuring() -> Encoder<'static> {
        Encoder { out: &mut [], measuring: true, pos: 0, blocks: Vec::new() }
    }

    /// The floats written so far.
    pub fn len(&self) -> usize {
        self.pos
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.pos == 0
    }

    /// The named blocks, in order (recorded in measuring mode only).
    pub fn into_blocks(self) -> Vec<Block> {
        self.blocks
    }

    /// Opens a block of `len` floats named `name` and returns its slots, all 0.0 (empty when measuring).
    #[inline]
    pub fn block(&mut self, name: &str, len: usize) -> &mut [f32] {
        let start = self.pos;
        self.pos += len;
        if self.measuring {
            self.blocks.push(Block { name: name.to_string(), offset: start, len });
        }
        self.out.get_mut(start..start + len).unwrap_or_default()
    }

    /// Opens a run of blocks, `count` blocks of `len` floats named `name` for each `(name, count, len)` (one
    /// per seat, say), and returns all their slots side by side, in order.
    #[inline]
    pub fn blocks(&mut self, run: &[(&str, usize, usize)]) -> &mut [f32] {
        let start = self.pos;
        for &(name, count, len) in run {
            for _ in 0..count {
                self.block(name, len);
            }
        }
        self.out.get_mut(start..self.pos).unwrap_or_default()
    }

    /// One number, divided by `scale` (so typical values land in 0..=1).
    #[inline]
    pub fn scalar(&mut self, name: &str, value: f64, scale: f64) {
        if let Some(slot) = self.block(name, 1).first_mut() {
            *slot = (value / scale) as f32;
        }
    }

    /// 1.0 when `flag`.
    #[inline]
    pub fn flag(&mut self, name: &str, flag: bool) {
        if let Some(slot) = self.block(name, 1).first_mut() {
            *slot = if flag { 1.0 } else { 0.0 };
        }
    }

    /// `n` numbers, each divided by `scale` (missing entries stay 0).
    #[inline]
    pub fn vector(&mut self, name: &str, values: impl IntoIterator<Item = f64>, n: usize, scale: f64) {
        let slots = self.block(name, n);
        for (slot, v) in slots.iter_mut().zip(values) {
            // A +0.0 is already there; skip its division.
            if v.to_bits() != 0 {
                *slot = (v / scale) as f32;
            }
        }
    }

    /// `n` slots with a 1.0 at `index` (none when `index` is `None` or out of range).
    #[inline]
    pub fn one_hot(&mut self, name: &str, index: Option<usize>, n: usize) {
        let slots = self.block(name, n);
        if let Some(slot) = index.and_then(|i| slots.get_mut(i)) {
            *slot = 1.0;
        }
    }

    /// `n` slots with a 1.0 at each set bit of a bit set given as 64-bit words, lowest first (the same as
    /// [`Encoder::counts`] of its members with weight 1).
    #[inline]
    pub fn bits(&mut self, name: &str, words: impl IntoIterator<Item = u64>, n: usize) {
        let slots = self.block(name, n);
        for (w, mut word) in words.into_iter().enumerate() {
            while word != 0 {
                if let Some(slot) = slots.get_mut(64 * w + word.trailing_zeros() as usize) {
                    *slot = 1.0;
                }
                word &= word - 1;
            }
        }
    }

    /// `n` slots, each index in `items` adding `weight` (a set when weight is 1 and items are distinct,
    /// counts otherwise). Indices out of range are ignored.
    #[inline]
    pub fn counts(&mut self, name: &str, items: impl IntoIterator<Item = usize>, n: usize, weight: f32) {
        let slots = self.block(name, n);
        if slots.is_empty() {
            return;
        }
        for i in items {
            if let Some(slot) = slots.get_mut(i) {
                *slot += weight;
            }
        }
    }
}

/// The unsigned integers of a JSON array (missing or non-array: none).
pub fn uints(value: &Value) -> impl Iterator<Item = usize> + '_ {
    value.as_array().into_iter().flatten().filter_map(Value::as_u64).map(|v| v as usize)
}

/// The `id` fields of a JSON list of card objects (Matchstick's and TEN's card lists).
pub fn card_ids(list: &Value) -> Vec<usize> {
    list.as_array().into_iter().flatten().filter_map(|c| uint(c, "id")).collect()
}

/// An unsigned integer field (missing or null: `None`).
pub fn uint(value: &Value, key: &str) -> Option<usize> {
    value.get(key).and_then(Value::as_u64).map(|v| v as usize)
}

/// A signed number field as f64 (missing: 0).
pub fn num(value: &Value, key: &str) -> f64 {
    value.get(key).and_then(Value::as_f64).unwrap_or(0.0)
}

/// A boolean field (missing: false).
pub fn boolean(value: &Value, key: &str) -> bool {
    value.get(key).and_then(Value::as_bool).unwrap_or(false)
}

/// Seat `seat` as seen from `observer`: 0 is the observer, then clockwise.
#[inline]
pub fn relative(seat: usize, observer: usize, players: usize) -> usize {
    if seat < players && observer < players {
        // The same without two divisions (encoders call this for every seat of every observation).
        if seat >= observer {
            seat - observer
        } else {
            seat + players - observer
        }
    } else {
        (seat + players - observer % players) % players
    }
}
