//! Which users a user can see: Zulip's `can_access_all_users_group` (feature level 225, a
//! group-setting value since 314). An organization may limit what guests know of the others.
//! Set to `role:members`, a guest sees only
//! - themself and every bot,
//! - the active subscribers of the channels they are subscribed to,
//! - the people of their direct-message conversations (deactivated ones too),
//!
//! as Zulip's `get_accessible_user_ids` computes it. The others are "Unknown user" to them:
//! left out of user lists for clients with the `user_list_incomplete` capability, shown as a
//! placeholder ([`placeholder_json`]) to older clients and in messages they sent. Members and
//! above always see everyone; the setting only takes `role:everyone` or `role:members`.

use std::collections::{HashMap, HashSet};
use std::ops::Bound;

use serde_json::{Value, json};

use crate::command::Event;
use crate::error::ApiResult;
use crate::groups::{Groups, realm_permission};
use crate::ids::UserId;
use crate::model::{IndexedFlag, MessageKind, Realm, User};
use crate::store::{Change, Direction, MessageIndex, Store};

/// The setting's name, as register and `PATCH /realm` spell it.
pub const SETTING: &str = "can_access_all_users_group";

/// What Zulip calls a user one cannot see (`UserProfile.INACCESSIBLE_USER_NAME`).
pub const INACCESSIBLE_USER_NAME: &str = "Unknown user";

/// The avatar of a user one cannot see, where Zulip serves it (`get_avatar_for_inaccessible_user`).
pub const INACCESSIBLE_USER_AVATAR: &str = "/static/images/unknown-user-avatar.png";

/// The users one user can see.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UserAccess {
    All,
    /// Only these humans (and every bot).
    Limited(HashSet<UserId>),
}

impl UserAccess {
    /// What `viewer` can see in `realm`.
    pub fn of(store: &impl Store, realm: &Realm, viewer: &User) -> ApiResult<Self> {
        if !viewer.is_guest() || !is_limited(store, realm)? {
            return Ok(Self::All);
        }
        let groups = Groups::load(store, realm.id)?;
        if realm_permission(&groups, realm, viewer, SETTING)? {
            return Ok(Self::All);
        }
        Ok(Self::Limited(accessible_humans(store, viewer.id)?))
    }

    pub fn sees_all(&self) -> bool {
        matches!(self, Self::All)
    }

    pub fn can_see(&self, user: &User) -> bool {
        match self {
            Self::All => true,
            Self::Limited(ids) => user.is_bot() || ids.contains(&user.id),
        }
    }

    /// [`Self::can_see`] by id, for callers holding only ids: `is_bot` says whether it is a bot.
    pub fn can_see_id(&self, id: UserId, is_bot: bool) -> bool {
        match self {
            Self::All => true,
            Self::Limited(ids) => is_bot || ids.contains(&id),
        }
    }
}

/// Whether the organization limits anyone's access: the setting is not `role:everyone`.
pub fn is_limited(store: &impl Store, realm: &Realm) -> ApiResult<bool> {
    let Some(setting) = realm.settings.groups.get(SETTING) else { return Ok(false) };
    let groups = Groups::load(store, realm.id)?;
    let everyone = groups.system_id(crate::model::SystemGroup::Everyone)?;
    Ok(*setting != crate::model::GroupSetting::Named(everyone))
}

/// Subscriptions a command is about to change, seen as already changed.
#[derive(Default)]
struct Pending {
    /// `(user, channel, active)`.
    subscriptions: Vec<(UserId, crate::ids::StreamId, bool)>,
}

impl Pending {
    fn of(changes: &[Change]) -> Self {
        let subscriptions = changes
            .iter()
            .filter_map(|c| match c {
                Change::PutSubscription(s) => Some((s.user_id, s.stream_id, s.active)),
                _ => None,
            })
            .collect();
        Pending { subscriptions }
    }

    fn user_channels(&self, store: &impl Store, user: UserId) -> ApiResult<Vec<crate::ids::StreamId>> {
        let mut channels: Vec<_> =
            store.user_subscriptions(user)?.into_iter().filter(|s| s.active).map(|s| s.stream_id).collect();
        for &(_, channel, active) in self.subscriptions.iter().filter(|(u, _, _)| *u == user) {
            channels.retain(|c| *c != channel);
            if active {
                channels.push(channel);
            }
        }
        Ok(channels)
    }

    fn subscribers(&self, store: &impl Store, channel: crate::ids::StreamId) -> ApiResult<Vec<UserId>> {
        let mut users = store.stream_subscribers(channel)?;
        for &(user, _, active) in self.subscriptions.iter().filter(|(_, c, _)| *c == channel) {
            users.retain(|u| *u != user);
            if active {
                users.push(user);
            }
        }
        Ok(users)
    }
}

/// The humans a guest shares a channel or a direct-message conversation with, and themself.
fn accessible_humans(store: &impl Store, guest: UserId) -> ApiResult<HashSet<UserId>> {
    accessible_humans_after(store, guest, &Pending::default())
}

