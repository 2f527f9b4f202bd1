//! Where a vectorized-environment step spends its time, per game: the whole step, and its parts (applying
//! an action, the observation tensor, the sparse legal ids, the dense mask) measured one by one on the same
//! random games. Prints nanoseconds per decision.
//!
//!     cargo run --release -p cardnet-core --example rl_step_speed [games] [n] [steps]
//!
//! With `steps`, only the whole step runs, that many times per game (a loop to profile with `perf`).

use cardnet_core::rl::{new_rl, AnyRl, LegalIds, Outputs, VecEnv};
use cardnet_core::rng::Rng;
use serde_json::Value;
use std::time::Instant;

fn per_decision(total: std::time::Duration, decisions: usize) -> f64 {
    total.as_nanos() as f64 / decisions.max(1) as f64
}

/// Plays random games and times each part of a decision separately.
fn parts(game: &str, decisions: usize) -> [f64; 4] {
    let mut rng = Rng::new(7);
    let mut state: Box<dyn AnyRl> = new_rl(game, None, 1, &Value::Null, false).unwrap();
    let mut obs = vec![0f32; state.observation_len()];
    let mut mask = vec![0u8; state.action_space_size()];
    let mut ids = Vec::new();
    let mut spent = [std::time::Duration::ZERO; 4];
    for k in 0..decisions {
        let Some(seat) = state.first_to_act() else {
            state = state.redeal(k as u64).unwrap();
            continue;
        };
        let t = Instant::now();
        state.write_observation(seat, &mut obs);
        spent[1] += t.elapsed();
        ids.clear();
        let t = Instant::now();
        state.append_legal_ids(seat, &mut ids);
        spent[2] += t.elapsed();
        let t = Instant::now();
        state.write_legal_mask(seat, &mut mask);
        spent[3] += t.elapsed();
        let id = ids[rng.index(ids.len())] as usize;
        let t = Instant::now();
        state.apply_action_id(seat, id).unwrap();
        spent[0] += t.elapsed();
    }
    spent.map(|d| per_decision(d, decisions))
}

fn whole(game: &str, n: usize, steps: usize) -> f64 {
    let mut env = VecEnv::new(game, None, &Value::Null, n, 1).unwrap();
    let mut obs = vec![0f32; n * env.observation_len()];
    let (mut seats, mut rewards, mut dones) = (vec![0i64; n], vec![0f32; n * env.players()], vec![0u8; n]);
    let mut legal = LegalIds::default();
    let mut rng = Rng::new(3);
    let mut out = Outputs { obs: Some(&mut obs), mask: None, legal: Some(&mut legal), seats: &mut seats };
    env.observe(&mut out).unwrap();
    let mut actions = vec![0i64; n];
    let t = Instant::now();
    for _ in 0..steps {
        let legal = out.legal.as_deref().unwrap();
        for (i, a) in actions.iter_mut().enumerate() {
            let (lo, hi) = (legal.offsets[i] as usize, legal.offsets[i + 1] as usize);
            *a = i64::from(legal.ids[lo + rng.index(hi - lo)]);
        }
        env.step(&actions, &mut rewards, &mut dones, &mut out).unwrap();
    }
    per_decision(t.elapsed(), n * steps)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games = args.get(1).map_or("matchstick,fistful,cherki,ten", String::as_str);
    let n = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1024);
    if let Some(steps) = args.get(3).and_then(|a| a.parse().ok()) {
        for game in games.split(',') {
            println!("{game:>10}: step {:7.0} ns/decision (N = {n}, with policy)", whole(game, n, steps));
        }
        return;
    }
    for game in games.split(',') {
        let [apply, obs, ids, mask] = parts(game, 200_000);
        let step = whole(game, n, 200_000 / n + 1);
        println!(
            "{game:>10}: step {step:7.0} ns/decision (N = {n}, with policy); apply {apply:5.0}, observation {obs:5.0}, \
             legal ids {ids:5.0}, dense mask {mask:6.0}"
        );
    }
}
