//! How long TEN's optimal scoring takes, in nanoseconds per call, on random collections.
//!
//! Run with `cargo run --release -p cardnet-core --example ten_scoring_speed`. Prints, per kind of collection,
//! the time of `best_total` (from cards), `Tally::best_total` (prebuilt) and `score` (with the placement), then
//! the time by the number of numbered wilds held. Figures compare builds on one machine.

use std::hint::black_box;
use std::time::Instant;

use cardnet_core::games::ten::cards::{Colour, TenKind};
use cardnet_core::games::ten::scoring::{best_total, score, Tally};
use cardnet_core::rng::Rng;

const COLLECTIONS: usize = 500;
const PASSES: usize = 10;
const BONUS: u8 = 1;

fn wild_pool() -> Vec<TenKind> {
    let mut pool = Vec::new();
    for colour in Colour::ALL {
        pool.extend([TenKind::ColourWild { colour }; 2]);
    }
    pool.extend((1..=9).map(|value| TenKind::NumberWild { value }));
    pool.push(TenKind::AnyWild);
    pool
}

/// A collection holding each coloured number with probability `density_percent` and `wilds` distinct wilds.
fn collection(rng: &mut Rng, density_percent: usize, wilds: usize) -> Vec<TenKind> {
    let mut kinds = Vec::new();
    for colour in Colour::ALL {
        for value in 1..=9 {
            if rng.index(100) < density_percent {
                kinds.push(TenKind::Number { colour, value });
            }
        }
    }
    let mut pool = wild_pool();
    for _ in 0..wilds.min(pool.len()) {
        let pick = rng.index(pool.len());
        kinds.push(pool.swap_remove(pick));
    }
    kinds
}

/// Nanoseconds per call of `f` over all the items: the fastest of several passes, since the machine
/// may be shared and a slower pass only measures the interruptions.
fn time_per_call<T>(items: &[T], f: impl Fn(&T) -> u16) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..PASSES {
        let start = Instant::now();
        let mut sink = 0u64;
        for item in items {
            sink += u64::from(f(black_box(item)));
        }
        black_box(sink);
        best = best.min(start.elapsed().as_nanos() as f64 / items.len() as f64);
    }
    best
}

fn main() {
    let mut rng = Rng::new(10);
    let shapes: [(&str, usize, std::ops::RangeInclusive<usize>); 4] = [
        ("typical: 40% numbers, 0-4 wilds", 40, 0..=4),
        ("rich: 60% numbers, 4-8 wilds", 60, 4..=8),
        ("heavy: 30% numbers, 9-14 wilds", 30, 9..=14),
        ("worst: 20% numbers, all 18 wilds", 20, 18..=18),
    ];
    for (name, density, wilds) in shapes {
        let collections: Vec<Vec<TenKind>> = (0..COLLECTIONS)
            .map(|_| {
                let n = wilds.start() + rng.index(wilds.end() - wilds.start() + 1);
                collection(&mut rng, density, n)
            })
            .collect();
        let tallies: Vec<Tally> =
            collections.iter().map(|k| Tally::from_kinds(k.iter().copied()).unwrap_or_default()).collect();
        let total = time_per_call(&collections, |kinds| best_total(kinds, BONUS).unwrap_or(0));
        let breakdown = time_per_call(&collections, |kinds| score(kinds, BONUS).map_or(0, |b| b.total));
        let prebuilt = time_per_call(&tallies, |t| t.best_total(BONUS));
        println!(
            "{name:<36} best_total {total:>8.0} ns   Tally::best_total {prebuilt:>8.0} ns   score {breakdown:>8.0} ns"
        );
    }
    // The search is exponential in the numbered wilds held only (2^k tables, 3^k combinations), so show that
    // growth directly: k numbered wilds, the two # wilds of every colour and the multicolour #, sparse numbers.
    println!("by numbered wilds held (plus 8 colour # wilds and the multicolour #, 20% numbers):");
    for k in 0..=9u8 {
        let collections: Vec<Vec<TenKind>> = (0..COLLECTIONS)
            .map(|_| {
                let mut kinds = collection(&mut rng, 20, 0);
                for colour in Colour::ALL {
                    kinds.extend([TenKind::ColourWild { colour }; 2]);
                }
                kinds.push(TenKind::AnyWild);
                let mut values: Vec<u8> = (1..=9).collect();
                for _ in 0..k {
                    let pick = rng.index(values.len());
                    kinds.push(TenKind::NumberWild { value: values.swap_remove(pick) });
                }
                kinds
            })
            .collect();
        let total = time_per_call(&collections, |kinds| best_total(kinds, BONUS).unwrap_or(0));
        println!("  k = {k}: best_total {total:>8.0} ns");
    }
}
