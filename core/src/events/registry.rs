//! Every queue, indexed for delivery and for time: registration, delivery, fetching, long-poll
//! bookkeeping, heartbeats and expiry (Zulip's `zerver/tornado/event_queue.py`, minus the I/O).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::narrow::message_matches;
use super::notification::{MessageVariants, Notification};
use super::options::{ClientCapabilities, QueueOptions, check_event_narrow};
use super::pending::PendingEvents;
use super::queue::{Echoed, Parked, Queue, Stored};
use super::transform::{Shape, accepts, expand, name_empty_message_topic, wanted_type};
use super::{DEFAULT_EVENT_QUEUE_TIMEOUT_SECS, MAX_QUEUES_PER_USER};
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::ids::{RealmId, UserId};
use crate::model::{MessageFlags, SendOrigin};

/// Every event queue of the server. Cheap to keep: a waiting queue with a few events costs a few
/// hundred bytes here; message dicts are shared between the queues that received them.
#[derive(Debug)]
pub struct Registry {
    /// Queues by slot; a slot is reused after its queue is gone.
    slots: Vec<Option<Queue>>,
    free: Vec<u32>,
    by_id: BTreeMap<String, u32>,
    by_user: BTreeMap<UserId, Vec<u32>>,
    /// Queues registered with `all_public_streams`, by organization.
    all_public: BTreeMap<RealmId, Vec<u32>>,
    /// `(due, slot)` for every queue: its heartbeat if a poll waits, else its expiry.
    timers: BTreeSet<(i64, u32)>,
    next_ticket: u64,
    /// Seconds a queue may stay idle, with no poll waiting, before it is discarded.
    queue_timeout: i64,
}

impl Default for Registry {
    fn default() -> Self {
        Registry {
            slots: Vec::new(),
            free: Vec::new(),
            by_id: BTreeMap::new(),
            by_user: BTreeMap::new(),
            all_public: BTreeMap::new(),
            timers: BTreeSet::new(),
            next_ticket: 0,
            queue_timeout: DEFAULT_EVENT_QUEUE_TIMEOUT_SECS,
        }
    }
}

/// Who a queue belongs to, as the host knows from authentication.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueueOwner {
    /// The only user who may fetch from or delete the queue, and whose events it receives.
    pub user: UserId,
    /// The organization whose public channels `all_public_streams` covers.
    pub realm: RealmId,
    /// The user's API email, for the `user` field of legacy settings events.
    pub email: String,
    /// Guests may not register with `all_public_streams`.
    pub is_guest: bool,
}

/// What register tells the client about its new queue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Registration {
    /// The id the host chose (`queue_id` in register's response).
    pub queue_id: String,
    /// Always -1: the queue is new (register's state is computed after it exists, so events
    /// committed meanwhile are delivered, as in Zulip).
    pub last_event_id: i64,
}

/// The answer to a fetch.
#[derive(Clone, Debug, PartialEq)]
pub enum Poll {
    /// Send these events (possibly none, with `dont_block`) as `{"events": [...], "queue_id"}`.
    Ready(Vec<Value>),
    /// Nothing to send yet: the poll is now parked under `ticket`. Wait until the queue id is
    /// returned by [`Registry::push`] or [`Registry::handle_timeout`] (or the client goes), then
    /// call [`Registry::unpark`] and fetch again. If `superseded`, an earlier poll on this queue
    /// was waiting and is now finished, as in Zulip where a new connection finishes the old one:
    /// wake it too.
    Wait { ticket: PollTicket, superseded: bool },
}

/// Identifies one parked long-poll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PollTicket(u64);

/// `BAD_EVENT_QUEUE_ID`, with the lowercase text of Zulip before 9.0 (`Bad event queue id:`),
/// which zulip-terminal 0.7.0 matches to decide to register again.
fn bad_event_queue_id(queue_id: &str) -> ApiError {
    ApiError::new(ErrorCode::BadEventQueueId, format!("Bad event queue id: {queue_id}"))
        .with("queue_id", queue_id)
}

impl Registry {
    /// A registry with no queues (at first start; later ones restore the saved registry).
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Sets how long a queue may stay idle (default [`DEFAULT_EVENT_QUEUE_TIMEOUT_SECS`]), for
    /// every queue, those already registered included.
    pub fn set_queue_timeout(&mut self, seconds: i64) {
        self.queue_timeout = seconds.max(1);
        let slots: Vec<u32> = (0..self.slots.len() as u32).collect();
        for slot in slots {
            self.reschedule(slot);
        }
    }

