use serde::{Deserialize, Serialize};

use crate::ids::UserId;

/// When a user was last active and last connected (Zulip's modern `UserPresence`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Presence {
    pub user_id: UserId,
    /// The last time a client reported the user active.
    pub last_active_time: i64,
    /// The last time any client of the user checked in, active or idle.
    pub last_connected_time: i64,
}
