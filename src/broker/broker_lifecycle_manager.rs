//! The broker's side of registering with the controller (`BrokerLifecycleManager`,
//! Kafka 4.0, mirror commit 1eb7644): a broker started again while its previous
//! session still runs is refused, and asks again after a backoff. The controller's
//! side is `crate::controller`'s `broker_lifecycle`.

/// `broker.session.timeout.ms` (Kafka's default): a broker that sent no heartbeat for
/// this long is fenced by the controller.
pub const BROKER_SESSION_TIMEOUT_MS: i64 = 9_000;

/// The first wait of `BrokerLifecycleManager`'s resend backoff (Kafka 4.0:
/// `ExponentialBackoff(100, 2, broker.session.timeout.ms, 0.02)`).
pub const REGISTRATION_BACKOFF_MS: i64 = 100;

/// A restarted broker the controller refused to register: when it asks again, and how
/// many times it was refused (`BrokerLifecycleManager.failedAttempts`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PendingRegistration {
    pub next_attempt_ms: i64,
    pub failed_attempts: u32,
}

/// The wait after `failed_attempts` earlier failures: 100 ms doubling each time, at
/// most `broker.session.timeout.ms` (100, 200, 400, … 6400, 9000). Kafka adds ±2 %
/// jitter; the playground leaves it out so every run waits the same.
pub fn registration_backoff_ms(failed_attempts: u32) -> i64 {
    REGISTRATION_BACKOFF_MS
        .saturating_mul(1_i64 << failed_attempts.min(16))
        .min(BROKER_SESSION_TIMEOUT_MS)
}
