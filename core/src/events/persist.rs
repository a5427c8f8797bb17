//! The registry's saved form: written by the host at shutdown and read back at start, so queues
//! and their event ids survive a restart, as Zulip's `dump_event_queues`/`load_event_queues` do.
//!
//! Message dicts and event bodies shared between queues are written once and referenced by
//! index, so a restored registry shares them again. Waiting polls are not saved: their
//! connections did not survive.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::notification::{MessageVariants, Shapes};
use super::options::{QueueOptions, check_event_narrow};
use super::queue::{Echoed, Queue, Queued, Stored};
use super::registry::{QueueOwner, Registry};
use crate::model::MessageFlags;

/// Changes whenever the saved form does; an unknown format is refused rather than misread.
const FORMAT: u32 = 1;

#[derive(Serialize)]
struct SavedRef<'a> {
    format: u32,
    messages: Vec<&'a Shapes>,
    bodies: Vec<&'a Value>,
    queues: Vec<SavedQueueRef<'a>>,
}

#[derive(Serialize)]
struct SavedQueueRef<'a> {
    id: &'a str,
    owner: &'a QueueOwner,
    options: &'a QueueOptions,
    next_event_id: i64,
    newest_pruned_id: i64,
    last_active: i64,
    events: Vec<SavedEvent>,
}

#[derive(Deserialize)]
struct Saved {
    format: u32,
    messages: Vec<Shapes>,
    bodies: Vec<Value>,
    queues: Vec<SavedQueue>,
}

#[derive(Deserialize)]
struct SavedQueue {
    id: String,
    owner: QueueOwner,
    options: QueueOptions,
    next_event_id: i64,
    newest_pruned_id: i64,
    last_active: i64,
    events: Vec<SavedEvent>,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum SavedEvent {
    Message {
        id: i64,
        message: usize,
        flags: MessageFlags,
        /// Absent from files written before local echoes were kept, and for every queue but the
        /// sender's: the format stays 1.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        local_message_id: Option<String>,
    },
    Other {
        id: i64,
        body: usize,
    },
    Heartbeat {
        id: i64,
    },
}

impl Serialize for Registry {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Shared values are numbered by address: one entry per `Arc`, however many queues hold it.
        let mut message_index: BTreeMap<*const Shapes, usize> = BTreeMap::new();
        let mut body_index: BTreeMap<*const Value, usize> = BTreeMap::new();
        let mut saved =
            SavedRef { format: FORMAT, messages: Vec::new(), bodies: Vec::new(), queues: Vec::new() };
        for queue in self.queues() {
            let mut events = Vec::with_capacity(queue.events.len());
            for Queued { id, event } in &queue.events {
                let id = *id;
                events.push(match event {
                    Stored::Message { variants, flags } => {
                        let message = number(&mut saved.messages, &mut message_index, variants);
                        SavedEvent::Message { id, message, flags: *flags, local_message_id: None }
                    }
                    Stored::EchoedMessage(echoed) => {
                        let message = number(&mut saved.messages, &mut message_index, &echoed.variants);
                        let local_message_id = Some(echoed.local_message_id.clone());
                        SavedEvent::Message { id, message, flags: echoed.flags, local_message_id }
                    }
                    Stored::Other(body) => {
                        let next = saved.bodies.len();
                        let index = *body_index.entry(Arc::as_ptr(body)).or_insert(next);
                        if index == next {
                            saved.bodies.push(body);
                        }
                        SavedEvent::Other { id, body: index }
                    }
                    Stored::Heartbeat => SavedEvent::Heartbeat { id },
                });
            }
            saved.queues.push(SavedQueueRef {
                id: &queue.id,
                owner: &queue.owner,
                options: &queue.options,
                next_event_id: queue.next_event_id,
                newest_pruned_id: queue.newest_pruned_id,
                last_active: queue.last_active,
                events,
            });
        }
        saved.serialize(serializer)
    }
}

/// The index of a message dict in the saved form, adding it the first time it is seen.
fn number<'a>(
    messages: &mut Vec<&'a Shapes>,
    index: &mut BTreeMap<*const Shapes, usize>,
    variants: &'a MessageVariants,
) -> usize {
    let next = messages.len();
    let found = *index.entry(variants.ptr()).or_insert(next);
    if found == next {
        messages.push(variants.shapes());
    }
    found
}

impl<'de> Deserialize<'de> for Registry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Registry, D::Error> {
        restore(Saved::deserialize(deserializer)?).map_err(D::Error::custom)
    }
}

fn restore(saved: Saved) -> Result<Registry, String> {
    if saved.format != FORMAT {
        return Err(format!("unknown event queue format {}", saved.format));
    }
    let messages: Vec<MessageVariants> =
        saved.messages.into_iter().map(MessageVariants::from_shapes).collect();
    let bodies: Vec<Arc<Value>> = saved.bodies.into_iter().map(Arc::new).collect();
    let mut registry = Registry::new();
    let mut ids = std::collections::BTreeSet::new();
    for q in saved.queues {
        if !ids.insert(q.id.clone()) {
            return Err(format!("event queue {} saved twice", q.id));
        }
        check_event_narrow(&q.options.narrow).map_err(|e| e.msg)?;
        let mut queue =
            Queue::new(q.id, q.owner, q.options, q.last_active, super::DEFAULT_EVENT_QUEUE_TIMEOUT_SECS);
        queue.next_event_id = q.next_event_id;
        queue.newest_pruned_id = q.newest_pruned_id;
        let mut previous = q.newest_pruned_id;
        for event in q.events {
            let (id, stored) = match event {
                SavedEvent::Message { id, message, flags, local_message_id } => {
                    let variants = messages.get(message).ok_or("message index out of range")?.clone();
                    let stored = match local_message_id {
                        Some(local_message_id) => {
                            Stored::EchoedMessage(Box::new(Echoed { variants, flags, local_message_id }))
                        }
                        None => Stored::Message { variants, flags },
                    };
                    (id, stored)
                }
                SavedEvent::Other { id, body } => {
                    (id, Stored::Other(bodies.get(body).ok_or("body index out of range")?.clone()))
                }
                SavedEvent::Heartbeat { id } => (id, Stored::Heartbeat),
            };
            // Ids must keep increasing past what was acknowledged, or fetching would misbehave.
            if id <= previous || id >= queue.next_event_id {
                return Err(format!("event ids out of order in queue {}", queue.id));
            }
            previous = id;
            queue.events.push_back(Queued { id, event: stored });
        }
        registry.insert(queue);
    }
    Ok(registry)
}
