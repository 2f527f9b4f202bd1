//! Matchstick Tycoon as an RL game.
//!
//! **Action ids** (layout 1): `0` = `pass`, `1` = `discard_matchstick`, then for each value `v` in the
//! strength order (`0 1 … F`, then `G H` with the expansion) one block of plays: every multiset of 1–5
//! printed card types that can all show `v` (a type is in the block when [`segments::min_cost`] says it
//! can show `v` at all and the setup has copies of it; a type appears at most as many times as it has
//! copies). Inside a block, multisets go by size, then by their sorted list of type indices. The id space
//! therefore follows from the rules and the `expansion` option only (not from the player count).
//!
//! **Observation** (seat-relative: seat 0 of every per-seat block is the observer, then clockwise): the
//! own hand, the table play, the cards of this trick and the removed cards as 64-slot card-id sets, then
//! per seat hand sizes, matchsticks, out and finishing flags, passes, and whose turn, lead and last play.

use super::encode::{boolean, card_ids, num, relative, uint, uints, Encoder};
use super::multiset::Multisets;
use super::RlGame;
use crate::game::{Game, Seat, Setup};
use crate::games::matchstick::{Matchstick, MatchstickMove, PlayMove, PlayNames};
use crate::segments::{self, CardType, Value as Shown};
use serde_json::{json, Value};
use std::sync::OnceLock;

/// Card ids are `type * 4 + copy`: 64 slots cover the deck with the full expansion.
const CARD_SLOTS: usize = 64;
const MAX_PLAY: usize = 5;
/// Most copies of one card type in a deck.
const MAX_COPIES: usize = 4;

/// The play blocks of one expansion setting.
struct Layout {
    /// Per value: the card types that can show it, the multisets over them, and the block's first id.
    blocks: Vec<(Vec<usize>, Multisets, usize)>,
    /// Per value and card type: the type's position among the block's types (`u8::MAX`: not in it).
    positions: Vec<[u8; CardType::COUNT]>,
    /// The ids as sums the engine's enumeration adds up as it builds each play.
    ids: IdParts,
    total: usize,
}

/// A play's action id as [`PlayNames`]: the id of the block's first play of its size, plus one part per
/// card type taken ([`Multisets::part`] at the type's position in the block).
struct IdParts {
    /// `base[v][k]`: the first id of the plays of `k` cards showing `v`.
    base: Vec<[u32; MAX_PLAY + 1]>,
    /// `parts[v][t][c][left]`; 0 for types outside the block (they never show `v`).
    parts: Vec<[[[u32; MAX_PLAY + 1]; MAX_COPIES + 1]; CardType::COUNT]>,
}

impl PlayNames for IdParts {
    #[inline]
    fn base(&self, v: usize, k: usize) -> u32 {
        self.base[v][k]
    }

    #[inline]
    fn part(&self, v: usize, t: usize, c: usize, left: usize) -> u32 {
        self.parts[v][t][c][left]
    }
}

fn copies_of(t: usize, expansion: u8) -> u8 {
    if CardType::ALL[t].is_expansion() {
        expansion
    } else {
        4
    }
}

impl Layout {
    fn build(expansion: u8) -> Layout {
        let values = if expansion > 0 { Shown::COUNT } else { Shown::BASE_COUNT };
        let mut next = 2;
        let mut blocks = Vec::with_capacity(values);
        let mut positions = Vec::with_capacity(values);
        let mut ids = IdParts { base: Vec::with_capacity(values), parts: Vec::with_capacity(values) };
        for v in 0..values {
            let types: Vec<usize> = (0..CardType::COUNT)
                .filter(|&t| {
                    copies_of(t, expansion) > 0 && segments::min_cost(CardType::ALL[t], Shown::ALL[v]).is_some()
                })
                .collect();
            let sets = Multisets::new(types.iter().map(|&t| copies_of(t, expansion)).collect(), MAX_PLAY);
            let first = next;
            next += sets.total();
            let mut at = [u8::MAX; CardType::COUNT];
            let mut parts = [[[0u32; MAX_PLAY + 1]; MAX_COPIES + 1]; CardType::COUNT];
            for (i, &t) in types.iter().enumerate() {
                at[t] = i as u8;
                let copies = usize::from(copies_of(t, expansion));
                parts[t] = std::array::from_fn(|c| {
                    std::array::from_fn(
                        |left| if (1..=copies).contains(&c) && c <= left { sets.part(i, c, left) } else { 0 },
                    )
                });
            }
            ids.base.push(std::array::from_fn(|k| if k == 0 { 0 } else { (first + sets.first_of_size(k)) as u32 }));
            ids.parts.push(parts);
            positions.push(at);
            blocks.push((types, sets, first));
        }
        Layout { blocks, positions, ids, total: next }
    }

