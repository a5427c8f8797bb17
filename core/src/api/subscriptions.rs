//! GET    /users/me/subscriptions   get_subscriptions
//! POST   /users/me/subscriptions   subscribe (creates missing channels)
//! DELETE /users/me/subscriptions   unsubscribe

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::channels::{NewChannelSettings, new_stream};
use super::messages::{NoticeIds, send_direct_notice};
use super::register::IncludeSubscribers;
use crate::command::{Actor, Event, Outcome, active_user_in_realm};
use crate::error::{ApiError, ApiResult};
use crate::groups::{Groups, channel_setting, realm_permission};
use crate::ids::{IdKind, RecipientId, StreamId, UserId};
use crate::model::{Recipient, RecipientKind, Stream, Subscription, User};
use crate::params::{Json, Params, refuse_nul};
use crate::store::{Change, IdAllocator, Store};
use crate::wire;

use super::streams::{
    MAX_STREAM_DESCRIPTION_LENGTH, active_subscribers, active_subscribers_among, check_stream_name,
    has_content_access_in, has_metadata_access_in, has_metadata_access_unsubscribed, metadata_watchers,
    stream_by_name,
};

/// Zulip's `MAX_BULK_NEW_SUBSCRIPTION_MESSAGES`: a request that subscribes more users than this
/// sends none of them the Notification Bot's "subscribed you" message (register tells clients
/// as `max_bulk_new_subscription_messages`).
pub const MAX_BULK_NEW_SUBSCRIPTION_MESSAGES: usize = 100;

/// Zulip's palette for new subscriptions, handed out in turn by how many the user has.
const STREAM_COLORS: &[&str] = &[
    "#76ce90", "#fae589", "#a6c7e5", "#e79ab5", "#bfd56f", "#f4ae55", "#b0a5fd", "#addfe5", "#f5ce6e",
    "#c2726a", "#94c849", "#bd86e5", "#ee7e4a", "#a6dcbf", "#95a5fd", "#53a063", "#9987e1", "#e4523d",
    "#c2c2c2", "#4f8de4", "#c6a8ad", "#e7cc4d", "#c8bebf", "#a47462",
];

/// `peer_add` or `peer_remove` for a channel whose subscribers changed, to the users who see
/// the channel (`streams::metadata_watchers`), except those whose own subscription changed:
/// they get `add`/`remove`.
pub fn peer_event(
    store: &impl Store,
    groups: &Groups,
    stream: &Stream,
    changed: &[UserId],
    op: &str,
) -> ApiResult<Option<Event>> {
    if changed.is_empty() {
        return Ok(None);
    }
    let mut users = metadata_watchers(store, groups, stream)?;
    users.retain(|u| !changed.contains(u));
    Ok(Some(Event::Other {
        users,
        body: json!({"type": "subscription", "op": op, "stream_ids": [stream.id], "user_ids": changed}),
    }))
}

/// What a user's deactivation (`peer_remove`) or reactivation (`peer_add`) tells the channels'
/// watchers, as Zulip's `do_deactivate_user` and `do_reactivate_user` do: the user leaves (or
/// comes back to) the subscriber lists of every channel they are subscribed to, archived ones
/// too, for those of `audience` who see each channel.
pub fn account_peer_events(
    store: &impl Store,
    groups: &Groups,
    user: UserId,
    op: &str,
    audience: &[UserId],
) -> ApiResult<Vec<Event>> {
    let mut events = Vec::new();
    for sub in store.user_subscriptions(user)?.into_iter().filter(|s| s.active) {
        let Some(stream) = store.stream(sub.stream_id)? else { continue };
        if let Some(Event::Other { mut users, body }) = peer_event(store, groups, &stream, &[user], op)? {
            users.retain(|u| audience.contains(u));
            events.push(Event::Other { users, body });
        }
    }
    Ok(events)
}

