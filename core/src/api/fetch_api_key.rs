//! POST /fetch_api_key   fetch_api_key (no prior credentials)

use crate::command::Outcome;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::model::Realm;
use crate::rate_limit::Limiter;
use crate::store::Store;

/// Exchanges a username and password for the user's API key (spec 4.6).
///
/// `password_matches` checks the password against the stored hash, or, given `None` (no such
/// user, or one without a password), against a stand-in hash of the same cost: a wrong login
/// then takes as long whether or not the account exists, so its timing does not tell. It is
/// called exactly once on every path that gets past the limit. The host does the hashing,
/// which is deliberately slow and belongs off the rules path.
///
/// Every attempt counts against the username in `limiter` (Zulip's `authenticate_by_username`),
/// a success clears its count, and once it is over the limit even a right password is refused.
pub fn fetch_api_key(
    store: &impl Store,
    realm: &Realm,
    username: &str,
    password_matches: impl FnOnce(Option<&str>) -> bool,
    limiter: &mut Limiter<String>,
    now_ms: i64,
) -> ApiResult<Outcome> {
    let limit_key = login_limit_key(realm, username);
    if let Err(limited) = limiter.attempt(&limit_key, now_ms) {
        return Err(ApiError::rate_limited(limited.retry_after_secs));
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
    let matches = password_matches(hash);
    let (Some(user), Some(credentials), true) = (user.as_ref(), credentials.as_ref(), matches) else {
        return Err(failed());
    };
    limiter.clear(&limit_key);
    if !user.is_active {
        return Err(ApiError::user_deactivated());
    }
    Ok(Outcome::default()
        .reply("api_key", credentials.api_key.clone())
        .reply("email", user.delivery_email.clone())
        .reply("user_id", user.id.0))
}

/// The key a login's attempts count under: the username in its organization, in any case.
pub fn login_limit_key(realm: &Realm, username: &str) -> String {
    format!("{}:{}", realm.id, username.to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::MemoryStore;
    use crate::rate_limit::Rules;

    /// An organization whose owner `ada@example.com` has the password hash `"HASH"`.
    fn organization() -> (MemoryStore, Realm) {
        MemoryStore::with_one_organization(Some("HASH"))
    }

    /// The hashes `password_matches` was asked about when logging in as `username`.
    fn checked(username: &str) -> (Vec<Option<String>>, ApiResult<Outcome>) {
        let (store, realm) = organization();
        let mut limiter = Limiter::new(Rules::authenticate_by_username());
        let mut asked = Vec::new();
        let result = fetch_api_key(
            &store,
            &realm,
            username,
            |hash| {
                asked.push(hash.map(str::to_owned));
                false
            },
            &mut limiter,
            0,
        );
        (asked, result)
    }

    #[test]
    fn an_unknown_username_costs_one_password_check_as_a_known_one_does() {
        let (known, known_result) = checked("ada@example.com");
        let (unknown, unknown_result) = checked("nobody@example.com");
        assert_eq!(known, [Some("HASH".to_owned())]);
        assert_eq!(unknown, [None], "checked once, against the host's stand-in hash");
        let msg = |r: ApiResult<Outcome>| r.err().map(|e| e.msg);
        assert_eq!(msg(known_result), msg(unknown_result), "the same answer");
    }

    #[test]
    fn a_success_clears_the_usernames_count_and_an_exhausted_one_is_refused_unchecked() {
        let (store, realm) = organization();
        let mut limiter = Limiter::new(Rules::authenticate_by_username());
        let mut login = |right: bool, now_ms: i64| {
            let mut asked = false;
            let result = fetch_api_key(
                &store,
                &realm,
                "ADA@example.com",
                |_| {
                    asked = true;
                    right
                },
                &mut limiter,
                now_ms,
            );
            (result.map_err(|e| e.code), asked)
        };
        for _ in 0..4 {
            assert_eq!(login(false, 0).0.err(), Some(ErrorCode::AuthenticationFailed));
        }
        assert!(login(true, 0).0.is_ok(), "the fifth attempt, right, succeeds");
        for _ in 0..5 {
            assert_eq!(login(false, 0).0.err(), Some(ErrorCode::AuthenticationFailed));
        }
        let (sixth, asked) = login(true, 0);
        assert_eq!(sixth.err(), Some(ErrorCode::RateLimitHit));
        assert!(!asked, "no password is checked once the username is over its limit");
    }
}
