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

/// A human or bot account.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct User {
    pub id: UserId,
    pub realm_id: RealmId,
    /// The API email: what clients authenticate with and address messages to.
    pub email: String,
    /// The real address; equal to `email` until email visibility settings arrive.
    pub delivery_email: String,
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

impl User {
    pub fn is_bot(&self) -> bool {
        self.bot_type.is_some()
    }

    pub fn is_admin(&self) -> bool {
        self.role.is_admin()
    }

    pub fn is_guest(&self) -> bool {
        self.role == Role::Guest
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