/// The `subscription` `add` event of `user`'s new subscription, with the channel's subscribers
/// (active users) after the change. It carries what the user's unset notification settings
/// stand for, which the queues of clients that cannot read null fill in.
pub fn add_event(
    store: &impl Store,
    groups: &Groups,
    user: UserId,
    stream: &Stream,
    sub: &Subscription,
    subscribers: &[UserId],
) -> ApiResult<Event> {
    let inherited = match store.user(user)? {
        Some(user) => wire::inherited_notification_values(&super::settings::settings_of(store, &user)?),
        None => Map::new(),
    };
    let shown = wire::subscription(groups, stream, sub, subscribers.len(), Some(subscribers));
    Ok(Event::Other {
        users: vec![user],
        body: json!({
            "type": "subscription",
            "op": "add",
            "subscriptions": [shown],
            crate::events::INHERITED_NOTIFICATIONS_MARK: inherited,
        }),
    })
}

/// The color a user's `n`-th subscription gets.
pub fn stream_color(n: usize) -> String {
    STREAM_COLORS[n % STREAM_COLORS.len()].to_owned()
}

/// `GET /users/me/subscriptions`: with `include_subscribers` (`true`, or `partial` as register
/// takes it) each channel's subscribers who are active users.
pub fn get_subscriptions(store: &impl Store, actor: &Actor, params: &Params, now: i64) -> ApiResult<Outcome> {
    let include = IncludeSubscribers::read(params)?;
    let groups = Groups::load(store, actor.realm.id)?;
    let mut inactive = store.deactivated_users(actor.realm.id)?;
    inactive.sort_unstable();
    let mut subscriptions = Vec::new();
    for sub in store.user_subscriptions(actor.user.id)?.into_iter().filter(|s| s.active) {
        let Some(stream) = store.stream(sub.stream_id)? else { continue };
        let subscribers = active_subscribers_among(store, stream.id, &inactive)?;
        let listed = (include != IncludeSubscribers::No).then_some(subscribers.as_slice());
        let mut shown = wire::subscription(&groups, &stream, &sub, subscribers.len(), listed);
        if include == IncludeSubscribers::Partial {
            super::register::make_partial(store, &mut shown, now)?;
        }
        subscriptions.push(shown);
    }
    Ok(Outcome::default().reply("subscriptions", Value::Array(subscriptions)))
}

