//! The RL face of every game on random games: action ids and legal moves agree (a bijection up to the
//! rules' own equivalences), the mask matches, applying an id equals applying its move, an illegal id
//! changes nothing, tensors and information-state strings survive determinization (no leak), and every
//! game ends within `max_game_length`.

use cardnet_core::game::{Game, Setup};
use cardnet_core::games::{cherki::Cherki, fistful::Fistful, matchstick::Matchstick, ten::Ten};
use cardnet_core::rl::{
    action_id_to_move, apply_action_id, legal_action_ids, load_rl, new_rl, observation_len, write_legal_mask, AnyRl,
    Encoder, LegalIds, Outputs, RlGame, RlState, VecEnv,
};
use cardnet_core::rng::Rng;
use proptest::prelude::*;
use serde_json::{json, Value};

fn observation<G: RlGame>(game: &G, seat: usize) -> Vec<f32> {
    let mut out = vec![0.0; observation_len(game)];
    game.encode(seat, &mut Encoder::writing(&mut out));
    out
}

/// Checks one state for every seat; `exact`: distinct legal moves have distinct ids.
fn check_state<G: RlGame>(game: &G, exact: bool, rng: &mut Rng) -> Result<(), String> {
    let setup = game.setup();
    let size = G::action_space_size(setup);
    for seat in 0..setup.players {
        let ids = legal_action_ids(game, seat);
        let count = game.legal_count(seat);
        for i in 0..count {
            let mv = game.legal_move(seat, i).ok_or("legal_move missing")?;
            let id = G::action_id(setup, &mv).ok_or_else(|| format!("legal move {mv:?} has no id"))?;
            if id >= size || ids.binary_search(&id).is_err() {
                return Err(format!("seat {seat}: move {mv:?} has id {id} outside the legal ids"));
            }
        }
        if exact && ids.len() != count {
            return Err(format!("seat {seat}: {count} legal moves but {} ids", ids.len()));
        }
        if ids.is_empty() != (count == 0) {
            return Err(format!("seat {seat}: {count} moves, {} ids", ids.len()));
        }
        for &id in &ids {
            let mv = action_id_to_move(game, seat, id).ok_or_else(|| format!("id {id} has no move"))?;
            if G::action_id(setup, &mv) != Some(id) || game.index_of(seat, &mv).is_none() {
                return Err(format!("seat {seat}: id {id} → {mv:?} does not round-trip"));
            }
            let first =
                (0..count).filter_map(|i| game.legal_move(seat, i)).find(|m| G::action_id(setup, m) == Some(id));
            if first.as_ref() != Some(&mv) {
                return Err(format!(
                    "seat {seat}: id {id} → {mv:?}, but the first listed move of that id is {first:?}"
                ));
            }
        }
        let mut mask = vec![0u8; size];
        write_legal_mask(game, seat, &mut mask);
        let from_mask: Vec<usize> = (0..size).filter(|&i| mask[i] == 1).collect();
        if from_mask != ids {
            return Err(format!("seat {seat}: mask and legal ids differ"));
        }
        let obs = observation(game, seat);
        if obs.iter().any(|x| !x.is_finite()) {
            return Err(format!("seat {seat}: non-finite observation"));
        }
        let mut reference = vec![0.0; obs.len()];
        G::encode_view(setup, seat, &game.view(Some(seat)), &mut Encoder::writing(&mut reference));
        if reference != obs {
            let at = obs.iter().zip(&reference).position(|(a, b)| a != b);
            return Err(format!("seat {seat}: the observation differs from the view's at {at:?}"));
        }
        let other = game.determinize(Some(seat), rng);
        if observation(&other, seat) != obs {
            return Err(format!("seat {seat}: the observation changes under determinization (a leak)"));
        }
        if legal_action_ids(&other, seat) != ids {
            return Err(format!("seat {seat}: legal ids change under determinization"));
        }
        for _ in 0..16 {
            let id = rng.index(size);
            if ids.binary_search(&id).is_err() && action_id_to_move(game, seat, id).is_some() {
                return Err(format!("seat {seat}: id {id} is not legal but has a move"));
            }
        }
        if let Some(bad) = (0..size).find(|i| ids.binary_search(i).is_err()) {
            let mut copy = game.clone();
            if apply_action_id(&mut copy, seat, bad).is_ok() || copy.state_json() != game.state_json() {
                return Err(format!("seat {seat}: illegal id {bad} was applied or changed the state"));
            }
        }
    }
    Ok(())
}

