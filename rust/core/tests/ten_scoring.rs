//! TEN scoring: the rules' examples, each kind of wild, the placement shown to players, a brute-force
//! cross-check of the optimiser, and the tie-breaks.

use std::collections::HashSet;

use cardnet_core::games::ten::cards::{Colour, TenData, TenKind};
use cardnet_core::games::ten::scoring::{
    best_total, score, tie_break_key, winners, Placement, ScoreBreakdown, ScoreError, Tally,
};
use proptest::prelude::*;

const BONUS: u8 = 1;
use Colour::{Blue, Green, Orange, Red};

fn num(colour: Colour, value: u8) -> TenKind {
    TenKind::Number { colour, value }
}

fn nums(colour: Colour, values: &[u8]) -> Vec<TenKind> {
    values.iter().map(|&v| num(colour, v)).collect()
}

fn total(kinds: &[TenKind]) -> u16 {
    let fast = best_total(kinds, BONUS).unwrap();
    let full = score(kinds, BONUS).unwrap();
    assert_eq!(fast, full.total);
    check_breakdown(kinds, &full, BONUS);
    fast
}

/// Longest run of set bits in a 9-bit mask, with the bonus for all nine.
fn run_score(mask: u16, bonus: u8) -> u16 {
    if mask == 0x1FF {
        return 9 + u16::from(bonus);
    }
    let (mut best, mut cur) = (0, 0);
    for v in 0..9 {
        cur = if mask & (1 << v) != 0 { cur + 1 } else { 0 };
        best = best.max(cur);
    }
    best
}

fn number_masks(kinds: &[TenKind]) -> [u16; 4] {
    let mut masks = [0u16; 4];
    for kind in kinds {
        if let TenKind::Number { colour, value } = *kind {
            masks[colour.index()] |= 1 << (value - 1);
        }
    }
    masks
}

/// The breakdown must be a real placement: each placed card is a distinct wild put where its kind allows,
/// on a free spot, and the runs it produces are exactly the scores claimed.
fn check_breakdown(kinds: &[TenKind], b: &ScoreBreakdown, bonus: u8) {
    let mut masks = number_masks(kinds);
    let mut used = HashSet::new();
    for p in &b.placements {
        assert!(used.insert(p.card), "wild {} placed twice in {b:?}", p.card);
        match kinds[p.card] {
            TenKind::ColourWild { colour } => assert_eq!(colour, p.colour, "{b:?}"),
            TenKind::NumberWild { value } => assert_eq!(value, p.value, "{b:?}"),
            TenKind::AnyWild => {}
            other => panic!("{other:?} is not a wild but was placed: {b:?}"),
        }
        assert!((1..=9).contains(&p.value));
        let bit = 1 << (p.value - 1);
        assert_eq!(masks[p.colour.index()] & bit, 0, "wild on an occupied spot: {b:?}");
        masks[p.colour.index()] |= bit;
    }
    for (c, &mask) in masks.iter().enumerate() {
        assert_eq!(run_score(mask, bonus), b.per_colour[c], "colour {c} of {b:?}");
        match b.runs[c] {
            None => assert_eq!(b.per_colour[c], 0),
            Some((lo, hi)) => {
                let window = ((1u16 << (hi - lo + 1)) - 1) << (lo - 1);
                assert_eq!(mask & window, window, "run {lo}-{hi} not filled: {b:?}");
                assert_eq!(run_score(window, bonus), b.per_colour[c]);
            }
        }
    }
    assert_eq!(b.total, b.per_colour.iter().sum::<u16>());
}

/// Every placement of every wild (or leaving it out), wilds only on free spots.
fn brute_force(kinds: &[TenKind], bonus: u8) -> u16 {
    fn go(wilds: &[TenKind], masks: &mut [u16; 4], bonus: u8) -> u16 {
        let Some((&wild, rest)) = wilds.split_first() else {
            return masks.iter().map(|&m| run_score(m, bonus)).sum();
        };
        let mut best = go(rest, masks, bonus);
        for c in 0..4 {
            for v in 0..9 {
                let allowed = match wild {
                    TenKind::ColourWild { colour } => colour.index() == c,
                    TenKind::NumberWild { value } => usize::from(value) == v + 1,
                    _ => true,
                };
                if allowed && masks[c] & (1 << v) == 0 {
                    masks[c] |= 1 << v;
                    best = best.max(go(rest, masks, bonus));
                    masks[c] &= !(1 << v);
                }
            }
        }
        best
    }
    let wilds: Vec<TenKind> = kinds.iter().copied().filter(|k| k.is_wild()).collect();
    go(&wilds, &mut number_masks(kinds), bonus)
}

