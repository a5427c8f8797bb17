"""A small organization's export in the format Zulip's `manage.py export` writes
(`zerver/lib/export.py`): the fixture of `tests/tests/import_zulip.rs`.

Usage: zulip_export.py OUT.tar.gz [missing-file | bad-json | old-version | dangling-reaction]

Acme has three users (Ada the owner, with an argon2 password hash as Django writes it; Bob,
with a status; Cy, whose email only administrators see) and Ada's outgoing-webhook bot, two channels (general, and the private design),
a direct message, a group direct message, a message from Zulip's notification bot, messages
with their rendered HTML and an edit, a reaction with a Unicode emoji and one with a custom
emoji, read, starred and mentioned flags, a user group, an upload linked from a message and
Ada's avatar. The second argument breaks it in one way.
"""

import base64
import io
import json
import sys
import tarfile
import zlib
import struct

REALM = 2
ADA, BOB, CY, HELPER, NOTIFICATION_BOT = 10, 11, 12, 13, 1
GENERAL, DESIGN = 5, 6
ADA_PASSWORD = "ada's old password"
# Django's Argon2PasswordHasher writes "argon2" before argon2-cffi's PHC string.
ADA_HASH = "argon2$argon2id$v=19$m=1024,t=1,p=1$c29tZXNhbHRzb21lc2FsdA$Qs+SHcNUsUvu8Va0a/6Y4qlRPAOQUEsYgdbInBgZIpg"
UPLOAD_PATH = f"{REALM}/ab/cdEfGhIjKlMnOpQrStUvWx/spec.txt"
UPLOAD_BYTES = b"The spec, version 3.\n" + bytes(range(256))
IMAGE_PATH = f"{REALM}/cd/Zx9yW8vU7tS6rQ5pO4nM3lK2/diagram.png"
EMOJI_ID = 8
# Flags, by Zulip's UserMessage bits.
READ, STARRED, MENTIONED = 1, 2, 8
ACTIVE_MOBILE_PUSH_NOTIFICATION = 1 << 12

MESSAGE_1_HTML = f'<p>Hello <strong>world</strong>, <span class="user-mention" data-user-id="{BOB}">@Bob Builder</span> in <a class="stream" data-stream-id="{DESIGN}" href="/#narrow/channel/{DESIGN}-design">#design</a></p>'


