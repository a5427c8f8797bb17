//! Admission to the writer: a bound on the commands waiting for it, shared fairly among users.
//!
//! The writer commits in batches as fast as it can; past that rate, commands only wait longer
//! (7.8 s at saturation before this bound). So the commands from requests waiting for it at
//! once are bounded twice: by a count (`capacity`), and by the wait the queue implies, which is
//! what a client feels. By Little's law a queue of `n` drains in `n / throughput`; the writer's
//! throughput over the last second, times [`TARGET_WAIT`], is how many may wait (never fewer
//! than [`MIN_QUEUE`], so a burst on an idle server is not refused for want of a history). One
//! user holds at most a sixteenth of the count: a client that floods hits its own limit long
//! before the others feel it. A command over any bound is refused at once with Zulip's
//! rate-limit answer (429 `RATE_LIMIT_HIT`, `Retry-After`), which Zulip's clients already wait
//! out and retry.
//!
//! A bound on the waits commands were seen to have (as CoDel bounds a router's queue) was
//! tried and dropped: a wait is known only once its command is answered, by which time the
//! queue behind it has grown, and accepted sends' p99 went from 0.54–0.64 s to 1.6–2.7 s.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use confab_core::ids::UserId;
use confab_core::{ApiError, ApiResult};

/// Commands from requests waiting for the writer at once, at most, unless configured otherwise.
pub const DEFAULT_WRITE_QUEUE: usize = 1024;

/// The wait a full queue may imply: what is admitted is answered within about this long plus
/// a checkpoint (170–290 ms at 1M messages), inside the second that an accepted request's p99
/// must stay under.
pub const TARGET_WAIT: Duration = Duration::from_millis(250);

/// Commands that may always wait, whatever the measured throughput (unless `capacity` is less).
pub const MIN_QUEUE: usize = 64;

/// The share of the queue one user may hold: `capacity / USER_SHARE`, at least one.
const USER_SHARE: usize = 16;

/// What a refused client is told to wait, in seconds: a full queue is gone by then.
const RETRY_AFTER_SECS: f64 = 1.0;

pub struct WriteAdmission {
    capacity: usize,
    per_user: usize,
    queue: Mutex<Queue>,
}

/// The commands waiting, and how fast they have been leaving.
#[derive(Default)]
struct Queue {
    by_user: HashMap<UserId, usize>,
    total: usize,
    done: Throughput,
}

impl WriteAdmission {
    pub fn new(capacity: usize) -> Arc<WriteAdmission> {
        let capacity = capacity.max(1);
        Arc::new(WriteAdmission {
            capacity,
            per_user: (capacity / USER_SHARE).max(1),
            queue: Mutex::default(),
        })
    }

    /// A place in the queue for one of `user`'s commands, held until the ticket is dropped;
    /// refused when the user holds their share or the queue is full.
    pub fn admit(self: &Arc<Self>, user: UserId) -> ApiResult<WriteTicket> {
        self.admit_at(user, Instant::now())?;
        Ok(WriteTicket { admission: self.clone(), user })
    }

    fn admit_at(&self, user: UserId, now: Instant) -> ApiResult<()> {
        let mut queue = self.queue.lock().map_err(|_| ApiError::internal("admission poisoned"))?;
        let draining = queue.done.per_second(now) * TARGET_WAIT.as_secs_f64();
        let room = (draining as usize).clamp(MIN_QUEUE.min(self.capacity), self.capacity);
        if queue.total >= room || queue.by_user.get(&user).is_some_and(|&held| held >= self.per_user) {
            return Err(refusal());
        }
        queue.total += 1;
        *queue.by_user.entry(user).or_default() += 1;
        Ok(())
    }

    fn release(&self, user: UserId, now: Instant) {
        let Ok(mut queue) = self.queue.lock() else { return };
        queue.total = queue.total.saturating_sub(1);
        queue.done.record(now);
        if let Some(held) = queue.by_user.get_mut(&user) {
            *held -= 1;
            if *held == 0 {
                queue.by_user.remove(&user);
            }
        }
    }
}

/// Commands finished per second, counted in whole seconds: the last full one, or the current
/// one once it has seen more.
#[derive(Default)]
struct Throughput {
    second_began: Option<Instant>,
    this_second: u32,
    last_second: u32,
}