/// Resolves `principals` (emails or ids) to active users of the actor's organization.
fn principals(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Vec<User>> {
    let Some(Json(list)) = params.optional::<Json<Vec<Value>>>("principals")? else {
        return Ok(vec![actor.user.clone()]);
    };
    let mut users: Vec<User> = Vec::new();
    for principal in list {
        let user = match &principal {
            Value::String(email) => match crate::api::users::user_by_api_email(store, actor.realm.id, email)?
            {
                Some(id) => active_user_in_realm(store, actor, id)?,
                None => None,
            },
            Value::Number(n) => match n.as_u64() {
                Some(id) => active_user_in_realm(store, actor, UserId(id))?,
                None => None,
            },
            _ => return Err(ApiError::bad_request("principals is not a list of strings or integers")),
        };
        let user = user.ok_or_else(ApiError::no_such_user)?;
        if !users.iter().any(|u| u.id == user.id) {
            users.push(user);
        }
    }
    Ok(users)
}

/// One requested channel: its name and the description to use if it gets created.
struct Requested {
    name: String,
    description: String,
}

fn requested_channels(params: &Params) -> ApiResult<Vec<Requested>> {
    let Json(list) = params.required::<Json<Vec<Value>>>("subscriptions")?;
    let mut requested: Vec<Requested> = Vec::new();
    for (index, item) in list.iter().enumerate() {
        let Value::Object(fields) = item else {
            return Err(ApiError::bad_request(format!("subscriptions[{index}] is not a dict")));
        };
        let name = match fields.get("name") {
            Some(Value::String(name)) => check_stream_name(name)?,
            Some(_) => {
                return Err(ApiError::bad_request(format!(
                    "subscriptions[{index}][\"name\"] is not a string"
                )));
            }
            None => {
                return Err(ApiError::bad_request(format!(
                    "name key is missing from subscriptions[{index}]"
                )));
            }
        };
        let description = match fields.get("description") {
            Some(Value::String(d)) => d.trim().to_owned(),
            Some(_) => {
                return Err(ApiError::bad_request(format!(
                    "subscriptions[{index}][\"description\"] is not a string"
                )));
            }
            None => String::new(),
        };
        refuse_nul("Channel description", &description)?;
        if description.chars().count() > MAX_STREAM_DESCRIPTION_LENGTH {
            return Err(ApiError::bad_request(format!(
                "Channel description too long (limit: {MAX_STREAM_DESCRIPTION_LENGTH} characters)."
            )));
        }
        if !requested.iter().any(|r| r.name.to_lowercase() == name.to_lowercase()) {
            requested.push(Requested { name, description });
        }
    }
    Ok(requested)
}

/// `POST /users/me/subscriptions`: subscribes the actor, or `principals`, to channels, creating
/// those that do not exist, as Zulip's `add_subscriptions_backend`. Existing channels need
/// content access; subscribing others to them also the right to add subscribers there
/// (`may_add_subscribers`). New channels take the settings `POST /channels/create` takes.
pub fn subscribe(store: &impl Store, actor: &Actor, params: &Params, now: i64) -> ApiResult<Outcome> {
    // Zulip's view is `require_non_guest_user`.
    if actor.user.is_guest() {
        return Err(ApiError::bad_request("Not allowed for guest users"));
    }
    let requested = requested_channels(params)?;
    let users = principals(store, actor, params)?;
    let invite_only = params.or("invite_only", false)?;
    let is_web_public = params.or("is_web_public", false)?;
    let history_public = params.optional::<bool>("history_public_to_subscribers")?;
    let authorization_errors_fatal = params.or("authorization_errors_fatal", true)?;
    let announce = params.or("announce", false)?;
    let is_default = params.or("is_default_stream", false)?;
    let send_new_subscription_messages = params.or("send_new_subscription_messages", true)?;
    let groups = Groups::load(store, actor.realm.id)?;
    let settings = NewChannelSettings::read(&groups, params)?;
    let folder_id = match params.optional::<u64>("folder_id")? {
        Some(id) => Some(super::channel_folders::folder_in_realm(store, actor.realm.id, id)?.id),
        None => None,
    };
    if is_default && invite_only {
        return Err(ApiError::bad_request("A default channel cannot be private."));
    }
    if is_web_public && invite_only {
        return Err(ApiError::bad_request("Invalid parameters"));
    }
    let subscribing_others = users.iter().any(|u| u.id != actor.user.id);

    let mut stream_ids = IdAllocator::new(store, IdKind::Stream)?;
    let mut recipient_ids = IdAllocator::new(store, IdKind::Recipient)?;
    let mut outcome = Outcome::default();
    let mut targets: Vec<Stream> = Vec::new();
    let mut created: Vec<StreamId> = Vec::new();
    let mut unauthorized: Vec<String> = Vec::new();
    let mut refused = false;
    for Requested { name, description } in requested {
        match stream_by_name(store, actor, &name)? {
            Some(stream) => {
                if !has_content_access_in(store, &groups, &actor.user, &stream)? {
                    if authorization_errors_fatal {
                        return Err(ApiError::bad_request(format!(
                            "Unable to access channel ({}).",
                            stream.name
                        )));
                    }
                    unauthorized.push(stream.name);
                } else if subscribing_others && !may_add_subscribers(&groups, actor, &stream)? {
                    refused = true;
                } else {
                    targets.push(stream);
                }
            }
            None => {
                let creators = if invite_only {
                    "can_create_private_channel_group"
                } else {
                    "can_create_public_channel_group"
                };
                if !realm_permission(&groups, &actor.realm, &actor.user, creators)? {
                    return Err(ApiError::insufficient_permission());
                }
                if is_web_public {
                    super::channels::check_may_make_web_public(&groups, actor)?;
                }
                if is_default && !actor.user.is_admin() {
                    return Err(ApiError::administrator_required());
                }
                settings.check_permission(&groups, actor)?;
                let made = new_stream(
                    actor.realm.id,
                    Some(actor.user.id),
                    StreamId(stream_ids.take()),
                    RecipientId(recipient_ids.take()),
                    name,
                    description,
                    invite_only,
                    history_public,
                    now,
                );
                let stream = Stream { is_default, folder_id, is_web_public, ..settings.apply(made) };
                outcome.changes.push(Change::PutRecipient(Recipient {
                    id: stream.recipient_id,
                    kind: RecipientKind::Stream(stream.id),
                }));
                outcome.changes.push(Change::PutStream(stream.clone()));
                let joining: Vec<UserId> = users.iter().map(|u| u.id).collect();
                outcome.events.push(super::channels::creation_event(store, &groups, &stream, &joining)?);
                created.push(stream.id);
                targets.push(stream);
            }
        }
    }
    // Zulip refuses the whole request, whether or not authorization errors are fatal.
    if refused {
        return Err(ApiError::insufficient_permission());
    }

    // Keyed by user id (as a JSON object key) since feature level 289; emails before it.
    let mut subscribed: BTreeMap<UserId, Vec<String>> = BTreeMap::new();
    let mut already: BTreeMap<UserId, Vec<String>> = BTreeMap::new();
    let mut joined: BTreeMap<StreamId, Vec<UserId>> = BTreeMap::new();
    let mut added: Vec<(&User, &Stream, Subscription)> = Vec::new();
    for user in &users {
        let mut count = store.user_subscriptions(user.id)?.iter().filter(|s| s.active).count();
        for stream in &targets {
            let existing = store.subscription(user.id, stream.id)?;
            if existing.as_ref().is_some_and(|s| s.active) {
                already.entry(user.id).or_default().push(stream.name.clone());
                continue;
            }
            let sub = match existing {
                Some(old) => Subscription { active: true, ..old },
                None => Subscription::new(user.id, stream.id, stream_color(count)),
            };
            count += 1;
            joined.entry(stream.id).or_default().push(user.id);
            outcome.changes.push(Change::PutSubscription(sub.clone()));
            subscribed.entry(user.id).or_default().push(stream.name.clone());
            added.push((user, stream, sub));
        }
    }
    // Each channel's subscribers after the change, who are active users.
    let mut after: BTreeMap<StreamId, Vec<UserId>> = BTreeMap::new();
    for stream in &targets {
        let mut subscribers = active_subscribers(store, stream)?;
        subscribers.extend(joined.get(&stream.id).into_iter().flatten());
        subscribers.sort_unstable();
        subscribers.dedup();
        after.insert(stream.id, subscribers);
    }
    // Who could not see a channel sees it once subscribed: a `create` comes first, as in
    // Zulip (those who saw it created in this request were told already).
    for (user, stream, _) in &added {
        if !created.contains(&stream.id) && !has_metadata_access_unsubscribed(&groups, user, stream)? {
            let shown = wire::stream(&groups, stream, after[&stream.id].len());
            outcome.events.push(Event::Other {
                users: vec![user.id],
                body: json!({"type": "stream", "op": "create", "streams": [shown]}),
            });
        }
    }
    // Each new subscriber's `add` lists the channel's subscribers after the change.
    for (user, stream, sub) in &added {
        outcome.events.push(add_event(store, &groups, user.id, stream, sub, &after[&stream.id])?);
    }
    for stream in &targets {
        let changed = joined.get(&stream.id).map_or(&[][..], Vec::as_slice);
        if let Some(event) = peer_event(store, &groups, stream, changed, "peer_add")? {
            outcome.events.push(event);
        }
    }
    // Guests whose access to users is limited learn of the people they now share a channel
    // with before anything else.
    let (gained, _) = crate::user_access::access_change_events(store, &actor.realm, &outcome.changes)?;
    outcome.events.splice(0..0, gained);
    let new_defaults: Vec<&Stream> = targets.iter().filter(|s| s.is_default).collect();
    if is_default && !new_defaults.is_empty() {
        outcome.events.push(super::default_channels::default_streams_event(
            store,
            actor.realm.id,
            &new_defaults,
        )?);
    }
    // Zulip sends no "subscribed you" messages at all when the request subscribed more users
    // than `MAX_BULK_NEW_SUBSCRIPTION_MESSAGES`, and says whether it sent them only to a
    // request that wanted them sent.
    let within_limit = subscribed.len() <= MAX_BULK_NEW_SUBSCRIPTION_MESSAGES;
    let notify_users = send_new_subscription_messages && within_limit;
    post_subscription_notices(
        store,
        actor,
        SubscriptionNotices { targets: &targets, created: &created, joined: &joined, users: &users },
        announce,
        notify_users,
        now,
        &mut outcome,
    )?;
    let to_map = |m: BTreeMap<UserId, Vec<String>>| -> Map<String, Value> {
        m.into_iter().map(|(k, v)| (k.to_string(), json!(v))).collect()
    };
    outcome = outcome.reply("subscribed", to_map(subscribed)).reply("already_subscribed", to_map(already));
    if !authorization_errors_fatal {
        outcome = outcome.reply("unauthorized", unauthorized);
    }
    if send_new_subscription_messages {
        outcome = outcome.reply("new_subscription_messages_sent", within_limit);
    }
    Ok(outcome)
}

/// Whether the actor may subscribe other users to a channel they can read (Zulip's
/// `get_streams_to_which_user_cannot_add_subscribers`): by the organization's
/// `can_add_subscribers_group`, as an administrator of the organization or of the channel, or
/// by the channel's `can_add_subscribers_group`. None of these is ever a guest's.
pub(crate) fn may_add_subscribers(groups: &Groups, actor: &Actor, stream: &Stream) -> ApiResult<bool> {
    let user = &actor.user;
    if realm_permission(groups, &actor.realm, user, "can_add_subscribers_group")?
        || super::channel_admin::administers(groups, user, stream)?
    {
        return Ok(true);
    }
    let adders = channel_setting(groups, stream, "can_add_subscribers_group")?;
    Ok(groups.has_permission(user, &adders, false))
}

/// What a subscription request did, for its notices.
struct SubscriptionNotices<'a> {
    targets: &'a [Stream],
    created: &'a [StreamId],
    joined: &'a BTreeMap<StreamId, Vec<UserId>>,
    users: &'a [User],
}

