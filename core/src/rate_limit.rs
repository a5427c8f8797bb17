//! Rate limits as Zulip applies them, on time given by the caller.

use std::collections::{HashMap, VecDeque};

/// Counts events per key in a sliding window and refuses once `max` are inside it. Zulip's
/// `authenticate_by_username` rule is `SlidingWindow::new(1800, 5)`: five failed logins per
/// username per thirty minutes.
#[derive(Debug)]
pub struct SlidingWindow {
    window_secs: i64,
    max: usize,
    events: HashMap<String, VecDeque<i64>>,
}

impl SlidingWindow {
    pub fn new(window_secs: i64, max: usize) -> Self {
        SlidingWindow { window_secs, max, events: HashMap::new() }
    }

    /// Zulip's limit on failed password logins.
    pub fn failed_logins() -> Self {
        Self::new(1800, 5)
    }

    /// `Err(seconds until the oldest event leaves the window)` when the key is over its limit.
    pub fn check(&mut self, key: &str, now: i64) -> Result<(), i64> {
        let Some(times) = self.events.get_mut(key) else { return Ok(()) };
        while times.front().is_some_and(|&t| t <= now - self.window_secs) {
            times.pop_front();
        }
        if times.is_empty() {
            self.events.remove(key);
            return Ok(());
        }
        match times.front() {
            Some(&oldest) if times.len() >= self.max => Err(oldest + self.window_secs - now),
            _ => Ok(()),
        }
    }

    /// Records one event for the key.
    pub fn record(&mut self, key: &str, now: i64) {
        self.events.entry(key.to_owned()).or_default().push_back(now);
    }
}

#[cfg(test)]
mod tests {
    use super::SlidingWindow;

    #[test]
    fn the_sixth_failure_within_thirty_minutes_is_refused_until_the_first_expires() {
        let mut limit = SlidingWindow::failed_logins();
        for t in 0..5 {
            assert_eq!(limit.check("a@x", t * 60), Ok(()));
            limit.record("a@x", t * 60);
        }
        assert_eq!(limit.check("a@x", 300), Err(1500));
        assert_eq!(limit.check("b@x", 300), Ok(()), "other usernames are unaffected");
        assert_eq!(limit.check("a@x", 1800), Ok(()), "the first failure has left the window");
    }
}
