//! `messages(narrow, anchor, before, after)`: answered by the cache when a window covers the
//! request, else fetched with `GET /messages` and merged.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::api::narrow::{Condition, RawTerm};

use super::cache::Fetched;
use super::narrow_terms::{CanonicalNarrow, canonical, decidable_locally};
use super::request::{HttpRequest, Method, Reply};
use super::types::{Anchor, ChatMessage, MessagesPage, NamedAnchor, NarrowTerm, ServerError};
use super::{Engine, unreachable};

/// A request for messages, canonical.
#[derive(Clone, Debug)]
pub struct MessagesQuery {
    pub narrow: CanonicalNarrow,
    pub anchor: Anchor,
    pub before: u32,
    pub after: u32,
}

impl Engine {
    /// Reads a `messages()` request; a narrow the server would refuse is refused here too.
    pub fn messages_query(
        &self,
        narrow: &[NarrowTerm],
        anchor: Anchor,
        before: u32,
        after: u32,
    ) -> Result<MessagesQuery, ServerError> {
        let narrow = canonical(narrow).map_err(|e| ServerError {
            code: e.code.wire().to_owned(),
            status: e.http_status(),
            msg: e.msg,
        })?;
        Ok(MessagesQuery { narrow, anchor, before, after })
    }

    /// The narrow's key, as `Changes.narrows` names it.
    pub fn narrow_key(&self, narrow: &[NarrowTerm]) -> Result<String, ServerError> {
        Ok(self.messages_query(narrow, Anchor::Id(0), 0, 0)?.narrow.key)
    }

    /// The answer from the cache, if it covers the request; local echoes of the narrow follow.
    pub fn cached_messages(&self, query: &MessagesQuery) -> Option<MessagesPage> {
        let mut page = self.cache.answer(&query.narrow.key, &query.anchor, query.before, query.after)?;
        if page.found_newest {
            page.messages.extend(self.echoes(&query.narrow.terms));
        }
        Some(page)
    }

    /// `GET /messages` for the request.
    pub fn messages_request(&self, query: &MessagesQuery) -> HttpRequest {
        let anchor = match &query.anchor {
            Anchor::Id(id) => id.to_string(),
            Anchor::Named(NamedAnchor::Newest) => "newest".into(),
            Anchor::Named(NamedAnchor::Oldest) => "oldest".into(),
            Anchor::Named(NamedAnchor::FirstUnread) => "first_unread".into(),
        };
        let narrow: Vec<Value> = query
            .narrow
            .terms
            .iter()
            .map(|t| serde_json::json!({"operator": t.operator, "operand": t.operand, "negated": t.negated}))
            .collect();
        HttpRequest::new(Method::Get, "/api/v1/messages")
            .param("anchor", anchor)
            .param("num_before", query.before.to_string())
            .param("num_after", query.after.to_string())
            .json_param("narrow", &Value::Array(narrow))
            .param("apply_markdown", "true")
            .param("client_gravatar", "false")
    }

    /// The server's answer: merged into the narrow's window, and returned as fetched.
    pub fn handle_messages(
        &mut self,
        query: &MessagesQuery,
        reply: Reply,
    ) -> Result<MessagesPage, ServerError> {
        let fields = match reply {
            Reply::Success(fields) => fields,
            Reply::Refused(error) => return Err(error),
            Reply::Unreachable(why) => return Err(unreachable(why)),
        };
        let messages: Vec<ChatMessage> = fields
            .get("messages")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|m| serde_json::from_value(m.clone()).ok())
            .collect();
        let flag = |key: &str| fields.get(key).and_then(Value::as_bool).unwrap_or(false);
        let (found_oldest, found_newest, found_anchor) =
            (flag("found_oldest"), flag("found_newest"), flag("found_anchor"));
        let anchor = fields.get("anchor").and_then(Value::as_u64).unwrap_or(match query.anchor {
            Anchor::Id(id) => id,
            Anchor::Named(NamedAnchor::Oldest) => 0,
            Anchor::Named(_) => u64::MAX,
        });
        for message in &messages {
            if let Some(stream) = message.stream_id {
                self.note_topic(stream, &message.subject, message.id);
            }
            self.projection.put_message(message);
            self.cache.put(message.clone());
        }
        let local = decidable_locally(&query.narrow.terms);
        let fetched = Fetched {
            anchor,
            num_before: query.before,
            num_after: query.after,
            ids: messages.iter().map(|m| m.id).collect(),
            found_oldest,
            found_newest,
            live: self.narrow_is_live(&query.narrow.terms),
        };
        let fetched_ids: BTreeSet<u64> = fetched.ids.iter().copied().collect();
        if fetched.live {
            self.cache.merge(&query.narrow.key, query.narrow.terms.clone(), local, fetched);
        } else {
            // A channel the user reads without being subscribed: its messages' edits, moves and
            // deletions do not reach the user, so no window of it stays true.
            self.cache.forget_windows(std::slice::from_ref(&query.narrow.key));
        }
        // The server's copies do not show operations it has not applied yet: the cached copies
        // take them again, and the page shows those (without messages being deleted).
        let touched = self.reapply_operations(Some(&fetched_ids));
        let deleting = self.messages_being_deleted();
        let messages: Vec<ChatMessage> = messages
            .into_iter()
            .filter(|m| !deleting.contains(&m.id))
            .map(|m| {
                if touched.contains(&m.id) { self.cache.messages.get(&m.id).cloned().unwrap_or(m) } else { m }
            })
            .collect();
        let mut page = MessagesPage { messages, found_anchor, found_oldest, found_newest, from_cache: false };
        if found_newest {
            page.messages.extend(self.echoes(&query.narrow.terms));
        }
        Ok(page)
    }

    /// Whether every new message of a narrow, and every change to its messages, reaches this
    /// session as an event: true when only messages the user receives can match, or the narrow
    /// is one channel the user is subscribed to. Otherwise (a channel the user only reads) the
    /// narrow is not cached: it is fetched each time.
    pub(super) fn narrow_is_live(&self, terms: &[RawTerm]) -> bool {
        let Ok(narrow) = self.projection.resolve(terms) else { return false };
        if !narrow.include_history {
            return true;
        }
        let channels: Vec<u64> = narrow
            .terms
            .iter()
            .filter(|t| !t.negated)
            .filter_map(|t| match t.condition {
                Condition::Stream { id, .. } => Some(id.0),
                _ => None,
            })
            .collect();
        let channel_terms_only =
            !narrow.terms.iter().any(|t| matches!(t.condition, Condition::Channels { .. }));
        channel_terms_only
            && !channels.is_empty()
            && channels.iter().all(|id| self.projection.subscribed(*id))
    }

    /// Local echoes of the outbox that belong to a narrow, in the order they were written.
    fn echoes(&self, terms: &[RawTerm]) -> Vec<ChatMessage> {
        if !decidable_locally(terms) {
            return Vec::new();
        }
        let Ok(narrow) = self.projection.resolve(terms) else { return Vec::new() };
        self.outbox
            .entries()
            .iter()
            .filter(|entry| entry.message_id.is_none_or(|id| !self.cache.messages.contains_key(&id)))
            .filter_map(|entry| self.echo(entry))
            .filter(|echo| self.projection.echo_matches(&narrow, echo))
            .collect()
    }
}