    /// Creates a queue under `queue_id` (random, from the host). Fails for `all_public_streams`
    /// from a guest, for a narrow the event system cannot evaluate, and if the id is taken.
    pub fn register(
        &mut self,
        queue_id: String,
        owner: QueueOwner,
        options: QueueOptions,
        now: i64,
    ) -> ApiResult<Registration> {
        if options.all_public_streams && owner.is_guest {
            return Err(ApiError::bad_request("User not authorized for this query"));
        }
        check_event_narrow(&options.narrow)?;
        if self.by_id.contains_key(&queue_id) {
            return Err(ApiError::internal("event queue id already in use"));
        }
        self.make_room_for(owner.user);
        self.insert(Queue::new(queue_id.clone(), owner, options, now, self.queue_timeout));
        Ok(Registration { queue_id, last_event_id: -1 })
    }

    /// Delivers a committed change to every queue that wants it. Returns the ids of the queues
    /// that received events: the host wakes the polls parked on them. A body that is not a
    /// JSON object is not an event and is delivered nowhere.
    pub fn push(&mut self, notification: &Notification, now: i64) -> Vec<String> {
        match notification {
            Notification::Message { realm, variants, receivers, stream_id, public_stream, origin } => {
                let delivery = MessageDelivery {
                    realm: *realm,
                    variants,
                    receivers,
                    public_stream: *public_stream && stream_id.is_some(),
                    origin: origin.as_ref(),
                };
                self.push_message(delivery, now)
            }
            Notification::Other { users, body } => {
                let targets = self.queues_of(users);
                self.push_body(targets, body, now)
            }
            Notification::PerUser { users, body } => {
                let mut woken = Vec::new();
                for (user, fields) in users {
                    let mut personal = body.clone();
                    if let Value::Object(personal) = &mut personal {
                        personal.extend(fields.iter().map(|(k, v)| (k.clone(), v.clone())));
                    }
                    let targets = self.queues_of(std::slice::from_ref(user));
                    woken.extend(self.push_body(targets, &personal, now));
                }
                woken
            }
        }
    }

    /// Delivers `body` to every queue that accepts it (Zulip's `restart` event at start-up).
    pub fn broadcast(&mut self, body: &Value, now: i64) -> Vec<String> {
        let targets: Vec<u32> = self.by_id.values().copied().collect();
        self.push_body(targets, body, now)
    }

    /// GET /events: acknowledges events up to `last_event_id`, then answers with what is queued
    /// or, with nothing queued and `dont_block` false, parks the poll.
    pub fn get_events(
        &mut self,
        queue_id: &str,
        user: UserId,
        last_event_id: Option<i64>,
        dont_block: bool,
        now: i64,
    ) -> ApiResult<Poll> {
        let slot = self.owned_slot(queue_id, user, now)?;
        let ticket = PollTicket(self.next_ticket);
        let poll = self.queue_mut(slot).and_then(|queue| {
            queue.last_active = queue.last_active.max(now);
            if let Some(last) = last_event_id {
                queue.acknowledge(last)?;
            }
            Ok(if !queue.events.is_empty() || dont_block {
                Poll::Ready(queue.contents())
            } else {
                let earlier = queue.parked.replace(Parked { ticket: ticket.0, since: now });
                Poll::Wait { ticket, superseded: earlier.is_some() }
            })
        });
        if matches!(poll, Ok(Poll::Wait { .. })) {
            self.next_ticket += 1;
        }
        self.reschedule(slot);
        poll
    }

    /// What a finished poll answers with: the queue's events as a fetch with `dont_block` and
    /// nothing acknowledged would return them, made whole only when serialized (so that the
    /// host can answer thousands of polls under its lock cheaply).
    pub fn pending(&mut self, queue_id: &str, user: UserId, now: i64) -> ApiResult<PendingEvents> {
        let slot = self.owned_slot(queue_id, user, now)?;
        let pending = self.queue_mut(slot).map(|queue| {
            queue.last_active = queue.last_active.max(now);
            queue.pending()
        });
        self.reschedule(slot);
        pending
    }

