//! Which subdomains a new organization may take: Zulip's `check_subdomain_available`, with its
//! texts and in its order, after the length limit of its forms (`MAX_REALM_SUBDOMAIN_LENGTH`).

use crate::error::{ApiError, ApiResult};
use crate::store::Store;

use super::reserved::is_reserved_subdomain;

/// Zulip's `Realm.MAX_REALM_SUBDOMAIN_LENGTH`.
pub const MAX_REALM_SUBDOMAIN_LENGTH: usize = 40;
/// The shortest subdomain Zulip accepts (the empty one, the root, aside).
pub const MIN_REALM_SUBDOMAIN_LENGTH: usize = 3;

/// Checks that a new organization may take `subdomain`. The empty subdomain is the root, free
/// until an organization lives there.
pub fn check_subdomain_available(store: &impl Store, subdomain: &str) -> ApiResult<()> {
    let unavailable = || ApiError::bad_request("Subdomain already in use. Please choose a different one.");
    if subdomain.is_empty() {
        return match store.realm_by_subdomain("")? {
            Some(_) => Err(unavailable()),
            None => Ok(()),
        };
    }
    let length = subdomain.chars().count();
    if length > MAX_REALM_SUBDOMAIN_LENGTH {
        // Django's `max_length` text, which Zulip's forms answer with.
        return Err(ApiError::bad_request(format!(
            "Ensure this value has at most {MAX_REALM_SUBDOMAIN_LENGTH} characters (it has {length})."
        )));
    }
    if subdomain.starts_with('-') || subdomain.ends_with('-') {
        return Err(ApiError::bad_request("Subdomain cannot start or end with a '-'."));
    }
    if !subdomain.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') {
        return Err(ApiError::bad_request("Subdomain can only have lowercase letters, numbers, and '-'s."));
    }
    if length < MIN_REALM_SUBDOMAIN_LENGTH {
        return Err(ApiError::bad_request("Subdomain needs to have length 3 or greater."));
    }
    if store.realm_by_subdomain(subdomain)?.is_some() {
        return Err(unavailable());
    }
    if is_reserved_subdomain(subdomain) {
        return Err(ApiError::bad_request("Subdomain reserved. Please choose a different one."));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::MemoryStore;

    #[test]
    fn subdomains_follow_zulips_rules_and_texts() {
        let store = MemoryStore::default();
        let long = "a".repeat(41);
        let cases: &[(&str, Option<&str>)] = &[
            ("", None),
            ("lear", None),
            ("a-0", None),
            ("abc", None),
            (&"a".repeat(40), None),
            (&long, Some("Ensure this value has at most 40 characters (it has 41).")),
            ("-lear", Some("Subdomain cannot start or end with a '-'.")),
            ("lear-", Some("Subdomain cannot start or end with a '-'.")),
            ("Lear", Some("Subdomain can only have lowercase letters, numbers, and '-'s.")),
            ("le_ar", Some("Subdomain can only have lowercase letters, numbers, and '-'s.")),
            ("lé-ar", Some("Subdomain can only have lowercase letters, numbers, and '-'s.")),
            ("a.b", Some("Subdomain can only have lowercase letters, numbers, and '-'s.")),
            ("ab", Some("Subdomain needs to have length 3 or greater.")),
            ("www", Some("Subdomain reserved. Please choose a different one.")),
            ("api", Some("Subdomain reserved. Please choose a different one.")),
            ("streams", Some("Subdomain reserved. Please choose a different one.")),
            ("your-org", Some("Subdomain reserved. Please choose a different one.")),
        ];
        for (subdomain, expected) in cases {
            let got = check_subdomain_available(&store, subdomain).err().map(|e| e.msg);
            assert_eq!(got.as_deref(), *expected, "subdomain {subdomain:?}");
        }
    }
}
