//! The vectorized environment against a plain reference: the same stream of games stepped one by one
//! through the slow, obviously right paths (the view-based observation encoder, legal ids mapped from
//! the listed legal moves, returns from the outcome), compared output by output at every step, redeals
//! included. Whatever the fast paths do, a step must write exactly what this reference writes.

use cardnet_core::game::Setup;
use cardnet_core::games::{cherki::Cherki, fistful::Fistful, matchstick::Matchstick, ten::Ten};
use cardnet_core::rl::{action_id_to_move, Encoder, LegalIds, Outputs, RlGame, VecEnv};
use cardnet_core::rng::{derive, Rng};
use serde_json::{json, Map, Value};

/// A stream of games of one setup, game `k` dealt from `derive(seed, k)`, as the env promises.
struct Reference<G: RlGame> {
    games: Vec<G>,
    players: usize,
    options: Map<String, Value>,
    seed: u64,
    dealt: u64,
}

impl<G: RlGame> Reference<G> {
    fn new(players: usize, options: &Value, n: usize, seed: u64) -> Self {
        let options = G::info().resolve_options(options).unwrap();
        let mut stream = Reference { games: Vec::new(), players, options, seed, dealt: 0 };
        for _ in 0..n {
            let game = stream.deal();
            stream.games.push(game);
        }
        stream
    }

    fn deal(&mut self) -> G {
        let setup = Setup { players: self.players, seed: derive(self.seed, self.dealt), options: self.options.clone() };
        self.dealt += 1;
        G::new(&setup).unwrap()
    }

    fn seat(game: &G) -> usize {
        game.to_act().first().unwrap()
    }

