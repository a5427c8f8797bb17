use serde::{Deserialize, Serialize};

/// Per-user message flags, with Zulip's bit layout (`UserMessage.flags`), so that the order of
/// names in `flags` arrays matches Zulip's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MessageFlags(pub u32);

/// Flag names by bit; `None` marks bits that exist but are never shown to clients.
const NAMES: &[(u32, &str, bool)] = &[
    // (bit, name, editable by the user)
    (0, "read", true),
    (1, "starred", true),
    (2, "collapsed", true),
    (3, "mentioned", false),
    (4, "stream_wildcard_mentioned", false),
    (5, "topic_wildcard_mentioned", false),
    (6, "group_mentioned", false),
    (7, "force_expand", false),
    (8, "force_collapse", false),
    (9, "has_alert_word", false),
    (10, "historical", false),
];

impl MessageFlags {
    pub const READ: MessageFlags = MessageFlags(1);
    pub const STARRED: MessageFlags = MessageFlags(1 << 1);
    pub const COLLAPSED: MessageFlags = MessageFlags(1 << 2);
    pub const MENTIONED: MessageFlags = MessageFlags(1 << 3);
    pub const STREAM_WILDCARD_MENTIONED: MessageFlags = MessageFlags(1 << 4);
    pub const TOPIC_WILDCARD_MENTIONED: MessageFlags = MessageFlags(1 << 5);
    pub const GROUP_MENTIONED: MessageFlags = MessageFlags(1 << 6);
    pub const HAS_ALERT_WORD: MessageFlags = MessageFlags(1 << 9);
    pub const HISTORICAL: MessageFlags = MessageFlags(1 << 10);
    /// Internal: the message is a direct message. Never shown to clients.
    pub const IS_PRIVATE: MessageFlags = MessageFlags(1 << 11);

    pub const fn empty() -> Self {
        MessageFlags(0)
    }

    pub fn contains(self, other: MessageFlags) -> bool {
        self.0 & other.0 == other.0
    }

    pub fn intersects(self, other: MessageFlags) -> bool {
        self.0 & other.0 != 0
    }

    pub const fn with(self, other: MessageFlags) -> Self {
        MessageFlags(self.0 | other.0)
    }

    pub const fn without(self, other: MessageFlags) -> Self {
        MessageFlags(self.0 & !other.0)
    }

    /// Any kind of mention that puts a message in `is:mentioned`.
    pub fn any_mention() -> Self {
        MessageFlags(
            Self::MENTIONED.0
                | Self::STREAM_WILDCARD_MENTIONED.0
                | Self::TOPIC_WILDCARD_MENTIONED.0
                | Self::GROUP_MENTIONED.0,
        )
    }

    /// The flag named `name` as clients spell it, if it exists.
    pub fn from_name(name: &str) -> Option<MessageFlags> {
        NAMES.iter().find(|(_, n, _)| *n == name).map(|(bit, _, _)| MessageFlags(1 << bit))
    }

    /// Whether a user may add or remove this flag themselves.
    pub fn is_user_editable(name: &str) -> bool {
        NAMES.iter().any(|(_, n, editable)| *n == name && *editable)
    }

    /// The names clients see, in bit order, plus the legacy `wildcard_mentioned`.
    pub fn names(self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> =
            NAMES.iter().filter(|(bit, _, _)| self.0 & (1 << bit) != 0).map(|(_, n, _)| *n).collect();
        if self.intersects(Self::STREAM_WILDCARD_MENTIONED.with(Self::TOPIC_WILDCARD_MENTIONED)) {
            names.push("wildcard_mentioned");
        }
        names
    }
}

/// Flags that have their own per-user index, so `is:` narrows never scan a user's whole history.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IndexedFlag {
    /// Indexed by absence of `read`: a row exists while the message is unread.
    Unread,
    Starred,
    /// Any mention (direct, group or wildcard).
    Mentioned,
    HasAlertWord,
    /// Direct messages (the internal `is_private` bit).
    Private,
}

impl IndexedFlag {
    pub const ALL: [IndexedFlag; 5] = [
        IndexedFlag::Unread,
        IndexedFlag::Starred,
        IndexedFlag::Mentioned,
        IndexedFlag::HasAlertWord,
        IndexedFlag::Private,
    ];

    /// The byte the store uses in its index key.
    pub fn code(self) -> u8 {
        match self {
            IndexedFlag::Unread => 0,
            IndexedFlag::Starred => 1,
            IndexedFlag::Mentioned => 2,
            IndexedFlag::HasAlertWord => 3,
            IndexedFlag::Private => 4,
        }
    }

    /// Whether a message with these flags belongs in this index.
    pub fn holds(self, flags: MessageFlags) -> bool {
        match self {
            IndexedFlag::Unread => !flags.contains(MessageFlags::READ),
            IndexedFlag::Starred => flags.contains(MessageFlags::STARRED),
            IndexedFlag::Mentioned => flags.intersects(MessageFlags::any_mention()),
            IndexedFlag::HasAlertWord => flags.contains(MessageFlags::HAS_ALERT_WORD),
            IndexedFlag::Private => flags.contains(MessageFlags::IS_PRIVATE),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_zulip_bit_order_and_hide_internal_bits() {
        let flags = MessageFlags::STARRED
            .with(MessageFlags::READ)
            .with(MessageFlags::IS_PRIVATE)
            .with(MessageFlags::TOPIC_WILDCARD_MENTIONED);
        assert_eq!(flags.names(), vec!["read", "starred", "topic_wildcard_mentioned", "wildcard_mentioned"]);
    }

    #[test]
    fn only_read_starred_and_collapsed_are_user_editable() {
        let editable: Vec<_> =
            NAMES.iter().filter(|(_, n, _)| MessageFlags::is_user_editable(n)).map(|(_, n, _)| *n).collect();
        assert_eq!(editable, vec!["read", "starred", "collapsed"]);
    }
}
