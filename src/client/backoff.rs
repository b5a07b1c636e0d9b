//! Kafka's `ExponentialBackoff` (`org.apache.kafka.common.utils`, KIP-580, Kafka 3.7+;
//! read at apache/kafka 1eb7644, 4.0.0-SNAPSHOT) as the producer's batch retries use it:
//! `new ExponentialBackoff(retry.backoff.ms, RETRY_BACKOFF_EXP_BASE = 2,
//! retry.backoff.max.ms, RETRY_BACKOFF_JITTER = 0.2)` in `RecordAccumulator`.
//!
//! `backoff(attempts) = random(1 - jitter, 1 + jitter) * initial * 2^min(attempts, expMax)`,
//! never above `retry.backoff.max.ms`, where `expMax = log2(max / initial)`; a
//! `retry.backoff.ms` at or above the maximum is a constant backoff of the maximum,
//! without jitter. With the defaults (100, 1000) the retries wait about 100, 200, 400,
//! 800, then 1000 ms each.
//!
//! Integers only, so every platform computes the same milliseconds: `initial *
//! 2^min(attempts, expMax)` is `min(initial << attempts, max)` (the two agree: below
//! `expMax` the power is exact, above it the term is `max`), and the jitter factor is
//! `(800_000 + r) / 1_000_000` with `r` drawn uniformly from `0..400_000` by the
//! producer's seeded RNG (Kafka: `ThreadLocalRandom.nextDouble(0.8, 1.2)`), the product
//! truncated as Kafka's `(long)` cast truncates it. Simplified: Kafka draws a new jitter
//! each time `RecordAccumulator.shouldBackoff` looks at the batch; here it is drawn once,
//! when the batch goes back to its queue.

use serde::Serialize;

use crate::util::rng::Rng;

/// `CommonClientConfigs.RETRY_BACKOFF_EXP_BASE`.
pub const RETRY_BACKOFF_EXP_BASE: u32 = 2;
/// `CommonClientConfigs.RETRY_BACKOFF_JITTER` (0.2), in millionths.
const JITTER_PPM: u64 = 200_000;
const PPM: u64 = 1_000_000;

/// `ExponentialBackoff` with base 2 and jitter 0.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ExponentialBackoff {
    initial_interval: i64,
    max_interval: i64,
}

impl ExponentialBackoff {
    /// `new ExponentialBackoff(initialInterval, 2, maxInterval, 0.2)`: the initial
    /// interval is capped at the maximum, as Kafka's constructor does.
    pub fn new(initial_interval: i64, max_interval: i64) -> Self {
        ExponentialBackoff {
            initial_interval: initial_interval.min(max_interval).max(0),
            max_interval: max_interval.max(0),
        }
    }

    /// `backoff(attempts)`: how long to wait before the retry that follows `attempts`
    /// earlier retries (the accumulator asks with `batch.attempts() - 1`).
    pub fn backoff(&self, attempts: u32, rng: &mut Rng) -> i64 {
        // `expMax == 0`: a constant backoff (maximum not above the initial interval).
        if self.max_interval <= self.initial_interval {
            return self.initial_interval;
        }
        let term = if attempts >= 63 {
            self.max_interval
        } else {
            self.initial_interval
                .saturating_mul(1_i64 << attempts)
                .min(self.max_interval)
        };
        let factor = PPM - JITTER_PPM + rng.below(2 * JITTER_PPM);
        let value = i128::from(term) * i128::from(factor) / i128::from(PPM);
        i64::try_from(value)
            .unwrap_or(i64::MAX)
            .min(self.max_interval)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_from_the_initial_interval_up_to_the_maximum_within_twenty_percent() {
        let b = ExponentialBackoff::new(100, 1000);
        let mut rng = Rng::new(7);
        for (attempts, term) in [
            (0, 100),
            (1, 200),
            (2, 400),
            (3, 800),
            (4, 1000),
            (40, 1000),
        ] {
            for _ in 0..200 {
                let got = b.backoff(attempts, &mut rng);
                assert!(got >= term * 8 / 10, "{attempts}: {got} below {term} - 20%");
                assert!(got < term * 12 / 10 || term == 1000, "{attempts}: {got}");
                assert!(got <= 1000, "never above retry.backoff.max.ms: {got}");
            }
        }
    }

    #[test]
    fn the_jitter_is_spread_and_reproducible() {
        let b = ExponentialBackoff::new(100, 1000);
        let draw = |seed| {
            let mut rng = Rng::new(seed);
            (0..50).map(|_| b.backoff(1, &mut rng)).collect::<Vec<_>>()
        };
        let (a, again) = (draw(3), draw(3));
        assert_eq!(a, again, "same seed, same waits");
        assert!(
            a.iter().any(|w| *w < 180) && a.iter().any(|w| *w > 220),
            "{a:?}"
        );
        assert_ne!(a, draw(4));
    }

    #[test]
    fn an_initial_interval_at_or_above_the_maximum_is_a_constant_backoff() {
        let mut rng = Rng::new(1);
        let b = ExponentialBackoff::new(5000, 1000);
        assert_eq!(b.backoff(0, &mut rng), 1000);
        assert_eq!(b.backoff(9, &mut rng), 1000);
        let same = ExponentialBackoff::new(100, 100);
        assert_eq!(same.backoff(3, &mut rng), 100);
        let zero = ExponentialBackoff::new(0, 1000);
        assert_eq!(zero.backoff(5, &mut rng), 0);
        let huge = ExponentialBackoff::new(100, i64::MAX);
        assert!(huge.backoff(80, &mut rng) > 0);
    }
}
