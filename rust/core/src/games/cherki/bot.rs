//! A Cherki player that counts cards: it judges a hand by how few cards it lacks for three triples and
//! how many unseen cards would bring it closer, the way mahjong players count "shanten" and "ukeire".

use super::cards::*;
use super::rules::*;
use crate::game::{Game, Seat};
use crate::rng::Rng;

/// Copies of each kind in the deck: twelve of a rank, four of an honour.
const fn kind_total(kind: usize) -> u8 {
    if kind < 9 {
        12
    } else {
        4
    }
}

/// The fewest cards `counts` lacks for three triples that the `unseen` cards can still complete, or
/// `u8::MAX` when no three triples can.
pub(super) fn distance(counts: &[u8; KINDS], unseen: &[u8; KINDS]) -> u8 {
    let mut best = u8::MAX;
    for a in 0..KINDS {
        for b in a..KINDS {
            for c in b..KINDS {
                let mut need = [0u8; KINDS];
                need[a] += 3;
                need[b] += 3;
                need[c] += 3;
                let mut lack = 0u8;
                let mut feasible = true;
                for k in [a, b, c] {
                    if need[k] == 0 {
                        continue;
                    }
                    let missing = need[k].saturating_sub(counts[k]);
                    if missing > unseen[k] {
                        feasible = false;
                        break;
                    }
                    lack += missing;
                    need[k] = 0;
                }
                if feasible && lack < best {
                    best = lack;
                }
            }
        }
    }
    best
}

/// How many unseen cards would each bring `counts` one card closer to three triples.
pub(super) fn useful_unseen(counts: &[u8; KINDS], unseen: &[u8; KINDS]) -> u32 {
    let now = distance(counts, unseen);
    if now == u8::MAX {
        return 0;
    }
    (0..KINDS)
        .filter(|&k| unseen[k] > 0)
        .filter(|&k| {
            let mut more = *counts;
            let mut rest = *unseen;
            more[k] += 1;
            rest[k] -= 1;
            distance(&more, &rest) < now
        })
        .map(|k| unseen[k] as u32)
        .sum()
}

impl Cherki {
    /// The cards of each kind `seat` cannot see: not in its hand, not lying in the discard pile and
    /// not publicly taken into another hand.
    pub(super) fn unseen_counts(&self, seat: usize) -> [u8; KINDS] {
        let mut seen = self.hands[seat];
        for (other, &known) in self.known[..self.players].iter().enumerate() {
            if other != seat {
                seen |= known;
            }
        }
        for d in self.discards.entries() {
            if d.taken_by == NONE {
                seen |= bit(d.card);
            }
        }
        let counts = kind_counts(seen);
        let mut unseen = [0u8; KINDS];
        for k in 0..KINDS {
            unseen[k] = kind_total(k).saturating_sub(counts[k]);
        }
        unseen
    }

    /// The counting player's move for `seat` (to act): call when the wait is live, take a discard that
    /// brings the hand closer, discard to the hand that lacks fewest cards and then has the most useful
    /// unseen cards, and of calls pick the widest wait.
    pub fn counting_index(&self, seat: usize) -> usize {
        if !self.acting(seat) {
            return 0;
        }
        let unseen = self.unseen_counts(seat);
        let counts = kind_counts(self.hands[seat]);
        match self.phase {
            Phase::Start => {
                let take = self.can_take(seat);
                if !self.called[seat] {
                    if let Some(pair) = self.hand_ready_kind(seat) {
                        if unseen[pair] > 0 {
                            return 1 + take as usize;
                        }
                    }
                }
                if take {
                    if self.called[seat] {
                        return 1;
                    }
                    let top = self.discards.last().map_or(0, |d| d.card);
                    let kind = card_kind(top);
                    let mut more = counts;
                    more[kind] += 1;
                    if distance(&more, &unseen) < distance(&counts, &unseen) {
                        return 1;
                    }
                }
                0
            }
            Phase::Drawn if self.called[seat] => 0,
            Phase::Drawn => {
                let plain = self.discardable(seat);
                let plain_count = plain.count_ones() as usize;
                let callable = self.callable_discards(seat);
                let mut best_call: Option<(usize, (u8, u32))> = None;
                for (i, card) in bits(callable).enumerate() {
                    let mut after = counts;
                    after[card_kind(card)] -= 1;
                    let Some(pair) = ready_kind(&after) else { continue };
                    let key = (unseen[pair], 10 - card_points(card));
                    if unseen[pair] > 0 && Some(key) > best_call.map(|(_, b)| b) {
                        best_call = Some((plain_count + i, key));
                    }
                }
                if let Some((index, _)) = best_call {
                    return index;
                }
                let mut best: Option<(usize, (u8, u32, u32))> = None;
                for (index, card) in bits(plain).enumerate() {
                    let mut after = counts;
                    after[card_kind(card)] -= 1;
                    let d = distance(&after, &unseen);
                    let key = (u8::MAX - d, useful_unseen(&after, &unseen), 10 - card_points(card));
                    if Some(key) > best.map(|(_, b)| b) {
                        best = Some((index, key));
                    }
                }
                best.map_or(0, |(i, _)| i)
            }
            Phase::Over => 0,
        }
    }

