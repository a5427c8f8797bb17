//! First start: a data directory without organizations gets one on the root, with an owner
//! whose credentials are printed once and written to `DIR/zuliprc` for the Zulip clients. A
//! directory prepared with `confab create-realm` keeps just the organizations made there, so
//! its root may stay empty.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use confab_core::Outcome;
use confab_core::api::realm::{NewRealm, create_realm};
use confab_core::api::users::NewUser;
use confab_core::model::Role;
use confab_core::store::Store as _;
use confab_core::{ApiError, ApiResult};

use crate::secrets;
use crate::store::Store;
use crate::writer::run_now;

/// The credentials of a newly created owner.
#[derive(Debug, Clone)]
pub struct OwnerCredentials {
    pub email: String,
    pub password: String,
    pub api_key: String,
}

/// Creates the root organization and its owner when the server has no organization. Returns
/// the new owner.
pub fn ensure_first_realm(store: &Store, owner_email: &str, now: i64) -> ApiResult<Option<OwnerCredentials>> {
    if !store.read(|t| t.realms())?.is_empty() {
        return Ok(None);
    }
    let password = secrets::random_alphanumeric(20).map_err(ApiError::internal)?;
    let api_key = secrets::new_api_key().map_err(ApiError::internal)?;
    let password_hash = secrets::hash_password(&password).map_err(ApiError::internal)?;
    let new = NewRealm {
        subdomain: String::new(),
        name: "Confab".to_owned(),
        owner: NewUser {
            email: owner_email.to_owned(),
            full_name: "Owner".to_owned(),
            role: Role::Owner,
            bot_type: None,
            bot_owner_id: None,
            api_key: api_key.clone(),
            password_hash: Some(password_hash),
        },
    };
    // Checked again in the write: servers starting together on one new PostgreSQL database
    // both read "no organization", and the writer's lock lets the first one create it.
    let created = Arc::new(AtomicBool::new(false));
    let creating = created.clone();
    run_now(
        store,
        Box::new(move |tables| {
            if !tables.realms()?.is_empty() {
                return Ok(Outcome::default());
            }
            creating.store(true, Ordering::Relaxed);
            create_realm(tables, new, now)
        }),
    )?;
    if !created.load(Ordering::Relaxed) {
        return Ok(None);
    }
    Ok(Some(OwnerCredentials { email: owner_email.to_owned(), password, api_key }))
}

/// Writes a file only its owner may read (mode 600), replacing any earlier one.
pub fn write_private_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path)?;
    #[cfg(unix)]
    std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o600))?;
    file.write_all(bytes)?;
    file.sync_all()
}
