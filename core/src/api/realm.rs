//! Creating an organization with its first owner (`confab serve` on an empty data directory,
//! and later `confab create-realm`).

use crate::command::Outcome;
use crate::error::{ApiError, ApiResult};
use crate::ids::{IdKind, RealmId, RecipientId, UserId};
use crate::model::{BotType, Realm, Recipient, RecipientKind, Role, User};
use crate::store::{Change, IdAllocator, Store};

use super::users::{NewUser, new_user_changes};

/// The longest organization name Zulip accepts.
pub const MAX_REALM_NAME_LENGTH: usize = 40;

/// The domain of the notification bot's address. Bots have no mailbox; the address only has to
/// be unique and recognizable.
pub const NOTIFICATION_BOT_DOMAIN: &str = "confab.invalid";

/// What a new organization needs.
#[derive(Clone, Debug)]
pub struct NewRealm {
    pub subdomain: String,
    pub name: String,
    pub owner: NewUser,
}

/// Creates an organization and its owner. The owner's role is forced to owner.
pub fn create_realm(store: &impl Store, new: NewRealm, now: i64) -> ApiResult<Outcome> {
    if store.realm_by_subdomain(&new.subdomain)?.is_some() {
        return Err(ApiError::bad_request(format!("Subdomain '{}' is already in use", new.subdomain)));
    }
    let name = new.name.trim();
    if name.is_empty() || name.chars().count() > MAX_REALM_NAME_LENGTH {
        return Err(ApiError::bad_request("Invalid organization name"));
    }
    let realm = Realm {
        id: RealmId(IdAllocator::new(store, IdKind::Realm)?.take()),
        subdomain: new.subdomain,
        name: name.to_owned(),
        description: String::new(),
        date_created: now,
        deactivated: false,
        notification_bot: None,
        settings: Default::default(),
    };
    let owner = NewUser { role: Role::Owner, ..new.owner };
    let mut changes = Vec::new();
    let (user_id, user_changes) = new_user_changes(store, &realm, owner, now)?;
    changes.extend(user_changes);
    // The notification bot's id follows the owner's: both come from the same counter, and
    // the owner's change moves it only when applied, so allocate past it here.
    let bot_id = UserId(user_id.0 + 1);
    let bot_recipient = RecipientId(store.next_id(IdKind::Recipient)? + 1);
    let bot = User {
        id: bot_id,
        realm_id: realm.id,
        email: format!("notification-bot@{}", NOTIFICATION_BOT_DOMAIN),
        delivery_email: format!("notification-bot@{}", NOTIFICATION_BOT_DOMAIN),
        full_name: "Notification Bot".to_owned(),
        role: Role::Member,
        bot_type: Some(BotType::Generic),
        bot_owner_id: None,
        is_active: true,
        date_joined: now,
        timezone: String::new(),
        avatar_version: 1,
        personal_recipient: bot_recipient,
    };
    changes
        .push(Change::PutRecipient(Recipient { id: bot_recipient, kind: RecipientKind::Personal(bot_id) }));
    changes.push(Change::PutUser(bot));
    let realm = Realm { notification_bot: Some(bot_id), ..realm };
    changes.insert(0, Change::PutRealm(realm.clone()));
    Ok(Outcome { changes, ..Outcome::default() }.reply("realm_id", realm.id.0).reply("user_id", user_id.0))
}