    /// The moves worth a search's playouts for `seat` (legal-move indices): before drawing every move;
    /// after drawing one discard per kind (cards of a kind are interchangeable), only of the kinds whose
    /// discard leaves the hand lacking the fewest cards, and one call per kind.
    pub(super) fn counting_candidates(&self, seat: usize) -> Vec<usize> {
        let count = self.legal_count(seat);
        if self.phase != Phase::Drawn || self.called[seat] {
            return (0..count).collect();
        }
        let unseen = self.unseen_counts(seat);
        let counts = kind_counts(self.hands[seat]);
        let plain = self.discardable(seat);
        let mut discards: Vec<(usize, u8)> = Vec::new();
        let mut kinds_seen = 0u32;
        for (index, card) in bits(plain).enumerate() {
            let kind = card_kind(card);
            if kinds_seen & (1 << kind) == 0 {
                kinds_seen |= 1 << kind;
                let mut after = counts;
                after[kind] -= 1;
                discards.push((index, distance(&after, &unseen)));
            }
        }
        let fewest = discards.iter().map(|&(_, d)| d).min().unwrap_or(u8::MAX);
        let mut candidates: Vec<usize> = discards.iter().filter(|&&(_, d)| d == fewest).map(|&(i, _)| i).collect();
        let plain_count = plain.count_ones() as usize;
        let mut call_kinds = 0u32;
        for (index, card) in bits(self.callable_discards(seat)).enumerate() {
            let kind = card_kind(card);
            if call_kinds & (1 << kind) == 0 {
                call_kinds |= 1 << kind;
                candidates.push(plain_count + index);
            }
        }
        candidates
    }
}

