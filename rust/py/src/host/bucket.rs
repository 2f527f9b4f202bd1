//! The message-rate bucket's refill, the one definition: a connection's tokens grow by `rate` a second up to
//! `burst`. `cardnet.protocol.host.Bucket` refills through `bucket_refill`; the native lane refills its
//! connections' buckets (which it takes from the session and gives back each run) with `refill`.

/// The tokens of a bucket that held `tokens` at `stamp`, at `now`.
pub fn refill(tokens: f64, stamp: f64, now: f64, rate: f64, burst: f64) -> f64 {
    burst.min(tokens + (now - stamp) * rate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refills_at_the_rate_up_to_the_burst() {
        assert!((refill(0.5, 10.0, 10.02, 50.0, 200.0) - 1.5).abs() < 1e-9);
        assert_eq!(refill(0.5, 10.0, 1000.0, 50.0, 200.0), 200.0);
        assert_eq!(refill(3.0, 10.0, 10.0, 50.0, 200.0), 3.0);
    }
}
