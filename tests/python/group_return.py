"""A deactivated member comes back into the user groups they were in (feature level 303),
through the unmodified Python `zulip` client.

Usage: group_return.py ZULIPRC

The owner (from ZULIPRC) makes a group with Ada, deactivates her with the client's own
`deactivate_user_by_id` (the group no longer lists her), and reactivates her with
`reactivate_user_by_id` (the group lists her again).
"""

import sys

import zulip

from checks import check, finish, new_user, ok, site_of

zuliprc = sys.argv[1]
owner = zulip.Client(config_file=zuliprc)
site = site_of(zuliprc)
ada, _ = new_user(owner, site, "ada@example.com", "Ada Lovelace")
ada_id = ok(ada.get_profile(), "Ada's profile")["user_id"]
ok(owner.create_user_group({"name": "support", "description": "Helpers", "members": [ada_id]}), "owner makes a group with Ada")


def support_members():
    groups = ok(owner.get_user_groups(), "owner lists the groups")["user_groups"]
    return next(g for g in groups if g["name"] == "support")["members"]


ok(owner.deactivate_user_by_id(ada_id), "owner deactivates Ada")
check("a deactivated member is not listed", support_members() == [], repr(support_members()))
ok(owner.reactivate_user_by_id(ada_id), "owner reactivates Ada")
check("reactivation brings her back", support_members() == [ada_id], repr(support_members()))
finish()
