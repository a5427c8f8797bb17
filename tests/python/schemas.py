"""Acceptance 3 of the organizations issue: every field of spec 2.5 (channel and subscription)
and 2.11 (own user) is present with the right type, validated against the schemas of Zulip's
OpenAPI document (feature level 247); and custom emoji (`realm_emoji`) after the client's own
`upload_custom_emoji`, and the own user after an avatar upload.

Usage: schemas.py ZULIPRC OPENAPI_YAML

The OpenAPI document is older than the spec: some spec fields are newer (`folder_id`,
`topics_policy`, `creator_id`, ...), and the group-setting fields were plain group ids at
feature level 247 where the spec (and feature level 419) says "group-setting value". Each such
field is checked against the spec's own type here; every other field is validated by the
OpenAPI schema, `additionalProperties: false` included, so nothing undocumented slips through.
"""

import copy
import os
import sys
import tempfile

import jsonschema
import yaml
import zulip

from checks import check, finish, ok

zuliprc, openapi_path = sys.argv[1], sys.argv[2]
with open(openapi_path) as f:
    OPENAPI = yaml.safe_load(f)

# --- Spec types -------------------------------------------------------------------------------

INT, STR, BOOL = {"type": "integer"}, {"type": "string"}, {"type": "boolean"}
def nullable(schema):
    return {"anyOf": [schema, {"type": "null"}]}
GROUP_SETTING = {
    "anyOf": [
        {"type": "integer"},
        {
            "type": "object",
            "additionalProperties": False,
            "required": ["direct_members", "direct_subgroups"],
            "properties": {
                "direct_members": {"type": "array", "items": {"type": "integer"}},
                "direct_subgroups": {"type": "array", "items": {"type": "integer"}},
            },
        },
    ]
}
TOPICS_POLICY = {"enum": ["inherit", "allow_empty_topic", "disable_empty_topic", "empty_topic_only"]}

# Spec 2.5, the channel object.
SPEC_CHANNEL = {
    "stream_id": INT, "name": STR, "is_archived": BOOL, "description": STR,
    "rendered_description": STR, "date_created": INT, "creator_id": nullable(INT),
    "invite_only": BOOL, "is_web_public": BOOL, "stream_post_policy": {"enum": [1, 2, 3, 4]},
    "is_announcement_only": BOOL, "message_retention_days": nullable(INT),
    "history_public_to_subscribers": BOOL, "topics_policy": TOPICS_POLICY,
    "first_message_id": nullable(INT), "folder_id": nullable(INT), "is_recently_active": BOOL,
    "can_add_subscribers_group": GROUP_SETTING, "can_remove_subscribers_group": GROUP_SETTING,
    "can_administer_channel_group": GROUP_SETTING, "can_delete_any_message_group": GROUP_SETTING,
    "can_delete_own_message_group": GROUP_SETTING,
}
# Spec 2.5, the subscription object: the channel's fields but `is_archived`, and its own.
NOTIFY = nullable(BOOL)
SPEC_SUBSCRIPTION = {k: v for k, v in SPEC_CHANNEL.items() if k != "is_archived"}
SPEC_SUBSCRIPTION.update({
    "desktop_notifications": NOTIFY, "email_notifications": NOTIFY, "wildcard_mentions_notify": NOTIFY,
    "push_notifications": NOTIFY, "audible_notifications": NOTIFY, "pin_to_top": BOOL,
    "is_muted": BOOL, "in_home_view": BOOL, "color": STR, "stream_weekly_traffic": nullable(INT),
})
# Spec 2.11, the own user.
SPEC_OWN_USER = {
    "user_id": INT, "email": STR, "delivery_email": STR, "full_name": STR, "avatar_url": STR,
    "avatar_version": INT, "is_admin": BOOL, "is_owner": BOOL, "is_guest": BOOL, "is_bot": BOOL,
    "is_active": BOOL, "role": {"enum": [100, 200, 300, 400, 600]}, "timezone": STR,
    "date_joined": STR, "max_message_id": INT,
    "profile_data": {
        "type": "object",
        "additionalProperties": {
            "type": "object",
            "required": ["value"],
            "properties": {"value": STR, "rendered_value": STR},
        },
    },
}
# Fields whose feature-level-247 schema disagrees with the spec.
NEWER_TYPES = {name for name, schema in SPEC_CHANNEL.items() if schema is GROUP_SETTING}
# Fields the spec leaves "not shown" that Zulip added after feature level 247 and sends at the
# level we announce: the other channel permissions, `is_archived` on subscriptions, and
# `subscriber_count`.
ZULIP_NEWER = {
    name: GROUP_SETTING
    for name in [
        "can_create_topic_group", "can_move_messages_out_of_channel_group",
        "can_move_messages_within_channel_group", "can_resolve_topics_group",
        "can_send_message_group", "can_subscribe_group",
    ]
}
ZULIP_NEWER["is_archived"] = BOOL
# Feature level 394: the channel's subscribers who are active users.
ZULIP_NEWER["subscriber_count"] = {"type": "integer", "minimum": 0}

