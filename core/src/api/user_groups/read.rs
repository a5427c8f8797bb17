//! The read endpoints: every group, and one group's members and subgroups.

use serde_json::Value;

use crate::command::{Actor, Outcome};
use crate::error::ApiResult;
use crate::groups::Groups;
use crate::ids::{UserGroupId, UserId};
use crate::params::Params;
use crate::store::Store;

use super::{group_by_id, group_json};

/// `GET /user_groups`: deactivated groups only with `include_deactivated_groups`.
pub fn get_user_groups(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let include_deactivated = params.or("include_deactivated_groups", false)?;
    let groups = Groups::load(store, actor.realm.id)?;
    Ok(Outcome::default().reply("user_groups", user_groups_json(&groups, include_deactivated)))
}

/// Every group as the API shows it (register's `realm_user_groups` too).
pub fn user_groups_json(groups: &Groups, include_deactivated: bool) -> Value {
    Value::Array(
        groups
            .all()
            .filter(|g| include_deactivated || !g.deactivated)
            .map(|g| group_json(groups, g))
            .collect(),
    )
}

/// The group's members: direct ones with `direct_member_only`, else through subgroups.
fn members(groups: &Groups, id: UserGroupId, direct_only: bool) -> ApiResult<Vec<UserId>> {
    let group = group_by_id(groups, id)?;
    let mut members: Vec<UserId> =
        if direct_only { groups.direct_members(group) } else { groups.members(id).into_iter().collect() };
    members.sort_unstable();
    Ok(members)
}

/// `GET /user_groups/{id}/members`.
pub fn get_user_group_members(
    store: &impl Store,
    actor: &Actor,
    id: UserGroupId,
    params: &Params,
) -> ApiResult<Outcome> {
    let direct_only = params.or("direct_member_only", false)?;
    let groups = Groups::load(store, actor.realm.id)?;
    Ok(Outcome::default().reply("members", serde_json::json!(members(&groups, id, direct_only)?)))
}

/// `GET /user_groups/{id}/members/{user_id}`.
pub fn get_is_user_group_member(
    store: &impl Store,
    actor: &Actor,
    id: UserGroupId,
    user: UserId,
    params: &Params,
) -> ApiResult<Outcome> {
    let direct_only = params.or("direct_member_only", false)?;
    let groups = Groups::load(store, actor.realm.id)?;
    if groups.user(user).is_none_or(|u| !u.is_active) {
        return Err(crate::error::ApiError::bad_request("No such user"));
    }
    Ok(Outcome::default().reply("is_user_group_member", members(&groups, id, direct_only)?.contains(&user)))
}

/// `GET /user_groups/{id}/subgroups`: direct ones with `direct_subgroup_only`.
pub fn get_user_group_subgroups(
    store: &impl Store,
    actor: &Actor,
    id: UserGroupId,
    params: &Params,
) -> ApiResult<Outcome> {
    let direct_only = params.or("direct_subgroup_only", false)?;
    let groups = Groups::load(store, actor.realm.id)?;
    let group = group_by_id(&groups, id)?;
    let subgroups: Vec<UserGroupId> = if direct_only {
        groups.subgroups(group)
    } else {
        let mut all = groups.closure_of(id);
        all.remove(&id);
        all.into_iter().collect()
    };
    Ok(Outcome::default().reply("subgroups", serde_json::json!(subgroups)))
}