    /// Whether the queue holds events its client has not acknowledged. A host that answers
    /// woken polls some time after [`Registry::push`] checks this first: a poll parked since
    /// then, having acknowledged those events, has nothing to be woken for.
    pub fn has_events(&self, queue_id: &str) -> bool {
        let slot = self.by_id.get(queue_id).and_then(|&slot| self.slots.get(slot as usize));
        slot.and_then(Option::as_ref).is_some_and(|queue| !queue.events.is_empty())
    }

    /// The poll under `ticket` stopped waiting (woken, timed out by the host, or its client went
    /// away). Returns whether it was still the queue's waiting poll; if not, it was finished (by
    /// an event, a heartbeat or a newer poll) and the host should answer it with a fetch with
    /// `dont_block`.
    pub fn unpark(&mut self, queue_id: &str, ticket: PollTicket, now: i64) -> bool {
        let Some(&slot) = self.by_id.get(queue_id) else { return false };
        let Ok(queue) = self.queue_mut(slot) else { return false };
        queue.last_active = queue.last_active.max(now);
        let current = queue.parked.is_some_and(|p| p.ticket == ticket.0);
        if current {
            queue.parked = None;
        }
        self.reschedule(slot);
        current
    }

    /// DELETE /events. A poll parked on the queue is the host's to answer.
    pub fn delete(&mut self, queue_id: &str, user: UserId) -> ApiResult<()> {
        let slot = self.by_id.get(queue_id).copied().ok_or_else(|| bad_event_queue_id(queue_id))?;
        if self.queue_mut(slot)?.owner.user != user {
            return Err(bad_event_queue_id(queue_id));
        }
        self.remove(slot);
        Ok(())
    }

    /// The next instant [`Registry::handle_timeout`] has work: a heartbeat or an expiry.
    pub fn poll_timeout(&self) -> Option<i64> {
        self.timers.first().map(|&(due, _)| due)
    }

    /// Sends the heartbeats that are due and discards expired queues. Returns the ids of queues
    /// that got a heartbeat: the host wakes their polls.
    pub fn handle_timeout(&mut self, now: i64) -> Vec<String> {
        let mut woken = Vec::new();
        let timeout = self.queue_timeout;
        while let Some(&(due, slot)) = self.timers.first() {
            if due > now {
                break;
            }
            let Ok(queue) = self.queue_mut(slot) else {
                self.timers.remove(&(due, slot));
                continue;
            };
            if queue.timer != due {
                // Not this queue's entry (it has exactly one): drop it.
                self.timers.remove(&(due, slot));
            } else if queue.due(timeout) != due {
                // Out of date: move it to the queue's real due time, and look again.
                self.reschedule(slot);
            } else if queue.parked.is_some() {
                // The poll waited `HEARTBEAT_MIN_FREQ_SECS`; the heartbeat finishes it.
                if self.deliver(slot, Stored::Heartbeat, now) {
                    woken.push(queue_id(&self.slots, slot));
                }
            } else {
                // Idle for `DEFAULT_EVENT_QUEUE_TIMEOUT_SECS` with no poll waiting.
                self.remove(slot);
            }
        }
        woken
    }

    /// Whether a queue exists.
    pub fn contains(&self, queue_id: &str) -> bool {
        self.by_id.contains_key(queue_id)
    }

    /// Discards every queue, for a host that can no longer give them every event (it lost
    /// some): their ids answer BAD_EVENT_QUEUE_ID from now on, and their clients register
    /// again, as after a crash. Returns their ids. The queue timeout carries on.
    pub fn discard_all(&mut self) -> Vec<String> {
        let ids = self.by_id.keys().cloned().collect();
        *self = Registry {
            next_ticket: self.next_ticket,
            queue_timeout: self.queue_timeout,
            ..Registry::default()
        };
        ids
    }

    /// How many queues exist.
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    /// Whether no queue exists.
    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    // Delivery.