# --- OpenAPI schemas as JSON Schema -----------------------------------------------------------


def resolve(node):
    """Inlines `$ref`s, merges `allOf` as Zulip's own validator does, and turns OpenAPI's
    `nullable` into JSON Schema."""
    if isinstance(node, list):
        return [resolve(item) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = OPENAPI
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part]
        return resolve(target)
    if "allOf" in node:
        merged = {}
        for part in resolve(node["allOf"]):
            merge(merged, part)
        rest = {k: v for k, v in node.items() if k != "allOf"}
        merge(merged, resolve(rest))
        return merged
    node = {k: resolve(v) for k, v in node.items() if k not in ("example", "description")}
    if node.pop("nullable", False):
        return {"anyOf": [node, {"type": "null"}]}
    return node


def merge(into, part):
    """Deep-merges one `allOf` part: properties merge by name, `required` lists join, and a
    later part's bare `{nullable: true}` widens an earlier property."""
    for key, value in part.items():
        if key == "properties":
            props = into.setdefault("properties", {})
            for name, schema in value.items():
                if name in props and schema:
                    if schema.get("anyOf") and schema["anyOf"][1] == {"type": "null"} and not schema["anyOf"][0]:
                        props[name] = {"anyOf": [props[name], {"type": "null"}]}
                    else:
                        merge(props[name], schema)
                elif name not in props:
                    props[name] = schema
        elif key == "required":
            into["required"] = sorted(set(into.get("required", [])) | set(value))
        else:
            into[key] = value


def component(name):
    return resolve(OPENAPI["components"]["schemas"][name])


def response_schema(path, method):
    return resolve(OPENAPI["paths"][path][method]["responses"]["200"]["content"]["application/json"]["schema"])


def validate(label, instance, schema, spec_fields):
    """Every spec field present with the spec's type; the rest of the object valid under the
    OpenAPI schema, from which the fields the spec types differently are taken out."""
    for name, field_schema in spec_fields.items():
        check(f"{label}: {name} present", name in instance, repr(sorted(instance)))
        if name in instance:
            errors = list(jsonschema.Draft202012Validator(field_schema).iter_errors(instance[name]))
            check(f"{label}: {name} has the spec's type", not errors, f"{instance[name]!r}: {errors[:1]}")
    for name, field_schema in ZULIP_NEWER.items():
        if name in instance and name not in spec_fields:
            errors = list(jsonschema.Draft202012Validator(field_schema).iter_errors(instance[name]))
            check(f"{label}: {name} has Zulip's type", not errors, f"{instance[name]!r}: {errors[:1]}")
    props = schema.get("properties", {})
    taken_out = {n for n in [*spec_fields, *ZULIP_NEWER] if n not in props or n in NEWER_TYPES}
    schema = copy.deepcopy(schema)
    schema["required"] = [n for n in schema.get("required", []) if n not in taken_out]
    for name in taken_out:
        schema.get("properties", {}).pop(name, None)
    rest = {k: v for k, v in instance.items() if k not in taken_out}
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(rest), key=str)
    check(f"{label}: valid under the OpenAPI schema", not errors, "; ".join(e.message for e in errors[:3]))


