use serde::{Deserialize, Serialize};

use crate::ids::RealmId;

/// A linkifier (spec 2.10): a pattern with named groups and an RFC 6570 URL template.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Linkifier {
    pub id: u64,
    pub realm_id: RealmId,
    pub pattern: String,
    pub url_template: String,
    /// Position in the organization's list; linkifiers apply in this order.
    pub order: u64,
}