    fn get(setup: &Setup) -> &'static Layout {
        Layout::of_expansion(setup.int_option("expansion"))
    }

    /// The layout of a game's setup, without looking its options up.
    fn of(game: &Matchstick) -> &'static Layout {
        Layout::of_expansion(i64::from(game.expansion()))
    }

    fn of_expansion(expansion: i64) -> &'static Layout {
        static LAYOUTS: OnceLock<[Layout; 3]> = OnceLock::new();
        let all = LAYOUTS.get_or_init(|| [Layout::build(0), Layout::build(2), Layout::build(4)]);
        match expansion {
            2 => &all[1],
            4 => &all[2],
            _ => &all[0],
        }
    }
}

/// The number of printed values in play.
fn values(setup: &Setup) -> usize {
    if setup.int_option("expansion") > 0 {
        Shown::COUNT
    } else {
        Shown::BASE_COUNT
    }
}

impl RlGame for Matchstick {
    fn action_space_size(setup: &Setup) -> usize {
        Layout::get(setup).total
    }

    fn action_id(setup: &Setup, mv: &MatchstickMove) -> Option<usize> {
        match mv {
            MatchstickMove::Pass => Some(0),
            MatchstickMove::DiscardMatchstick => Some(1),
            MatchstickMove::Play(play) => {
                let layout = Layout::get(setup);
                let v = play.value.index();
                let (_, sets, first) = layout.blocks.get(v)?;
                let positions = &layout.positions[v];
                let mut copies = [0u8; CardType::COUNT];
                for &id in play.ids() {
                    let at = *positions.get(usize::from(id >> 2))?;
                    *copies.get_mut(usize::from(at))? += 1;
                }
                sets.rank(&copies).map(|r| first + r)
            }
        }
    }

    fn encode_view(setup: &Setup, seat: Seat, view: &Value, enc: &mut Encoder<'_>) {
        let public = &view["public"];
        let players = setup.players;
        let rel = |s: usize| relative(s, seat, players);
        enc.counts("hand", card_ids(&view["private"]["hand"]), CARD_SLOTS, 1.0);
        let table = &public["table"];
        enc.counts("table_cards", card_ids(&table["cards"]), CARD_SLOTS, 1.0);
        let shown = table["value"].as_str().and_then(Shown::parse).map(Shown::index);
        enc.one_hot("table_value", shown, values(setup));
        enc.one_hot("table_count", uint(table, "count"), MAX_PLAY + 1);
        enc.one_hot("table_seat", uint(table, "seat").map(rel), players);
        enc.scalar("table_cost", num(table, "cost"), 25.0);
        enc.counts("trick_cards", uints(&public["trick_cards"]), CARD_SLOTS, 1.0);
        enc.counts("removed_cards", uints(&public["removed_cards"]), CARD_SLOTS, 1.0);
        let mut per_seat = |name: &str, f: &dyn Fn(&Value) -> f64, scale: f64| {
            let mut column = vec![0.0; players];
            for (s, p) in public["players"].as_array().into_iter().flatten().enumerate().take(players) {
                column[rel(s)] = f(p);
            }
            enc.vector(name, column, players, scale);
        };
        per_seat("hand_size", &|p| num(p, "hand_size"), 16.0);
        per_seat("matchsticks", &|p| num(p, "matchsticks"), 10.0);
        per_seat("out", &|p| f64::from(u8::from(boolean(p, "out"))), 1.0);
        per_seat("finish", &|p| num(p, "finish"), players as f64);
        let passed: Vec<usize> = uints(&public["passed"]).map(rel).collect();
        enc.counts("passed", passed, players, 1.0);
        enc.one_hot("turn", uint(public, "turn").map(rel), players);
        enc.one_hot("leader", uint(public, "leader").map(rel), players);
        enc.one_hot("last_play_seat", uint(public, "last_play_seat").map(rel), players);
        enc.flag("revolution", boolean(public, "revolution"));
        enc.scalar("pile_size", num(public, "pile_size"), CARD_SLOTS as f64);
        enc.scalar("set_aside", num(public, "set_aside"), CARD_SLOTS as f64);
    }

    fn push_legal_ids(&self, seat: Seat, out: &mut Vec<i32>) {
        if self.must_discard(seat) {
            out.push(1);
            return;
        }
        if self.may_pass(seat) {
            out.push(0);
        }
        // The plays come in id order, so the ids need no sorting; each id is added up as its play is built.
        out.reserve(self.legal_count(seat));
        self.for_each_legal_play_name(seat, &Layout::of(self).ids, |id| out.push(id as i32));
    }

    fn action_move(&self, seat: Seat, id: usize) -> Option<MatchstickMove> {
        let mv = match id {
            0 => MatchstickMove::Pass,
            1 => MatchstickMove::DiscardMatchstick,
            _ => return legal_play_of_id(self, seat, id).map(MatchstickMove::Play),
        };
        self.index_of(seat, &mv).map(|_| mv)
    }