/// Plays one random game by action ids, checking every state; returns the number of moves.
fn run<G: RlGame>(players: usize, seed: u64, options: &Value, move_seed: u64, exact: bool) -> Result<usize, String> {
    let info = G::info();
    let setup = Setup { players, seed, options: info.resolve_options(options).map_err(|e| e.to_string())? };
    let mut game = G::new(&setup).map_err(|e| e.to_string())?;
    let limit = G::max_game_length(&setup);
    let mut rng = Rng::new(move_seed);
    let mut moves = 0;
    while let Some(seat) = game.to_act().first() {
        check_state(&game, exact, &mut rng).map_err(|e| format!("move {moves}: {e}"))?;
        let ids = legal_action_ids(&game, seat);
        let id = ids[rng.index(ids.len())];
        let mut by_move = game.clone();
        let mv = action_id_to_move(&game, seat, id).ok_or("no move")?;
        by_move.apply_legal(seat, &mv);
        apply_action_id(&mut game, seat, id).map_err(|e| e.to_string())?;
        if game.state_json() != by_move.state_json() {
            return Err(format!("move {moves}: apply_action_id({id}) differs from applying {mv:?}"));
        }
        moves += 1;
        if moves > limit {
            return Err(format!("no end within max_game_length = {limit}"));
        }
    }
    Ok(moves)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    #[test]
    fn matchstick(players in 2usize..=8, expansion in prop::sample::select(vec![0, 2, 4]), seed in any::<u64>(), ms in any::<u64>()) {
        run::<Matchstick>(players, seed, &json!({"expansion": expansion}), ms, true).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn fistful(long in any::<bool>(), seed in any::<u64>(), ms in any::<u64>()) {
        let length = if long { "long" } else { "short" };
        run::<Fistful>(2, seed, &json!({"length": length}), ms, true).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn cherki(players in 2usize..=6, deals in 1u64..=2, seed in any::<u64>(), ms in any::<u64>()) {
        run::<Cherki>(players, seed, &json!({"deals": deals}), ms, false).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn ten(players in 1usize..=5, seed in any::<u64>(), ms in any::<u64>()) {
        run::<Ten>(players, seed, &Value::Null, ms, true).map_err(TestCaseError::fail)?;
    }

    /// The information-state string and tensor of a seat survive determinization, and an RL save replays.
    #[test]
    fn information_states(game in prop::sample::select(vec!["matchstick", "fistful", "cherki", "ten"]), seed in any::<u64>(), steps in 1usize..60) {
        let mut state = new_rl(game, None, seed, &Value::Null, true).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut rng = Rng::new(seed ^ 1);
        for _ in 0..steps {
            let Some(&seat) = state.to_act().first() else { break };
            let ids = state.legal_action_ids(seat);
            state.apply_action_id(seat, ids[rng.index(ids.len())]).map_err(|e| TestCaseError::fail(e.to_string()))?;
        }
        for seat in 0..state.setup().players {
            let copy = state.determinize(Some(seat), rng.next_u64());
            prop_assert_eq!(copy.information_state_string(seat).ok(), state.information_state_string(seat).ok());
            let mut a = vec![0.0; state.infostate_len()];
            let mut b = vec![0.0; state.infostate_len()];
            state.write_infostate(seat, &mut a);
            copy.write_infostate(seat, &mut b);
            prop_assert_eq!(a, b);
            // A determinized copy saves as its recipe, moves made since included, and replays exactly.
            let mut copy = copy;
            if let Some(&next) = copy.to_act().first() {
                let ids = copy.legal_action_ids(next);
                copy.apply_action_id(next, ids[rng.index(ids.len())]).map_err(|e| TestCaseError::fail(e.to_string()))?;
            }
            let saved = copy.to_json().map_err(|e| TestCaseError::fail(e.to_string()))?;
            let loaded = load_rl(&saved.to_string()).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(loaded.state_json(), copy.state_json());
            prop_assert_eq!(loaded.information_state_string(seat).ok(), copy.information_state_string(seat).ok());
            prop_assert_eq!(loaded.to_json().ok(), Some(saved));
        }
        let saved = state.to_json().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let loaded = load_rl(&saved.to_string()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(loaded.state_json(), state.state_json());
        prop_assert_eq!(loaded.move_count(), state.move_count());
    }
}

#[test]
fn action_spaces_follow_the_rules() {
    let size = |options: Value| {
        let setup = Setup { players: 4, seed: 0, options: Matchstick::info().resolve_options(&options).unwrap() };
        Matchstick::action_space_size(&setup)
    };
    // The count an outside wrapper built by hand from the rules for the base game.
    assert_eq!(size(json!({"expansion": 0})), 17287);
    assert_eq!(size(json!({"expansion": 2})), 28277);
    assert_eq!(size(json!({"expansion": 4})), 28798);
    let fistful = Setup { players: 2, seed: 0, options: Fistful::info().resolve_options(&Value::Null).unwrap() };
    assert_eq!(Fistful::action_space_size(&fistful), 63);
    let cherki = Setup { players: 3, seed: 0, options: Cherki::info().resolve_options(&Value::Null).unwrap() };
    assert_eq!(Cherki::action_space_size(&cherki), 63);
}

/// Matchstick builds the move of an id from the id and checks it without ranking it: over whole games,
/// every id of the action space has a move exactly when a listed legal move has that id.
#[test]
fn matchstick_ids_have_moves_exactly_when_legal() {
    for (players, expansion, seed) in [(4, 0, 31), (3, 4, 32), (2, 2, 33)] {
        let options = Matchstick::info().resolve_options(&json!({"expansion": expansion})).unwrap();
        let setup = Setup { players, seed, options };
        let mut game = Matchstick::new(&setup).unwrap();
        let size = Matchstick::action_space_size(&setup);
        let mut rng = Rng::new(seed);
        while let Some(seat) = game.to_act().first() {
            let mut legal: Vec<usize> = (0..game.legal_count(seat))
                .map(|i| Matchstick::action_id(&setup, &game.legal_move(seat, i).unwrap()).unwrap())
                .collect();
            legal.sort_unstable();
            for id in 0..size {
                let listed = legal.binary_search(&id).is_ok();
                assert_eq!(action_id_to_move(&game, seat, id).is_some(), listed, "seed {seed}: id {id}");
            }
            apply_action_id(&mut game, seat, legal[rng.index(legal.len())]).unwrap();
        }
    }
}

#[test]
fn a_bad_action_changes_nothing() {
    let mut state = RlState::<Fistful>::start(None, 7, &Value::Null, true).unwrap();
    let before = state.state_json();
    assert!(state.apply_action_id(0, 10_000).is_err());
    assert!(state.apply_action_id(5, 0).is_err());
    assert_eq!(state.state_json(), before);
    assert_eq!(state.move_count(), 0);
}

#[test]
fn vectorized_env_runs_games_to_the_end() {
    for game in ["fistful", "matchstick"] {
        let mut env = VecEnv::new(game, None, &Value::Null, 4, 3).unwrap();
        let (n, o, a, p) = (env.num_envs(), env.observation_len(), env.action_space_size(), env.players());
        let (mut obs, mut mask, mut seats) = (vec![0.0; n * o], vec![0u8; n * a], vec![0i64; n]);
        let (mut rewards, mut dones) = (vec![0.0; n * p], vec![0u8; n]);
        let mut legal = LegalIds::default();
        let mut out =
            Outputs { obs: Some(&mut obs), mask: Some(&mut mask), legal: Some(&mut legal), seats: &mut seats };
        env.observe(&mut out).unwrap();
        let mut rng = Rng::new(5);
        let mut done_count = 0;
        for _ in 0..400 {
            let legal = out.legal.as_deref().unwrap();
            let mask = out.mask.as_deref().unwrap();
            let actions: Vec<i64> = (0..n)
                .map(|i| {
                    let row = &legal.ids[legal.offsets[i] as usize..legal.offsets[i + 1] as usize];
                    let dense: Vec<i32> = (0..a).filter(|&j| mask[i * a + j] == 1).map(|j| j as i32).collect();
                    assert_eq!(row, dense.as_slice(), "sparse ids and dense mask differ");
                    i64::from(row[rng.index(row.len())])
                })
                .collect();
            env.step(&actions, &mut rewards, &mut dones, &mut out).unwrap();
            for i in 0..n {
                let r = &rewards[i * p..(i + 1) * p];
                assert!(r.iter().all(|&x| (0.0..=1.0).contains(&x)));
                if dones[i] == 1 {
                    done_count += 1;
                    assert!(r.iter().any(|&x| x > 0.0));
                }
            }
        }
        assert_eq!(env.episodes_finished(), done_count);
        assert!(done_count > 0);
        let before: Vec<Value> = (0..n).map(|i| env.env(i).unwrap().state_json()).collect();
        let bad = vec![-1i64; n];
        assert!(env.step(&bad, &mut rewards, &mut dones, &mut out).is_err());
        let after: Vec<Value> = (0..n).map(|i| env.env(i).unwrap().state_json()).collect();
        assert_eq!(before, after);
    }
}

#[test]
fn vectorized_env_computes_only_what_is_asked() {
    let env = VecEnv::new("cherki", Some(3), &Value::Null, 3, 9).unwrap();
    let n = env.num_envs();
    let mut seats = vec![0i64; n];
    let mut out = Outputs { obs: None, mask: None, legal: None, seats: &mut seats };
    env.observe(&mut out).unwrap();
    let first: Vec<i64> = out.seats.to_vec();
    for (i, &seat) in first.iter().enumerate() {
        assert_eq!(Some(seat as usize), env.env(i).unwrap().first_to_act());
    }
    let mut short = vec![0.0; 3];
    let mut out = Outputs { obs: Some(&mut short), mask: None, legal: None, seats: &mut seats };
    assert!(env.observe(&mut out).is_err(), "a buffer of the wrong length is refused");
}

#[test]
fn a_determinized_save_with_a_wrong_recipe_does_not_load() {
    let mut state = new_rl("fistful", None, 3, &Value::Null, true).unwrap();
    for seat in state.to_act() {
        let id = state.legal_action_ids(seat)[0];
        state.apply_action_id(seat, id).unwrap();
    }
    let copy = state.determinize(Some(0), 77);
    let saved = copy.to_json().unwrap();
    assert!(load_rl(&saved.to_string()).is_ok());
    for (pointer, bad) in
        [("/determinized/seed", json!(78)), ("/determinized/observer", json!(5)), ("/game", json!("ten"))]
    {
        let mut doc = saved.clone();
        *doc.pointer_mut(pointer).unwrap() = bad;
        let err = load_rl(&doc.to_string()).err().map(|e| e.code().to_string());
        assert_eq!(err.as_deref(), Some("corrupt_state"), "{pointer}");
    }
}