/// The 18 wilds of the box.
fn wild_pool() -> Vec<TenKind> {
    let mut pool = Vec::new();
    for colour in Colour::ALL {
        pool.push(TenKind::ColourWild { colour });
        pool.push(TenKind::ColourWild { colour });
    }
    pool.extend((1..=9).map(|value| TenKind::NumberWild { value }));
    pool.push(TenKind::AnyWild);
    pool
}

/// Random collections: number masks of mixed density (so that long and perfect runs occur) plus a sample of
/// the box's wilds, in random order.
fn collection(wilds: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = Vec<TenKind>> {
    let mask = prop_oneof![
        0u16..512,
        (0u16..512, 0u16..512).prop_map(|(a, b)| a & b),
        (0u16..512, 0u16..512).prop_map(|(a, b)| a | b),
        (0u16..512, 0u16..512, 0u16..512).prop_map(|(a, b, c)| a | b | c),
    ];
    (prop::array::uniform4(mask), prop::sample::subsequence(wild_pool(), wilds))
        .prop_map(|(masks, wilds)| {
            let mut kinds = wilds;
            for (c, mask) in masks.iter().enumerate() {
                for v in 0..9u8 {
                    if mask & (1 << v) != 0 {
                        kinds.push(num(Colour::ALL[c], v + 1));
                    }
                }
            }
            kinds
        })
        .prop_shuffle()
}

#[test]
fn the_rules_example_blue_1_2_3_5_7_scores_3() {
    let kinds = nums(Blue, &[1, 2, 3, 5, 7]);
    let b = score(&kinds, BONUS).unwrap();
    assert_eq!(b.total, 3);
    assert_eq!(b.per_colour, [0, 3, 0, 0]);
    assert_eq!(b.runs, [None, Some((1, 3)), None, None]);
    assert!(b.placements.is_empty());
}

#[test]
fn a_perfect_run_scores_ten() {
    let kinds = nums(Red, &[1, 2, 3, 4, 5, 6, 7, 8, 9]);
    let b = score(&kinds, BONUS).unwrap();
    assert_eq!((b.total, b.per_colour, b.runs[0]), (10, [10, 0, 0, 0], Some((1, 9))));
    assert_eq!(best_total(&kinds, 0).unwrap(), 9);
    let mut four = Vec::new();
    for colour in Colour::ALL {
        four.extend(nums(colour, &[1, 2, 3, 4, 5, 6, 7, 8, 9]));
    }
    assert_eq!(total(&four), 40);
}

#[test]
fn empty_and_currency_only_collections_score_nothing() {
    assert_eq!(total(&[]), 0);
    assert_eq!(score(&[], BONUS).unwrap(), ScoreBreakdown::default());
    assert_eq!(total(&[TenKind::Currency { value: 5 }, TenKind::Currency { value: 3 }]), 0);
}

#[test]
fn a_lone_wild_scores_one_anywhere() {
    for wild in [TenKind::ColourWild { colour: Orange }, TenKind::NumberWild { value: 7 }, TenKind::AnyWild] {
        assert_eq!(total(&[wild]), 1, "{wild:?}");
    }
}

#[test]
fn each_kind_of_wild_fills_a_gap() {
    let base = nums(Blue, &[1, 2, 3, 5]);
    for wild in [TenKind::ColourWild { colour: Blue }, TenKind::NumberWild { value: 4 }, TenKind::AnyWild] {
        let mut kinds = base.clone();
        kinds.push(wild);
        let b = score(&kinds, BONUS).unwrap();
        assert_eq!(b.total, 5, "{wild:?}");
        assert_eq!(b.runs[Blue.index()], Some((1, 5)));
        assert_eq!(b.placements, [Placement { card: 4, colour: Blue, value: 4 }], "{wild:?}");
    }
}

#[test]
fn wilds_keep_to_their_colour_or_number() {
    // A red # wild cannot fill blue's gap: it can only start a red run of 1.
    let mut kinds = nums(Blue, &[1, 2, 3, 5]);
    kinds.push(TenKind::ColourWild { colour: Red });
    let b = score(&kinds, BONUS).unwrap();
    assert_eq!((b.total, b.per_colour), (4, [1, 3, 0, 0]));
    // A numbered 6 cannot fill blue's 4.
    let mut kinds = nums(Blue, &[1, 2, 3, 5]);
    kinds.push(TenKind::NumberWild { value: 6 });
    assert_eq!(total(&kinds), 4);
    // Its own number lengthens the run from the other side.
    let mut kinds = nums(Blue, &[2, 3, 4, 5]);
    kinds.push(TenKind::NumberWild { value: 6 });
    assert_eq!(total(&kinds), 5);
}

#[test]
fn a_wild_is_not_split_across_colours() {
    let mut kinds = nums(Red, &[1, 2, 4, 5]);
    kinds.extend(nums(Green, &[1, 2, 4, 5]));
    for wild in [TenKind::AnyWild, TenKind::NumberWild { value: 3 }] {
        let mut with = kinds.clone();
        with.push(wild);
        assert_eq!(total(&with), 7, "{wild:?} fills one colour only");
    }
    kinds.push(TenKind::AnyWild);
    kinds.push(TenKind::NumberWild { value: 3 });
    assert_eq!(total(&kinds), 10);
}

#[test]
fn numbered_wilds_are_distinct_cards() {
    let mut kinds = nums(Orange, &[1, 2, 4, 5, 7]);
    kinds.push(TenKind::NumberWild { value: 3 });
    kinds.push(TenKind::NumberWild { value: 6 });
    let b = score(&kinds, BONUS).unwrap();
    assert_eq!(b.total, 7);
    assert_eq!(
        b.placements,
        [Placement { card: 5, colour: Orange, value: 3 }, Placement { card: 6, colour: Orange, value: 6 }]
    );
    // TEN has one numbered wild per number; a second 3 is refused rather than scored.
    kinds.push(TenKind::NumberWild { value: 3 });
    assert_eq!(best_total(&kinds, BONUS), Err(ScoreError::DuplicateNumberWild(3)));
    assert_eq!(best_total(&[TenKind::AnyWild, TenKind::AnyWild], BONUS), Err(ScoreError::DuplicateAnyWild));
}

#[test]
fn several_wilds_complete_a_perfect_run() {
    let mut kinds = nums(Green, &[1, 3, 5, 7, 9]);
    kinds.extend([
        TenKind::ColourWild { colour: Green },
        TenKind::ColourWild { colour: Green },
        TenKind::NumberWild { value: 6 },
        TenKind::AnyWild,
    ]);
    let b = score(&kinds, BONUS).unwrap();
    assert_eq!((b.total, b.runs[Green.index()]), (10, Some((1, 9))));
    assert_eq!(b.placements.len(), 4);
}

#[test]
fn the_multicolour_wild_goes_where_no_numbered_wild_can() {
    // Both wilds could finish red's 1-9, but only the multicolour # can fill blue's 3.
    let mut kinds = nums(Red, &[1, 2, 3, 4, 6, 7, 8, 9]);
    kinds.extend(nums(Blue, &[1, 2, 4, 5]));
    kinds.push(TenKind::NumberWild { value: 5 });
    kinds.push(TenKind::AnyWild);
    let b = score(&kinds, BONUS).unwrap();
    assert_eq!(b.total, 15);
    assert_eq!(
        b.placements,
        [Placement { card: 12, colour: Red, value: 5 }, Placement { card: 13, colour: Blue, value: 3 }]
    );
    assert_eq!(brute_force(&kinds, BONUS), 15);
}

#[test]
fn duplicate_number_cards_and_extra_colour_wilds_are_harmless() {
    let mut kinds = nums(Red, &[4, 4, 5, 5]);
    kinds.extend([TenKind::ColourWild { colour: Red }; 12]);
    assert_eq!(total(&kinds), 10);
}

#[test]
fn values_out_of_range_are_errors() {
    for bad in [num(Red, 0), num(Red, 10), TenKind::NumberWild { value: 0 }, TenKind::NumberWild { value: 12 }] {
        assert_eq!(best_total(&[bad], BONUS), Err(ScoreError::ValueOutOfRange(bad)));
        assert!(score(&[bad], BONUS).is_err());
    }
    assert!(ScoreError::DuplicateAnyWild.to_string().contains("one"));
}

#[test]
fn tally_builds_up_card_by_card() {
    let mut tally = Tally::new();
    for kind in nums(Red, &[5, 6, 8]) {
        tally.add(kind).unwrap();
    }
    assert_eq!(tally.best_total(BONUS), 2);
    tally.add(TenKind::AnyWild).unwrap();
    assert_eq!(tally.best_total(BONUS), 4);
    assert_eq!(tally.add(TenKind::AnyWild), Err(ScoreError::DuplicateAnyWild));
    assert_eq!(Tally::from_kinds(nums(Red, &[5, 6, 8])).unwrap().best_total(BONUS), 2);
}

#[test]
fn scoring_by_card_id_reports_card_ids() {
    let data = TenData::embedded().unwrap();
    let id_of = |kind: TenKind| data.cards.iter().find(|c| c.kind == kind).unwrap().id;
    let ids = [id_of(num(Blue, 1)), id_of(num(Blue, 2)), id_of(TenKind::AnyWild), id_of(num(Blue, 4))];
    let b = data.score_ids(&ids).unwrap();
    assert_eq!(b.total, 4);
    assert_eq!(b.placements, [Placement { card: usize::from(ids[2]), colour: Blue, value: 3 }]);
    assert_eq!(data.best_total_ids(&ids), Ok(4));
    assert_eq!(data.best_total_ids(&[200]), Err(ScoreError::UnknownCard(200)));
    assert_eq!(data.score_ids(&[3, 129]), Err(ScoreError::UnknownCard(129)));
    let wilds: Vec<u8> = data.cards.iter().filter(|c| c.kind.is_wild()).map(|c| c.id).collect();
    let b = data.score_ids(&wilds).unwrap();
    // 18 wilds alone: every wild adds 1 to some run, and one colour can be made perfect (two # wilds and
    // seven numbered ones) for the bonus point, leaving the other two numbered wilds for a second colour.
    assert_eq!(b.total, data.best_total_ids(&wilds).unwrap());
    assert_eq!(b.total, 19);
    assert_eq!(b.placements.len(), 18);
}

#[test]
fn ties_go_to_tokens_then_fewest_cards_then_are_shared() {
    assert!(tie_break_key(20, 0, 30) > tie_break_key(19, 10, 1));
    assert!(tie_break_key(20, 4, 30) > tie_break_key(20, 3, 1));
    assert!(tie_break_key(20, 4, 12) > tie_break_key(20, 4, 13));
    assert_eq!(tie_break_key(20, 4, 12), tie_break_key(20, 4, 12));
    let keys = [tie_break_key(18, 2, 9), tie_break_key(21, 5, 14), tie_break_key(21, 5, 14), tie_break_key(21, 6, 20)];
    assert_eq!(winners(&keys), [3]);
    assert_eq!(winners(&keys[..3]), [1, 2]);
    assert_eq!(winners(&keys[..1]), [0]);
    assert!(winners(&[]).is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn optimum_matches_brute_force_with_up_to_four_wilds(kinds in collection(0..=4)) {
        let fast = best_total(&kinds, BONUS).unwrap();
        prop_assert_eq!(fast, brute_force(&kinds, BONUS));
        let b = score(&kinds, BONUS).unwrap();
        prop_assert_eq!(b.total, fast);
        check_breakdown(&kinds, &b, BONUS);
        prop_assert_eq!(best_total(&kinds, 0).unwrap(), brute_force(&kinds, 0));
    }
}

/// Random collections whose only wilds are colour # wilds (0 to all 8).
fn colour_wilds_only() -> impl Strategy<Value = Vec<TenKind>> {
    let pool: Vec<TenKind> = wild_pool().into_iter().filter(|k| matches!(k, TenKind::ColourWild { .. })).collect();
    (collection(0..=0), prop::sample::subsequence(pool, 0..=8)).prop_map(|(mut kinds, wilds)| {
        kinds.extend(wilds);
        kinds
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// `best_total` scores such collections colour by colour; the full search (`score`) must agree.
    #[test]
    fn colour_wilds_alone_score_as_the_full_search(kinds in colour_wilds_only()) {
        let b = score(&kinds, BONUS).unwrap();
        prop_assert_eq!(best_total(&kinds, BONUS).unwrap(), b.total);
        prop_assert_eq!(best_total(&kinds, 0).unwrap(), score(&kinds, 0).unwrap().total);
        if kinds.iter().filter(|k| k.is_wild()).count() <= 4 {
            prop_assert_eq!(b.total, brute_force(&kinds, BONUS));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20))]

    #[test]
    fn optimum_matches_brute_force_with_five_or_six_wilds(kinds in collection(5..=6)) {
        prop_assert_eq!(best_total(&kinds, BONUS).unwrap(), brute_force(&kinds, BONUS));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Too many wilds for brute force: the placement shown must still be real, and no card may lower the best.
    #[test]
    fn many_wilds_give_a_real_placement_and_more_cards_never_score_less(kinds in collection(7..=18)) {
        let b = score(&kinds, BONUS).unwrap();
        check_breakdown(&kinds, &b, BONUS);
        let fewer = best_total(&kinds[..kinds.len() - 1], BONUS).unwrap();
        prop_assert!(fewer <= b.total, "dropping the last card raised {} to {fewer}", b.total);
    }
}
