"""Exports and their consents through the unmodified Python `zulip` client.

Usage: export_consents.py ZULIPRC

The owner (from ZULIPRC) creates Ada, who allows her private data in exports; the owner reads
`GET /export/realm/consents` through `call_endpoint`, as Zulip's API documentation does, and
Ada, not an administrator, is refused with Zulip's error. The owner then asks for a public
export and finds it in `GET /export/realm`, both through `call_endpoint` as Zulip's docs do.
"""

import sys

import zulip

from checks import check, error, finish, new_user, ok, site_of

zuliprc = sys.argv[1]
owner = zulip.Client(config_file=zuliprc)
ada, _ = new_user(owner, site_of(zuliprc), "ada@example.com", "Ada Lovelace")
owner_id = ok(owner.get_profile(), "owner's profile")["user_id"]
ada_id = ok(ada.get_profile(), "Ada's profile")["user_id"]

ok(ada.call_endpoint(url="settings", method="PATCH", request={"allow_private_data_export": True}), "Ada consents")
consents = ok(owner.call_endpoint(url="/export/realm/consents", method="GET"), "owner reads the consents")
by_user = {c["user_id"]: c["consented"] for c in consents.get("export_consents", [])}
check("Ada consents, the owner does not", by_user == {owner_id: False, ada_id: True}, repr(consents))
error(
    ada.call_endpoint(url="/export/realm/consents", method="GET"),
    "a member may not read them",
    "Must be an organization administrator",
    "UNAUTHORIZED_PRINCIPAL",
)
error(ada.call_endpoint(url="/export/realm", method="POST"), "a member may not export", "Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL")
asked = ok(owner.call_endpoint(url="/export/realm", method="POST", request={"export_type": 1}), "owner asks for a public export")
listed = ok(owner.call_endpoint(url="/export/realm", method="GET"), "owner lists the exports")
check("the export is listed as a public one", [(e["id"], e["export_type"]) for e in listed.get("exports", [])] == [(asked.get("id"), 1)], repr(listed))
finish()
