//! Collects what changed between two reports to the front end.

use std::collections::BTreeSet;

use super::types::{Changes, ConnectionState, RefusedOperation, TopicRef};

#[derive(Clone, Debug, Default)]
pub struct ChangeLog {
    channels: BTreeSet<u64>,
    topics: BTreeSet<TopicRef>,
    narrows: BTreeSet<String>,
    users: BTreeSet<u64>,
    messages: BTreeSet<u64>,
    conversations: bool,
    settings: bool,
    typing: bool,
    outbox: bool,
    operations: bool,
    refused_operations: Vec<RefusedOperation>,
    resync: bool,
    connection: Option<ConnectionState>,
}

impl ChangeLog {
    pub fn channel(&mut self, id: u64) {
        self.channels.insert(id);
    }

    pub fn channels(&mut self, ids: impl IntoIterator<Item = u64>) {
        self.channels.extend(ids);
    }

    pub fn topic(&mut self, stream_id: u64, topic: &str) {
        self.topics.insert(TopicRef { stream_id, topic: topic.to_owned() });
        self.channels.insert(stream_id);
    }

    pub fn narrows(&mut self, keys: impl IntoIterator<Item = String>) {
        self.narrows.extend(keys);
    }

    pub fn user(&mut self, id: u64) {
        self.users.insert(id);
    }

    pub fn message(&mut self, id: u64) {
        self.messages.insert(id);
    }

    pub fn conversations(&mut self) {
        self.conversations = true;
    }

    pub fn settings(&mut self) {
        self.settings = true;
    }

    pub fn typing(&mut self) {
        self.typing = true;
    }

    pub fn outbox(&mut self) {
        self.outbox = true;
    }

    pub fn operations(&mut self) {
        self.operations = true;
    }

    /// An operation the server refused: the front end tells the user why.
    pub fn refused(&mut self, refused: RefusedOperation) {
        self.operations = true;
        self.refused_operations.push(refused);
    }

    pub fn resync(&mut self) {
        self.resync = true;
    }

    pub fn connection(&mut self, state: ConnectionState) {
        self.connection = Some(state);
    }

    pub fn is_empty(&self) -> bool {
        self.channels.is_empty()
            && self.topics.is_empty()
            && self.narrows.is_empty()
            && self.users.is_empty()
            && self.messages.is_empty()
            && !(self.conversations
                || self.settings
                || self.typing
                || self.outbox
                || self.operations
                || self.resync)
            && self.refused_operations.is_empty()
            && self.connection.is_none()
    }

    /// What changed since the last call; starts collecting anew.
    pub fn take(&mut self) -> Option<Changes> {
        if self.is_empty() {
            return None;
        }
        let log = std::mem::take(self);
        Some(Changes {
            channels: log.channels.into_iter().collect(),
            topics: log.topics.into_iter().collect(),
            narrows: log.narrows.into_iter().collect(),
            users: log.users.into_iter().collect(),
            messages: log.messages.into_iter().collect(),
            conversations: log.conversations,
            settings: log.settings,
            typing: log.typing,
            outbox: log.outbox,
            operations: log.operations,
            refused_operations: log.refused_operations,
            resync: log.resync,
            connection: log.connection,
        })
    }
}
