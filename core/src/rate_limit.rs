//! Rate limits as Zulip applies them, on time given by the caller.
//!
//! A domain (requests per user, failed logins per username, ...) has rules, Zulip's
//! `(seconds, requests)` pairs. Each rule is counted as Zulip's in-memory backend counts it: a
//! key keeps one time, when its bucket will be empty again; every event pushes it back by
//! `seconds / requests`, and an event that would push it beyond `now + seconds` is refused.
//! So a key holds one number per rule whatever its rate (a log of events would hold up to
//! `requests` of them, 200 per user), a burst of `requests` is allowed, and a refused client
//! waits only for the next slot, never for the whole window.
//!
//! Times are milliseconds; the caller reads the clock.

use std::collections::HashMap;
use std::hash::Hash;

/// At most `requests` events every `seconds`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    pub seconds: u32,
    pub requests: u32,
}

impl Rule {
    /// How far one event pushes a key's empty time.
    fn step_ms(self) -> i64 {
        i64::from(self.seconds) * 1000 / i64::from(self.requests.max(1))
    }

    fn window_ms(self) -> i64 {
        i64::from(self.seconds) * 1000
    }
}

/// A domain's rules, shortest window first; none means no limit.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Rules(Vec<Rule>);

impl Rules {
    pub fn new(mut rules: Vec<Rule>) -> Rules {
        rules.sort_by_key(|r| r.seconds);
        Rules(rules)
    }

    /// No limit.
    pub fn off() -> Rules {
        Rules(Vec::new())
    }

    /// Zulip's `api_by_user`: 200 requests a minute per user.
    pub fn api_by_user() -> Rules {
        Rules::new(vec![Rule { seconds: 60, requests: 200 }])
    }

    /// Zulip's `api_by_ip`: 100 requests a minute per address without credentials.
    pub fn api_by_ip() -> Rules {
        Rules::new(vec![Rule { seconds: 60, requests: 100 }])
    }

    /// Zulip's `authenticate_by_username`: 5 password attempts per username per 30 minutes.
    pub fn authenticate_by_username() -> Rules {
        Rules::new(vec![Rule { seconds: 1800, requests: 5 }])
    }

    /// Failed authentications (wrong passwords, wrong API keys) per address, whatever the
    /// account: Zulip has no such rule, but without one a client tries a common password
    /// across every username at a thousand a second. Generous enough for a shared address
    /// (an office behind NAT) whose people mistype; 30 a minute is 43,200 a day at most.
    pub fn failed_authentications_by_ip() -> Rules {
        Rules::new(vec![Rule { seconds: 60, requests: 30 }, Rule { seconds: 3600, requests: 300 }])
    }

    /// Zulip's `sends_email_by_ip`: 5 emails a day per address, for the forms that mail
    /// someone without credentials (password reset).
    pub fn sends_email_by_ip() -> Rules {
        Rules::new(vec![Rule { seconds: 86400, requests: 5 }])
    }

    /// Zulip's `password_reset_form_by_email`: 2 reset emails an hour, 5 a day, per address.
    pub fn password_reset_form_by_email() -> Rules {
        Rules::new(vec![Rule { seconds: 3600, requests: 2 }, Rule { seconds: 86400, requests: 5 }])
    }

    pub fn is_off(&self) -> bool {
        self.0.is_empty()
    }

    /// The limit a client with no recent events has (`X-RateLimit-Limit`): the longest rule's.
    fn headline(&self) -> Option<Rule> {
        self.0.last().copied()
    }
}

/// Parses Zulip's format for a user's own limits: `SECONDS:REQUESTS` pairs separated by
/// commas (`60:200,3600:2000`), or `off`.
impl std::str::FromStr for Rules {
    type Err = String;

    fn from_str(text: &str) -> Result<Rules, String> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("off") {
            return Ok(Rules::off());
        }
        let rule = |pair: &str| {
            let (seconds, requests) = pair.trim().split_once(':')?;
            let rule =
                Rule { seconds: seconds.trim().parse().ok()?, requests: requests.trim().parse().ok()? };
            (rule.seconds > 0 && rule.requests > 0).then_some(rule)
        };
        text.split(',')
            .map(|pair| rule(pair).ok_or_else(|| format!("{pair:?} is not SECONDS:REQUESTS (both above 0)")))
            .collect::<Result<Vec<_>, _>>()
            .map(Rules::new)
    }
}

impl std::fmt::Display for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_empty() {
            return f.write_str("off");
        }
        let pairs: Vec<String> = self.0.iter().map(|r| format!("{}:{}", r.seconds, r.requests)).collect();
        f.write_str(&pairs.join(","))
    }
}

