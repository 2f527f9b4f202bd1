//! What a search may spend on one decision: a fixed number of iterations (reproducible: the same seed
//! gives the same move on any machine) or a wall-clock think time (stronger on a fast machine, but the
//! move then depends on the machine's speed and load).

use std::time::{Duration, Instant};

/// The most iterations a time budget may run, so a search on a trivial position still stops.
pub const TIME_ITERATION_CAP: u32 = 10_000_000;

/// How often (in iterations) a time budget reads the clock.
const CLOCK_STRIDE: u32 = 8;

/// A search's budget for one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Exactly this many iterations (fewer when the search stops early on a decided choice); the
    /// choice is a function of the position and the seed alone.
    Iterations(u32),
    /// Iterations until this much wall time has passed since the search began; the choice depends on
    /// how many iterations the machine managed, so it is not reproducible.
    Think(Duration),
}

/// A running budget: counts iterations and tells the search whether it may run another.
pub(crate) struct Meter {
    budget: Budget,
    start: Instant,
    done: u32,
    out_of_time: bool,
}

impl Meter {
    pub(crate) fn new(budget: Budget) -> Self {
        Meter { budget, start: Instant::now(), done: 0, out_of_time: false }
    }

    /// Whether `cost` more iterations fit, counting them as spent when they do. The first call always
    /// succeeds, so every search has at least one iteration to go on.
    pub(crate) fn spend(&mut self, cost: u32) -> bool {
        let fits = self.done == 0
            || match self.budget {
                Budget::Iterations(n) => self.done.saturating_add(cost) <= n,
                Budget::Think(limit) => {
                    if self.done / CLOCK_STRIDE != self.done.saturating_add(cost) / CLOCK_STRIDE || cost >= CLOCK_STRIDE
                    {
                        self.out_of_time = self.start.elapsed() >= limit;
                    }
                    !self.out_of_time && self.done.saturating_add(cost) <= TIME_ITERATION_CAP
                }
            };
        if fits {
            self.done = self.done.saturating_add(cost);
        }
        fits
    }

    /// Iterations spent so far.
    pub(crate) fn done(&self) -> u32 {
        self.done
    }

    /// How many more iterations the budget is expected to allow: exact for a count, and for a think time
    /// the rate so far over the time left.
    pub(crate) fn remaining(&self) -> u32 {
        match self.budget {
            Budget::Iterations(n) => n.saturating_sub(self.done),
            Budget::Think(limit) => {
                let elapsed = self.start.elapsed();
                if elapsed >= limit || self.done == 0 {
                    return if elapsed >= limit { 0 } else { TIME_ITERATION_CAP };
                }
                let left = (limit - elapsed).as_secs_f64() / elapsed.as_secs_f64() * f64::from(self.done);
                left.min(f64::from(TIME_ITERATION_CAP)) as u32
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_allows_exactly_its_iterations() {
        let mut meter = Meter::new(Budget::Iterations(10));
        assert!(meter.spend(4));
        assert!(meter.spend(6));
        assert!(!meter.spend(1));
        assert_eq!(meter.done(), 10);
        assert_eq!(meter.remaining(), 0);
    }

    #[test]
    fn the_first_iteration_is_always_allowed() {
        assert!(Meter::new(Budget::Iterations(0)).spend(5));
        assert!(Meter::new(Budget::Think(Duration::ZERO)).spend(5));
    }

    #[test]
    fn a_spent_think_time_allows_no_more() {
        let mut meter = Meter::new(Budget::Think(Duration::ZERO));
        assert!(meter.spend(1));
        assert!(!meter.spend(CLOCK_STRIDE));
        assert_eq!(meter.remaining(), 0);
    }
}
