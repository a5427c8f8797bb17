//! POST /fetch_api_key   fetch_api_key (no prior credentials)

use crate::command::Outcome;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::model::Realm;
use crate::rate_limit::SlidingWindow;
use crate::store::Store;

/// Exchanges a username and password for the user's API key (spec 4.6).
///
/// `password_matches` checks the password against the stored hash; the host does that, since
/// hashing is deliberately slow and belongs off the rules path. Failed attempts count against
/// the username in `limiter`, and once it is over the limit even a right password is refused.
pub fn fetch_api_key(
    store: &impl Store,
    realm: &Realm,
    username: &str,
    password_matches: impl FnOnce(&str) -> bool,
    limiter: &mut SlidingWindow,
    now: i64,
) -> ApiResult<Outcome> {
    let limit_key = format!("{}:{}", realm.id, username.to_lowercase());
    if let Err(retry_after) = limiter.check(&limit_key, now) {
        return Err(ApiError::rate_limited(retry_after as f64));
    }
    let failed = || ApiError::new(ErrorCode::AuthenticationFailed, "Your username or password is incorrect");
    if realm.deactivated {
        return Err(ApiError::realm_deactivated());
    }
    let user = match store.user_by_delivery_email(realm.id, username)? {
        Some(id) => store.user(id)?,
        None => None,
    };
    let credentials = match &user {
        Some(user) => store.credentials(user.id)?,
        None => None,
    };
    let hash = credentials.as_ref().and_then(|c| c.password_hash.as_deref());
    let (Some(user), Some(credentials), Some(hash)) = (user.as_ref(), credentials.as_ref(), hash) else {
        limiter.record(&limit_key, now);
        return Err(failed());
    };
    if !password_matches(hash) {
        limiter.record(&limit_key, now);
        return Err(failed());
    }
    if !user.is_active {
        return Err(ApiError::user_deactivated());
    }
    Ok(Outcome::default()
        .reply("api_key", credentials.api_key.clone())
        .reply("email", user.delivery_email.clone())
        .reply("user_id", user.id.0))
}
