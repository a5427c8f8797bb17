//! What the organization's and the user groups' anonymous settings show when a user they name
//! comes back (feature level 303). Register leaves deactivated users out of anonymous values
//! (`Groups::shown_setting`) while the store keeps them; on deactivation clients drop the user
//! themselves (Zulip's `apply_event` on `is_active: false`), and on reactivation Zulip's
//! `do_reactivate_user` tells everyone each setting's new value: a `realm` `update_dict` for
//! the organization's, a `user_group` `update` for a group's.
//!
//! Zulip also sends these on deactivation to the guests who cannot see the deactivated user
//! (`can_access_all_users_group`, see `crate::user_access`), who get no `realm_user` event to
//! drop the user by. Confab does not: such a guest keeps the id in those settings until she
//! registers again.

use serde_json::{Map, Value, json};

use crate::command::Event;
use crate::events::DEACTIVATED_GROUP_MARK;
use crate::groups::{Groups, REALM_GROUP_SETTINGS};
use crate::ids::UserId;
use crate::model::{GroupSetting, Realm};

fn names(setting: &GroupSetting, user: UserId) -> bool {
    matches!(setting, GroupSetting::Anonymous { direct_members, .. } if direct_members.contains(&user))
}

/// The events of `user`'s reactivation for the anonymous settings naming them, to `notify`.
/// `groups` must already see the user as active.
pub fn reactivation_events(groups: &Groups, realm: &Realm, user: UserId, notify: &[UserId]) -> Vec<Event> {
    let mut events = Vec::new();
    for (name, _, _) in REALM_GROUP_SETTINGS {
        let Some(setting) = realm.settings.groups.get(name).filter(|s| names(s, user)) else { continue };
        let mut data = Map::new();
        data.insert(name.to_owned(), groups.shown_setting(setting));
        events.push(Event::Other {
            users: notify.to_vec(),
            body: json!({"type": "realm", "op": "update_dict", "property": "default", "data": data}),
        });
    }
    for group in groups.all().filter(|g| g.system.is_none()) {
        for (name, setting) in group.settings() {
            if !names(setting, user) {
                continue;
            }
            let mut body = json!({
                "type": "user_group",
                "op": "update",
                "group_id": group.id,
                "data": {name: groups.shown_setting(setting)},
            });
            if group.deactivated {
                body[DEACTIVATED_GROUP_MARK] = Value::Bool(true);
            }
            events.push(Event::Other { users: notify.to_vec(), body });
        }
    }
    events
}