/// [`accessible_humans`] once `pending` subscriptions are made.
fn accessible_humans_after(
    store: &impl Store,
    guest: UserId,
    pending: &Pending,
) -> ApiResult<HashSet<UserId>> {
    let mut seen = HashSet::from([guest]);
    let mut active = HashMap::new();
    for channel in pending.user_channels(store, guest)? {
        for subscriber in pending.subscribers(store, channel)? {
            if seen.contains(&subscriber) {
                continue;
            }
            let is_active = match active.get(&subscriber) {
                Some(known) => *known,
                None => {
                    let known = store.user(subscriber)?.is_some_and(|u| u.is_active);
                    active.insert(subscriber, known);
                    known
                }
            };
            if is_active {
                seen.insert(subscriber);
            }
        }
    }
    let index = MessageIndex::UserFlag(guest, IndexedFlag::Private);
    for id in store.message_ids(&index, Bound::Unbounded, Bound::Unbounded, Direction::Descending)? {
        if let Some(MessageKind::Direct { participants }) = store.message_kind(id?)? {
            seen.extend(participants);
        }
    }
    Ok(seen)
}

/// The `realm_user` events that keep guests' lists of users true when a command changes
/// subscriptions (Zulip's `send_user_creation_events_on_adding_subscriptions` and
/// `send_user_remove_events_on_removing_subscriptions`): `add`, with the user, for each user
/// a guest comes to see, to go before the command's own events; `remove` for each user a
/// guest no longer sees, to go after them.
pub fn access_change_events(
    store: &impl Store,
    realm: &Realm,
    changes: &[Change],
) -> ApiResult<(Vec<Event>, Vec<Event>)> {
    let pending = Pending::of(changes);
    if pending.subscriptions.is_empty() || !is_limited(store, realm)? {
        return Ok((Vec::new(), Vec::new()));
    }
    let groups = Groups::load(store, realm.id)?;
    let touched: HashSet<crate::ids::StreamId> = pending.subscriptions.iter().map(|(_, c, _)| *c).collect();
    let changed_users: HashSet<UserId> = pending.subscriptions.iter().map(|(u, _, _)| *u).collect();
    let (mut gained, mut lost) = (Vec::new(), Vec::new());
    for guest in store.realm_users(realm.id)?.iter().filter(|u| u.is_active && u.is_guest()) {
        if realm_permission(&groups, realm, guest, SETTING)? {
            continue;
        }
        let concerned = changed_users.contains(&guest.id)
            || store.user_subscriptions(guest.id)?.iter().any(|s| s.active && touched.contains(&s.stream_id));
        if !concerned {
            continue;
        }
        let before = accessible_humans(store, guest.id)?;
        let after = accessible_humans_after(store, guest.id, &pending)?;
        for id in after.difference(&before) {
            let Some(user) = store.user(*id)?.filter(|u| !u.is_bot()) else { continue };
            let profile = crate::api::users::profile_data(store, &user)?;
            let person = crate::wire::user(&user, guest, Some(profile));
            gained.push(Event::Other {
                users: vec![guest.id],
                body: json!({"type": "realm_user", "op": "add", "person": person}),
            });
        }
        for id in before.difference(&after) {
            let person = json!({"user_id": id, "full_name": INACCESSIBLE_USER_NAME});
            lost.push(Event::Other {
                users: vec![guest.id],
                body: json!({"type": "realm_user", "op": "remove", "person": person}),
            });
        }
    }
    Ok((gained, lost))
}

/// Zulip's `get_data_for_inaccessible_user`: a user object whose only true field is the id.
pub fn placeholder_json(user_id: UserId, realm_url: &str) -> Value {
    json!({
        "email": placeholder_email(user_id, realm_url),
        "user_id": user_id,
        "avatar_version": 1,
        "is_admin": false,
        "is_owner": false,
        "is_guest": false,
        "is_billing_admin": false,
        "role": crate::model::Role::Member.value(),
        "is_bot": false,
        "full_name": INACCESSIBLE_USER_NAME,
        "timezone": "",
        "is_active": true,
        "date_joined": crate::time::iso8601(0),
        "delivery_email": null,
        "avatar_url": INACCESSIBLE_USER_AVATAR,
        "profile_data": {},
    })
}

/// The made-up address of a user one cannot see.
pub fn placeholder_email(user_id: UserId, realm_url: &str) -> String {
    format!("user{user_id}@{}", crate::api::users::email_domain(realm_url))
}

