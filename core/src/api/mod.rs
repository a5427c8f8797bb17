//! The operations of the API, one module per endpoint group, one function per operation named
//! after Zulip's `operationId`. Each file opens with the routes it serves.

pub mod alert_words;
pub mod bots;
pub mod channel_admin;
pub mod channel_folders;
pub mod channels;
pub mod default_channels;
pub mod fetch_api_key;
pub mod linkifiers;
pub mod messages;
pub mod narrow;
pub mod notifications;
pub mod presence;
pub mod realm;
pub mod register;
pub mod reminders;
pub mod scheduled_delivery;
pub mod scheduled_messages;
pub mod server_settings;
pub mod settings;
pub mod streams;
pub mod subscription_properties;
pub mod subscriptions;
pub mod typing;
pub mod unread;
pub mod user_groups;
pub mod user_updates;
pub mod users;
