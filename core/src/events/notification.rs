//! What the host hands the registry after a commit: something happened, here is its data and
//! who may see it.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::ids::{RealmId, StreamId, UserId};
use crate::model::{MessageFlags, SendOrigin};

/// A committed change, for delivery to the queues that want it. Serializable: with several
/// servers on one database, the server that commits a change hands its notifications to the
/// others as JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Notification {
    /// A new message.
    Message {
        /// The organization the message was sent in (whose `all_public_streams` queues may get it).
        realm: RealmId,
        /// The message dict (spec 2.3) in the shapes clients ask for. Its `flags` is a placeholder:
        /// each queue puts its user's flags there.
        variants: MessageVariants,
        /// Who received the message, with their flags (the sender included, as Zulip does).
        receivers: Vec<(UserId, MessageFlags)>,
        /// The channel, for channel messages.
        stream_id: Option<StreamId>,
        /// A channel message of a public channel: `all_public_streams` queues of non-receivers get
        /// it too (with no flags).
        public_stream: bool,
        /// The send's event queue and local id, if the client named them: the event for that
        /// queue, if it is the sender's, carries `local_message_id` (Zulip's `sender_queue_id`
        /// and `local_id`).
        origin: Option<SendOrigin>,
    },
    /// Any other event: its body (`type` and payload, no `id`) and its recipients.
    Other { users: Vec<UserId>, body: Value },
    /// An event whose recipients each see some fields of their own, such as `update_message`
    /// with each user's `flags` (Zulip's `users: [{id, flags}]`): each user gets `body` with
    /// their fields added.
    PerUser { users: Vec<(UserId, Map<String, Value>)>, body: Value },
}

/// One message dict in the four shapes clients can ask for, indexed by `(apply_markdown,
/// client_gravatar)`. Cloning is cheap: every queue that receives the message shares one copy,
/// and equal shapes are stored once.
#[derive(Clone, Debug, PartialEq)]
pub struct MessageVariants(Arc<Shapes>);

impl Serialize for MessageVariants {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for MessageVariants {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Shapes::deserialize(deserializer).map(MessageVariants::from_shapes)
    }
}

/// The distinct shapes and, for each of the four requests, which one it gets.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "ShapesWire")]
pub(crate) struct Shapes {
    shapes: Vec<Value>,
    /// Indexed by [`slot`]; every entry is a valid index into `shapes`.
    pick: [u8; 4],
}

/// [`Shapes`] before its indexes are checked.
#[derive(Deserialize)]
struct ShapesWire {
    shapes: Vec<Value>,
    pick: [u8; 4],
}

impl TryFrom<ShapesWire> for Shapes {
    type Error = String;

    fn try_from(wire: ShapesWire) -> Result<Self, String> {
        if wire.pick.iter().all(|&i| usize::from(i) < wire.shapes.len()) {
            Ok(Shapes { shapes: wire.shapes, pick: wire.pick })
        } else {
            Err("message shape index out of range".to_owned())
        }
    }
}

fn slot(apply_markdown: bool, client_gravatar: bool) -> usize {
    usize::from(apply_markdown) << 1 | usize::from(client_gravatar)
}

impl MessageVariants {
    /// Builds the four shapes by calling `shape(apply_markdown, client_gravatar)` for each.
    pub fn new(mut shape: impl FnMut(bool, bool) -> Value) -> Self {
        let mut shapes: Vec<Value> = Vec::with_capacity(4);
        let mut pick = [0u8; 4];
        for apply_markdown in [false, true] {
            for client_gravatar in [false, true] {
                let value = shape(apply_markdown, client_gravatar);
                let index = match shapes.iter().position(|s| *s == value) {
                    Some(i) => i,
                    None => {
                        shapes.push(value);
                        shapes.len() - 1
                    }
                };
                // At most four shapes, so the index fits.
                pick[slot(apply_markdown, client_gravatar)] = index as u8;
            }
        }
        MessageVariants(Arc::new(Shapes { shapes, pick }))
    }

    /// One shape for every client (tests, and messages whose shapes do not differ).
    pub fn uniform(message: Value) -> Self {
        MessageVariants(Arc::new(Shapes { shapes: vec![message], pick: [0; 4] }))
    }

    /// The shape a client with these register options receives.
    pub fn get(&self, apply_markdown: bool, client_gravatar: bool) -> &Value {
        let index = usize::from(self.0.pick[slot(apply_markdown, client_gravatar)]);
        // `pick` is checked against `shapes` wherever a `Shapes` is made.
        &self.0.shapes[index]
    }

    /// Whether two handles share one copy (what the registry's saved form deduplicates on).
    pub(crate) fn ptr(&self) -> *const Shapes {
        Arc::as_ptr(&self.0)
    }

    pub(crate) fn shapes(&self) -> &Shapes {
        &self.0
    }

    pub(crate) fn from_shapes(shapes: Shapes) -> Self {
        MessageVariants(Arc::new(shapes))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn equal_shapes_are_stored_once() {
        let variants =
            MessageVariants::new(|markdown, _| json!({"content": if markdown { "<p>x</p>" } else { "x" }}));
        assert_eq!(variants.shapes().shapes.len(), 2);
        assert_eq!(variants.get(true, false), &json!({"content": "<p>x</p>"}));
        assert_eq!(variants.get(true, true), &json!({"content": "<p>x</p>"}));
        assert_eq!(variants.get(false, true), &json!({"content": "x"}));
    }

    #[test]
    fn each_of_four_shapes_is_found() {
        let variants = MessageVariants::new(|m, g| json!([m, g]));
        for m in [false, true] {
            for g in [false, true] {
                assert_eq!(variants.get(m, g), &json!([m, g]));
            }
        }
    }

    #[test]
    fn bad_saved_indexes_are_refused() {
        let bad = json!({"shapes": [1], "pick": [0, 0, 1, 0]});
        assert!(serde_json::from_value::<Shapes>(bad).is_err());
    }
}