/// Where a key stands against its domain's limit, for the `X-RateLimit-*` headers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standing {
    /// Events allowed to a key with none recent (`X-RateLimit-Limit`).
    pub limit: u32,
    /// Events left before a refusal (`X-RateLimit-Remaining`).
    pub remaining: u32,
    /// Seconds until the key is back to its full allowance (`X-RateLimit-Reset` is now plus
    /// this); when refused, the seconds until the next event is allowed (`retry-after`).
    pub reset_secs: f64,
}

impl Standing {
    /// Zulip's combination of several domains applied to one request: the smallest limit and
    /// remainder, and the latest reset.
    pub fn combine(self, other: Standing) -> Standing {
        Standing {
            limit: self.limit.min(other.limit),
            remaining: self.remaining.min(other.remaining),
            reset_secs: self.reset_secs.max(other.reset_secs),
        }
    }
}

/// A refusal: the seconds until the next event would be allowed, and the key's standing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limited {
    pub retry_after_secs: f64,
    pub standing: Standing,
}

/// One domain's counts, per key.
#[derive(Debug)]
pub struct Limiter<K> {
    rules: Rules,
    /// Per key, per rule: when that rule's bucket is empty again.
    empty_at: HashMap<K, Vec<i64>>,
    /// When keys whose buckets are all empty were last dropped.
    swept_at: i64,
}

impl<K: Hash + Eq + Clone> Limiter<K> {
    pub fn new(rules: Rules) -> Self {
        Limiter { rules, empty_at: HashMap::new(), swept_at: i64::MIN }
    }

    /// Counts one event for `key`, or refuses it (counting nothing) when a rule is full.
    pub fn attempt(&mut self, key: &K, now_ms: i64) -> Result<Standing, Limited> {
        self.check(key, now_ms)?;
        self.sweep(now_ms);
        if let Some(headline) = self.rules.headline() {
            let rules = self.rules.0.clone();
            let times = self.empty_at.entry(key.clone()).or_insert_with(|| vec![now_ms; rules.len()]);
            for (time, rule) in times.iter_mut().zip(&rules) {
                *time = (*time).max(now_ms) + rule.step_ms();
            }
            let last = times.last().copied().unwrap_or(now_ms);
            return Ok(standing(headline, last, now_ms));
        }
        Ok(self.standing(key, now_ms))
    }

    /// Refuses when the next event for `key` would be over a rule, without counting one.
    pub fn check(&self, key: &K, now_ms: i64) -> Result<(), Limited> {
        let Some(times) = self.empty_at.get(key) else { return Ok(()) };
        for (&time, rule) in times.iter().zip(&self.rules.0) {
            let next = time.max(now_ms) + rule.step_ms();
            if next > now_ms + rule.window_ms() {
                let retry_after_ms = next - rule.window_ms() - now_ms;
                let mut standing = self.standing(key, now_ms);
                standing.remaining = 0;
                standing.reset_secs = standing.reset_secs.max(retry_after_ms as f64 / 1000.0);
                return Err(Limited { retry_after_secs: retry_after_ms as f64 / 1000.0, standing });
            }
        }
        Ok(())
    }

    /// Where `key` stands, counting nothing.
    pub fn standing(&self, key: &K, now_ms: i64) -> Standing {
        let Some(headline) = self.rules.headline() else {
            return Standing { limit: u32::MAX, remaining: u32::MAX, reset_secs: 0.0 };
        };
        let last = self.empty_at.get(key).and_then(|t| t.last().copied()).unwrap_or(now_ms);
        standing(headline, last, now_ms)
    }

    /// Forgets `key`'s events (Zulip clears a username's failures when its login succeeds).
    pub fn clear(&mut self, key: &K) {
        self.empty_at.remove(key);
    }

    /// Whether this domain has no rules, so nothing is counted or reported.
    pub fn is_off(&self) -> bool {
        self.rules.is_off()
    }

    /// How many keys are held (for tests of the sweep).
    pub fn len(&self) -> usize {
        self.empty_at.len()
    }

    pub fn is_empty(&self) -> bool {
        self.empty_at.is_empty()
    }

    /// Drops keys whose buckets are all empty, at most once per shortest step (and second):
    /// without it, every address or username ever seen would stay in memory.
    fn sweep(&mut self, now_ms: i64) {
        let every = self.rules.0.iter().map(|r| r.step_ms()).min().unwrap_or(0).max(1000);
        if now_ms.saturating_sub(self.swept_at) < every {
            return;
        }
        self.swept_at = now_ms;
        self.empty_at.retain(|_, times| times.iter().any(|&t| t > now_ms));
    }
}

