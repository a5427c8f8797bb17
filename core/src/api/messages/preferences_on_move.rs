//! What moving a topic does to users' topic preferences (mute, unmute, follow), as Zulip's
//! `do_update_message` decides it: when the whole topic moves, each user's preference goes with
//! it, merged with any they had for the destination.
//!
//! A move counts as the whole topic when it is `change_all`, or when `change_later` or
//! `change_one` left nothing in the old topic that the mover can see (Zulip's
//! `moved_all_visible_messages`). A partial move leaves every preference where it is.

use crate::api::streams::has_content_access;
use crate::api::user_topics::{FOLLOWED, INHERIT, MUTED, Preferences, UNMUTED};
use crate::command::{Actor, Event, Outcome};
use crate::error::ApiResult;
use crate::ids::MessageId;
use crate::model::{Message, Stream};
use crate::store::{Direction, MessageIndex, Store};

use super::super::records::new_ids;
use super::access::visible_flags;

/// Where a move takes messages: from a topic of one channel to a topic of another or the same.
pub(super) struct TopicMove<'a> {
    pub from: &'a Stream,
    pub from_topic: &'a str,
    pub to: &'a Stream,
    pub to_topic: &'a str,
}

impl TopicMove<'_> {
    /// A change of the topic's case only, in the same channel: preferences match topics
    /// case-insensitively, so every one already applies where the messages go.
    fn stays(&self) -> bool {
        self.from.id == self.to.id && self.from_topic.to_lowercase() == self.to_topic.to_lowercase()
    }
}

/// The policy a user keeps when a topic they have `moved` moves into one where they have
/// `target` and which already has messages: whichever shows more (followed, then unmuted, then
/// no policy, then muted), so that a merge never hides messages (Zulip's
/// `get_visibility_policy_after_merge`).
pub(super) fn merged_policy(moved: i64, target: i64) -> i64 {
    [FOLLOWED, UNMUTED, INHERIT, MUTED].into_iter().find(|p| *p == moved || *p == target).unwrap_or(INHERIT)
}

/// Whether the mover left nothing of the old topic behind that they can see.
pub(super) fn moved_whole_topic(
    store: &impl Store,
    actor: &Actor,
    first: &Message,
    moved: &[Message],
    whole: bool,
) -> ApiResult<bool> {
    if whole {
        return Ok(true);
    }
    let moved: Vec<MessageId> = moved.iter().map(|m| m.id).collect();
    let index = MessageIndex::Topic(first.recipient_id, first.topic().to_lowercase());
    for id in store.message_ids(
        &index,
        std::ops::Bound::Unbounded,
        std::ops::Bound::Unbounded,
        Direction::Ascending,
    )? {
        let id = id?;
        if moved.contains(&id) {
            continue;
        }
        if let Some(left) = store.message(id)?
            && visible_flags(store, &actor.user, &left)?.is_some()
        {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Carries every user's preference for the old topic to the new place, with its writes and
/// each user's events: `user_topic` for each place whose policy changes, and the legacy
/// `muted_topics` list for clients that follow that instead. Must run before the move is
/// applied: whether the destination already had messages decides the merge.
pub(super) fn carry_preferences(
    store: &impl Store,
    actor: &Actor,
    place: &TopicMove<'_>,
    now: i64,
    outcome: &mut Outcome,
) -> ApiResult<()> {
    if place.stays() {
        return Ok(());
    }
    let index = MessageIndex::Topic(place.to.recipient_id, place.to_topic.to_lowercase());
    let destination_had_messages = store
        .message_ids(&index, std::ops::Bound::Unbounded, std::ops::Bound::Unbounded, Direction::Ascending)?
        .next()
        .is_some();
    let mut ids = new_ids(store)?;
    // Every user's preferences, deactivated users' too: Zulip moves its `UserTopic` rows
    // whoever holds them.
    for user in store.realm_users(actor.realm.id)? {
        let mut preferences = Preferences::new(user.id);
        let moved = preferences.policy(store, place.from.id, place.from_topic)?;
        let target = preferences.policy(store, place.to.id, place.to_topic)?;
        if moved == INHERIT && target == INHERIT {
            continue;
        }
        // Someone who cannot read the new channel keeps no preference about a topic there:
        // for them the topic is gone, as if deleted.
        let follows = place.from.id == place.to.id || has_content_access(store, &user, place.to)?;
        let carried = if follows { moved } else { INHERIT };
        let policy = if destination_had_messages { merged_policy(carried, target) } else { carried };

        let mut events: Vec<Event> = Vec::new();
        if moved != INHERIT {
            events.extend(preferences.set(
                store,
                &mut ids,
                place.from.id,
                place.from_topic,
                INHERIT,
                now,
                &mut outcome.changes,
            )?);
        }
        let arrived = if policy == target {
            None
        } else {
            preferences.set(
                store,
                &mut ids,
                place.to.id,
                place.to_topic,
                policy,
                now,
                &mut outcome.changes,
            )?
        };
        if events.is_empty() && arrived.is_none() {
            continue;
        }
        events.push(preferences.muted_topics_event(store)?);
        events.extend(arrived);
        outcome.events.extend(events);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_merge_keeps_whichever_policy_shows_more() {
        let cases = [
            (MUTED, MUTED, MUTED),
            (MUTED, INHERIT, INHERIT),
            (INHERIT, MUTED, INHERIT),
            (MUTED, UNMUTED, UNMUTED),
            (UNMUTED, FOLLOWED, FOLLOWED),
            (FOLLOWED, MUTED, FOLLOWED),
            (INHERIT, UNMUTED, UNMUTED),
            (INHERIT, INHERIT, INHERIT),
        ];
        for (moved, target, kept) in cases {
            assert_eq!(merged_policy(moved, target), kept, "{moved} into {target}");
        }
    }
}
