use serde::{Deserialize, Serialize};

use crate::ids::{RealmId, RecipientId, UserId};

/// A user's role, with Zulip's numeric values (lower is more powerful).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(into = "u16", try_from = "u16")]
pub enum Role {
    Owner,
    Administrator,
    Moderator,
    Member,
    Guest,
}

impl Role {
    pub fn value(self) -> u16 {
        match self {
            Role::Owner => 100,
            Role::Administrator => 200,
            Role::Moderator => 300,
            Role::Member => 400,
            Role::Guest => 600,
        }
    }

    pub fn from_value(value: u16) -> Option<Role> {
        Some(match value {
            100 => Role::Owner,
            200 => Role::Administrator,
            300 => Role::Moderator,
            400 => Role::Member,
            600 => Role::Guest,
            _ => return None,
        })
    }

    /// Parses the names the command line uses (`owner`, `admin`, ...).
    pub fn from_name(name: &str) -> Option<Role> {
        Some(match name {
            "owner" => Role::Owner,
            "admin" | "administrator" => Role::Administrator,
            "moderator" => Role::Moderator,
            "member" => Role::Member,
            "guest" => Role::Guest,
            _ => return None,
        })
    }

    pub fn is_admin(self) -> bool {
        self <= Role::Administrator
    }
}

impl From<Role> for u16 {
    fn from(role: Role) -> u16 {
        role.value()
    }
}

impl TryFrom<u16> for Role {
    type Error = String;
    fn try_from(value: u16) -> Result<Self, Self::Error> {
        Role::from_value(value).ok_or_else(|| format!("invalid role {value}"))
    }
}

/// Zulip's bot types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BotType {
    Generic,
    IncomingWebhook,
    OutgoingWebhook,
    Embedded,
}

impl BotType {
    pub fn from_value(value: i64) -> Option<BotType> {
        Some(match value {
            1 => BotType::Generic,
            2 => BotType::IncomingWebhook,
            3 => BotType::OutgoingWebhook,
            4 => BotType::Embedded,
            _ => return None,
        })
    }

    pub fn value(self) -> u8 {
        match self {
            BotType::Generic => 1,
            BotType::IncomingWebhook => 2,
            BotType::OutgoingWebhook => 3,
            BotType::Embedded => 4,
        }
    }
}

/// Who may see a user's real (delivery) email: the user setting `email_address_visibility`,
/// with Zulip's values. Others see `delivery_email` null, and everyone but `Everyone` makes the
/// API email a stand-in (`user{id}@{host}`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "u8", try_from = "u8")]
pub enum EmailVisibility {
    #[default]
    Everyone,
    Members,
    Admins,
    Nobody,
    Moderators,
}

impl EmailVisibility {
    pub fn value(self) -> u8 {
        match self {
            EmailVisibility::Everyone => 1,
            EmailVisibility::Members => 2,
            EmailVisibility::Admins => 3,
            EmailVisibility::Nobody => 4,
            EmailVisibility::Moderators => 5,
        }
    }

    pub fn from_value(value: i64) -> Option<EmailVisibility> {
        Some(match value {
            1 => EmailVisibility::Everyone,
            2 => EmailVisibility::Members,
            3 => EmailVisibility::Admins,
            4 => EmailVisibility::Nobody,
            5 => EmailVisibility::Moderators,
            _ => return None,
        })
    }

    /// Whether a user of role `viewer` may see the email of a user with this setting (Zulip's
    /// `can_access_delivery_email`, for someone other than the user themselves).
    pub fn allows(self, viewer: Role) -> bool {
        match self {
            EmailVisibility::Everyone => true,
            EmailVisibility::Members => viewer != Role::Guest,
            EmailVisibility::Moderators => viewer <= Role::Moderator,
            EmailVisibility::Admins => viewer.is_admin(),
            EmailVisibility::Nobody => false,
        }
    }
}

impl From<EmailVisibility> for u8 {
    fn from(visibility: EmailVisibility) -> u8 {
        visibility.value()
    }
}

impl TryFrom<u8> for EmailVisibility {
    type Error = String;
    fn try_from(value: u8) -> Result<Self, Self::Error> {
        EmailVisibility::from_value(i64::from(value))
            .ok_or_else(|| format!("invalid email visibility {value}"))
    }
}

/// A human or bot account.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct User {
    pub id: UserId,
    pub realm_id: RealmId,
    /// The API email: what clients address messages and name users with. The real address
    /// when `email_address_visibility` is `Everyone`, else `user{id}@{host}`.
    pub email: String,
    /// The real address: what users log in and authenticate with.
    pub delivery_email: String,
    /// Who may see `delivery_email` (a setting kept here because every user object needs it).
    #[serde(default)]
    pub email_address_visibility: EmailVisibility,
    pub full_name: String,
    pub role: Role,
    pub bot_type: Option<BotType>,
    pub bot_owner_id: Option<UserId>,
    pub is_active: bool,
    pub date_joined: i64,
    /// IANA zone name; empty when unset.
    pub timezone: String,
    pub avatar_version: u32,
    /// An uploaded avatar: its path under `/user_avatars/`. `None`: the default avatar (Zulip's
    /// gravatar source, `G`).
    #[serde(default)]
    pub avatar: Option<String>,
    /// The recipient that addresses direct messages to this user.
    pub personal_recipient: RecipientId,
}

/// The id of the spectator: someone on the internet reading an organization's web-public
/// channels without an account. No user has it (ids start at 1).
pub const SPECTATOR_ID: UserId = UserId(0);

impl User {
    /// The spectator of an organization, as a user that belongs to nothing: a guest whose only
    /// content access is to web-public channels (`api::streams::has_content_access`).
    pub fn spectator(realm: &crate::model::Realm) -> User {
        User {
            id: SPECTATOR_ID,
            realm_id: realm.id,
            email: String::new(),
            delivery_email: String::new(),
            full_name: String::new(),
            role: Role::Guest,
            bot_type: None,
            bot_owner_id: None,
            is_active: true,
            date_joined: realm.date_created,
            timezone: String::new(),
            avatar_version: 0,
            avatar: None,
            email_address_visibility: Default::default(),
            personal_recipient: crate::ids::RecipientId(0),
        }
    }

    pub fn is_spectator(&self) -> bool {
        self.id == SPECTATOR_ID
    }

    pub fn is_bot(&self) -> bool {
        self.bot_type.is_some()
    }

    pub fn is_admin(&self) -> bool {
        self.role.is_admin()
    }

    pub fn is_guest(&self) -> bool {
        self.role == Role::Guest
    }

    /// Whether this user may see `target`'s real email.
    pub fn can_see_delivery_email(&self, target: &User) -> bool {
        // Even "everyone" means everyone with an account: never a spectator.
        self.id == target.id || (!self.is_spectator() && target.email_address_visibility.allows(self.role))
    }
}

/// Secrets, kept apart from [`User`] so that user records can be passed around freely.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Credentials {
    pub api_key: String,
    /// An argon2 PHC string; `None` for accounts that cannot log in with a password (bots).
    pub password_hash: Option<String>,
}

/// Where an outgoing-webhook bot's messages go (Zulip's `Service`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotService {
    pub bot_id: UserId,
    /// The URL the bot's triggers are posted to.
    pub base_url: String,
    /// 1: Zulip's own payload format, 2: Slack's.
    pub interface: u8,
    /// Sent with every payload, so the receiver can tell the request is ours.
    pub token: String,
}
