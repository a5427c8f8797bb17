use serde::{Deserialize, Serialize};

use crate::ids::RealmId;

/// An organization. Everything else belongs to exactly one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Realm {
    pub id: RealmId,
    /// Empty for the organization on the server's root host.
    pub subdomain: String,
    pub name: String,
    /// Markdown source of the organization description.
    pub description: String,
    pub date_created: i64,
    pub deactivated: bool,
}

impl Realm {
    /// Zulip's `sender_realm_str`: the subdomain, unique only within a server.
    pub fn string_id(&self) -> &str {
        &self.subdomain
    }
}
