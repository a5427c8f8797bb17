use serde::{Deserialize, Serialize};

use crate::ids::{RealmId, UserId};

/// When a user was last active and last connected (Zulip's modern `UserPresence`), and where
/// its latest change falls in the organization's presence sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Presence {
    pub user_id: UserId,
    pub realm_id: RealmId,
    /// The last time a client reported the user active.
    pub last_active_time: i64,
    /// The last time any client of the user checked in, active or idle.
    pub last_connected_time: i64,
    /// The organization's presence sequence number given to this presence's latest change
    /// (Zulip's `UserPresence.last_update_id`, drawn from its `PresenceSequence`): clients ask
    /// for the presences changed after the last one they saw.
    pub last_update_id: u64,
}
