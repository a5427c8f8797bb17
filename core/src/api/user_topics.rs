//! POST  /user_topics                            update_user_topic
//! PATCH /users/me/subscriptions/muted_topics    mute_topic (legacy)
//!
//! A user's topic preferences (Zulip's `UserTopic`): muted, unmuted (in a muted channel) or
//! followed; "inherit" removes the preference. Each change is a `user_topic` event, and the
//! legacy `muted_topics` event with the muted list, for older clients.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::{StreamId, UserId};
use crate::model::{RecordKind, Stream};
use crate::params::Params;
use crate::store::{Change, IdAllocator, Store};

use super::narrow::TopicVisibility;
use super::records::{new_ids, records};
use super::streams::{has_content_access, stream_by_name, stream_in_realm};

/// Zulip's `UserTopic.VisibilityPolicy`.
pub const INHERIT: i64 = 0;
pub const MUTED: i64 = 1;
pub const UNMUTED: i64 = 2;
pub const FOLLOWED: i64 = 3;

/// The user's topic preferences, with their record ids.
fn preferences(store: &impl Store, user: UserId) -> ApiResult<Vec<(u64, Value)>> {
    records(store, user, RecordKind::UserTopic)
}

/// A user's topic preferences read once, for deciding many messages (Zulip's
/// `build_get_topic_visibility_policy`): by channel and lower-cased topic.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TopicPolicies(BTreeMap<(StreamId, String), TopicVisibility>);

impl TopicPolicies {
    /// The user's preferences as stored.
    pub fn load(store: &impl Store, user: UserId) -> ApiResult<Self> {
        let mut policies = BTreeMap::new();
        for (_, preference) in preferences(store, user)? {
            let (Some(stream), Some(topic)) =
                (preference["stream_id"].as_u64(), preference["topic_name"].as_str())
            else {
                continue;
            };
            let policy =
                TopicVisibility::from_policy(preference["visibility_policy"].as_i64().unwrap_or(INHERIT));
            policies.insert((StreamId(stream), topic.to_lowercase()), policy);
        }
        Ok(TopicPolicies(policies))
    }

    /// The user's policy for a topic; topics match case-insensitively, as in Zulip.
    pub fn of(&self, stream: StreamId, topic: &str) -> TopicVisibility {
        self.0.get(&(stream, topic.to_lowercase())).copied().unwrap_or_default()
    }
}

/// Register's `user_topics`. A client without the `empty_topic_name` capability reads the
/// empty topic as "general chat", as every `user_topic` event names it (feature level 334).
pub fn user_topics_json(store: &impl Store, user: UserId, empty_topic_name: bool) -> ApiResult<Value> {
    Ok(preferences(store, user)?
        .into_iter()
        .map(|(_, mut p)| {
            if !empty_topic_name && p["topic_name"] == "" {
                p["topic_name"] = crate::wire::EMPTY_TOPIC_DISPLAY_NAME.into();
            }
            p
        })
        .collect())
}

/// Register's legacy `muted_topics`: `[channel name, topic, muted since]` of muted topics.
pub fn muted_topics_json(store: &impl Store, user: UserId) -> ApiResult<Value> {
    let mut muted = Vec::new();
    for (_, preference) in preferences(store, user)? {
        if preference["visibility_policy"] != MUTED {
            continue;
        }
        let stream =
            preference["stream_id"].as_u64().map(|id| store.stream(StreamId(id))).transpose()?.flatten();
        if let Some(stream) = stream {
            muted.push(json!([stream.name, preference["topic_name"], preference["last_updated"]]));
        }
    }
    Ok(Value::Array(muted))
}

/// A user's topic preferences as one command changes them: each is looked up when first asked
/// for (a send asks for one topic of a user who may have thousands), each change is written at
/// once and remembered, so that later changes in the same command build on earlier ones.
pub(crate) struct Preferences {
    user: UserId,
    /// The preferences this command read or set, by channel and lower-cased topic (`None`:
    /// there is none), with their record ids.
    seen: BTreeMap<(StreamId, String), Option<(u64, Value)>>,
}

impl Preferences {
    pub(crate) fn new(user: UserId) -> Self {
        Preferences { user, seen: BTreeMap::new() }
    }

    /// The preference for a topic, from this command's changes or else the store.
    fn find(&mut self, store: &impl Store, stream: StreamId, topic: &str) -> ApiResult<Option<(u64, Value)>> {
        let key = crate::model::topic_preference_key(stream, topic);
        if let Some(seen) = self.seen.get(&key) {
            return Ok(seen.clone());
        }
        let found = store.topic_preference(self.user, stream, topic)?;
        self.seen.insert(key, found.clone());
        Ok(found)
    }

    /// The user's policy for a topic (`INHERIT` without one).
    pub(crate) fn policy(&mut self, store: &impl Store, stream: StreamId, topic: &str) -> ApiResult<i64> {
        Ok(self
            .find(store, stream, topic)?
            .and_then(|(_, p)| p["visibility_policy"].as_i64())
            .unwrap_or(INHERIT))
    }