    fn legal_ids(game: &G, seat: usize) -> Vec<i32> {
        let setup = game.setup();
        let mut ids: Vec<i32> = (0..game.legal_count(seat))
            .map(|i| G::action_id(setup, &game.legal_move(seat, i).unwrap()).unwrap() as i32)
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// What `observe` writes: seats, observations, legal ids as rows.
    fn observe(&self, obs_len: usize) -> (Vec<i64>, Vec<f32>, Vec<i32>, Vec<i64>) {
        let (mut seats, mut obs, mut ids, mut offsets) = (Vec::new(), Vec::new(), Vec::new(), vec![0i64]);
        for game in &self.games {
            let seat = Self::seat(game);
            seats.push(seat as i64);
            let mut row = vec![0.0; obs_len];
            G::encode_view(game.setup(), seat, &game.view(Some(seat)), &mut Encoder::writing(&mut row));
            obs.extend(row);
            ids.extend(Self::legal_ids(game, seat));
            offsets.push(ids.len() as i64);
        }
        (seats, obs, ids, offsets)
    }

    /// Applies one action per game; returns the rewards and done flags of the step.
    fn step(&mut self, actions: &[i64]) -> (Vec<f32>, Vec<u8>) {
        let p = self.players;
        let (mut rewards, mut dones) = (vec![0.0; self.games.len() * p], vec![0u8; self.games.len()]);
        for i in 0..self.games.len() {
            let seat = Self::seat(&self.games[i]);
            let mv = action_id_to_move(&self.games[i], seat, actions[i] as usize).unwrap();
            self.games[i].apply_legal(seat, &mv);
            if let Some(outcome) = self.games[i].outcome() {
                for (slot, r) in rewards[i * p..(i + 1) * p].iter_mut().zip(outcome.rewards(p)) {
                    *slot = r as f32;
                }
                dones[i] = 1;
                self.games[i] = self.deal();
            }
        }
        (rewards, dones)
    }
}

/// Steps a `VecEnv` and the reference side by side with random legal actions, comparing every output.
fn compare<G: RlGame>(name: &str, players: usize, options: Value, n: usize, steps: usize, seed: u64) {
    let mut env = VecEnv::new(name, Some(players), &options, n, seed).unwrap();
    let mut reference = Reference::<G>::new(players, &options, n, seed);
    let (o, a) = (env.observation_len(), env.action_space_size());
    let (mut obs, mut mask, mut seats) = (vec![0.0; n * o], vec![0u8; n * a], vec![0i64; n]);
    let (mut rewards, mut dones) = (vec![0.0; n * players], vec![0u8; n]);
    let mut legal = LegalIds::default();
    let mut out = Outputs { obs: Some(&mut obs), mask: Some(&mut mask), legal: Some(&mut legal), seats: &mut seats };
    env.observe(&mut out).unwrap();
    let mut rng = Rng::new(seed ^ 0x5EED);
    let mut finished = 0;
    for step in 0..=steps {
        let (want_seats, want_obs, want_ids, want_offsets) = reference.observe(o);
        let legal = out.legal.as_deref().unwrap();
        assert_eq!(out.seats, want_seats.as_slice(), "{name} step {step}: seats");
        assert!(out.obs.as_deref().unwrap() == want_obs.as_slice(), "{name} step {step}: observations");
        assert_eq!(legal.offsets, want_offsets, "{name} step {step}: legal offsets");
        assert_eq!(legal.ids, want_ids, "{name} step {step}: legal ids");
        let mask = out.mask.as_deref().unwrap();
        for i in 0..n {
            let row = &want_ids[want_offsets[i] as usize..want_offsets[i + 1] as usize];
            let dense: Vec<i32> = (0..a).filter(|&j| mask[i * a + j] == 1).map(|j| j as i32).collect();
            assert_eq!(dense, row, "{name} step {step}: mask of game {i}");
            assert_eq!(env.env(i).unwrap().state_json(), reference.games[i].state_json(), "{name} step {step}");
        }
        if step == steps {
            break;
        }
        let actions: Vec<i64> = (0..n)
            .map(|i| {
                let row = &want_ids[want_offsets[i] as usize..want_offsets[i + 1] as usize];
                i64::from(row[rng.index(row.len())])
            })
            .collect();
        env.step(&actions, &mut rewards, &mut dones, &mut out).unwrap();
        let (want_rewards, want_dones) = reference.step(&actions);
        assert_eq!(rewards, want_rewards, "{name} step {step}: rewards");
        assert_eq!(dones, want_dones, "{name} step {step}: dones");
        finished += dones.iter().filter(|&&d| d == 1).count() as u64;
    }
    assert_eq!(env.episodes_finished(), finished);
    assert!(finished > 0, "{name}: no game ended in {steps} steps, so no redeal was compared");
}

#[test]
fn matchstick_steps_as_the_reference() {
    compare::<Matchstick>("matchstick", 4, Value::Null, 6, 400, 11);
    compare::<Matchstick>("matchstick", 3, json!({"expansion": 4}), 4, 300, 12);
}

#[test]
fn fistful_steps_as_the_reference() {
    compare::<Fistful>("fistful", 2, Value::Null, 6, 300, 13);
}

#[test]
fn cherki_steps_as_the_reference() {
    compare::<Cherki>("cherki", 3, Value::Null, 6, 600, 14);
    compare::<Cherki>("cherki", 6, json!({"deals": 1}), 3, 300, 15);
}

#[test]
fn ten_steps_as_the_reference() {
    compare::<Ten>("ten", 4, Value::Null, 3, 1500, 16);
    compare::<Ten>("ten", 1, Value::Null, 2, 600, 17);
}

#[test]
fn an_illegal_action_in_a_batch_applies_nothing() {
    let n = 5;
    let mut env = VecEnv::new("matchstick", None, &Value::Null, n, 21).unwrap();
    let (o, p) = (env.observation_len(), env.players());
    let (mut obs, mut seats, mut rewards, mut dones) =
        (vec![0.0; n * o], vec![0i64; n], vec![0.0; n * p], vec![0u8; n]);
    let mut legal = LegalIds::default();
    let mut out = Outputs { obs: Some(&mut obs), mask: None, legal: Some(&mut legal), seats: &mut seats };
    env.observe(&mut out).unwrap();
    let before: Vec<Value> = (0..n).map(|i| env.env(i).unwrap().state_json()).collect();
    let legal = out.legal.as_deref().unwrap();
    // Every game but the last gets a legal action; the last an id outside the action space.
    let mut actions: Vec<i64> = (0..n).map(|i| i64::from(legal.ids[legal.offsets[i] as usize])).collect();
    actions[n - 1] = env.action_space_size() as i64;
    assert!(env.step(&actions, &mut rewards, &mut dones, &mut out).is_err());
    let after: Vec<Value> = (0..n).map(|i| env.env(i).unwrap().state_json()).collect();
    assert_eq!(before, after);
    assert!((0..n).all(|i| env.env(i).unwrap().move_count() == 0));
}
