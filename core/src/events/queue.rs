//! One queue: its events (with ids), what its client has acknowledged, and whether a long-poll
//! is waiting on it. Zulip's `EventQueue` plus the timing half of `ClientDescriptor`.

use std::collections::VecDeque;
use std::sync::Arc;

use serde_json::Value;

use super::notification::MessageVariants;
use super::options::QueueOptions;
use super::pending::PendingEvents;
use super::registry::QueueOwner;
use super::{HEARTBEAT_MIN_FREQ_SECS, MAX_EVENTS_PER_QUEUE};
use crate::error::{ApiError, ApiResult};
use crate::model::MessageFlags;

#[derive(Debug)]
pub(crate) struct Queue {
    pub id: String,
    pub owner: QueueOwner,
    pub options: QueueOptions,
    pub events: VecDeque<Queued>,
    /// The id the next event gets (Zulip's `next_event_id`, from 0).
    pub next_event_id: i64,
    /// The newest id the client acknowledged (Zulip's `newest_pruned_id`, from -1).
    pub newest_pruned_id: i64,
    /// When the client was last seen: registration, a fetch, or the end of a waiting poll.
    pub last_active: i64,
    /// The long-poll waiting on this queue, if any.
    pub parked: Option<Parked>,
    /// This queue's entry in the registry's timer set (see [`Queue::due`]).
    pub timer: i64,
}

/// A waiting long-poll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Parked {
    pub ticket: u64,
    pub since: i64,
}

/// An event with its id, stored compactly: message events keep the shared dict and this user's
/// flags, and are made whole when fetched.
#[derive(Clone, Debug)]
pub(crate) struct Queued {
    pub id: i64,
    pub event: Stored,
}

#[derive(Clone, Debug)]
pub(crate) enum Stored {
    Message {
        variants: MessageVariants,
        flags: MessageFlags,
    },
    /// A message event for the queue its sender sent from, with the client's local id. Boxed:
    /// one queue per message has it, and every other event stays as small as before.
    EchoedMessage(Box<Echoed>),
    /// A body (no `id`) shared by every queue of the same shape.
    Other(Arc<Value>),
    Heartbeat,
}

/// The sender's own copy of a message event (Zulip's `local_message_id`).
#[derive(Clone, Debug)]
pub(crate) struct Echoed {
    pub variants: MessageVariants,
    pub flags: MessageFlags,
    pub local_message_id: String,
}

/// The queue is full; see [`MAX_EVENTS_PER_QUEUE`].
#[derive(Debug)]
pub(crate) struct Full;

impl Queue {
    pub fn new(id: String, owner: QueueOwner, options: QueueOptions, now: i64, timeout: i64) -> Queue {
        Queue {
            id,
            owner,
            options,
            events: VecDeque::new(),
            next_event_id: 0,
            newest_pruned_id: -1,
            last_active: now,
            parked: None,
            timer: now + timeout,
        }
    }

    /// The next instant something is due: the heartbeat of a waiting poll, else expiry after
    /// `timeout` seconds idle.
    pub fn due(&self, timeout: i64) -> i64 {
        match self.parked {
            Some(parked) => parked.since.saturating_add(HEARTBEAT_MIN_FREQ_SECS),
            None => self.last_active.saturating_add(timeout),
        }
    }

    /// Idle for `timeout` seconds with no poll waiting (Zulip's `ClientDescriptor.expired`).
    pub fn is_expired(&self, now: i64, timeout: i64) -> bool {
        self.parked.is_none() && now.saturating_sub(self.last_active) >= timeout
    }

    /// Appends an event with the next id. A waiting poll is finished by it, as Zulip's
    /// `add_event` finishes the connected handler.
    pub fn push(&mut self, event: Stored, now: i64) -> Result<(), Full> {
        if self.events.len() >= MAX_EVENTS_PER_QUEUE {
            return Err(Full);
        }
        self.events.push_back(Queued { id: self.next_event_id, event });
        self.next_event_id += 1;
        if self.parked.take().is_some() {
            self.last_active = self.last_active.max(now);
        }
        Ok(())
    }

    /// Drops the events the client has seen (ids up to `last_event_id`), with Zulip's two
    /// checks, made before anything is dropped.
    pub fn acknowledge(&mut self, last_event_id: i64) -> ApiResult<()> {
        if last_event_id < self.newest_pruned_id {
            return Err(ApiError::bad_request(format!(
                "An event newer than {last_event_id} has already been pruned!"
            )));
        }
        let newest_pruned = self
            .events
            .iter()
            .take_while(|e| e.id <= last_event_id)
            .last()
            .map_or(self.newest_pruned_id, |e| e.id);
        if newest_pruned != last_event_id {
            return Err(ApiError::bad_request(format!("Event {last_event_id} was not in this queue")));
        }
        while self.events.front().is_some_and(|e| e.id <= last_event_id) {
            self.events.pop_front();
        }
        self.newest_pruned_id = newest_pruned;
        Ok(())
    }

    /// The queued events as this client receives them. They stay queued until acknowledged.
    pub fn contents(&self) -> Vec<Value> {
        self.pending().into_values()
    }

    /// The queued events, made whole only when serialized.
    pub fn pending(&self) -> PendingEvents {
        PendingEvents::new(self.events.iter(), &self.options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{RealmId, UserId};

    fn queue() -> Queue {
        let owner = QueueOwner { user: UserId(1), realm: RealmId(1), email: "a@x".into(), is_guest: false };
        Queue::new(
            "q".into(),
            owner,
            QueueOptions::default(),
            0,
            crate::events::DEFAULT_EVENT_QUEUE_TIMEOUT_SECS,
        )
    }

    fn ids(q: &Queue) -> Vec<i64> {
        q.events.iter().map(|e| e.id).collect()
    }

    #[test]
    fn acknowledgement_follows_zulip() {
        let mut q = queue();
        assert!(q.acknowledge(-1).is_ok());
        assert_eq!(q.acknowledge(0).expect_err("nothing yet").msg, "Event 0 was not in this queue");
        for _ in 0..4 {
            q.push(Stored::Heartbeat, 0).expect("room");
        }
        q.acknowledge(1).expect("in queue");
        assert_eq!(ids(&q), vec![2, 3]);
        q.acknowledge(1).expect("acknowledging again is harmless");
        assert_eq!(
            q.acknowledge(0).expect_err("pruned").msg,
            "An event newer than 0 has already been pruned!"
        );
        assert_eq!(q.acknowledge(7).expect_err("future").msg, "Event 7 was not in this queue");
        assert_eq!(ids(&q), vec![2, 3], "a refused acknowledgement drops nothing");
        q.acknowledge(3).expect("all");
        assert!(q.events.is_empty());
    }

    #[test]
    fn a_full_queue_refuses_events() {
        let mut q = queue();
        for _ in 0..MAX_EVENTS_PER_QUEUE {
            q.push(Stored::Heartbeat, 0).expect("room");
        }
        assert!(q.push(Stored::Heartbeat, 0).is_err());
    }
}