    fn encode(&self, seat: Seat, enc: &mut Encoder<'_>) {
        let players = self.players();
        let rel = |s: usize| relative(s, seat, players);
        let (hands, pile, removed, set_aside) = self.card_masks();
        enc.bits("hand", [hands[seat]], CARD_SLOTS);
        let top = self.table_top();
        enc.bits("table_cards", [top.map_or(0, |t| t.2)], CARD_SLOTS);
        let values = if self.expansion() > 0 { Shown::COUNT } else { Shown::BASE_COUNT };
        enc.one_hot("table_value", top.map(|t| t.1.index()), values);
        enc.one_hot("table_count", top.map(|t| t.2.count_ones() as usize), MAX_PLAY + 1);
        enc.one_hot("table_seat", top.map(|t| rel(t.0)), players);
        enc.scalar("table_cost", top.map_or(0.0, |t| f64::from(t.3)), 25.0);
        enc.bits("trick_cards", [pile], CARD_SLOTS);
        enc.bits("removed_cards", [removed], CARD_SLOTS);
        let (finish, active, passed, leader) = self.seat_state();
        let sticks = std::array::from_fn(|s| self.matchsticks_of(s));
        let out = std::array::from_fn(|s| u32::from(active & (1 << s) == 0));
        per_seat(enc, "hand_size", (seat, players), 16.0, &hands.map(u64::count_ones));
        per_seat(enc, "matchsticks", (seat, players), 10.0, &sticks);
        per_seat(enc, "out", (seat, players), 1.0, &out);
        per_seat(enc, "finish", (seat, players), players as f64, &finish.map(u32::from));
        enc.counts("passed", (0..players).filter(|&s| passed & (1 << s) != 0).map(rel), players, 1.0);
        let turn = (!self.to_act().is_empty()).then(|| rel(self.current_seat()));
        enc.one_hot("turn", turn, players);
        enc.one_hot("leader", leader.map(rel), players);
        enc.one_hot("last_play_seat", top.map(|t| rel(t.0)), players);
        enc.flag("revolution", self.revolution());
        enc.scalar("pile_size", f64::from(pile.count_ones()), CARD_SLOTS as f64);
        enc.scalar("set_aside", f64::from(set_aside.count_ones()), CARD_SLOTS as f64);
    }

    /// Plays are at most the cards dealt `C` (each removes one or more). Between two plays each of the
    /// other `P − 1` seats passes at most once before the trick clears, so passes ≤ `(P − 1)(C + 1)`;
    /// a forced discard spends a matchstick, and matchsticks come only from the start (one each) and from
    /// passes, so discards ≤ `P + passes`.
    fn max_game_length(setup: &Setup) -> usize {
        let players = setup.players;
        let deck = 56 + 2 * setup.int_option("expansion").max(0) as usize;
        let dealt = if players >= 4 || setup.bool_option("deal_all") { deck } else { (15 * players).min(deck) };
        let passes = (players - 1) * (dealt + 1);
        dealt + passes + players + passes
    }

    fn card_table(setup: &Setup) -> Vec<Value> {
        let expansion = setup.int_option("expansion").max(0) as u8;
        (0..CARD_SLOTS)
            .map(|id| {
                let t = CardType::ALL[id / 4];
                let present = (id % 4) < usize::from(copies_of(id / 4, expansion));
                json!({"id": id, "card": t.name(), "type_index": id / 4, "copy": id % 4, "in_deck": present,
                       "upright": t.upright_value().name()})
            })
            .collect()
    }
}

/// The play of action `id` (at least 2) built from the lowest card ids of each type in `seat`'s hand, as
/// the engine lists it, when it is legal now.
fn legal_play_of_id(game: &Matchstick, seat: Seat, id: usize) -> Option<PlayMove> {
    let layout = Layout::of(game);
    let v = layout.blocks.iter().rposition(|b| b.2 <= id)?;
    let (types, sets, first) = &layout.blocks[v];
    let mut copies = [0u8; CardType::COUNT];
    sets.unrank(id - first, &mut copies)?;
    let hand = game.card_masks().0.get(seat).copied()?;
    let mut cards = [0u8; MAX_PLAY];
    let mut count = 0;
    for (&t, &n) in types.iter().zip(&copies) {
        let mut nibble = (hand >> (4 * t)) & 0xF;
        for _ in 0..n {
            let low = nibble.trailing_zeros();
            if low >= 4 {
                return None;
            }
            cards[count] = (4 * t) as u8 + low as u8;
            count += 1;
            nibble &= nibble - 1;
        }
    }
    let play = PlayMove::new(Shown::ALL[v], &cards[..count])?;
    game.play_is_legal(seat, &play).then_some(play)
}

/// Writes a block of one number per seat of `players`, relative to the observer `seat`, each divided by
/// `scale` as [`Encoder::vector`] does (the zeros are already there).
#[inline]
fn per_seat(enc: &mut Encoder<'_>, name: &str, (seat, players): (Seat, usize), scale: f64, value: &[u32; 8]) {
    // Slot `r` is the seat `r` places after the observer (as `relative` numbers them).
    let seat = seat % players.max(1);
    for (r, slot) in enc.block(name, players).iter_mut().enumerate() {
        let s = if r + seat >= players { r + seat - players } else { r + seat };
        let v = value[s];
        if v != 0 {
            *slot = (f64::from(v) / scale) as f32;
        }
    }
}
