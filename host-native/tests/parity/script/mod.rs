//! Turns abstract operations into the `Change`s a command would write.
//!
//! Like a command, each operation reads the store first (here, the in-memory one, which holds
//! the same history as redb) and writes only what makes sense: messages go to existing
//! channels and users, names stay unique where core keeps them unique, a reaction is not added
//! twice. An operation with nothing to act on writes nothing.

use confab_core::ApiResult;
use confab_core::api::realm::{NewRealm, create_realm};
use confab_core::api::users::NewUser;
use confab_core::ids::{IdKind, MessageId, RealmId};
use confab_core::memory::MemoryStore;
use confab_core::model::{Message, Realm, RecordKind, Role, Stream, User};
use confab_core::store::{Change, Store};

use crate::parity::ops::Op;
use crate::parity::vocabulary::email;

mod messages;
mod people;
mod settings;

/// Every kind of personal record.
pub const RECORD_KINDS: [RecordKind; 8] = [
    RecordKind::Draft,
    RecordKind::SavedSnippet,
    RecordKind::NavigationView,
    RecordKind::PushDevice,
    RecordKind::BotStorage,
    RecordKind::UserStatus,
    RecordKind::MutedUser,
    RecordKind::UserTopic,
];

/// The memory store answers every read; a failure here is a bug in the test.
fn ok<T>(result: ApiResult<T>) -> T {
    result.expect("the in-memory store answers every read")
}

/// Two organizations made by core's own `create_realm`: each with its owner, Notification Bot,
/// system groups and `general`.
pub fn seed() -> Vec<Change> {
    let mut scratch = MemoryStore::new();
    let mut changes = Vec::new();
    for (subdomain, owner) in [("", 0u8), ("lear", 1u8)] {
        let owner = NewUser {
            email: email(owner),
            full_name: "Olive Owner".into(),
            role: Role::Owner,
            bot_type: None,
            bot_owner_id: None,
            api_key: "k".repeat(32),
            password_hash: None,
        };
        let new = NewRealm { subdomain: subdomain.into(), name: format!("Org {subdomain}"), owner };
        let outcome = ok(create_realm(&scratch, new, 1_000));
        scratch.apply_all(&outcome.changes);
        changes.extend(outcome.changes);
    }
    changes
}

/// The changes `op` makes at time `now`, given what `store` holds.
pub fn changes(store: &impl Store, op: &Op, now: i64) -> Vec<Change> {
    let world = World { store };
    world.changes(op, now).unwrap_or_default()
}

/// Reads shaped for choosing what an operation acts on.
struct World<'a, S> {
    store: &'a S,
}

/// One of `items` by a generated number, if there are any.
fn pick<T: Clone>(items: &[T], n: u8) -> Option<T> {
    (!items.is_empty()).then(|| items[usize::from(n) % items.len()].clone())
}

/// One of `items`, or `None` for "a new one" (one chance more than there are items).
fn pick_or_new<T: Clone>(items: &[T], n: u8) -> Option<T> {
    items.get(usize::from(n) % (items.len() + 1)).cloned()
}

impl<S: Store> World<'_, S> {
    fn next(&self, kind: IdKind) -> u64 {
        ok(self.store.next_id(kind))
    }

    fn realms(&self) -> Vec<Realm> {
        ok(self.store.realms())
    }

    fn realm(&self, n: u8) -> Option<Realm> {
        pick(&self.realms(), n)
    }

    fn users(&self) -> Vec<User> {
        self.realms().iter().flat_map(|r| ok(self.store.realm_users(r.id))).collect()
    }

    fn user(&self, n: u8) -> Option<User> {
        pick(&self.users(), n)
    }

    fn streams(&self, realm: RealmId) -> Vec<Stream> {
        ok(self.store.realm_streams(realm))
    }

    fn messages(&self) -> Vec<Message> {
        (1..self.next(IdKind::Message)).filter_map(|id| ok(self.store.message(MessageId(id)))).collect()
    }

    fn message(&self, n: u8) -> Option<Message> {
        pick(&self.messages(), n)
    }

    fn stream_message(&self, n: u8) -> Option<Message> {
        let channel: Vec<Message> = self.messages().into_iter().filter(|m| !m.is_direct()).collect();
        pick(&channel, n)
    }

    /// Hands each operation to the part of the script that knows its objects.
    fn changes(&self, op: &Op, now: i64) -> Option<Vec<Change>> {
        match op {
            Op::Commit => Some(Vec::new()),
            Op::AddUser { .. }
            | Op::EditUser { .. }
            | Op::PutCredentials { .. }
            | Op::EditRealm { .. }
            | Op::AddStream { .. }
            | Op::EditStream { .. }
            | Op::Subscribe { .. } => self.people_and_channels(op, now),
            Op::SendToChannel { .. }
            | Op::SendDirect { .. }
            | Op::SetFlags { .. }
            | Op::DropFlags { .. }
            | Op::Edit { .. }
            | Op::Move { .. }
            | Op::Delete { .. }
            | Op::React { .. }
            | Op::Unreact { .. }
            | Op::AddSubmessage { .. } => self.messages_and_flags(op, now),
            _ => self.settings_and_records(op, now),
        }
    }
}

/// Where an uploaded file lives, from its id alone, so the reads can ask for deleted ones too.
pub fn attachment_path(realm: RealmId, id: u64) -> String {
    format!("{}/{id:02x}/notes.txt", realm.0)
}