    fn push_message(&mut self, delivery: MessageDelivery<'_>, now: i64) -> Vec<String> {
        let MessageDelivery { realm, variants, receivers, public_stream, origin } = delivery;
        // Later entries win: a receiver's own flags replace the empty flags of the firehose.
        let mut targets: BTreeMap<u32, MessageFlags> = BTreeMap::new();
        if public_stream {
            for &slot in self.all_public.get(&realm).into_iter().flatten() {
                targets.insert(slot, MessageFlags::empty());
            }
        }
        for (user, flags) in receivers {
            for &slot in self.by_user.get(user).into_iter().flatten() {
                targets.insert(slot, *flags);
            }
        }
        // The queue the message was sent from, if it is still there and its sender's. Zulip
        // matches the queue id alone; another user's queue (whose id the sender would have had
        // to learn) has no local echo to replace and no business with the sender's local ids.
        let sender_slot = origin.and_then(|origin| {
            let slot = *self.by_id.get(&origin.queue_id)?;
            let queue = self.slots.get(slot as usize)?.as_ref()?;
            (queue.owner.user == origin.sender).then_some((slot, origin.local_id.as_str()))
        });
        let mut woken = Vec::new();
        for (slot, flags) in targets {
            let Some(queue) = self.slots.get(slot as usize).and_then(Option::as_ref) else { continue };
            if queue.is_expired(now, self.queue_timeout) || !message_wanted(&queue.options, variants, flags) {
                continue;
            }
            let event = match sender_slot {
                Some((sender_slot, local_id)) if sender_slot == slot => {
                    let local_message_id = local_id.to_owned();
                    Stored::EchoedMessage(Box::new(Echoed {
                        variants: variants.clone(),
                        flags,
                        local_message_id,
                    }))
                }
                _ => Stored::Message { variants: variants.clone(), flags },
            };
            if self.deliver(slot, event, now) {
                woken.push(queue_id(&self.slots, slot));
            }
        }
        woken
    }

    fn push_body(&mut self, targets: Vec<u32>, body: &Value, now: i64) -> Vec<String> {
        // An event is an object; anything else is a host bug, and is not delivered.
        if !body.is_object() {
            return Vec::new();
        }
        let is_user_settings = body.get("type").and_then(Value::as_str) == Some("user_settings");
        // Bodies per distinct shape, shared by the queues of that shape.
        let mut shaped: Vec<(ShapeKey, Vec<Arc<Value>>)> = Vec::new();
        let mut woken = Vec::new();
        for slot in targets {
            let Some(queue) = self.slots.get(slot as usize).and_then(Option::as_ref) else { continue };
            if queue.is_expired(now, self.queue_timeout) {
                continue;
            }
            let key = ShapeKey {
                caps: queue.options.capabilities,
                slim_presence: queue.options.slim_presence,
                email: is_user_settings.then(|| queue.owner.email.clone()),
            };
            let index = match shaped.iter().position(|(k, _)| *k == key) {
                Some(i) => i,
                None => {
                    let shape = Shape {
                        caps: key.caps,
                        slim_presence: key.slim_presence,
                        email: key.email.as_deref(),
                    };
                    let bodies = expand(body, &shape).into_iter().map(Arc::new).collect();
                    shaped.push((key, bodies));
                    shaped.len() - 1
                }
            };
            let accepted: Vec<Arc<Value>> =
                shaped[index].1.iter().filter(|b| accepts(&queue.options, b)).cloned().collect();
            let mut got_any = false;
            for body in accepted {
                got_any |= self.deliver(slot, Stored::Other(body), now);
            }
            if got_any && self.slots.get(slot as usize).is_some_and(Option::is_some) {
                woken.push(queue_id(&self.slots, slot));
            }
        }
        woken
    }

    /// Appends one event. A full queue is discarded instead: its client is far behind or gone,
    /// and will get `BAD_EVENT_QUEUE_ID` and register again, which resynchronizes it, where
    /// silently dropping events would leave it wrong.
    fn deliver(&mut self, slot: u32, event: Stored, now: i64) -> bool {
        let Ok(queue) = self.queue_mut(slot) else { return false };
        if queue.push(event, now).is_err() {
            self.remove(slot);
            return false;
        }
        self.reschedule(slot);
        true
    }

    /// The queues of these users, each once, in the order the users are listed.
    fn queues_of(&self, users: &[UserId]) -> Vec<u32> {
        let mut seen = BTreeSet::new();
        users
            .iter()
            .flat_map(|user| self.by_user.get(user).into_iter().flatten().copied())
            .filter(|slot| seen.insert(*slot))
            .collect()
    }

    // Indexes.

    fn owned_slot(&mut self, queue_id: &str, user: UserId, now: i64) -> ApiResult<u32> {
        let slot = self.by_id.get(queue_id).copied().ok_or_else(|| bad_event_queue_id(queue_id))?;
        let timeout = self.queue_timeout;
        let queue = self.queue_mut(slot)?;
        if queue.owner.user != user {
            return Err(bad_event_queue_id(queue_id));
        }
        // Expiry is exact even if the host has not called `handle_timeout` yet.
        if queue.is_expired(now, timeout) {
            self.remove(slot);
            return Err(bad_event_queue_id(queue_id));
        }
        Ok(slot)
    }

