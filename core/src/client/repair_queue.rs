//! The queue of repairs: values of the register state that an event made stale and only the
//! server can tell anew (see [`super::repairs`]). This file keeps the bookkeeping: one repair
//! per value, which of them are being asked, and what happened to the value meanwhile.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

/// Names one repair, for [`super::Engine::handle_repair`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct RepairId(pub u64);

/// A value of the state that a deletion made stale.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) enum RepairTarget {
    /// `max_message_id`: the newest message the user has.
    NewestMessage,
    /// The entry of `recent_private_conversations` with these `user_ids` (the others in the
    /// conversation, as the entry lists them; empty for the user's conversation with
    /// themselves): its newest message, or no entry when none is left.
    Conversation { user_ids: Vec<u64> },
}

/// One repair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct Repair {
    pub id: RepairId,
    pub target: RepairTarget,
    /// The value the deletion made stale (a deleted message's id). While the state still shows
    /// it, the repair is needed; a newer message replaces it, and then the repair is not.
    pub stale: u64,
    /// Set while the server is being asked: what the engine saw since the request left, which
    /// the answer (read from the database before or after those events) may not show.
    #[serde(skip)]
    pub asked: Option<SinceAsked>,
}

/// Events followed while a repair's request was out.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct SinceAsked {
    /// Ids the value may have risen to meanwhile (an older message the user got a copy of).
    pub arrived: BTreeSet<u64>,
    /// Messages deleted meanwhile: an answer naming one of them is out of date.
    pub deleted: BTreeSet<u64>,
}

impl SinceAsked {
    /// The newest id that arrived and still exists.
    pub fn newest_arrived(&self) -> Option<u64> {
        self.arrived.iter().rev().find(|id| !self.deleted.contains(id)).copied()
    }
}

/// Repairs in the order they were queued. Snapshots keep the queue: the restored state still
/// shows the stale values, and the restored session resumes its event queue rather than
/// registering again, so nothing else would correct them. A request out when the snapshot was
/// taken is asked again (its answer goes to the old engine, if anywhere).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(super) struct RepairQueue {
    next_id: u64,
    repairs: Vec<Repair>,
}

impl RepairQueue {
    pub fn is_empty(&self) -> bool {
        self.repairs.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Repair> {
        self.repairs.iter()
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Repair> {
        self.repairs.iter_mut()
    }

    /// Queues a repair of `target`, unless one is queued already: a batch deleting many
    /// messages asks once per value.
    pub fn queue(&mut self, target: RepairTarget, stale: u64) {
        if self.repairs.iter().any(|r| r.target == target) {
            return;
        }
        self.next_id += 1;
        self.repairs.push(Repair { id: RepairId(self.next_id), target, stale, asked: None });
    }

    /// The first repair not being asked, now marked as asked.
    pub fn ask_next(&mut self) -> Option<&Repair> {
        let repair = self.repairs.iter_mut().find(|r| r.asked.is_none())?;
        repair.asked = Some(SinceAsked::default());
        Some(repair)
    }

    /// Takes out the repair being asked under `id`, if it is still wanted.
    pub fn take_asked(&mut self, id: RepairId) -> Option<Repair> {
        let at = self.repairs.iter().position(|r| r.id == id && r.asked.is_some())?;
        Some(self.repairs.remove(at))
    }

    /// Puts a repair back, to be asked again.
    pub fn requeue(&mut self, mut repair: Repair) {
        repair.asked = None;
        self.repairs.push(repair);
    }

    /// The request for `id` got no answer: it waits to be asked again.
    pub fn unask(&mut self, id: RepairId) {
        if let Some(repair) = self.repairs.iter_mut().find(|r| r.id == id) {
            repair.asked = None;
        }
    }

    /// Drops the repairs `keep` refuses.
    pub fn retain(&mut self, keep: impl FnMut(&Repair) -> bool) {
        self.repairs.retain(keep);
    }

    pub fn clear(&mut self) {
        self.repairs.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_repair_per_value_and_each_asked_once_at_a_time() {
        let mut queue = RepairQueue::default();
        queue.queue(RepairTarget::NewestMessage, 9);
        queue.queue(RepairTarget::NewestMessage, 9);
        queue.queue(RepairTarget::Conversation { user_ids: vec![4] }, 8);
        assert_eq!(queue.iter().count(), 2);
        let first = queue.ask_next().map(|r| r.id);
        let second = queue.ask_next().map(|r| r.id);
        assert_ne!(first, second);
        assert!(queue.ask_next().is_none());
        let Some(second) = second else { panic!("two repairs") };
        queue.unask(second);
        assert_eq!(queue.ask_next().map(|r| r.id), Some(second));
        let Some(first) = first else { panic!("two repairs") };
        assert!(queue.take_asked(first).is_some());
        assert!(queue.take_asked(first).is_none());
    }

    #[test]
    fn an_arrival_deleted_again_does_not_count() {
        let since = SinceAsked { arrived: [3, 5].into(), deleted: [5].into() };
        assert_eq!(since.newest_arrived(), Some(3));
    }

    #[test]
    fn a_snapshot_asks_again() {
        let mut queue = RepairQueue::default();
        queue.queue(RepairTarget::NewestMessage, 9);
        queue.ask_next();
        let saved = serde_json::to_string(&queue).expect("serializes");
        let mut restored: RepairQueue = serde_json::from_str(&saved).expect("reads");
        assert!(restored.ask_next().is_some());
    }
}
