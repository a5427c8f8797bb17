"""Organization settings and refusals of feature levels 313-416 through the unmodified Python
`zulip` client.

Usage: organization_texts.py ZULIPRC

The owner (from ZULIPRC) sets the organization's welcome text and who may summarize topics,
and Ada, a new member, sees both in register along with the deprecated `*_policy` values
Zulip still computes. The owner tries the welcome text out (`call_endpoint`, as Zulip's docs
suggest for endpoints the client has no method for) and reads the message it got. Then
Zulip's refusals: a new email without the operator's special permission (the client's own
`update_user_by_id`), and an E2EE push registration on a server without push notifications.
"""

import json
import sys

import zulip

from checks import check, error, finish, new_user, ok, site_of

zuliprc = sys.argv[1]
owner = zulip.Client(config_file=zuliprc)
site = site_of(zuliprc)
ada, _ = new_user(owner, site, "ada@example.com", "Ada Lovelace")
ada_id = ok(ada.get_profile(), "Ada's profile")["user_id"]
groups = {g["name"]: g["id"] for g in ok(owner.get_user_groups(), "owner lists the groups")["user_groups"]}

text = "Welcome! Say hello in #general."
ok(owner.call_endpoint(url="realm", method="PATCH", request={"welcome_message_custom_text": text}), "owner sets the welcome text")
summarizers = json.dumps({"new": groups["role:members"]})
ok(owner.call_endpoint(url="realm", method="PATCH", request={"can_summarize_topics_group": summarizers}), "owner lets members summarize")
state = ok(ada.register(fetch_event_types=["realm"]), "Ada registers")
check("Ada sees the welcome text", state.get("realm_welcome_message_custom_text") == text, repr(state.get("realm_welcome_message_custom_text")))
check("Ada sees who may summarize", state.get("realm_can_summarize_topics_group") == groups["role:members"], repr(state.get("realm_can_summarize_topics_group")))
check("no summaries on this server", state.get("server_can_summarize_topics") is False)
policies = [state.get(k) for k in ["realm_create_public_stream_policy", "realm_create_private_stream_policy", "realm_create_web_public_stream_policy", "realm_wildcard_mention_policy"]]
check("the deprecated policies read as Zulip's defaults", policies == [1, 1, 7, 5], repr(policies))

tried = ok(owner.call_endpoint(url="realm/test_welcome_bot_custom_message", method="POST", request={"welcome_message_custom_text": text}), "owner tries the welcome text out")
message = ok(owner.call_endpoint(url=f"messages/{tried['message_id']}", method="GET"), "owner reads it")["message"]
check("it is a direct message to the owner", message["type"] == "private" and text.split("#")[0].strip() in message["content"], repr(message))
error(owner.call_endpoint(url="realm/test_welcome_bot_custom_message", method="POST", request={"welcome_message_custom_text": ""}), "an empty text is refused", "Message must not be empty")

error(owner.update_user_by_id(ada_id, new_email="ada@new.example"), "a new email needs the operator's permission", "User not authorized to change user emails")
error(
    ada.call_endpoint(url="mobile_push/register", method="POST", request={"token_kind": "fcm", "push_account_id": 2408, "push_public_key": "k", "bouncer_public_key": "b", "encrypted_push_registration": "e"}),
    "E2EE push registration is refused",
    "Server is not configured to use push notification service.",
    code="PUSH_SERVICE_NOT_CONFIGURED",
)
finish()
