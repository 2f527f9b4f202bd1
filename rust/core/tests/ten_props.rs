//! Property tests of TEN: random games for 1–5 players under the conformance harness, with TEN's own
//! conservation laws checked at every step.

use cardnet_core::conformance::{check_random_game, Depth};
use cardnet_core::games::ten::Ten;
use cardnet_core::rng::Rng;
use cardnet_core::Game;
use proptest::prelude::*;
use serde_json::{json, Value};

/// Every card of the deck in exactly one place; nobody over the token cap; at most 15 bust tokens in all.
fn invariant(game: &Ten) -> Result<(), String> {
    let players = game.setup().players;
    let mut ids = game.card_locations();
    let expected = match players {
        1 | 2 => 89,
        3 => 105,
        _ => 129,
    };
    if ids.len() != expected || game.deck_size() != expected {
        return Err(format!("{} cards in play, deck of {}, expected {expected}", ids.len(), game.deck_size()));
    }
    ids.sort_unstable();
    if ids.windows(2).any(|w| w[0] == w[1]) {
        return Err("a card is in two places".into());
    }
    let mut busts = u32::from(game.bust_supply());
    let mut tokens = 0u32;
    for seat in 0..players {
        let (t, b) = game.tokens_of(seat);
        if t > 10 {
            return Err(format!("seat {seat} holds {t} tokens"));
        }
        tokens += u32::from(t);
        busts += u32::from(b);
    }
    if busts != 15 {
        return Err(format!("{busts} bust tokens exist, not 15"));
    }
    if tokens > 50 {
        return Err(format!("{tokens} currency tokens held"));
    }
    let view = game.public_view().to_string();
    if view.contains("draw_order") {
        return Err("the public view names the draw order".into());
    }
    for seat in 0..players {
        let mut visited = Vec::new();
        game.visit_legal(seat, |mv| visited.push(mv));
        let listed: Vec<_> = (0..game.legal_count(seat)).filter_map(|i| game.legal_move(seat, i)).collect();
        if visited != listed {
            return Err(format!("seat {seat}: visit_legal gives {visited:?}, legal_move {listed:?}"));
        }
    }
    remembered_scores_are_fresh(game)
}

/// The scores a game remembers (asked for at every step, so remembered across moves until a collection
/// changes) equal the view's, which are computed afresh, in the game, its clone and a state rebuilt from
/// its spectator view.
fn remembered_scores_are_fresh(game: &Ten) -> Result<(), String> {
    let view = game.view(None);
    let rebuilt = Ten::from_view(game.setup(), None, &view, &mut Rng::new(3)).map_err(|e| e.to_string())?;
    for seat in 0..game.setup().players {
        let fresh = view["public"]["seats"][seat]["score"].as_u64().ok_or("a seat without a score")?;
        for (what, state) in [("game", game), ("clone", &game.clone()), ("rebuilt", &rebuilt)] {
            if u64::from(state.score(seat)) != fresh {
                return Err(format!("{what}: seat {seat} remembers {} but scores {fresh}", state.score(seat)));
            }
        }
    }
    Ok(())
}

fn run(players: usize, seed: u64, options: &Value, move_seed: u64) -> Result<(), TestCaseError> {
    let depth = Depth { moves_checked: 8, save_every: 200, determinizations: 1 };
    check_random_game::<Ten>(players, seed, options, move_seed, depth, &invariant)
        .map(|_| ())
        .map_err(TestCaseError::fail)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn random_games_keep_the_rules(players in 1usize..=5, seed in any::<u64>(), move_seed in any::<u64>()) {
        run(players, seed, &Value::Null, move_seed)?;
    }

    #[test]
    fn solo_target_option(target in 1i64..=40, seed in any::<u64>(), move_seed in any::<u64>()) {
        run(1, seed, &json!({"solo_target": target}), move_seed)?;
    }
}

#[test]
fn determinize_hides_only_the_draw_order() {
    let mut game = Ten::new(&cardnet_core::Setup { players: 3, seed: 7, options: Default::default() }).unwrap();
    game.apply_legal(game.to_act().first().unwrap(), &cardnet_core::games::ten::TenMove::Draw);
    let mut rng = cardnet_core::rng::Rng::new(1);
    let det = game.determinize(None, &mut rng);
    let (mut a, mut b) = (game.draw_pile().to_vec(), det.draw_pile().to_vec());
    assert_ne!(a, b, "the draw pile was not re-shuffled");
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b, "determinize changed which cards are in the pile");
    assert_eq!(game.public_view(), det.public_view());
}

// Reference figures (docs/GAMES.md, heuristic play): 29–41 turns, about 0.1 busts per turn, and every
// one of the 18 wilds drawn and auctioned. Loose bounds: the heuristic is not the prototype's.
#[test]
fn heuristic_games_match_the_reference_figures() {
    let options = Ten::info().resolve_options(&Value::Null).unwrap();
    for players in 2..=5usize {
        let (mut turns, mut busts) = (0u32, 0u32);
        let games = 20u64;
        for i in 0..games {
            let setup = cardnet_core::Setup { players, seed: 100 + i, options: options.clone() };
            let mut game = Ten::new(&setup).unwrap();
            let mut rng = cardnet_core::rng::Rng::new(i);
            let mut auctions = 0;
            while let Some(seat) = game.to_act().first() {
                let index = game.heuristic_index(seat, &mut rng);
                game.apply_index(seat, index).unwrap();
                for event in game.events(None) {
                    auctions += u32::from(event["type"] == "auction");
                    busts += u32::from(event["type"] == "bust");
                }
            }
            assert_eq!(auctions, 18, "every wild is drawn once and auctioned");
            turns += game.turn();
        }
        let mean_turns = f64::from(turns) / games as f64;
        assert!((27.0..=46.0).contains(&mean_turns), "{players} players: {mean_turns} turns per game");
        let bust_rate = f64::from(busts) / f64::from(turns);
        assert!((0.04..=0.2).contains(&bust_rate), "{players} players: {bust_rate} busts per turn");
    }
}
