//! Topics users come to follow or unmute by taking part in them, as Zulip decides it
//! (`do_send_messages`, `do_add_reaction`, `zerver/lib/message.py`).
//!
//! Three personal settings drive it. `automatically_follow_topics_policy` and
//! `automatically_unmute_topics_in_muted_streams_policy` name the action that counts: taking
//! part (sending or reacting), sending, or starting the topic (sending its first message the
//! sender can see); or never. Unmuting happens only in a channel the user muted.
//! `automatically_follow_topics_where_mentioned` follows topics whose messages mention the
//! user by name or through a group (not through wildcards), when they receive them.
//!
//! These only ever show a topic more: a followed topic stays followed, and a mention leaves an
//! explicitly muted topic muted. Bots and direct messages take no part. Each change is a
//! preference like one the user set, with its `muted_topics` and `user_topic` events, which
//! come before the message's or reaction's own event, as in Zulip.

use std::ops::Bound;

use crate::api::user_topics::{FOLLOWED, INHERIT, MUTED, Preferences, UNMUTED};
use crate::command::{Actor, Event};
use crate::error::ApiResult;
use crate::ids::UserId;
use crate::model::settings::user_setting;
use crate::model::{Message, MessageFlags, Stream, User};
use crate::store::{Change, Direction, IdAllocator, MessageIndex, Store};

use super::super::records::new_ids;
use super::access::visible_flags;

/// Zulip's `AUTOMATICALLY_CHANGE_VISIBILITY_POLICY_*`: which action changes the policy.
const ON_PARTICIPATION: i64 = 1;
const ON_SEND: i64 = 2;
const ON_INITIATION: i64 = 3;

/// A user's two automatic policies, as their settings hold them.
#[derive(Clone, Copy, Debug)]
pub(super) struct Policies {
    pub follow: i64,
    pub unmute: i64,
}

/// A user's settings for automatic changes.
struct Settings {
    policies: Policies,
    follow_where_mentioned: bool,
}

impl Settings {
    fn of(store: &impl Store, user: &User) -> ApiResult<Settings> {
        let changed = store.user_settings(user.id)?;
        let setting = |name: &str| user_setting(&changed, name);
        let number = |name: &str| setting(name).and_then(|v| v.as_i64()).unwrap_or_default();
        Ok(Settings {
            policies: Policies {
                follow: number("automatically_follow_topics_policy"),
                unmute: number("automatically_unmute_topics_in_muted_streams_policy"),
            },
            follow_where_mentioned: setting("automatically_follow_topics_where_mentioned")
                .and_then(|v| v.as_bool())
                .unwrap_or(true),
        })
    }
}

impl Policies {
    /// Whether starting a topic counts for either policy.
    fn count_starting(&self) -> bool {
        self.follow == ON_INITIATION || self.unmute == ON_INITIATION
    }
}

/// The policy sending a message gives its sender, or `None` to leave theirs: following wins
/// over unmuting, and neither replaces a policy that shows as much. `started`: the message is
/// the first of the topic its sender can see (Zulip's `visibility_policy_for_send_message`).
pub(super) fn after_sending(
    policies: Policies,
    channel_muted: bool,
    current: i64,
    started: bool,
) -> Option<i64> {
    if current == FOLLOWED {
        return None;
    }
    // A topic with a policy was not started by this message: the sender has seen it before.
    let starts = started && current == INHERIT;
    let counts = |policy: i64| match policy {
        ON_PARTICIPATION | ON_SEND => true,
        ON_INITIATION => starts,
        _ => false,
    };
    if counts(policies.follow) {
        Some(FOLLOWED)
    } else if channel_muted && counts(policies.unmute) && current != UNMUTED {
        Some(UNMUTED)
    } else {
        None
    }
}

/// The policy reacting gives a subscriber, or `None` to leave theirs (Zulip's
/// `visibility_policy_for_participation` and `should_change_visibility_policy`).
pub(super) fn after_participating(policies: Policies, channel_muted: bool, current: i64) -> Option<i64> {
    let new = if policies.follow == ON_PARTICIPATION {
        FOLLOWED
    } else if channel_muted && policies.unmute == ON_PARTICIPATION {
        UNMUTED
    } else {
        return None;
    };
    (new != current && current != FOLLOWED).then_some(new)
}