/// The Notification Bot's notices of a subscription request: each new channel's creation (and
/// with `announce`, the announcement), and when `notify_users`, to each human someone else
/// subscribed to existing channels, which ones.
fn post_subscription_notices(
    store: &impl Store,
    actor: &Actor,
    request: SubscriptionNotices<'_>,
    announce: bool,
    notify_users: bool,
    now: i64,
    outcome: &mut Outcome,
) -> ApiResult<()> {
    let SubscriptionNotices { targets, created, joined, users } = request;
    let mut ids = NoticeIds::new(store)?;
    let new: Vec<(&Stream, &[UserId])> = targets
        .iter()
        .filter(|s| created.contains(&s.id))
        .map(|s| (s, joined.get(&s.id).map_or(&[][..], Vec::as_slice)))
        .collect();
    super::channels::post_creation_notices(store, actor, &new, announce, now, &mut ids, outcome)?;
    if !notify_users {
        return Ok(());
    }
    for user in users.iter().filter(|u| u.id != actor.user.id && !u.is_bot()) {
        let streams: Vec<&Stream> = targets
            .iter()
            .filter(|s| !created.contains(&s.id) && joined.get(&s.id).is_some_and(|j| j.contains(&user.id)))
            .collect();
        if !streams.is_empty() {
            let content = super::channel_notices::subscribed_you(&actor.user, &streams);
            send_direct_notice(store, actor, user, content, now, &mut ids, outcome)?;
        }
    }
    Ok(())
}

