//! How a client stays connected: when to retry after a failure and how long a long-poll may
//! stay silent before the connection counts as dead. The host supplies the randomness (for
//! jitter) and does the waiting.

use serde::{Deserialize, Serialize};

use crate::events::HEARTBEAT_MIN_FREQ_SECS;

/// The first retry waits about this long.
pub const FIRST_RETRY_MS: u64 = 500;

/// Retries never wait longer than this by default.
pub const DEFAULT_MAX_RETRY_MS: u64 = 30_000;

/// How much longer than the server's heartbeat interval a long-poll may stay unanswered before
/// the connection is taken for dead (a laptop that slept, a NAT that forgot the connection):
/// the server answers every waiting poll at least every [`HEARTBEAT_MIN_FREQ_SECS`].
pub const HEARTBEAT_GRACE_MS: u64 = 15_000;

/// Exponential backoff with "full jitter": each failure doubles the ceiling, and the wait is
/// drawn uniformly below it, so clients that lost the server together do not return together.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Backoff {
    failures: u32,
    max_ms: u64,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff::new(DEFAULT_MAX_RETRY_MS)
    }
}

impl Backoff {
    pub fn new(max_ms: u64) -> Self {
        Backoff { failures: 0, max_ms: max_ms.max(1) }
    }

    /// Records a failure; returns how long to wait before the next try. `random` is uniform in
    /// `[0, 1)`, from the host.
    pub fn next_delay_ms(&mut self, random: f64) -> u64 {
        let ceiling = FIRST_RETRY_MS.saturating_mul(1 << self.failures.min(20)).min(self.max_ms);
        self.failures = self.failures.saturating_add(1);
        // Never zero: at least a tenth of the ceiling, so a loop cannot spin.
        let spread = ceiling - ceiling / 10;
        ceiling / 10 + (random.clamp(0.0, 1.0) * spread as f64) as u64
    }

    /// A request went through: the next failure starts from the first delay again.
    pub fn reset(&mut self) {
        self.failures = 0;
    }

    pub fn failures(&self) -> u32 {
        self.failures
    }
}

/// How long the host lets a long-poll wait for its answer before abandoning it as dead.
pub fn poll_deadline_ms() -> u64 {
    HEARTBEAT_MIN_FREQ_SECS as u64 * 1000 + HEARTBEAT_GRACE_MS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_grow_to_the_ceiling_with_jitter_below_it() {
        let mut backoff = Backoff::new(4_000);
        let highest: Vec<u64> = (0..5).map(|_| backoff.next_delay_ms(0.999_999)).collect();
        assert_eq!(highest, [499, 999, 1_999, 3_999, 3_999]);
        let mut backoff = Backoff::new(4_000);
        let lowest: Vec<u64> = (0..4).map(|_| backoff.next_delay_ms(0.0)).collect();
        assert_eq!(lowest, [50, 100, 200, 400]);
        backoff.reset();
        assert_eq!(backoff.next_delay_ms(0.0), 50);
    }

    #[test]
    fn a_poll_is_dead_only_after_a_missed_heartbeat() {
        assert!(poll_deadline_ms() > HEARTBEAT_MIN_FREQ_SECS as u64 * 1000);
    }
}