/// What a message or reaction changes in users' topic preferences.
#[derive(Default)]
pub(super) struct Automatic {
    pub changes: Vec<Change>,
    /// Each changed user's `muted_topics` and `user_topic` events, sender first.
    pub events: Vec<Event>,
    /// The sender's new policy: the send response's `automatic_new_visibility_policy`.
    pub sender_policy: Option<i64>,
}

impl Automatic {
    fn set(
        &mut self,
        store: &impl Store,
        preferences: &mut Preferences,
        ids: &mut IdAllocator,
        place: (&Stream, &str),
        policy: i64,
        now: i64,
    ) -> ApiResult<()> {
        let event = preferences.set(store, ids, place.0.id, place.1, policy, now, &mut self.changes)?;
        // The legacy list first, as Zulip sends them.
        self.events.push(preferences.muted_topics_event(store)?);
        self.events.extend(event);
        Ok(())
    }
}

/// What sending a message to a topic changes, before the message is stored: the sender's
/// policy, then each mentioned receiver's. `receivers` are the message's, with their flags.
pub(super) fn on_send(
    store: &impl Store,
    sender: &User,
    stream: &Stream,
    topic: &str,
    receivers: &[(UserId, MessageFlags)],
    now: i64,
) -> ApiResult<Automatic> {
    let mut automatic = Automatic::default();
    let mut ids = new_ids(store)?;
    let mut sender_preferences = None;
    if !sender.is_bot() {
        let policies = Settings::of(store, sender)?.policies;
        let mut preferences = Preferences::new(sender.id);
        let current = preferences.policy(store, stream.id, topic)?;
        // Zulip asks only subscribers whether they muted the channel.
        let channel_muted = store.subscription(sender.id, stream.id)?.is_some_and(|s| s.active && s.is_muted);
        let started =
            current == INHERIT && policies.count_starting() && !seen_before(store, sender, stream, topic)?;
        if let Some(policy) = after_sending(policies, channel_muted, current, started) {
            automatic.set(store, &mut preferences, &mut ids, (stream, topic), policy, now)?;
            automatic.sender_policy = Some(policy);
        }
        sender_preferences = Some(preferences);
    }
    // Mentions by name or group set `mentioned`; wildcards set flags of their own.
    for (user, _) in receivers.iter().filter(|(_, flags)| flags.contains(MessageFlags::MENTIONED)) {
        let Some(mentioned) = store.user(*user)?.filter(|u| !u.is_bot()) else { continue };
        if !Settings::of(store, &mentioned)?.follow_where_mentioned {
            continue;
        }
        let mut loaded = None;
        let preferences = match sender_preferences.as_mut() {
            Some(own) if mentioned.id == sender.id => own,
            _ => loaded.insert(Preferences::new(mentioned.id)),
        };
        // An explicitly muted topic stays muted: the user chose that over mentions.
        if [MUTED, FOLLOWED].contains(&preferences.policy(store, stream.id, topic)?) {
            continue;
        }
        automatic.set(store, preferences, &mut ids, (stream, topic), FOLLOWED, now)?;
    }
    Ok(automatic)
}

/// What the actor taking part in `message` (reacting to it, or adding a submessage to it, as
/// voting in a poll) changes: their own policy for its topic, when they are subscribed to its
/// channel.
pub(super) fn on_participation(
    store: &impl Store,
    actor: &Actor,
    message: &Message,
    now: i64,
) -> ApiResult<Automatic> {
    let mut automatic = Automatic::default();
    let user = &actor.user;
    let Some(stream_id) = message.stream_id() else { return Ok(automatic) };
    if user.is_bot() {
        return Ok(automatic);
    }
    let policies = Settings::of(store, user)?.policies;
    if policies.follow != ON_PARTICIPATION && policies.unmute != ON_PARTICIPATION {
        return Ok(automatic);
    }
    let Some(subscription) = store.subscription(user.id, stream_id)?.filter(|s| s.active) else {
        return Ok(automatic);
    };
    let Some(stream) = store.stream(stream_id)? else { return Ok(automatic) };
    let mut preferences = Preferences::new(user.id);
    let current = preferences.policy(store, stream_id, message.topic())?;
    if let Some(policy) = after_participating(policies, subscription.is_muted, current) {
        let mut ids = new_ids(store)?;
        automatic.set(store, &mut preferences, &mut ids, (&stream, message.topic()), policy, now)?;
    }
    Ok(automatic)
}