/// Whether the actor may unsubscribe other users from all these channels (Zulip's
/// `bulk_can_remove_subscribers_from_streams`): organization administrators may; guests may
/// not; administrators of every one of the channels may; anyone else needs to see each
/// channel and be in each one's `can_remove_subscribers_group`.
fn may_remove_subscribers(
    store: &impl Store,
    groups: &Groups,
    actor: &Actor,
    streams: &[Stream],
) -> ApiResult<bool> {
    let user = &actor.user;
    if user.is_admin() {
        return Ok(true);
    }
    if user.is_guest() {
        return Ok(false);
    }
    let mut administers_all = true;
    for stream in streams {
        administers_all &= super::channel_admin::administers(groups, user, stream)?;
    }
    if administers_all {
        return Ok(true);
    }
    for stream in streams {
        let removers = channel_setting(groups, stream, "can_remove_subscribers_group")?;
        if !has_metadata_access_in(store, groups, user, stream)?
            || !groups.has_permission(user, &removers, false)
        {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `DELETE /users/me/subscriptions`: unsubscribes the actor, or `principals`; removing anyone
/// but oneself and one's own bots takes `may_remove_subscribers`.
pub fn unsubscribe(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let Json(names) = params.required::<Json<Vec<String>>>("subscriptions")?;
    let users = principals(store, actor, params)?;
    let mut streams = Vec::new();
    for name in &names {
        let stream =
            stream_by_name(store, actor, name)?.ok_or_else(|| ApiError::stream_does_not_exist(name))?;
        streams.push(stream);
    }
    let groups = Groups::load(store, actor.realm.id)?;
    let controls = |u: &User| u.id == actor.user.id || u.is_bot() && u.bot_owner_id == Some(actor.user.id);
    if !users.iter().all(controls) && !may_remove_subscribers(store, &groups, actor, &streams)? {
        return Err(ApiError::insufficient_permission());
    }
    let mut outcome = Outcome::default();
    let mut removed = Vec::new();
    let mut not_removed = Vec::new();
    let mut left: BTreeMap<StreamId, Vec<UserId>> = BTreeMap::new();
    for user in &users {
        for stream in &streams {
            match store.subscription(user.id, stream.id)? {
                Some(sub) if sub.active => {
                    left.entry(stream.id).or_default().push(user.id);
                    // Read first: a client counts a channel's unread messages while it still
                    // knows whether the channel was muted.
                    if let Some((changes, event)) =
                        super::messages::read_on_leaving(store, user.id, stream.id)?
                    {
                        outcome.changes.extend(changes);
                        outcome.events.push(event);
                    }
                    outcome.changes.push(Change::PutSubscription(Subscription { active: false, ..sub }));
                    removed.push(stream.name.clone());
                    outcome.events.push(Event::Other {
                        users: vec![user.id],
                        body: json!({"type": "subscription", "op": "remove",
                            "subscriptions": [{"stream_id": stream.id, "name": stream.name}]}),
                    });
                    // Who saw the channel only as a subscriber no longer sees it at all.
                    if !has_metadata_access_unsubscribed(&groups, user, stream)? {
                        let mut subscribers = active_subscribers(store, stream)?;
                        subscribers.retain(|u| !left[&stream.id].contains(u));
                        let shown = wire::stream(&groups, stream, subscribers.len());
                        outcome.events.push(Event::Other {
                            users: vec![user.id],
                            body: json!({"type": "stream", "op": "delete", "streams": [shown], "stream_ids": [stream.id]}),
                        });
                    }
                }
                _ => not_removed.push(stream.name.clone()),
            }
        }
    }
    for stream in &streams {
        let changed = left.get(&stream.id).map_or(&[][..], Vec::as_slice);
        if let Some(event) = peer_event(store, &groups, stream, changed, "peer_remove")? {
            outcome.events.push(event);
        }
    }
    // Guests whose access to users is limited lose the people they no longer share anything with.
    let (_, lost) = crate::user_access::access_change_events(store, &actor.realm, &outcome.changes)?;
    outcome.events.extend(lost);
    Ok(outcome.reply("removed", removed).reply("not_removed", not_removed))
}
