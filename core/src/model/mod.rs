//! The domain model: what Confab stores. Wire shapes (what clients see) are in `crate::wire`.

mod attachment;
mod channel_folder;
mod emoji;
mod flags;
mod group;
mod invitation;
mod linkifier;
mod message;
mod presence;
mod profile;
mod realm;
pub mod realm_properties;
mod recipient;
mod records;
mod scheduled_message;
pub mod settings;
mod stored_html;
mod stream;
mod user;

pub use attachment::{Attachment, ImageAttachment, StoredThumbnail};
pub use channel_folder::ChannelFolder;
pub use emoji::RealmEmoji;
pub use flags::{IndexedFlag, MessageFlags};
pub use group::{GroupSetting, SystemGroup, UserGroup};
pub use invitation::{Invitation, InvitationStatus};
pub use linkifier::Linkifier;
pub use message::{EditRecord, Message, MessageKind, Reaction, SendOrigin, Submessage};
pub use presence::Presence;
pub use profile::{ProfileField, ProfileFieldType, ProfileValue};
pub use realm::{DefaultChannelGroup, Playground, Realm, RealmSettings};
pub use recipient::{Recipient, RecipientKind, direct_group_key};
pub use records::{RecordKind, topic_preference_key, topic_preference_place};
pub use scheduled_message::{DeliveryState, ReminderOf, ScheduledMessage, ScheduledTarget};
pub use stored_html::StoredHtml;
pub use stream::{ChannelPermissions, Stream, Subscription};
pub use user::{BotService, BotType, Credentials, EmailVisibility, Role, User};