/// The active users who can see `target`: everyone when no one's access is limited or
/// `target` is a bot; otherwise the members and above, and the guests who can.
pub fn users_who_can_see(store: &impl Store, realm: &Realm, target: &User) -> ApiResult<Vec<UserId>> {
    let everyone = store.realm_users(realm.id)?;
    let limited = !target.is_bot() && is_limited(store, realm)?;
    let mut users = Vec::new();
    for user in everyone.iter().filter(|u| u.is_active) {
        if !limited
            || !user.is_guest()
            || user.id == target.id
            || UserAccess::of(store, realm, user)?.can_see(target)
        {
            users.push(user.id);
        }
    }
    Ok(users)
}

/// The receivers of a channel message who cannot see its sender, and the sender's made-up
/// address for them (Zulip's `user_ids_without_access_to_sender`).
#[derive(Clone, Debug, PartialEq)]
pub struct HiddenSender {
    pub from: Vec<UserId>,
    pub email: String,
}

/// Who among `receivers` cannot see `sender`; `None` when everyone can. Only channel messages
/// can hide their sender: a direct message makes its people visible to each other.
pub fn sender_hidden_from(
    store: &impl Store,
    realm: &Realm,
    sender: &User,
    receivers: impl IntoIterator<Item = UserId>,
    realm_url: &str,
) -> ApiResult<Option<HiddenSender>> {
    if sender.is_bot() || !is_limited(store, realm)? {
        return Ok(None);
    }
    let mut from = Vec::new();
    for id in receivers {
        let Some(receiver) = store.user(id)?.filter(|u| u.is_guest() && u.id != sender.id) else { continue };
        if !UserAccess::of(store, realm, &receiver)?.can_see(sender) {
            from.push(id);
        }
    }
    Ok((!from.is_empty()).then(|| HiddenSender { from, email: placeholder_email(sender.id, realm_url) }))
}

/// The field that marks a `realm_user` `add` event carrying a placeholder (for a guest who
/// cannot see the new user): only queues without `user_list_incomplete` get it; never sent.
pub const PLACEHOLDER_MARK: &str = "placeholder";

/// The user an event is about, for the events Zulip sends only to those who can see that user.
fn subject(body: &Value) -> Option<UserId> {
    let id = match body.get("type").and_then(Value::as_str)? {
        "realm_user" => body.get("person")?.get("user_id"),
        "presence" | "user_status" => body.get("user_id"),
        _ => None,
    }?;
    id.as_u64().map(UserId)
}

/// An event's audience narrowed to those who can see the user it is about: `realm_user`,
/// `presence` and `user_status` events about a user go only to users who can see them.
pub fn narrow_audience(store: &impl Store, body: &Value, users: &[UserId]) -> ApiResult<Vec<UserId>> {
    let unchanged = || Ok(users.to_vec());
    // Placeholders and `remove` events are for those who cannot see the user.
    if body.get(PLACEHOLDER_MARK).is_some() || body.get("op").and_then(Value::as_str) == Some("remove") {
        return unchanged();
    }
    let Some(target) = subject(body) else { return unchanged() };
    let Some(target) = store.user(target)? else { return unchanged() };
    let Some(realm) = store.realm(target.realm_id)? else { return unchanged() };
    if target.is_bot() || !is_limited(store, &realm)? {
        return unchanged();
    }
    let seeing: HashSet<UserId> = users_who_can_see(store, &realm, &target)?.into_iter().collect();
    Ok(users.iter().copied().filter(|u| seeing.contains(u) || *u == target.id).collect())
}

/// The `realm_user` `add` events a direct message brings: each guest in it whose access is
/// limited comes to see its other people (Zulip's `get_recipients_for_user_creation_events`).
/// `participants` are the message's people, sender included; call before it is stored.
pub fn direct_message_introductions(
    store: &impl Store,
    realm: &Realm,
    participants: &[UserId],
) -> ApiResult<Vec<Event>> {
    if !is_limited(store, realm)? {
        return Ok(Vec::new());
    }
    let people: Vec<User> =
        participants.iter().filter_map(|id| store.user(*id).transpose()).collect::<ApiResult<_>>()?;
    let mut events = Vec::new();
    for guest in people.iter().filter(|u| u.is_guest()) {
        let access = UserAccess::of(store, realm, guest)?;
        for other in people.iter().filter(|u| !access.can_see(u)) {
            let profile = crate::api::users::profile_data(store, other)?;
            events.push(Event::Other {
                users: vec![guest.id],
                body: json!({"type": "realm_user", "op": "add", "person": crate::wire::user(other, guest, Some(profile))}),
            });
        }
    }
    Ok(events)
}

/// `users` split into those who can see `target` and those who cannot.
pub fn split_by_sight(
    store: &impl Store,
    realm: &Realm,
    target: &User,
    users: Vec<UserId>,
) -> ApiResult<(Vec<UserId>, Vec<UserId>)> {
    if target.is_bot() || !is_limited(store, realm)? {
        return Ok((users, Vec::new()));
    }
    let seeing: HashSet<UserId> = users_who_can_see(store, realm, target)?.into_iter().collect();
    Ok(users.into_iter().partition(|u| seeing.contains(u) || *u == target.id))
}
