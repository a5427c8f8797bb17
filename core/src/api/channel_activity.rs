//! Whether channels are recently active (Zulip's `Stream.is_recently_active`, feature level
//! 323): clients use it to tuck away channels nobody writes in.
//!
//! A channel starts active. Sending to a quiet channel makes it active again at once (the send
//! path), and so does moving into it messages sent within the period ([`after_move_into`]).
//! Going quiet is found by a sweep, which Zulip runs weekly from cron (Sundays at 05:00,
//! `update_channel_recently_active_status`): every channel of an active organization that is
//! marked active but has no message sent in the last [`INACTIVE_AFTER_DAYS`] days is marked
//! quiet. As in Zulip, "no message" includes a channel that never had one, so a new empty
//! channel turns quiet at the first sweep after it was made. The host's delivery task calls
//! [`sweep_quiet_channels`] at [`next_sweep_at`]; both take the time as an argument.

use std::ops::Bound;

use serde_json::json;

use crate::command::{Event, Outcome};
use crate::error::ApiResult;
use crate::groups::Groups;
use crate::model::{Message, Stream};
use crate::store::{Change, Direction, MessageIndex, Store};

use super::streams::metadata_watchers;

/// Zulip's `Stream.LAST_ACTIVITY_DAYS_BEFORE_FOR_ACTIVE`.
pub const INACTIVE_AFTER_DAYS: i64 = 180;

const DAY: i64 = 86_400;
/// Zulip's cron line: Sundays (weekday 0) at 05:00 (the server's zone, UTC here).
const SWEEP_SECOND_OF_WEEK: i64 = 5 * 3_600;
/// 1970-01-01 was a Thursday: the first Sunday starts three days later.
const FIRST_SUNDAY: i64 = 3 * DAY;
const WEEK: i64 = 7 * DAY;

/// The first sweep time strictly after `now`: the next Sunday, 05:00 UTC.
pub fn next_sweep_at(now: i64) -> i64 {
    let anchor = FIRST_SUNDAY + SWEEP_SECOND_OF_WEEK;
    let weeks = (now - anchor).div_euclid(WEEK) + 1;
    anchor + weeks * WEEK
}

/// Whether the channel had a message sent at or after `now - INACTIVE_AFTER_DAYS` days. Ids
/// grow with time, so its newest message tells.
pub fn has_recent_message(store: &impl Store, stream: &Stream, now: i64) -> ApiResult<bool> {
    let index = MessageIndex::Recipient(stream.recipient_id);
    let newest = store.message_ids(&index, Bound::Unbounded, Bound::Unbounded, Direction::Descending)?.next();
    let Some(newest) = newest.transpose()? else { return Ok(false) };
    Ok(store.message(newest)?.is_some_and(|m| m.timestamp >= cutoff(now)))
}

fn cutoff(now: i64) -> i64 {
    now - INACTIVE_AFTER_DAYS * DAY
}

/// The `stream` `update` event for a new `is_recently_active`, to those who see the channel.
fn activity_event(store: &impl Store, groups: &Groups, stream: &Stream, value: bool) -> ApiResult<Event> {
    Ok(Event::Other {
        users: metadata_watchers(store, groups, stream)?,
        body: json!({
            "type": "stream",
            "op": "update",
            "property": "is_recently_active",
            "value": value,
            "stream_id": stream.id,
            "name": stream.name,
        }),
    })
}

/// The weekly sweep at `now`: every active organization's channels marked active with no
/// message in the period are marked quiet, each told to those who see it (Zulip's
/// `check_update_all_streams_active_status`; archived channels too, as there).
pub fn sweep_quiet_channels(store: &impl Store, now: i64) -> ApiResult<Outcome> {
    let mut outcome = Outcome::default();
    for realm in store.realms()?.into_iter().filter(|r| !r.deactivated) {
        let mut groups = None;
        for stream in store.realm_streams(realm.id)?.into_iter().filter(|s| s.is_recently_active) {
            if has_recent_message(store, &stream, now)? {
                continue;
            }
            let quiet = Stream { is_recently_active: false, ..stream };
            let groups = match &groups {
                Some(groups) => groups,
                None => groups.insert(Groups::load(store, realm.id)?),
            };
            outcome.events.push(activity_event(store, groups, &quiet, false)?);
            outcome.changes.push(Change::PutStream(quiet));
        }
    }
    Ok(outcome)
}

/// After messages are moved into a quiet channel: whether it is active now, counting the
/// moved ones (Zulip's end of `do_update_message`), as the change and event that say so.
/// `None` when it stays as it was.
pub fn after_move_into(
    store: &impl Store,
    target: &Stream,
    moved: &[Message],
    now: i64,
) -> ApiResult<Option<(Change, Event)>> {
    if target.is_recently_active {
        return Ok(None);
    }
    let active = moved.iter().any(|m| m.timestamp >= cutoff(now)) || has_recent_message(store, target, now)?;
    if !active {
        return Ok(None);
    }
    let groups = Groups::load(store, target.realm_id)?;
    let event = activity_event(store, &groups, target, true)?;
    Ok(Some((Change::PutStream(Stream { is_recently_active: true, ..target.clone() }), event)))
}

#[cfg(test)]
mod tests {
    use super::next_sweep_at;

    #[test]
    fn sweeps_fall_on_sundays_at_five_utc() {
        // 2026-11-22 was a Sunday.
        let sunday_five = 1_795_323_600;
        let cases = [
            (sunday_five - 1, sunday_five),
            (sunday_five, sunday_five + 7 * 86_400),
            (sunday_five + 3 * 86_400, sunday_five + 7 * 86_400),
            (0, 3 * 86_400 + 5 * 3_600),
        ];
        for (now, expected) in cases {
            assert_eq!(next_sweep_at(now), expected, "after {now}");
        }
    }
}
