//! What the network host's per-move work costs in the core: a view as canonical bytes, the public hash,
//! and the whole per-move fan-out (every seat's view, events and legal list plus the hash), on states
//! sampled from random games of Matchstick Tycoon (4 players), A Fistful of Gold, Cherki and TEN (3 players).
//!
//! `cargo run --release -p cardnet-core --example fanout_speed [rounds]`
//!
//! Prints one JSON document of nanoseconds per operation, by this thread's CPU time when Linux offers it
//! (the honest figure on a shared machine) and by wall-clock time. `view_value_ns` is the older path
//! (`canonical(&view(seat))` through one combined `serde_json::Value`), kept for comparison. A benchmark,
//! never a test: it asserts nothing about the figures.

use std::hint::black_box;
use std::time::Instant;

use cardnet_core::json::canonical;
use cardnet_core::rng::Rng;
use cardnet_core::session::{AnyGame, MoveInput};
use cardnet_core::{new_game, Seat};
use serde_json::{json, Value};

/// Nanoseconds this thread has run on a CPU, from `/proc/thread-self/schedstat` (Linux only).
fn cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// States of one game along random play: the game before every move, with the move index to play.
fn sample(name: &str, players: usize, games: u64) -> Vec<(Box<dyn AnyGame>, Seat, usize)> {
    let mut out = Vec::new();
    let mut rng = Rng::new(99);
    for g in 0..games {
        let Ok(mut game) = new_game(name, Some(players), 1000 + g, &json!({})) else {
            eprintln!("cannot start {name}");
            std::process::exit(1);
        };
        while let Some(&seat) = game.to_act().first() {
            let index = rng.below(game.legal_count(seat) as u64) as usize;
            out.push((game.clone_box(), seat, index));
            if game.apply_index(seat, index).is_err() {
                eprintln!("random play of {name} failed");
                std::process::exit(1);
            }
        }
    }
    out
}

/// Runs `body` over every state `rounds` times; (cpu ns, wall ns) per call.
fn time<T>(
    states: &[(Box<dyn AnyGame>, Seat, usize)],
    rounds: usize,
    mut body: impl FnMut(&(Box<dyn AnyGame>, Seat, usize)) -> T,
) -> Value {
    for state in states.iter().take(64) {
        black_box(body(state));
    }
    let cpu = cpu_ns();
    let start = Instant::now();
    for _ in 0..rounds {
        for state in states {
            black_box(body(state));
        }
    }
    let calls = (rounds * states.len()) as f64;
    let wall = start.elapsed().as_nanos() as f64 / calls;
    let cpu = match (cpu, cpu_ns()) {
        (Some(a), Some(b)) => json!(((b - a) as f64 / calls).round()),
        _ => Value::Null,
    };
    json!({"cpu": cpu, "wall": wall.round()})
}

fn bench(name: &str, players: usize, rounds: usize) -> Value {
    let states = sample(name, players, 4);
    let seats: Vec<Option<Seat>> = (0..players).map(Some).collect();
    let mut with_spectator = seats.clone();
    with_spectator.push(None);
    json!({
        "states": states.len(),
        "view_value_ns": time(&states, rounds, |(g, s, _)| canonical(&g.view(Some(*s)).unwrap())),
        "view_json_ns": time(&states, rounds, |(g, s, _)| g.view_json(Some(*s)).unwrap()),
        "state_hash_ns": time(&states, rounds, |(g, _, _)| g.state_hash()),
        "fan_out_seats_ns": time(&states, rounds, |(g, _, _)| g.fan_out(&seats)),
        "fan_out_seats_and_spectator_ns": time(&states, rounds, |(g, _, _)| g.fan_out(&with_spectator)),
        "clone_apply_fan_out_ns": time(&states, rounds, |(g, s, i)| {
            let mut game = g.clone_box();
            let recorded = game.apply_recorded(*s, MoveInput::Index(*i));
            (recorded, game.fan_out(&seats))
        }),
        "clone_only_ns": time(&states, rounds, |(g, _, _)| g.clone_box()),
    })
}

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let report = json!({
        "bench": "fanout_speed",
        "rounds": rounds,
        "goals_ns": {"matchstick_4p.view_json": 5000, "state_hash": 3000, "matchstick_4p.fan_out_seats": 40000},
        "matchstick_4p": bench("matchstick", 4, rounds),
        "fistful_2p": bench("fistful", 2, rounds),
        "cherki_3p": bench("cherki", 3, rounds),
        "ten_3p": bench("ten", 3, rounds),
    });
    println!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
}
