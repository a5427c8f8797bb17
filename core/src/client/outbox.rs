//! Messages being sent: each is shown at once as a local echo and sent in order. A send the
//! server never answered is sent again with the same `queue_id` and `local_id`, which the
//! server remembers, so it is posted once however often it is retried.

use serde::{Deserialize, Serialize};

use super::request::{HttpRequest, Method};
use super::types::{Destination, OutboxEntry};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Outbox {
    entries: Vec<OutboxEntry>,
    /// Numbers local ids, which are unique within the engine's life and its snapshots.
    counter: u64,
}

impl Outbox {
    /// Adds a message to send; returns its local id.
    pub fn push(
        &mut self,
        queue_id: &str,
        destination: Destination,
        content: String,
        html: String,
        now: i64,
    ) -> String {
        self.counter += 1;
        // Zulip's web app sends local ids that parse as numbers ("12.01"); so do we.
        let local_id = format!("{}.01", self.counter);
        self.entries.push(OutboxEntry {
            local_id: local_id.clone(),
            queue_id: queue_id.to_owned(),
            destination,
            content,
            html,
            timestamp: now,
            message_id: None,
            error: None,
        });
        local_id
    }

    pub fn entries(&self) -> &[OutboxEntry] {
        &self.entries
    }

    /// The first message still to send, with its request; messages go strictly in order, so a
    /// refused one does not hold back those after it but an unanswered one does.
    /// A message written before any queue existed takes `queue_id` as its key when first sent.
    pub fn next_request(&mut self, queue_id: &str) -> Option<(String, HttpRequest)> {
        let entry = self.entries.iter_mut().find(|e| e.message_id.is_none() && e.error.is_none())?;
        if entry.queue_id.is_empty() {
            entry.queue_id = queue_id.to_owned();
        }
        Some((entry.local_id.clone(), send_request(entry)))
    }

    /// The server took the message: the echo waits for its event under the new id.
    pub fn sent(&mut self, local_id: &str, message_id: u64) -> bool {
        match self.entries.iter_mut().find(|e| e.local_id == local_id) {
            Some(entry) => {
                entry.message_id = Some(message_id);
                true
            }
            None => false,
        }
    }

    /// The server refused the message: it stays, with the reason, until the user drops it.
    pub fn refused(&mut self, local_id: &str, why: String) -> bool {
        match self.entries.iter_mut().find(|e| e.local_id == local_id) {
            Some(entry) => {
                entry.error = Some(why);
                true
            }
            None => false,
        }
    }

    /// A message event arrived: its echo, known by the local id the server copied into the
    /// event for our queue or by the id the server answered, is done.
    pub fn arrived(&mut self, message_id: u64, local_id: Option<&str>) -> bool {
        let before = self.entries.len();
        self.entries.retain(|e| e.message_id != Some(message_id) && local_id.is_none_or(|l| l != e.local_id));
        before != self.entries.len()
    }

    /// Drops a refused (or not yet sent) message.
    pub fn remove(&mut self, local_id: &str) -> bool {
        let before = self.entries.len();
        self.entries.retain(|e| e.local_id != local_id);
        before != self.entries.len()
    }

    /// After the state was fetched anew: messages the server answered for but whose events
    /// died with the old queue are in the new state (and any fetch of them); their echoes go.
    pub fn forget_sent(&mut self) {
        self.entries.retain(|e| e.message_id.is_none());
    }
}

/// `POST /messages` for an entry, with the dedup key.
fn send_request(entry: &OutboxEntry) -> HttpRequest {
    let request = HttpRequest::new(Method::Post, "/api/v1/messages")
        .param("content", entry.content.clone())
        .param("queue_id", entry.queue_id.clone())
        .param("local_id", entry.local_id.clone())
        .param("read_by_sender", "true");
    match &entry.destination {
        Destination::Channel { stream_id, topic } => {
            request.param("type", "stream").param("to", stream_id.to_string()).param("topic", topic.clone())
        }
        Destination::Direct { user_ids } => {
            request.param("type", "private").json_param("to", &serde_json::json!(user_ids))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn channel() -> Destination {
        Destination::Channel { stream_id: 3, topic: "lunch".into() }
    }

    #[test]
    fn messages_go_in_order_and_retries_reuse_their_key() {
        let mut outbox = Outbox::default();
        let first = outbox.push("q1", channel(), "one".into(), String::new(), 10);
        let second = outbox.push("q1", channel(), "two".into(), String::new(), 11);
        let (local, request) = outbox.next_request("q1").expect("something to send");
        assert_eq!(local, first);
        assert_eq!(
            outbox.next_request("q1").map(|(l, r)| (l, r.params)),
            Some((first.clone(), request.params))
        );
        assert!(outbox.sent(&first, 40));
        assert_eq!(outbox.next_request("q1").map(|(l, _)| l), Some(second.clone()));
        // The first one's event arrives by id, the second's by local id.
        assert!(outbox.arrived(40, None));
        assert!(outbox.arrived(41, Some(&second)));
        assert!(outbox.entries().is_empty());
    }

    #[test]
    fn a_refused_message_stays_with_its_reason_and_does_not_block() {
        let mut outbox = Outbox::default();
        let bad = outbox.push("q", channel(), "x".into(), String::new(), 1);
        let good = outbox.push("q", channel(), "y".into(), String::new(), 2);
        outbox.refused(&bad, "Channel does not exist".into());
        assert_eq!(outbox.next_request("q1").map(|(l, _)| l), Some(good));
        assert_eq!(outbox.entries()[0].error.as_deref(), Some("Channel does not exist"));
    }
}