fn standing(rule: Rule, empty_at: i64, now_ms: i64) -> Standing {
    let busy_ms = (empty_at - now_ms).max(0);
    let free_ms = (rule.window_ms() - busy_ms).max(0);
    let remaining = free_ms * i64::from(rule.requests) / rule.window_ms().max(1);
    Standing {
        limit: rule.requests,
        remaining: u32::try_from(remaining).unwrap_or(0),
        reset_secs: busy_ms as f64 / 1000.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINUTE: i64 = 60_000;

    #[test]
    fn the_sixth_failed_login_within_thirty_minutes_is_refused() {
        let mut logins = Limiter::new(Rules::authenticate_by_username());
        let key = "1:eve@example.com".to_owned();
        for i in 0..5 {
            assert!(logins.attempt(&key, i * 1000).is_ok(), "attempt {}", i + 1);
        }
        let refused = logins.attempt(&key, 5_000).expect_err("the sixth is refused");
        // Five attempts fill 30 minutes in steps of 6; the first slot frees 6 minutes on.
        assert_eq!(refused.retry_after_secs, 355.0);
        assert_eq!(refused.standing.remaining, 0);
        assert_eq!(refused.standing.limit, 5);
        assert!(logins.attempt(&"1:other@example.com".to_owned(), 5_000).is_ok(), "others unaffected");
        assert!(logins.attempt(&key, 360_000).is_ok(), "one slot frees after six minutes");
        assert!(logins.attempt(&key, 360_001).is_err());
        logins.clear(&key);
        assert!(logins.attempt(&key, 360_002).is_ok(), "a successful login clears the count");
    }

    #[test]
    fn two_hundred_requests_a_minute_then_refused_and_the_headers_count_down() {
        let mut users = Limiter::new(Rules::api_by_user());
        let first = users.attempt(&7u64, 0).expect("allowed");
        assert_eq!(first, Standing { limit: 200, remaining: 199, reset_secs: 0.3 });
        for _ in 1..200 {
            assert!(users.attempt(&7u64, 0).is_ok());
        }
        let refused = users.attempt(&7u64, 0).expect_err("the 201st is refused");
        assert_eq!(refused.retry_after_secs, 0.3);
        assert_eq!(refused.standing.reset_secs, 60.0);
        assert_eq!(users.standing(&7u64, 30 * 1000).remaining, 100, "half the window, half the allowance");
        assert!(users.attempt(&7u64, 300).is_ok());
    }

    #[test]
    fn every_rule_of_a_domain_holds() {
        let mut failures = Limiter::new("60:2,3600:3".parse::<Rules>().expect("rules"));
        assert!(failures.attempt(&"a", 0).is_ok());
        assert!(failures.attempt(&"a", 0).is_ok());
        assert!(failures.attempt(&"a", 0).is_err(), "the minute's rule");
        assert!(failures.attempt(&"a", 2 * MINUTE).is_ok());
        assert!(failures.attempt(&"a", 4 * MINUTE).is_err(), "the hour's rule");
        assert_eq!(failures.check(&"b", 0), Ok(()), "checking counts nothing");
    }

    #[test]
    fn keys_whose_buckets_emptied_are_dropped() {
        let mut users = Limiter::new(Rules::api_by_user());
        for user in 0..1000u64 {
            users.attempt(&user, 0).expect("allowed");
        }
        assert_eq!(users.len(), 1000);
        users.attempt(&5000, MINUTE).expect("allowed");
        assert_eq!(users.len(), 1, "only the key just counted is left");
    }

    #[test]
    fn rules_parse_from_zulips_format() {
        assert_eq!("60:200".parse(), Ok(Rules::api_by_user()));
        assert_eq!("3600:300, 60:30".parse(), Ok(Rules::failed_authentications_by_ip()));
        assert_eq!("off".parse(), Ok(Rules::off()));
        assert_eq!(Rules::failed_authentications_by_ip().to_string(), "60:30,3600:300");
        for bad in ["", "60", "60:0", "0:5", "a:b", "60:200,"] {
            assert!(bad.parse::<Rules>().is_err(), "{bad:?}");
        }
        let mut off = Limiter::new(Rules::off());
        assert!((0..10_000).all(|_| off.attempt(&1u8, 0).is_ok()));
        assert!(off.is_empty());
    }
}