    fn queue_mut(&mut self, slot: u32) -> ApiResult<&mut Queue> {
        self.slots
            .get_mut(slot as usize)
            .and_then(Option::as_mut)
            .ok_or_else(|| ApiError::internal("event queue index out of step"))
    }

    pub(crate) fn insert(&mut self, queue: Queue) -> u32 {
        let slot = match self.free.pop() {
            Some(slot) => slot,
            None => {
                self.slots.push(None);
                // Slots are bounded by memory long before u32.
                (self.slots.len() - 1) as u32
            }
        };
        self.by_id.insert(queue.id.clone(), slot);
        self.by_user.entry(queue.owner.user).or_default().push(slot);
        if queue.options.all_public_streams {
            self.all_public.entry(queue.owner.realm).or_default().push(slot);
        }
        let mut queue = queue;
        queue.timer = queue.due(self.queue_timeout);
        self.timers.insert((queue.timer, slot));
        self.slots[slot as usize] = Some(queue);
        slot
    }

    /// Discards a user's queues beyond [`MAX_QUEUES_PER_USER`] - 1, those idle longest first
    /// (waiting polls count as active), so a new one fits: a client that registers in a loop
    /// and never polls replaces its own queues instead of growing the registry.
    fn make_room_for(&mut self, user: UserId) {
        loop {
            let Some(slots) = self.by_user.get(&user) else { return };
            if slots.len() < MAX_QUEUES_PER_USER {
                return;
            }
            let idlest = slots.iter().copied().min_by_key(|&slot| {
                let queue = self.slots.get(slot as usize).and_then(Option::as_ref);
                queue.map_or((false, i64::MIN), |q| (q.parked.is_some(), q.last_active))
            });
            match idlest {
                Some(slot) => self.remove(slot),
                None => return,
            }
        }
    }

    fn remove(&mut self, slot: u32) {
        let Some(queue) = self.slots.get_mut(slot as usize).and_then(Option::take) else { return };
        self.by_id.remove(&queue.id);
        unlist(&mut self.by_user, queue.owner.user, slot);
        unlist(&mut self.all_public, queue.owner.realm, slot);
        self.timers.remove(&(queue.timer, slot));
        self.free.push(slot);
    }

    fn reschedule(&mut self, slot: u32) {
        let Some(queue) = self.slots.get_mut(slot as usize).and_then(Option::as_mut) else { return };
        let due = queue.due(self.queue_timeout);
        if due != queue.timer {
            self.timers.remove(&(queue.timer, slot));
            self.timers.insert((due, slot));
            queue.timer = due;
        }
    }

    pub(crate) fn queues(&self) -> impl Iterator<Item = &Queue> {
        self.by_id.values().filter_map(|&slot| self.slots.get(slot as usize).and_then(Option::as_ref))
    }
}

/// A message notification, as [`Registry::push`] delivers it.
struct MessageDelivery<'a> {
    realm: RealmId,
    variants: &'a MessageVariants,
    receivers: &'a [(UserId, MessageFlags)],
    /// A message of a public channel: `all_public_streams` queues get it too.
    public_stream: bool,
    origin: Option<&'a SendOrigin>,
}

/// What a body is reshaped by, owned so the cache outlives the borrow of the queue.
#[derive(PartialEq)]
struct ShapeKey {
    caps: ClientCapabilities,
    slim_presence: bool,
    email: Option<String>,
}

/// Whether a queue takes a message event: `event_types`, then its narrow, evaluated on the
/// message as this queue would receive it (Zulip's `accepts_event` on the finalized payload).
fn message_wanted(options: &QueueOptions, variants: &MessageVariants, flags: MessageFlags) -> bool {
    if !wanted_type(options, "message") {
        return false;
    }
    if options.narrow.is_empty() {
        return true;
    }
    let message = variants.get(options.apply_markdown, options.client_gravatar);
    let empty_topic = message.get("subject").and_then(Value::as_str) == Some("");
    if empty_topic && !options.capabilities.empty_topic_name {
        let mut named = message.clone();
        name_empty_message_topic(&mut named);
        return message_matches(&options.narrow, &named, flags);
    }
    message_matches(&options.narrow, message, flags)
}

