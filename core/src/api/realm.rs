//! Creating an organization with its first owner (`confab serve` on an empty data directory,
//! and later `confab create-realm`).

use crate::command::Outcome;
use crate::error::{ApiError, ApiResult};
use crate::ids::{IdKind, RealmId};
use crate::model::{Realm, Role};
use crate::store::{Change, IdAllocator, Store};

use super::users::{NewUser, new_user_changes};

/// The longest organization name Zulip accepts.
pub const MAX_REALM_NAME_LENGTH: usize = 40;

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
    };
    let owner = NewUser { role: Role::Owner, ..new.owner };
    let mut changes = vec![Change::PutRealm(realm.clone())];
    let (user_id, user_changes) = new_user_changes(store, &realm, owner, now)?;
    changes.extend(user_changes);
    Ok(Outcome { changes, ..Outcome::default() }.reply("realm_id", realm.id.0).reply("user_id", user_id.0))
}
