//! Which actions a message offers (Zulip's `message_edit.ts`: `is_content_editable`, which
//! refuses widgets, `is_topic_editable`, `get_deletability`, and resolving), decided by core's own permission
//! rules (`crate::permissions`) over the projection of the organization's settings, groups and
//! channels, with the server's time limits. A message the server would refuse to change is not
//! offered for changing; the server still has the last word.
//!
//! Unlike the server, no grace period is added to the limits (Zulip's web app adds none).

use crate::groups::Groups;
use crate::ids::{StreamId, UserId};
use crate::permissions::{self, Permissions};
use crate::store::Store;

use super::Engine;
use super::types::MessageActions;

impl Engine {
    /// What the user may do to a cached message at `now_ms`: nothing to a message the cache
    /// does not hold, or to a local echo.
    pub fn message_actions(&self, message_id: u64, now_ms: i64) -> MessageActions {
        self.allowed_actions(message_id, now_ms).unwrap_or_default()
    }

    fn allowed_actions(&self, message_id: u64, now_ms: i64) -> Option<MessageActions> {
        let message = self.cache.messages.get(&message_id).filter(|m| m.id != 0 && m.local_id.is_none())?;
        let actor = self.projection.actor()?;
        let store = self.projection.store();
        let groups = self.groups.get_or_init(|| Groups::load(store, actor.realm.id).ok()).as_ref()?;
        let allowed = Permissions::with_groups(&actor, groups);
        let stream = match message.stream_id {
            Some(id) => Some(store.stream(StreamId(id)).ok().flatten()?),
            None => None,
        };
        if stream.as_ref().is_some_and(|s| s.is_archived) {
            return Some(MessageActions::default());
        }
        let stream = stream.as_ref();
        let settings = &actor.realm.settings;
        let now = now_ms / 1000;
        let within = |limit: Option<i64>| limit.is_none_or(|limit| limit + message.timestamp - now > 0);
        let mine = message.sender_id == self.user_id;
        let my_bot = store
            .user(UserId(message.sender_id))
            .ok()
            .flatten()
            .is_some_and(|sender| sender.bot_owner_id == Some(UserId(self.user_id)));
        let moderator = permissions::is_moderator(&actor.user);

        // A widget's content is what made it (Zulip's `is_widget_message`).
        let edit = settings.allow_message_editing
            && mine
            && message.submessages.is_empty()
            && within(settings.message_content_edit_limit_seconds);
        let delete = allowed.can_delete_any_message(stream).ok()?
            || ((mine || my_bot)
                && allowed.can_delete_own_message(stream).ok()?
                && within(settings.message_content_delete_limit_seconds));
        let move_topic = stream.is_some()
            && allowed.can_move_between_topics(stream).ok()?
            && (moderator || within(settings.move_messages_within_stream_limit_seconds));
        let resolve = stream.is_some() && allowed.can_resolve_topics(stream).ok()?;
        Some(MessageActions { edit, delete, move_topic, resolve })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::fixture::*;
    use super::*;

    const NOW: i64 = 1_700_000_000;
    const MINUTE: i64 = 60;
    const DAY: i64 = 86_400;

    /// Desdemona (a member unless `role` says otherwise) with Zulip's system groups.
    fn organization(role: u64, change: impl FnOnce(&mut Value)) -> Engine {
        let mut state = state();
        state["realm_users"][0]["role"] = json!(role);
        state["realm_user_groups"] = system_groups();
        change(&mut state);
        let mut engine = engine_with(state);
        cache(
            &mut engine,
            vec![
                channel_message(1, ME, GENERAL, "lunch", NOW - MINUTE),
                channel_message(2, ME, GENERAL, "lunch", NOW - 2 * 60 * MINUTE),
                channel_message(3, IAGO, GENERAL, "lunch", NOW - MINUTE),
                channel_message(4, IAGO, GENERAL, "lunch", NOW - 8 * DAY),
                direct_message(5, ME, IAGO, NOW - MINUTE),
                channel_message(6, WELCOME_BOT, GENERAL, "lunch", NOW - MINUTE),
            ],
        );
        engine
    }

    fn actions(engine: &Engine, id: u64) -> [bool; 4] {
        let a = engine.message_actions(id, NOW * 1000);
        [a.edit, a.delete, a.move_topic, a.resolve]
    }

    const MEMBER: u64 = 400;
    const MODERATOR: u64 = 300;
    const ADMINISTRATOR: u64 = 200;

    #[test]
    fn a_member_edits_and_deletes_their_own_messages_for_ten_minutes() {
        let engine = organization(MEMBER, |_| {});
        // [edit, delete, moveTopic, resolve] under Zulip's defaults.
        assert_eq!(actions(&engine, 1), [true, true, true, true]);
        assert_eq!(actions(&engine, 2), [false, false, true, true]);
        assert_eq!(actions(&engine, 5), [true, true, false, false]);
    }

    #[test]
    fn a_widgets_content_is_not_editable() {
        let mut engine = organization(MEMBER, |_| {});
        let mut poll = channel_message(7, ME, GENERAL, "lunch", NOW - MINUTE);
        poll["submessages"] = json!([{"id": 1, "message_id": 7, "sender_id": ME, "msg_type": "widget",
                                      "content": r#"{"widget_type": "poll", "extra_data": null}"#}]);
        cache(&mut engine, vec![poll]);
        assert_eq!(actions(&engine, 7), [false, true, true, true]);
    }

    #[test]
    fn others_messages_can_be_moved_for_a_week_and_resolved() {
        let engine = organization(MEMBER, |_| {});
        assert_eq!(actions(&engine, 3), [false, false, true, true]);
        assert_eq!(actions(&engine, 4), [false, false, false, true]);
        // Moderators move without a time limit.
        assert_eq!(actions(&organization(MODERATOR, |_| {}), 4), [false, false, true, true]);
    }

    #[test]
    fn administrators_delete_any_message() {
        let engine = organization(ADMINISTRATOR, |_| {});
        assert_eq!(actions(&engine, 4), [false, true, true, true]);
        assert_eq!(actions(&engine, 2), [false, true, true, true]);
    }

    #[test]
    fn the_organization_settings_decide() {
        let engine = organization(MEMBER, |state| {
            state["realm_allow_message_editing"] = json!(false);
            state["realm_message_content_delete_limit_seconds"] = Value::Null;
            // role:nobody may rename topics; role:members may delete anything.
            state["realm_can_move_messages_between_topics_group"] = json!(8);
            state["realm_can_delete_any_message_group"] = json!(5);
        });
        assert_eq!(actions(&engine, 1), [false, true, false, true]);
        assert_eq!(actions(&engine, 4), [false, true, false, true]);
        let unlimited = organization(MEMBER, |state| {
            state["realm_message_content_edit_limit_seconds"] = Value::Null;
            state["realm_can_resolve_topics_group"] =
                json!({"direct_members": [IAGO], "direct_subgroups": []});
        });
        assert_eq!(actions(&unlimited, 2), [true, false, true, false]);
    }

    #[test]
    fn a_channel_adds_to_the_organization_settings() {
        let engine = organization(MEMBER, |state| {
            state["subscriptions"][0]["can_delete_any_message_group"] =
                json!({"direct_members": [ME], "direct_subgroups": []});
        });
        assert_eq!(actions(&engine, 4), [false, true, false, true]);
        assert_eq!(actions(&engine, 5), [true, true, false, false]);
    }

    #[test]
    fn ones_own_bots_messages_are_ones_own_to_delete() {
        let engine = organization(MEMBER, |state| {
            state["realm_users"][6]["bot_owner_id"] = json!(ME);
        });
        assert_eq!(actions(&engine, 6), [false, true, true, true]);
        assert_eq!(actions(&organization(MEMBER, |_| {}), 6), [false, false, true, true]);
    }

    #[test]
    fn archived_channels_and_unknown_messages_offer_nothing() {
        let engine = organization(ADMINISTRATOR, |state| {
            state["subscriptions"][0]["is_archived"] = json!(true);
        });
        assert_eq!(actions(&engine, 1), [false; 4]);
        assert_eq!(actions(&engine, 99), [false; 4]);
    }
}
