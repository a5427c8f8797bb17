//! Admission to the writer: a bound on the commands waiting for it, shared fairly among users.
//!
//! The writer commits in batches as fast as it can; past that rate, commands only wait longer
//! (7.8 s at saturation before this bound). So at most `capacity` commands from requests wait
//! for it at once, and one user at most a sixteenth of that: a client that floods hits its own
//! limit long before the others feel it. A command over either bound is refused at once with
//! Zulip's rate-limit answer (429 `RATE_LIMIT_HIT`, `Retry-After`), which Zulip's clients
//! already wait out and retry.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use confab_core::ids::UserId;
use confab_core::{ApiError, ApiResult};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Commands from requests waiting for the writer at once, unless configured otherwise. A count,
/// not a time: at 1M messages the writer commits about 120 sends a second, so a full queue
/// takes far longer than a second to drain (README, "Performance at scale"); bounding the
/// expected wait instead is the next step.
pub const DEFAULT_WRITE_QUEUE: usize = 1024;

/// The share of the queue one user may hold: `capacity / USER_SHARE`, at least one.
const USER_SHARE: usize = 16;

/// What a refused client is told to wait, in seconds: a full queue is gone by then.
const RETRY_AFTER_SECS: f64 = 1.0;

pub struct WriteAdmission {
    room: Arc<Semaphore>,
    per_user: usize,
    in_flight: Mutex<HashMap<UserId, usize>>,
}

impl WriteAdmission {
    pub fn new(capacity: usize) -> Arc<WriteAdmission> {
        let capacity = capacity.max(1);
        Arc::new(WriteAdmission {
            room: Arc::new(Semaphore::new(capacity)),
            per_user: (capacity / USER_SHARE).max(1),
            in_flight: Mutex::default(),
        })
    }

    /// A place in the queue for one of `user`'s commands, held until the ticket is dropped;
    /// refused when the user holds their share or the queue is full.
    pub fn admit(self: &Arc<Self>, user: UserId) -> ApiResult<WriteTicket> {
        let mut in_flight = self.in_flight.lock().map_err(|_| ApiError::internal("admission poisoned"))?;
        let held = in_flight.entry(user).or_default();
        if *held >= self.per_user {
            return Err(refusal());
        }
        let Ok(room) = self.room.clone().try_acquire_owned() else { return Err(refusal()) };
        *held += 1;
        Ok(WriteTicket { admission: self.clone(), user, _room: room })
    }

    fn release(&self, user: UserId) {
        if let Ok(mut in_flight) = self.in_flight.lock()
            && let Some(held) = in_flight.get_mut(&user)
        {
            *held -= 1;
            if *held == 0 {
                in_flight.remove(&user);
            }
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
    _room: OwnedSemaphorePermit,
}

impl Drop for WriteTicket {
    fn drop(&mut self) {
        self.admission.release(self.user);
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
        assert_eq!(admission.in_flight.lock().map(|m| m.len()).unwrap_or(9), 1, "no counts left behind");
    }
}