def png(width, height, rgb):
    """A tiny valid PNG."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


AVATAR_BYTES = png(4, 4, (200, 30, 30))
IMAGE_BYTES = png(40, 30, (10, 160, 90))
EMOJI_BYTES = png(8, 8, (30, 30, 200))


def user(id, email, name, role, *, visibility=1, password=None, avatar_source="G", **settings):
    row = {
        "id": id, "realm": REALM, "email": email if visibility == 1 else f"user{id}@acme.zulip.example",
        "delivery_email": email, "full_name": name, "role": role, "is_bot": False, "bot_type": None,
        "bot_owner": None, "is_active": True, "is_mirror_dummy": False, "date_joined": 1700000000.5,
        "timezone": "Europe/London", "avatar_source": avatar_source, "avatar_version": 2,
        "email_address_visibility": visibility, "tos_version": "-1", "default_language": "en",
        "recipient": None, "groups": [], "user_permissions": [],
        "twenty_four_hour_time": False, "emojiset": "google", "enter_sends": False, **settings,
    }
    if password:
        row["password"] = password
    return row


def realm_json():
    sub = lambda id, user, recipient, **extra: {"id": id, "user_profile": user, "recipient": recipient, "active": True,
                                               "is_user_active": True, "color": "#76ce90", "is_muted": False,
                                               "pin_to_top": False, "desktop_notifications": None,
                                               "audible_notifications": None, "push_notifications": None,
                                               "email_notifications": None, "wildcard_mentions_notify": None, **extra}
    stream = lambda id, name, description, invite_only, can_send=55: {
        "id": id, "realm": REALM, "name": name, "description": description,
        "rendered_description": f"<p>{description}</p>", "date_created": 1700000100.0, "creator": ADA,
        "invite_only": invite_only, "is_web_public": False, "history_public_to_subscribers": True,
        "deactivated": False, "message_retention_days": None, "recipient": None, "folder": 3 if invite_only else None,
        "can_send_message_group": can_send, "can_remove_subscribers_group": 51}
    system = ["role:owners", "role:administrators", "role:moderators", "role:fullmembers", "role:members",
              "role:everyone", "role:internet", "role:nobody"]
    named = [{"usergroup_ptr": 50 + i, "id": 50 + i, "realm_for_sharding": REALM, "name": name, "description": "",
              "is_system_group": True, "creator": None, "date_created": None, "deactivated": False,
              "can_add_members_group": 57, "can_join_group": 57, "can_leave_group": 57, "can_manage_group": 57,
              "can_mention_group": 55, "can_remove_members_group": 57} for i, name in enumerate(system)]
    named.append({"usergroup_ptr": 58, "id": 58, "realm_for_sharding": REALM, "name": "designers",
                  "description": "Those who draw", "is_system_group": False, "creator": ADA,
                  "date_created": 1700000200.0, "deactivated": False, "can_add_members_group": 51,
                  "can_join_group": 57, "can_leave_group": 55, "can_manage_group": 59, "can_mention_group": 55,
                  "can_remove_members_group": 51})
    return {
        "zerver_realm": [{"id": REALM, "string_id": "anvils", "name": "Acme Corp", "description": "We make anvils.",
                          "date_created": 1690000000.0, "deactivated": True, "invite_required": True,
                          "allow_message_editing": True, "waiting_period_threshold": 3,
                          "new_stream_announcements_stream": GENERAL, "signup_announcements_stream": None,
                          "zulip_update_announcements_stream": GENERAL, "can_create_public_channel_group": 51,
                          "can_invite_users_group": 50}],
        "zerver_userprofile": [
            user(ADA, "ada@acme.example", "Ada Lovelace", 100, password=ADA_HASH, avatar_source="U",
                 twenty_four_hour_time=True, emojiset="twitter"),
            user(BOB, "bob@acme.example", "Bob Builder", 400),
            user(CY, "cy@acme.example", "Cy Young", 400, visibility=3),
            dict(user(HELPER, "helper-bot@acme.example", "Helper", 400), is_bot=True, bot_type=3, bot_owner=ADA),
        ],
        "zerver_userprofile_mirrordummy": [],
        "zerver_userprofile_crossrealm": [{"id": NOTIFICATION_BOT, "email": "notification-bot@zulip.com", "recipient_id": 2}],
        "zerver_stream": [stream(GENERAL, "general", "Everyone", False), stream(DESIGN, "design", "Drawings", True, can_send=52)],
        "zerver_defaultstream": [{"id": 1, "realm": REALM, "stream": GENERAL}],
        "zerver_recipient": [
            {"id": 20, "type": 1, "type_id": ADA}, {"id": 21, "type": 1, "type_id": BOB}, {"id": 22, "type": 1, "type_id": CY},
            {"id": 30, "type": 2, "type_id": GENERAL}, {"id": 31, "type": 2, "type_id": DESIGN},
            {"id": 40, "type": 3, "type_id": 7},
        ],
        "zerver_huddle": [{"id": 7, "huddle_hash": "0123abcd", "recipient": 40}],
        "zerver_subscription": [
            sub(1, ADA, 20), sub(2, BOB, 21), sub(3, CY, 22),
            sub(4, ADA, 30), sub(5, BOB, 30), sub(6, CY, 30, color="#e79ab5", pin_to_top=True),
            sub(7, ADA, 31), sub(8, BOB, 31, is_muted=True),
            sub(9, ADA, 40), sub(10, BOB, 40), sub(11, CY, 40),
        ],
        "zerver_realmemoji": [{"id": EMOJI_ID, "realm": REALM, "author": ADA, "name": "octopus_dance",
                               "file_name": f"{EMOJI_ID}.png", "is_animated": False, "deactivated": False}],
        "zerver_usergroup": [{"id": 50 + i, "realm": REALM} for i in range(10)],
        "zerver_namedusergroup": named,
        "zerver_usergroupmembership": [
            {"id": 1, "user_group": 50, "user_profile": ADA}, {"id": 2, "user_group": 54, "user_profile": BOB},
            {"id": 3, "user_group": 58, "user_profile": ADA}, {"id": 4, "user_group": 58, "user_profile": BOB},
            {"id": 5, "user_group": 59, "user_profile": ADA},
        ],
        "zerver_groupgroupmembership": [{"id": 1, "supergroup": 51, "subgroup": 50}],
        "zerver_reaction": [
            {"id": 1, "message": 100, "user_profile": BOB, "emoji_name": "thumbs_up", "emoji_code": "1f44d", "reaction_type": "unicode_emoji"},
            {"id": 2, "message": 103, "user_profile": ADA, "emoji_name": "octopus_dance", "emoji_code": str(EMOJI_ID), "reaction_type": "realm_emoji"},
        ],
        "zerver_client": [{"id": 1, "name": "website"}, {"id": 2, "name": "ZulipMobile"}],
        "zerver_realmfilter": [{"id": 1, "realm": REALM, "pattern": "#(?P<id>[0-9]+)", "url_template": "https://tracker.example/{id}", "order": 0}],
        "zerver_customprofilefield": [
            {"id": 1, "realm": REALM, "name": "Team", "hint": "", "order": 1, "field_type": 3,
             "field_data": json.dumps({"0": {"text": "Anvils", "order": "1"}, "1": {"text": "Hammers", "order": "2"}}),
             "display_in_profile_summary": True, "required": False, "editable_by_user": True},
            {"id": 2, "realm": REALM, "name": "Mentor", "hint": "Who helps", "order": 2, "field_type": 6,
             "field_data": "", "display_in_profile_summary": False, "required": False, "editable_by_user": True},
        ],
        "zerver_customprofilefieldvalue": [
            {"id": 1, "user_profile": ADA, "field": 1, "value": "1", "rendered_value": None},
            {"id": 2, "user_profile": BOB, "field": 2, "value": json.dumps([ADA]), "rendered_value": None},
        ],
        "zerver_channelfolder": [
            {"id": 3, "realm": REALM, "name": "Engineering", "description": "Building things",
             "rendered_description": "<p>Building things</p>", "order": 0, "creator": ADA,
             "date_created": 1700000050.0, "is_archived": False},
        ],
        "zerver_service": [{"id": 1, "name": "helper", "user_profile": HELPER, "base_url": "http://127.0.0.1:9/helper",
                            "token": "the old server's", "interface": 1}],
        "zerver_userstatus": [{"id": 1, "user_profile": BOB, "timestamp": 1700000800.0, "client": 1,
                               "status_text": "At the anvil", "emoji_name": "octopus_dance",
                               "emoji_code": str(EMOJI_ID), "reaction_type": "realm_emoji"}],
        "zerver_alertword": [{"id": 1, "realm": REALM, "user_profile": BOB, "word": "anvil"}],
        "zerver_muteduser": [{"id": 1, "user_profile": ADA, "muted_user": CY, "date_muted": 1700000500.0}],
        "zerver_usertopic": [
            {"id": 1, "user_profile": BOB, "stream": GENERAL, "recipient": 30, "topic_name": "greetings", "last_updated": 1700000600.0, "visibility_policy": 3},
            {"id": 2, "user_profile": BOB, "stream": DESIGN, "recipient": 31, "topic_name": "plans", "last_updated": 1700000700.0, "visibility_policy": 1},
        ],
        "import_source": "zulip",
    }


def message(id, sender, recipient, topic, content, html, sent, **extra):
    return {"id": id, "sender": sender, "recipient": recipient, "realm": REALM, "subject": topic,
            "content": content, "rendered_content": html, "rendered_content_version": 1, "date_sent": sent,
            "last_edit_time": None, "edit_history": None, "sending_client": 1, "has_attachment": False,
            "has_image": False, "has_link": False, "is_channel_message": recipient in (30, 31), "type": 1, **extra}


def messages_json():
    edit = [{"user_id": ADA, "timestamp": 1700001060, "prev_content": "Hello world",
             "prev_rendered_content": "<p>Hello world</p>", "prev_rendered_content_version": 1},
            {"user_id": BOB, "timestamp": 1700001100, "prev_topic": "hello", "topic": "greetings"}]
    link = f"[spec.txt](/user_uploads/{UPLOAD_PATH})"
    messages = [
        message(100, ADA, 30, "greetings", f"Hello **world**, @**Bob Builder** in #**design**", MESSAGE_1_HTML, 1700001000.25,
                last_edit_time=1700001100.0, edit_history=json.dumps(edit), has_link=True),
        message(101, BOB, 31, "plans", f"The spec: {link} and [diagram.png](/user_uploads/{IMAGE_PATH})",
                f'<p>The spec: <a href="/user_uploads/{UPLOAD_PATH}">spec.txt</a> and <a href="/user_uploads/{IMAGE_PATH}">diagram.png</a></p>\n'
                f'<div class="message_inline_image"><a href="/user_uploads/{IMAGE_PATH}" title="diagram.png"><img data-original-content-type="image/png" data-original-dimensions="40x30" src="/user_uploads/thumbnail/{IMAGE_PATH}/840x560.webp"></a></div>',
                1700002000.0, has_attachment=True, has_link=True, sending_client=2),
        message(102, ADA, 21, "", "Hi Bob, a secret.", "<p>Hi Bob, a secret.</p>", 1700003000.0),
        message(103, CY, 40, "", "Group hello, **all** of you", None, 1700004000.0),
        message(104, NOTIFICATION_BOT, 30, "channel events", "A new channel: #**design**.", "<p>A new channel: #design.</p>", 1700005000.0),
    ]
    um = lambda id, user, msg, flags: {"id": id, "user_profile": user, "message": msg, "flags_mask": flags}
    usermessages = [
        um(1, ADA, 100, READ), um(2, BOB, 100, MENTIONED | READ), um(3, CY, 100, 0),
        um(4, ADA, 101, READ), um(5, BOB, 101, READ),
        um(6, ADA, 102, READ | ACTIVE_MOBILE_PUSH_NOTIFICATION), um(7, BOB, 102, STARRED),
        um(8, ADA, 103, 0), um(9, BOB, 103, READ | STARRED), um(10, CY, 103, READ),
        um(11, ADA, 104, READ), um(12, BOB, 104, 0), um(13, CY, 104, 0),
    ]
    return {"zerver_message": messages, "zerver_usermessage": usermessages}


def attachment_json():
    return {"zerver_attachment": [{
        "id": 70, "file_name": "spec.txt", "path_id": UPLOAD_PATH, "owner": BOB, "realm": REALM,
        "create_time": 1700001900.0, "size": len(UPLOAD_BYTES), "content_type": "text/plain",
        "is_realm_public": False, "is_web_public": False, "messages": [101], "scheduled_messages": []}, {
        "id": 71, "file_name": "diagram.png", "path_id": IMAGE_PATH, "owner": BOB, "realm": REALM,
        "create_time": 1700001950.0, "size": len(IMAGE_BYTES), "content_type": None,
        "is_realm_public": False, "is_web_public": False, "messages": [101], "scheduled_messages": []}]}


def files(breaking):
    avatar = f"{REALM}/4f1d2b6e0c8a9d7e5f3b1a2c4d6e8f0a1b3c5d7e"
    emoji = f"{REALM}/emoji/images/{EMOJI_ID}.png"
    record = {"realm_id": REALM, "size": 0, "last_modified": 1700000000.0, "content_type": None}
    out = {
        "migration_status.json": json.dumps({"migrations_by_app": {"zerver": ["0001_initial", "0700_example"]},
                                             "zulip_version": "8.4" if breaking == "old-version" else "10.4"}),
        "realm.json": json.dumps(realm_json(), indent=2),
        "messages-000001.json": json.dumps(messages_json(), indent=2),
        "attachment.json": json.dumps(attachment_json(), indent=2),
        "analytics.json": json.dumps({"analytics_realmcount": [], "analytics_streamcount": [], "analytics_usercount": []}),
        "uploads/records.json": json.dumps([dict(record, user_profile_id=BOB, user_profile_email="bob@acme.example",
                                                 s3_path=p, path=p) for p in (UPLOAD_PATH, IMAGE_PATH)]),
        f"uploads/{UPLOAD_PATH}": UPLOAD_BYTES,
        f"uploads/{IMAGE_PATH}": IMAGE_BYTES,
        "avatars/records.json": json.dumps([
            dict(record, user_profile_id=ADA, user_profile_email="ada@acme.example", avatar_version=2, s3_path=p, path=p)
            for p in (f"{avatar}.original", f"{avatar}.png", f"{avatar}-medium.png")]),
        f"avatars/{avatar}.original": AVATAR_BYTES,
        f"avatars/{avatar}.png": png(2, 2, (0, 0, 0)),
        f"avatars/{avatar}-medium.png": png(3, 3, (0, 0, 0)),
        "emoji/records.json": json.dumps([
            {"realm_id": REALM, "author": ADA, "path": p, "s3_path": p, "file_name": f"{EMOJI_ID}.png",
             "name": "octopus_dance", "deactivated": False} for p in (emoji, f"{emoji}.original")]),
        f"emoji/{emoji}": png(1, 1, (0, 0, 0)),
        f"emoji/{emoji}.original": EMOJI_BYTES,
        "realm_icons/records.json": "[]",
    }
    if breaking == "missing-file":
        del out[f"uploads/{UPLOAD_PATH}"]
    elif breaking == "bad-json":
        out["realm.json"] = out["realm.json"][:-40]
    elif breaking == "dangling-reaction":
        realm = realm_json()
        realm["zerver_reaction"][0]["message"] = 999
        out["realm.json"] = json.dumps(realm)
    return out


def write(path, breaking=None):
    with tarfile.open(path, "w:gz") as tar:
        for name, data in files(breaking).items():
            data = data.encode() if isinstance(data, str) else data
            info = tarfile.TarInfo(f"zulip-export-x1y2z3/{name}")
            info.size = len(data)
            info.mtime = 1700000000
            tar.addfile(info, io.BytesIO(data))


if __name__ == "__main__":
    write(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