    /// Sets a policy (`INHERIT` removes it): the write goes to `changes`; returns the
    /// `user_topic` event, or `None` when there was nothing to remove.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn set(
        &mut self,
        store: &impl Store,
        ids: &mut IdAllocator,
        stream: StreamId,
        topic: &str,
        policy: i64,
        now: i64,
        changes: &mut Vec<Change>,
    ) -> ApiResult<Option<Event>> {
        let user = self.user;
        let existing = self.find(store, stream, topic)?;
        // The topic as first stored keeps its case, as Zulip's case-insensitive lookup does.
        let topic_name =
            existing.as_ref().and_then(|(_, p)| p["topic_name"].as_str()).unwrap_or(topic).to_owned();
        let preference = json!({"stream_id": stream, "topic_name": topic_name, "last_updated": now, "visibility_policy": policy});
        let stored = match (existing, policy) {
            (Some((id, _)), INHERIT) => {
                changes.push(Change::DeleteRecord { user, kind: RecordKind::UserTopic, id });
                None
            }
            (None, INHERIT) => return Ok(None),
            (existing, _) => {
                let id = existing.map_or_else(|| ids.take(), |(id, _)| id);
                let value = preference.clone();
                changes.push(Change::PutRecord { user, kind: RecordKind::UserTopic, id, value });
                Some((id, preference.clone()))
            }
        };
        self.seen.insert(crate::model::topic_preference_key(stream, topic), stored);
        let mut event = preference;
        event["type"] = "user_topic".into();
        Ok(Some(Event::Other { users: vec![user], body: event }))
    }

    /// The legacy `muted_topics` event, with the muted list as it is now: the stored list with
    /// this command's changes.
    pub(crate) fn muted_topics_event(&self, store: &impl Store) -> ApiResult<Event> {
        let mut current: BTreeMap<u64, Value> = preferences(store, self.user)?
            .into_iter()
            .filter(|(_, p)| {
                crate::model::topic_preference_place(p).is_none_or(|key| !self.seen.contains_key(&key))
            })
            .collect();
        current.extend(self.seen.values().flatten().cloned());
        let mut muted = Vec::new();
        for p in current.values().filter(|p| p["visibility_policy"] == MUTED) {
            let stream = p["stream_id"].as_u64().map(|id| store.stream(StreamId(id))).transpose()?.flatten();
            if let Some(stream) = stream {
                muted.push(json!([stream.name, p["topic_name"], p["last_updated"]]));
            }
        }
        Ok(Event::Other {
            users: vec![self.user],
            body: json!({"type": "muted_topics", "muted_topics": muted}),
        })
    }
}

/// Sets a preference: the writes and both events (the legacy one first, as in Zulip).
/// `inherit` removes it.
fn set_preference(
    store: &impl Store,
    actor: &Actor,
    stream: &Stream,
    topic: &str,
    policy: i64,
    now: i64,
) -> ApiResult<Outcome> {
    let mut preferences = Preferences::new(actor.user.id);
    let mut outcome = Outcome::default();
    let event =
        preferences.set(store, &mut new_ids(store)?, stream.id, topic, policy, now, &mut outcome.changes)?;
    outcome.events.push(preferences.muted_topics_event(store)?);
    // Removing a preference there is none of still tells the clients, as Zulip does.
    let event = event.unwrap_or_else(|| {
        let body = json!({"type": "user_topic", "stream_id": stream.id, "topic_name": topic, "last_updated": now, "visibility_policy": INHERIT});
        Event::Other { users: vec![actor.user.id], body }
    });
    outcome.events.push(event);
    Ok(outcome)
}

/// A channel the user may set topic preferences in: one whose messages they may read. A
/// preference may always be removed, as Zulip allows after losing access.
fn channel(store: &impl Store, actor: &Actor, stream: Option<Stream>, removing: bool) -> ApiResult<Stream> {
    let stream = stream.ok_or_else(|| ApiError::bad_request("Invalid channel ID"))?;
    if removing || has_content_access(store, &actor.user, &stream)? {
        Ok(stream)
    } else {
        Err(ApiError::bad_request("Invalid channel ID"))
    }
}

/// `POST /user_topics`.
pub fn update_user_topic(store: &impl Store, actor: &Actor, params: &Params, now: i64) -> ApiResult<Outcome> {
    let stream_id = StreamId(params.required::<u64>("stream_id")?);
    let topic: String = params.required("topic")?;
    let policy: i64 = params.required("visibility_policy")?;
    if ![INHERIT, MUTED, UNMUTED, FOLLOWED].contains(&policy) {
        return Err(ApiError::bad_request("Invalid visibility_policy"));
    }
    let topic = super::messages::check_topic(&topic)?;
    let stream = channel(store, actor, stream_in_realm(store, actor, stream_id)?, policy == INHERIT)?;
    set_preference(store, actor, &stream, &topic, policy, now)
}

/// `PATCH /users/me/subscriptions/muted_topics`: Zulip's older form, by channel name or id and
/// `op` `add` or `remove`.
pub fn mute_topic(store: &impl Store, actor: &Actor, params: &Params, now: i64) -> ApiResult<Outcome> {
    let op: String = params.required("op")?;
    let removing = match op.as_str() {
        "add" => false,
        "remove" => true,
        _ => return Err(ApiError::bad_request("Invalid op")),
    };
    let topic = super::messages::check_topic(&params.required::<String>("topic")?)?;
    let stream = match (params.optional::<u64>("stream_id")?, params.optional::<String>("stream")?) {
        (Some(id), None) => stream_in_realm(store, actor, StreamId(id))?,
        (None, Some(name)) => stream_by_name(store, actor, &name)?,
        (Some(_), Some(_)) => {
            return Err(ApiError::bad_request("Please choose one: 'stream' or 'stream_id'."));
        }
        (None, None) => return Err(ApiError::bad_request("Please supply 'stream'.")),
    };
    let stream = channel(store, actor, stream, removing)?;
    set_preference(store, actor, &stream, &topic, if removing { INHERIT } else { MUTED }, now)
}