/// Whether the topic already has a message the sender can see: then sending to it does not
/// start it. Those of a channel's history closed to them do not count, so that starting a
/// topic tells them nothing about messages they may not read.
fn seen_before(store: &impl Store, sender: &User, stream: &Stream, topic: &str) -> ApiResult<bool> {
    let index = MessageIndex::Topic(stream.recipient_id, topic.to_lowercase());
    for id in store.message_ids(&index, Bound::Unbounded, Bound::Unbounded, Direction::Ascending)? {
        if let Some(earlier) = store.message(id?)?
            && visible_flags(store, sender, &earlier)?.is_some()
        {
            return Ok(true);
        }
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NEVER: i64 = 4;

    fn policies(follow: i64, unmute: i64) -> Policies {
        Policies { follow, unmute }
    }

    #[test]
    fn sending_follows_or_unmutes_as_the_settings_say() {
        // (follow, unmute, channel muted, current, started) → new policy
        let cases = [
            // Zulip's defaults: follow topics one starts, unmute those one sends to.
            ((ON_INITIATION, ON_SEND, false, INHERIT, true), Some(FOLLOWED)),
            ((ON_INITIATION, ON_SEND, false, INHERIT, false), None),
            ((ON_INITIATION, ON_SEND, true, INHERIT, false), Some(UNMUTED)),
            ((ON_INITIATION, ON_SEND, true, MUTED, false), Some(UNMUTED)),
            ((ON_INITIATION, ON_SEND, true, INHERIT, true), Some(FOLLOWED)),
            // Unmuting is only for muted channels.
            ((NEVER, ON_SEND, false, MUTED, false), None),
            ((NEVER, ON_PARTICIPATION, true, INHERIT, false), Some(UNMUTED)),
            // Nothing replaces a policy that shows as much or more.
            ((ON_SEND, ON_SEND, true, FOLLOWED, false), None),
            ((NEVER, ON_SEND, true, UNMUTED, false), None),
            ((ON_INITIATION, ON_INITIATION, true, UNMUTED, true), None),
            // Following shows more than an explicit mute does.
            ((ON_SEND, NEVER, false, MUTED, false), Some(FOLLOWED)),
            ((ON_PARTICIPATION, NEVER, false, INHERIT, false), Some(FOLLOWED)),
            // A topic with a policy is not one the sender starts.
            ((ON_INITIATION, NEVER, false, MUTED, true), None),
            ((NEVER, ON_INITIATION, true, INHERIT, true), Some(UNMUTED)),
            ((NEVER, NEVER, true, INHERIT, true), None),
        ];
        for ((follow, unmute, muted, current, started), expected) in cases {
            assert_eq!(
                after_sending(policies(follow, unmute), muted, current, started),
                expected,
                "follow {follow}, unmute {unmute}, channel muted {muted}, current {current}, started {started}"
            );
        }
    }

    #[test]
    fn reacting_counts_only_as_participation() {
        let cases = [
            ((ON_PARTICIPATION, NEVER, false, INHERIT), Some(FOLLOWED)),
            ((ON_PARTICIPATION, NEVER, false, MUTED), Some(FOLLOWED)),
            ((ON_PARTICIPATION, ON_PARTICIPATION, true, FOLLOWED), None),
            ((ON_SEND, ON_PARTICIPATION, true, INHERIT), Some(UNMUTED)),
            ((ON_SEND, ON_PARTICIPATION, true, UNMUTED), None),
            ((ON_SEND, ON_PARTICIPATION, false, INHERIT), None),
            ((ON_INITIATION, ON_SEND, true, INHERIT), None),
        ];
        for ((follow, unmute, muted, current), expected) in cases {
            assert_eq!(
                after_participating(policies(follow, unmute), muted, current),
                expected,
                "follow {follow}, unmute {unmute}, channel muted {muted}, current {current}"
            );
        }
    }
}
