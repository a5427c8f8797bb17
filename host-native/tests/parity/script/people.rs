//! Organizations, their people and channels: names stay unique where core keeps them unique.

use confab_core::api::users::{NewUser, new_user_changes};
use confab_core::ids::{IdKind, RecipientId, StreamId};
use confab_core::model::{BotType, Credentials, Realm, Recipient, RecipientKind, Role, Stream, Subscription};
use confab_core::store::{Change, Store};

use super::{World, ok, pick, pick_or_new};
use crate::parity::ops::Op;
use crate::parity::vocabulary::{STREAM_NAMES, SUBDOMAINS, email, one};

impl<S: Store> World<'_, S> {
    pub(super) fn people_and_channels(&self, op: &Op, now: i64) -> Option<Vec<Change>> {
        let store = self.store;
        Some(match *op {
            Op::AddUser { realm, name, role } => {
                let realm = self.realm(realm)?;
                let (role, bot_type) = match role % 5 {
                    0 => (Role::Administrator, None),
                    1 => (Role::Moderator, None),
                    2 => (Role::Guest, None),
                    3 => (Role::Member, Some(BotType::OutgoingWebhook)),
                    _ => (Role::Member, None),
                };
                let new = NewUser {
                    email: email(name),
                    full_name: format!("User {name}"),
                    role,
                    bot_type,
                    bot_owner_id: None,
                    api_key: "a".repeat(32),
                    password_hash: None,
                };
                // Refused for an address in use (compared case-insensitively), as core refuses it.
                new_user_changes(store, &realm, new, now).ok()?.1
            }
            Op::EditUser { user, email: new_email, active, name } => {
                let mut user = self.user(user)?;
                if let Some(n) = new_email {
                    let address = email(n);
                    let holder = ok(store.user_by_delivery_email(user.realm_id, &address));
                    if holder.is_some_and(|id| id != user.id) {
                        return None;
                    }
                    user.delivery_email = address.clone();
                    user.email = address;
                }
                user.is_active = active;
                user.full_name = format!("Renamed {name}");
                vec![Change::PutUser(user)]
            }
            Op::PutCredentials { user, key } => {
                let user = self.user(user)?;
                let credentials = Credentials { api_key: format!("{key:032}"), password_hash: None };
                vec![Change::PutCredentials(user.id, credentials)]
            }
            Op::EditRealm { realm, subdomain } => {
                let realm = self.realm(realm)?;
                let subdomain = one(&SUBDOMAINS, subdomain);
                if ok(store.realm_by_subdomain(subdomain)).is_some_and(|id| id != realm.id) {
                    return None;
                }
                vec![Change::PutRealm(Realm { subdomain: subdomain.into(), ..realm })]
            }
            Op::AddStream { realm, name, private } => {
                let realm = self.realm(realm)?;
                let name = one(&STREAM_NAMES, name);
                if ok(store.stream_by_name(realm.id, name)).is_some() {
                    return None;
                }
                // Every organization has `general`: the new channel copies its defaults.
                let template = self.streams(realm.id).into_iter().next()?;
                let stream = Stream {
                    id: StreamId(self.next(IdKind::Stream)),
                    recipient_id: RecipientId(self.next(IdKind::Recipient)),
                    name: name.into(),
                    invite_only: private,
                    history_public_to_subscribers: !private,
                    is_default: false,
                    date_created: now,
                    first_message_id: None,
                    is_recently_active: true,
                    ..template
                };
                let recipient = Recipient { id: stream.recipient_id, kind: RecipientKind::Stream(stream.id) };
                vec![Change::PutRecipient(recipient), Change::PutStream(stream)]
            }
            Op::EditStream { stream, name, archived, folder } => {
                let streams: Vec<Stream> = self.realms().iter().flat_map(|r| self.streams(r.id)).collect();
                let mut stream = pick(&streams, stream)?;
                let name = one(&STREAM_NAMES, name);
                if ok(store.stream_by_name(stream.realm_id, name)).is_some_and(|id| id != stream.id) {
                    return None;
                }
                let folders = ok(store.channel_folders(stream.realm_id));
                stream.name = name.into();
                stream.is_archived = archived;
                stream.folder_id = pick_or_new(&folders, folder).map(|f| f.id);
                vec![Change::PutStream(stream)]
            }
            Op::Subscribe { user, stream, active, muted } => {
                let user = self.user(user)?;
                let stream = pick(&self.streams(user.realm_id), stream)?;
                let sub = ok(store.subscription(user.id, stream.id))
                    .unwrap_or_else(|| Subscription::new(user.id, stream.id, "#76ce90".into()));
                vec![Change::PutSubscription(Subscription { active, is_muted: muted, ..sub })]
            }
            _ => return None,
        })
    }
}
