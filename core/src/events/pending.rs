//! A queue's events as its client will receive them, made whole only when serialized.
//!
//! Answering thousands of waiting polls for one message must be cheap for whoever answers
//! them (the host holds the registry's lock meanwhile): taking [`PendingEvents`] copies a few
//! handles per event, and each poll then writes its own JSON (the shared message dict with
//! this user's flags) straight from the shared copy, on its own thread, without cloning it.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

use super::EMPTY_TOPIC_FALLBACK_NAME;
use super::notification::MessageVariants;
use super::options::QueueOptions;
use super::queue::{Queued, Stored};
use crate::model::MessageFlags;

/// Events taken from a queue (they stay queued until acknowledged), with how this client
/// wants them shaped.
#[derive(Clone, Debug)]
pub struct PendingEvents {
    events: Vec<Queued>,
    shape: Shape,
}

/// The register options that shape a message event.
#[derive(Clone, Copy, Debug)]
struct Shape {
    apply_markdown: bool,
    client_gravatar: bool,
    /// Leave an empty topic empty; otherwise it reads [`EMPTY_TOPIC_FALLBACK_NAME`].
    empty_topic_name: bool,
}

impl PendingEvents {
    pub(crate) fn new<'a>(events: impl Iterator<Item = &'a Queued>, options: &QueueOptions) -> PendingEvents {
        PendingEvents {
            events: events.cloned().collect(),
            shape: Shape {
                apply_markdown: options.apply_markdown,
                client_gravatar: options.client_gravatar,
                empty_topic_name: options.capabilities.empty_topic_name,
            },
        }
    }

    pub fn len(&self) -> usize {
        self.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// The events as JSON values.
    pub fn into_values(self) -> Vec<Value> {
        match serde_json::to_value(&self) {
            Ok(Value::Array(events)) => events,
            // Serializing into a `Value` cannot fail for these types.
            _ => Vec::new(),
        }
    }
}

impl Serialize for PendingEvents {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.events.len()))?;
        for queued in &self.events {
            seq.serialize_element(&EventOut { queued, shape: self.shape })?;
        }
        seq.end()
    }
}

/// One event with its `id`.
struct EventOut<'a> {
    queued: &'a Queued,
    shape: Shape,
}

impl Serialize for EventOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let id = self.queued.id;
        match &self.queued.event {
            Stored::Message { variants, flags } => {
                message_event(serializer, MessageOut { variants, flags: *flags, shape: self.shape }, None, id)
            }
            Stored::EchoedMessage(echoed) => {
                let message =
                    MessageOut { variants: &echoed.variants, flags: echoed.flags, shape: self.shape };
                message_event(serializer, message, Some(&echoed.local_message_id), id)
            }
            Stored::Other(body) => match body.as_ref() {
                Value::Object(fields) => {
                    let mut map = serializer.serialize_map(Some(fields.len() + 1))?;
                    for (key, value) in fields.iter().filter(|(key, _)| key.as_str() != "id") {
                        map.serialize_entry(key, value)?;
                    }
                    map.serialize_entry("id", &id)?;
                    map.end()
                }
                other => other.serialize(serializer),
            },
            Stored::Heartbeat => {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("type", "heartbeat")?;
                map.serialize_entry("id", &id)?;
                map.end()
            }
        }
    }
}

/// `{"type": "message", "message": {...}, "flags": [...], "id": N}`: the shape this client
/// asked for, with this user's flags (also inside the message, where GET /messages has them),
/// and `local_message_id` for the queue the message was sent from.
fn message_event<S: Serializer>(
    serializer: S,
    message: MessageOut<'_>,
    local_message_id: Option<&str>,
    id: i64,
) -> Result<S::Ok, S::Error> {
    let names = message.flags.names();
    let mut map = serializer.serialize_map(Some(4 + usize::from(local_message_id.is_some())))?;
    map.serialize_entry("type", "message")?;
    map.serialize_entry("message", &message)?;
    map.serialize_entry("flags", &names)?;
    if let Some(local_message_id) = local_message_id {
        map.serialize_entry("local_message_id", local_message_id)?;
    }
    map.serialize_entry("id", &id)?;
    map.end()
}

/// The shared message dict, with this user's `flags` and, for clients without
/// `empty_topic_name`, the empty topic named (Zulip's `MessageDict.finalize_payload`).
struct MessageOut<'a> {
    variants: &'a MessageVariants,
    flags: MessageFlags,
    shape: Shape,
}

impl Serialize for MessageOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let message = self.variants.get(self.shape.apply_markdown, self.shape.client_gravatar);
        let Value::Object(fields) = message else { return message.serialize(serializer) };
        let mut map = serializer.serialize_map(Some(fields.len() + 1))?;
        for (key, value) in fields.iter().filter(|(key, _)| key.as_str() != "flags") {
            if key == "subject" && !self.shape.empty_topic_name && value.as_str() == Some("") {
                map.serialize_entry(key, EMPTY_TOPIC_FALLBACK_NAME)?;
            } else {
                map.serialize_entry(key, value)?;
            }
        }
        map.serialize_entry("flags", &self.flags.names())?;
        map.end()
    }
}