impl Cherki {
    /// [`Game::heuristic_index`] of this game.
    pub(super) fn heuristic_choice(&self, seat: Seat, _rng: &mut Rng) -> usize {
        if !self.acting(seat) {
            return 0;
        }
        match self.phase {
            Phase::Start => {
                let take = self.can_take(seat);
                if !self.called[seat] && self.hand_ready_kind(seat).is_some() {
                    return 1 + take as usize;
                }
                if take {
                    if self.called[seat] {
                        return 1;
                    }
                    let top = self.discards.last().map_or(0, |d| d.card);
                    let held = (self.hands[seat] & KIND_MASKS[card_kind(top)]).count_ones();
                    if held == 1 || held == 2 {
                        return 1;
                    }
                }
                0
            }
            Phase::Drawn if self.called[seat] => 0,
            Phase::Drawn => {
                let plain = self.discardable(seat);
                let callable = self.callable_discards(seat);
                if callable != 0 {
                    // Of the calls, keep the hand worth most: discard the cheapest card.
                    let best = bits(callable).min_by_key(|&c| card_points(c)).unwrap_or(0);
                    return plain.count_ones() as usize + (callable & (bit(best) - 1)).count_ones() as usize;
                }
                let counts = kind_counts(self.hands[seat]);
                let mut best = (0usize, 0u32, 0u32);
                for (index, card) in bits(plain).enumerate() {
                    let mut after = counts;
                    after[card_kind(card)] -= 1;
                    let key = (Self::shape_score(&after), 10 - card_points(card));
                    if index == 0 || key > (best.1, best.2) {
                        best = (index, key.0, key.1);
                    }
                }
                best.0
            }
            Phase::Over => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::cherki::CherkiMove;
    use crate::rng::Rng;

    /// The id of copy `copy` (0..4) of rank `rank` (1..=9) in suit `suit` (0 Coins, 1 Strings, 2 Myriads).
    fn card(rank: u8, suit: u8, copy: u8) -> u8 {
        4 * (9 * suit + rank - 1) + copy
    }

    /// Kind counts from (kind, count) pairs.
    fn counts(pairs: &[(usize, u8)]) -> [u8; KINDS] {
        let mut c = [0u8; KINDS];
        for &(kind, n) in pairs {
            c[kind] = n;
        }
        c
    }

    /// A deal where seat 0 holds `hand` and draws `drawn` (the stock's top), the `live` cards lie in the
    /// stock below it, seats 1 and 2 hold fives and sixes, and every other card is dead in the discard pile.
    fn after_drawing(hand: &[u8], drawn: u8, live: &[u8]) -> Cherki {
        let fives: Vec<u8> = (0..8).map(|i| card(5, i / 4, i % 4)).collect();
        let sixes: Vec<u8> = (0..8).map(|i| card(6, i / 4, i % 4)).collect();
        let mut stock = vec![drawn];
        stock.extend_from_slice(live);
        let mut game = Cherki::test_position(&[hand.to_vec(), fives, sixes], &stock, 2, 0, None, 1, 1)
            .unwrap_or_else(|e| panic!("bad position: {e}"));
        game.apply_legal(0, &CherkiMove::DrawStock);
        game
    }

    fn chosen(game: &Cherki, index: usize) -> CherkiMove {
        game.legal_move(0, index).unwrap_or_else(|| panic!("index {index} is not a legal move"))
    }

    #[test]
    fn a_hand_closer_to_a_call_lacks_fewer_cards() {
        let unseen = [6u8; KINDS];
        let ready = counts(&[(0, 3), (1, 3), (2, 2)]);
        let two_pairs = counts(&[(0, 3), (1, 2), (2, 2), (3, 1)]);
        let scattered = counts(&[(0, 3), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1)]);
        assert_eq!(distance(&ready, &unseen), 1);
        assert_eq!(distance(&two_pairs, &unseen), 2);
        assert_eq!(distance(&scattered, &unseen), 4);
    }

    #[test]
    fn a_dead_wait_is_no_wait() {
        let ready = counts(&[(0, 3), (1, 3), (2, 2)]);
        let mut unseen = [6u8; KINDS];
        assert_eq!(useful_unseen(&ready, &unseen), 6, "only the pair kind completes a ready hand");
        unseen[2] = 0;
        assert!(distance(&ready, &unseen) > 1, "no card is left to complete the pair");
    }

    #[test]
    fn the_counting_player_calls_on_the_live_wait_where_the_heuristic_keeps_points() {
        // Three ones, three twos, three threes: any kind can be the pair. Ones and twos are all seen, threes
        // are still in the stock, so only a wait on threes can win; the heuristic discards the cheapest card.
        let hand: Vec<u8> = [1, 2].iter().flat_map(|&r| (0..3).map(move |s| card(r, s, 0))).collect();
        let hand = [hand, vec![card(3, 0, 0), card(3, 1, 0)]].concat();
        let game = after_drawing(&hand, card(3, 2, 0), &[card(3, 0, 1), card(3, 1, 1), card(3, 2, 1)]);
        match chosen(&game, game.counting_index(0)) {
            CherkiMove::Discard { card: c, call: true } => assert_eq!(card_kind(c), 2, "the pair must be threes"),
            other => panic!("expected a call, got {other:?}"),
        }
        match chosen(&game, game.heuristic_index(0, &mut Rng::new(1))) {
            CherkiMove::Discard { card: c, call: true } => assert_eq!(card_kind(c), 0),
            other => panic!("expected the heuristic's call, got {other:?}"),
        }
    }

    #[test]
    fn the_counting_player_breaks_the_pair_that_can_no_longer_grow() {
        // Three ones, two nines (every other nine is seen), two fours and two sixes after the draw: only the
        // nines cannot become a triple.
        let hand = vec![
            card(1, 0, 0),
            card(1, 1, 0),
            card(1, 2, 0),
            card(9, 0, 0),
            card(9, 1, 0),
            card(4, 0, 0),
            card(4, 1, 0),
            card(6, 2, 0),
        ];
        let game = after_drawing(&hand, card(6, 2, 1), &[card(4, 2, 0), card(6, 2, 2), card(4, 2, 1)]);
        match chosen(&game, game.counting_index(0)) {
            CherkiMove::Discard { card: c, call: false } => assert_eq!(card_kind(c), 8, "discard a nine"),
            other => panic!("expected a discard, got {other:?}"),
        }
        let candidates = game.counting_candidates(0);
        let kinds: Vec<usize> = candidates
            .iter()
            .map(|&i| match chosen(&game, i) {
                CherkiMove::Discard { card: c, .. } => card_kind(c),
                other => panic!("expected discards, got {other:?}"),
            })
            .collect();
        assert_eq!(kinds, vec![8], "only discarding a nine keeps the hand two cards from three triples");
    }
}