fn queue_id(slots: &[Option<Queue>], slot: u32) -> String {
    slots.get(slot as usize).and_then(Option::as_ref).map(|q| q.id.clone()).unwrap_or_default()
}

fn unlist<K: Ord>(index: &mut BTreeMap<K, Vec<u32>>, key: K, slot: u32) {
    if let Some(slots) = index.get_mut(&key) {
        slots.retain(|&s| s != slot);
        if slots.is_empty() {
            index.remove(&key);
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;
    use crate::ids::StreamId;

    impl Registry {
        /// Every index agrees with the queues, and every queue has exactly one timer entry, at
        /// its due time.
        fn check_indexes(&self) {
            let live: Vec<u32> =
                (0..self.slots.len() as u32).filter(|&s| self.slots[s as usize].is_some()).collect();
            assert_eq!(live.len() + self.free.len(), self.slots.len());
            assert!(self.free.iter().all(|&s| self.slots[s as usize].is_none()));
            assert_eq!(self.by_id.len(), live.len());
            assert_eq!(self.timers.len(), live.len());
            for &slot in &live {
                let queue = self.slots[slot as usize].as_ref().expect("live");
                assert_eq!(self.by_id.get(&queue.id), Some(&slot));
                assert!(self.by_user[&queue.owner.user].contains(&slot));
                assert_eq!(
                    self.all_public.get(&queue.owner.realm).is_some_and(|s| s.contains(&slot)),
                    queue.options.all_public_streams
                );
                assert_eq!(queue.timer, queue.due(self.queue_timeout));
                assert!(self.timers.contains(&(queue.timer, slot)));
            }
            let listed: usize = self.by_user.values().map(Vec::len).sum();
            assert_eq!(listed, live.len());
        }
    }

    proptest! {
        #[test]
        fn indexes_stay_consistent(ops in proptest::collection::vec((0..8u8, 0..4u8, 0..3u8, 0..60i64), 0..80)) {
            let mut reg = Registry::new();
            let mut now = 0;
            let mut tickets = Vec::new();
            for (op, queue, user, secs) in ops {
                let id = format!("q{queue}");
                let user = UserId(u64::from(user));
                match op {
                    0 => {
                        let owner = QueueOwner { user, realm: RealmId(u64::from(queue % 2)), email: String::new(), is_guest: false };
                        let options = QueueOptions { all_public_streams: queue % 3 == 0, ..QueueOptions::default() };
                        let _ = reg.register(id, owner, options, now);
                    }
                    1 => {
                        if let Ok(Poll::Wait { ticket, .. }) = reg.get_events(&id, user, None, secs % 2 == 0, now) {
                            tickets.push((id, ticket));
                        }
                    }
                    2 => {
                        if let Some((id, ticket)) = tickets.pop() {
                            reg.unpark(&id, ticket, now);
                        }
                    }
                    3 => {
                        reg.push(&Notification::Other { users: vec![user], body: json!({"type": "reaction"}) }, now);
                        reg.push(&Notification::Message {
                            realm: RealmId(0),
                            variants: MessageVariants::uniform(json!({"type": "stream"})),
                            receivers: vec![(user, MessageFlags::empty())],
                            stream_id: Some(StreamId(1)),
                            public_stream: true,
                            origin: None,
                        }, now);
                    }
                    4 => { let _ = reg.delete(&id, user); }
                    5 => now += secs * 20,
                    6 => { reg.discard_all(); }
                    _ => { reg.handle_timeout(now); }
                }
                reg.check_indexes();
            }
        }
    }

    #[test]
    fn discarded_queues_answer_bad_event_queue_id_and_new_ones_work() {
        let mut reg = Registry::new();
        reg.set_queue_timeout(30);
        let owner =
            || QueueOwner { user: UserId(1), realm: RealmId(1), email: String::new(), is_guest: false };
        let _ = reg.register("a.1".to_owned(), owner(), QueueOptions::default(), 0);
        assert_eq!(reg.discard_all(), vec!["a.1".to_owned()]);
        assert!(reg.is_empty());
        let Err(error) = reg.get_events("a.1", UserId(1), None, true, 1) else { panic!("the queue is gone") };
        assert_eq!(error.code, crate::error::ErrorCode::BadEventQueueId);
        let _ = reg.register("a.2".to_owned(), owner(), QueueOptions::default(), 1);
        assert!(reg.contains("a.2"));
        reg.check_indexes();
    }
}
