//! What a new role changes for the user beyond the role itself: which channels they see, the
//! default channels and default channel groups (kept from guests), whose real email they see, and which bots they
//! administer. The user is told each, as Zulip's `do_change_user_role` tells the channels;
//! the role itself and the system groups are told by `user_updates`.
//!
//! Two additions to Zulip's events: the default channels and groups a guest is not told of
//! (register's `[]`) come and go with the guest role, so that a client's state stays equal to
//! a new register; and a `stream` `create` for channels the user had left carries
//! those subscriptions as `unsubscribed`, so that a client's state can hold them where register
//! does.

use serde_json::json;

use crate::command::{Actor, Event};
use crate::error::ApiResult;
use crate::groups::Groups;
use crate::model::User;
use crate::store::Store;
use crate::wire;

use super::streams::{active_subscribers, channel_json, has_metadata_access_in};

/// The events that bring the user's state from what `before` saw to what `after` sees.
pub fn role_change_events(
    store: &impl Store,
    actor: &Actor,
    before: &User,
    after: &User,
) -> ApiResult<Vec<Event>> {
    let mut bodies = Vec::new();
    let groups = Groups::load(store, actor.realm.id)?;
    let (mut gained, mut lost) = (Vec::new(), Vec::new());
    for stream in store.realm_streams(actor.realm.id)?.into_iter().filter(|s| !s.is_archived) {
        let saw = has_metadata_access_in(store, &groups, before, &stream)?;
        let sees = has_metadata_access_in(store, &groups, after, &stream)?;
        match (saw, sees) {
            (false, true) => gained.push(stream),
            (true, false) => lost.push(stream),
            _ => {}
        }
    }
    if !gained.is_empty() {
        let mut subscribers = Vec::new();
        for stream in &gained {
            subscribers.push(active_subscribers(store, stream)?);
        }
        let shown: Vec<_> =
            gained.iter().zip(&subscribers).map(|(s, ids)| wire::stream(&groups, s, ids.len())).collect();
        let mut create = json!({"type": "stream", "op": "create", "streams": shown});
        // Channels the user was subscribed to once are "unsubscribed", with their own color
        // and settings, not "never subscribed" (Zulip's `gather_subscriptions_helper`). Zulip's
        // own `apply_event` asks its database; a client cannot, so the event brings them.
        let mut left = Vec::new();
        for (stream, ids) in gained.iter().zip(&subscribers) {
            if let Some(sub) = store.subscription(after.id, stream.id)?.filter(|s| !s.active) {
                left.push(wire::subscription(&groups, stream, &sub, ids.len(), None));
            }
        }
        if !left.is_empty() {
            create["unsubscribed"] = json!(left);
            create[crate::events::INHERITED_NOTIFICATIONS_MARK] =
                json!(wire::inherited_notification_values(&super::settings::settings_of(store, after)?));
        }
        bodies.push(create);
        for (stream, ids) in gained.iter().zip(&subscribers) {
            if !ids.is_empty() {
                bodies.push(json!({"type": "subscription", "op": "peer_add", "stream_ids": [stream.id], "user_ids": ids}));
            }
        }
    }
    if !lost.is_empty() {
        let mut shown = Vec::new();
        for stream in &lost {
            shown.push(channel_json(store, &groups, stream)?);
        }
        let ids: Vec<_> = lost.iter().map(|s| s.id).collect();
        bodies.push(json!({"type": "stream", "op": "delete", "streams": shown, "stream_ids": ids}));
    }
    if before.is_guest() != after.is_guest() {
        let ids = if after.is_guest() {
            Vec::new()
        } else {
            super::default_channels::default_stream_ids(store, actor.realm.id)?
        };
        bodies.push(json!({"type": "default_streams", "default_streams": ids}));
        let groups = super::default_channel_groups::shown_to(store, &actor.realm, after.is_guest())?;
        bodies.push(json!({"type": "default_stream_groups", "default_stream_groups": groups}));
    }
    for other in store.realm_users(actor.realm.id)?.iter().filter(|u| u.id != after.id) {
        let (saw, sees) = (before.can_see_delivery_email(other), after.can_see_delivery_email(other));
        if saw != sees {
            let email = sees.then_some(&other.delivery_email);
            bodies.push(json!({"type": "realm_user", "op": "update", "person": {"user_id": other.id, "delivery_email": email}}));
        }
    }
    if before.is_admin() != after.is_admin() {
        let theirs =
            |bot: &User| bot.bot_owner_id == Some(after.id) || actor.realm.notification_bot == Some(bot.id);
        for bot in store.realm_users(actor.realm.id)?.iter().filter(|u| u.is_bot() && !theirs(u)) {
            if after.is_admin() {
                bodies.push(
                    json!({"type": "realm_bot", "op": "add", "bot": super::bots::bot_json_of(store, bot)?}),
                );
            } else {
                bodies.push(json!({"type": "realm_bot", "op": "delete", "bot": {"user_id": bot.id}}));
            }
        }
    }
    Ok(bodies.into_iter().map(|body| Event::Other { users: vec![after.id], body }).collect())
}