# --- The organization under test --------------------------------------------------------------

owner = zulip.Client(config_file=zuliprc)
me = ok(owner.get_profile(), "GET /users/me")
ok(owner.call_endpoint("channels/create", method="POST", request={
    "name": "schemas", "description": "Where *shapes* are checked", "subscribers": f"[{me['user_id']}]",
}), "create a public channel")
ok(owner.call_endpoint("channels/create", method="POST", request={
    "name": "private schemas", "subscribers": f"[{me['user_id']}]", "invite_only": "true",
    "message_retention_days": "30",
}), "create a private channel with its own retention")
ok(owner.send_message({"type": "stream", "to": "schemas", "topic": "t", "content": "first"}), "post")

BASIC_STREAM = component("BasicStream")
SUBSCRIPTION = component("Subscriptions")

streams = ok(owner.get_streams(include_all_active=True), "GET /streams")["streams"]
check("GET /streams lists the channels", len(streams) >= 2, repr(streams))
for stream in streams:
    validate(f"GET /streams #{stream['name']}", stream, BASIC_STREAM, SPEC_CHANNEL)

one = ok(owner.call_endpoint(f"streams/{streams[0]['stream_id']}", method="GET"), "GET /streams/{id}")
by_id = response_schema("/streams/{stream_id}", "get")["properties"]["stream"]
validate("GET /streams/{id}", one["stream"], by_id, SPEC_CHANNEL)

subs = ok(owner.get_subscriptions({"include_subscribers": True}), "GET /users/me/subscriptions")["subscriptions"]
for sub in subs:
    validate(f"GET /users/me/subscriptions #{sub['name']}", sub, SUBSCRIPTION, SPEC_SUBSCRIPTION)

registered = ok(owner.register(fetch_event_types=["subscription"]), "register")
for sub in registered["subscriptions"]:
    validate(f"register subscriptions #{sub['name']}", sub, SUBSCRIPTION, SPEC_SUBSCRIPTION)

USER = component("User")
members = ok(owner.get_members(), "GET /users")["members"]
for member in members:
    validate(f"GET /users {member['email']}", member, USER, {})

own_user = response_schema("/users/me", "get")
validate("GET /users/me", me, own_user, SPEC_OWN_USER)

# Custom emoji and an uploaded avatar, sent the way the client sends files (no content type).
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63f8cfc0f01f00050001ff89993d1d0000000049454e44ae426082"
)
with tempfile.TemporaryDirectory() as directory:
    image = os.path.join(directory, "party.png")
    with open(image, "wb") as f:
        f.write(PNG)
    with open(image, "rb") as f:
        ok(owner.upload_custom_emoji("party", f), "upload_custom_emoji")
    with open(image, "rb") as f:
        ok(owner.call_endpoint("users/me/avatar", method="POST", files=[f]), "POST /users/me/avatar")
listed = ok(owner.get_realm_emoji(), "GET /realm/emoji")
validate("GET /realm/emoji", listed, response_schema("/realm/emoji", "get"), {})
check("GET /realm/emoji has the new emoji", any(e["name"] == "party" for e in listed["emoji"].values()), repr(listed))
for emoji in ok(owner.register(fetch_event_types=["realm_emoji"]), "register")["realm_emoji"].values():
    validate(f"register realm_emoji {emoji['name']}", emoji, component("RealmEmoji"), {})
me = ok(owner.get_profile(), "GET /users/me after the avatar")
validate("GET /users/me with an avatar", me, own_user, SPEC_OWN_USER)

finish()