impl Throughput {
    fn record(&mut self, now: Instant) {
        self.roll(now);
        self.this_second += 1;
    }

    fn per_second(&mut self, now: Instant) -> f64 {
        self.roll(now);
        f64::from(self.this_second.max(self.last_second))
    }

    fn roll(&mut self, now: Instant) {
        let began = *self.second_began.get_or_insert(now);
        let elapsed = now.saturating_duration_since(began);
        if elapsed >= Duration::from_secs(1) {
            // A second with nothing finished in it counts as nothing, not as the one before.
            self.last_second = if elapsed < Duration::from_secs(2) { self.this_second } else { 0 };
            self.this_second = 0;
            self.second_began = Some(now);
        }
    }
}

fn refusal() -> ApiError {
    ApiError::rate_limited(RETRY_AFTER_SECS)
}

/// A command's place in the writer's queue.
pub struct WriteTicket {
    admission: Arc<WriteAdmission>,
    user: UserId,
}

impl Drop for WriteTicket {
    fn drop(&mut self) {
        self.admission.release(self.user, Instant::now());
    }
}

#[cfg(test)]
mod tests {
    use confab_core::ErrorCode;

    use super::*;

    fn refused(admitted: ApiResult<WriteTicket>) -> bool {
        admitted.is_err_and(|e| e.code == ErrorCode::RateLimitHit && e.extra.contains_key("retry-after"))
    }

    #[test]
    fn one_user_gets_a_sixteenth_of_the_queue_and_others_still_get_in() {
        let admission = WriteAdmission::new(32);
        let (flooder, other) = (UserId(1), UserId(2));
        let held: Vec<_> = (0..2).map(|_| admission.admit(flooder)).collect();
        assert!(held.iter().all(Result::is_ok));
        assert!(refused(admission.admit(flooder)), "over their share");
        assert!(admission.admit(other).is_ok(), "another user is not held back");
        drop(held);
        assert!(admission.admit(flooder).is_ok(), "the share comes back as commands finish");
    }

    #[test]
    fn a_full_queue_refuses_everyone_until_a_place_frees() {
        let admission = WriteAdmission::new(16);
        let held: Vec<_> = (1..=16).map(|user| admission.admit(UserId(user))).collect();
        assert!(held.iter().all(Result::is_ok));
        assert!(refused(admission.admit(UserId(17))));
        drop(held);
        let last = admission.admit(UserId(17));
        assert!(last.is_ok());
        assert_eq!(admission.queue.lock().map(|q| q.by_user.len()).unwrap_or(9), 1, "no counts left behind");
    }

    /// Finishes `n` commands over the second after `from`.
    fn finish(admission: &WriteAdmission, n: u32, from: Instant) {
        for i in 0..n {
            admission.admit_at(UserId(u64::from(i) + 1_000), from).expect("admitted");
            admission.release(
                UserId(u64::from(i) + 1_000),
                from + Duration::from_millis(u64::from(i) * 900 / u64::from(n)),
            );
        }
    }

    /// Admits commands from distinct users until one is refused; how many were admitted.
    fn admitted_until_refused(admission: &WriteAdmission, now: Instant) -> usize {
        (1..=10_000).take_while(|&user| admission.admit_at(UserId(user), now).is_ok()).count()
    }

    #[test]
    fn the_queue_holds_what_the_writer_drains_in_a_quarter_second() {
        let start = Instant::now();
        let admission = WriteAdmission::new(100_000);
        finish(&admission, 400, start);
        let after = start + Duration::from_millis(1_100);
        assert_eq!(admitted_until_refused(&admission, after), 100, "400 a second × 0.25 s");
    }

    #[test]
    fn an_idle_server_still_takes_a_burst() {
        let admission = WriteAdmission::new(1024);
        assert_eq!(admitted_until_refused(&admission, Instant::now()), MIN_QUEUE);
    }

    #[test]
    fn a_writer_that_stopped_finishing_commands_gets_only_the_minimum() {
        let start = Instant::now();
        let admission = WriteAdmission::new(100_000);
        finish(&admission, 4_000, start);
        let much_later = start + Duration::from_secs(5);
        assert_eq!(admitted_until_refused(&admission, much_later), MIN_QUEUE);
    }
}
