use serde::{Deserialize, Serialize};

use crate::ids::{RealmId, StreamId, UserGroupId, UserId};
use crate::model::Role;

/// An invitation to join an organization: an email invitation for one address (Zulip's
/// `PreregistrationUser` with its confirmation) or a reusable link anyone holding it may use
/// (Zulip's `MultiuseInvite`). Both are kept after use or revocation, so that their links are
/// refused with a reason rather than as unknown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Invitation {
    /// One sequence for both kinds (Zulip has two; ids are only ever compared within a kind).
    pub id: u64,
    pub realm_id: RealmId,
    /// The confirmation key in the invitation's link: random, from the host.
    pub key: String,
    /// The invited address; `None` for a reusable link.
    pub email: Option<String>,
    pub referred_by: UserId,
    pub invited_as: Role,
    /// When it was made, in UNIX seconds.
    pub invited_at: i64,
    /// When its link stops working; `None` for never.
    pub expires_at: Option<i64>,
    /// Channels the new user joins.
    pub stream_ids: Vec<StreamId>,
    /// Groups the new user joins.
    pub group_ids: Vec<UserGroupId>,
    /// Whether the new user also joins the organization's default channels.
    pub include_realm_default_subscriptions: bool,
    /// Whether the inviter hears from Notification Bot when the invitee joins (email
    /// invitations only).
    pub notify_referrer_on_join: bool,
    /// Kept as Zulip keeps it; Confab has no Welcome Bot to send it.
    pub welcome_message_custom_text: Option<String>,
    pub status: InvitationStatus,
}

/// Where an invitation stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum InvitationStatus {
    Active,
    /// An email invitation someone signed up with (reusable links are never used up).
    Used,
    Revoked,
}

impl Invitation {
    pub fn is_multiuse(&self) -> bool {
        self.email.is_none()
    }

    /// Whether its link still works at `now`: active and not past its expiry.
    pub fn is_valid(&self, now: i64) -> bool {
        self.status == InvitationStatus::Active && self.expires_at.is_none_or(|at| now < at)
    }
}
