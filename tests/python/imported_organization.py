"""Reads an organization imported by `confab import-zulip` from `zulip_export.py`'s fixture back
through the unmodified Python `zulip` client.

Usage: imported_organization.py SITE BOB_ZULIPRC

Ada logs in with the password her export carried (its argon2 hash); Bob, whose export had no
password, with the API key `confab zuliprc` printed. Messages (content, rendered content with
remapped ids, time, edits), reactions, per-user flags, direct and group direct messages, the
upload (same bytes), the user group, the custom emoji and Ada's avatar are all there.
"""

import configparser
import sys

import requests
import zulip

import zulip_export as fixture
from checks import check, finish, ok

site, bob_rc = sys.argv[1], sys.argv[2]

login = requests.post(f"{site}/api/v1/fetch_api_key", data={"username": "ada@acme.example", "password": fixture.ADA_PASSWORD}).json()
check("Ada logs in with the password her export carried", login.get("result") == "success", repr(login))
ada_key = login.get("api_key", "")
ada = zulip.Client(email="ada@acme.example", api_key=ada_key, site=site)
wrong = requests.post(f"{site}/api/v1/fetch_api_key", data={"username": "ada@acme.example", "password": "guess"}).json()
check("a wrong password is refused", wrong.get("result") == "error", repr(wrong))
cy = requests.post(f"{site}/api/v1/fetch_api_key", data={"username": "cy@acme.example", "password": ""}).json()
check("Cy, whose export had no password, cannot log in with one", cy.get("result") == "error", repr(cy))

config = configparser.ConfigParser()
config.read(bob_rc)
bob_key = config["api"]["key"]
bob = zulip.Client(email="bob@acme.example", api_key=bob_key, site=site)

members = {m["delivery_email"] or m["email"]: m for m in ok(ada.get_members(), "Ada lists the users")["members"]}
ids = {email: m["user_id"] for email, m in members.items()}
check("the three users are there", {"ada@acme.example", "bob@acme.example", "cy@acme.example"} <= set(ids), repr(sorted(ids)))
check("Ada is the owner", members["ada@acme.example"]["role"] == 100, repr(members["ada@acme.example"]))
check("Cy's email is hidden from members as it was", members["cy@acme.example"]["email"].startswith("user"), repr(members["cy@acme.example"]))
check("Cy's time zone came along", members["cy@acme.example"]["timezone"] == "Europe/London", repr(members["cy@acme.example"]))

streams = {s["name"]: s for s in ok(ada.get_subscriptions(), "Ada lists her channels")["subscriptions"]}
check("Ada is in general and design", {"general", "design"} <= set(streams), repr(sorted(streams)))
check("design is private", streams.get("design", {}).get("invite_only") is True, repr(streams.get("design")))
bob_streams = {s["name"]: s for s in ok(bob.get_subscriptions(), "Bob lists his channels")["subscriptions"]}
check("Bob's design stays muted", bob_streams.get("design", {}).get("is_muted") is True, repr(bob_streams.get("design")))
design_id = streams["design"]["stream_id"]

everything = ok(ada.get_messages({"anchor": "oldest", "num_before": 0, "num_after": 100, "apply_markdown": True}), "Ada reads all her messages")["messages"]
check("Ada has the five messages, in their order", [m["timestamp"] for m in everything] == [1700001000, 1700002000, 1700003000, 1700004000, 1700005000], repr([m["timestamp"] for m in everything]))
hello, spec, secret, group, notice = everything + [{}] * (5 - len(everything))
check("content is kept", hello.get("content") == "Hello **world**, @**Bob Builder** in #**design**" or "<strong>world</strong>" in hello.get("content", ""), repr(hello.get("content")))
expected_html = fixture.MESSAGE_1_HTML.replace(f'data-user-id="{fixture.BOB}"', f'data-user-id="{ids["bob@acme.example"]}"').replace(f'data-stream-id="{fixture.DESIGN}"', f'data-stream-id="{design_id}"')
check("rendered content is Zulip's, with the new ids", hello.get("content") == expected_html, f"{hello.get('content')!r} != {expected_html!r}")
raw = ok(ada.get_messages({"anchor": hello["id"], "num_before": 0, "num_after": 0, "apply_markdown": False}), "Ada reads the Markdown")["messages"][0]
check("Markdown source is kept", raw["content"] == "Hello **world**, @**Bob Builder** in #**design**", repr(raw["content"]))
check("the topic is kept", hello.get("subject") == "greetings", repr(hello.get("subject")))
check("the last edit and the last move are told apart", hello.get("last_edit_timestamp") == 1700001060 and hello.get("last_moved_timestamp") == 1700001100, repr(hello))
history = ok(ada.get_message_history(hello["id"]), "Ada reads the edit history")["message_history"]
check("the edit history holds the first version and the move", history[0].get("content") == "Hello world" and history[-1].get("prev_topic") == "hello" and history[-1].get("user_id") == ids["bob@acme.example"], repr(history))
check("the sending client is kept", spec.get("client") == "ZulipMobile", repr(spec.get("client")))

reactions = [(r["emoji_name"], r["reaction_type"], r["user_id"]) for r in hello.get("reactions", [])]
check("Bob's thumbs up is there", reactions == [("thumbs_up", "unicode_emoji", ids["bob@acme.example"])], repr(reactions))
emoji = ok(ada.get_realm_emoji(), "Ada lists custom emoji")["emoji"]
octopus = [e for e in emoji.values() if e["name"] == "octopus_dance"]
check("the custom emoji is there", len(octopus) == 1 and octopus[0]["author_id"] == ids["ada@acme.example"], repr(emoji))
group_reactions = group.get("reactions", [])
check("the custom emoji reaction names the new emoji", octopus and [(r["emoji_code"], r["reaction_type"]) for r in group_reactions] == [(octopus[0]["id"], "realm_emoji")], repr(group_reactions))
if octopus:
    image = requests.get(site + octopus[0]["source_url"])
    check("the emoji's image is the one uploaded", image.status_code == 200 and image.content == fixture.EMOJI_BYTES, f"{image.status_code}")

check("Ada's flags: read", "read" in hello.get("flags", []) and "read" not in group.get("flags", []), repr((hello.get("flags"), group.get("flags"))))
bobs = {m["id"]: m for m in ok(bob.get_messages({"anchor": "oldest", "num_before": 0, "num_after": 100}), "Bob reads his messages")["messages"]}
check("Bob was mentioned and read it", {"mentioned", "read"} <= set(bobs[hello["id"]]["flags"]), repr(bobs[hello["id"]]["flags"]))
check("Bob starred Ada's secret and has not read it", bobs[secret["id"]]["flags"] == ["starred"], repr(bobs[secret["id"]]["flags"]))
starred = ok(bob.get_messages({"anchor": "newest", "num_before": 10, "num_after": 0, "narrow": [{"operator": "is", "operand": "starred"}]}), "Bob narrows to his stars")["messages"]
check("Bob's starred messages", [m["id"] for m in starred] == [secret["id"], group["id"]], repr([m["id"] for m in starred]))
unread = ok(bob.get_messages({"anchor": "newest", "num_before": 10, "num_after": 0, "narrow": [{"operator": "is", "operand": "unread"}]}), "Bob narrows to unread")["messages"]
check("Bob's unread messages", [m["id"] for m in unread] == [secret["id"], notice["id"]], repr([m["id"] for m in unread]))

check("the direct message is between Ada and Bob", secret.get("type") == "private" and sorted(r["id"] for r in secret.get("display_recipient", [])) == sorted([ids["ada@acme.example"], ids["bob@acme.example"]]), repr(secret.get("display_recipient")))
check("the group direct message has the three", sorted(r["id"] for r in group.get("display_recipient", [])) == sorted(ids[e] for e in ("ada@acme.example", "bob@acme.example", "cy@acme.example")), repr(group.get("display_recipient")))
check("a message the export did not render is rendered", group.get("content") == "<p>Group hello, <strong>all</strong> of you</p>", repr(group.get("content")))
check("the notification bot's message is kept as the notification bot's", notice.get("sender_full_name") == "Notification Bot" and notice.get("display_recipient") == "general", repr(notice))

link = spec.get("content", "")
check("the upload link moved to this organization", "/user_uploads/" in link and fixture.UPLOAD_PATH not in link, repr(link))
path = link.split('href="')[1].split('"')[0] if 'href="' in link else ""
download = requests.get(site + path, auth=("bob@acme.example", bob_key))
check("Bob downloads the same bytes", download.status_code == 200 and download.content == fixture.UPLOAD_BYTES, f"{download.status_code}")
attachments = ok(bob.call_endpoint("attachments", method="GET"), "Bob lists his uploads")["attachments"]
check("the uploads are Bob's, linked from their message", sorted((a["name"], [m["id"] for m in a["messages"]]) for a in attachments) == [("diagram.png", [spec["id"]]), ("spec.txt", [spec["id"]])], repr(attachments))
thumbnail = link.split('src="')[1].split('"')[0] if 'src="' in link else ""
check("the image's preview points at this organization's thumbnail", thumbnail.startswith("/user_uploads/thumbnail/") and fixture.IMAGE_PATH not in thumbnail, repr(thumbnail))
preview = requests.get(site + thumbnail, auth=("bob@acme.example", bob_key))
check("the thumbnail was made", preview.status_code == 200 and preview.content[:4] == b"RIFF" and preview.content[8:12] == b"WEBP", f"{preview.status_code} {preview.headers.get('content-type')}")

groups = ok(ada.get_user_groups(), "Ada lists the user groups")["user_groups"]
designers = [g for g in groups if g["name"] == "designers"]
check("the user group and its members are there", len(designers) == 1 and sorted(designers[0]["members"]) == sorted([ids["ada@acme.example"], ids["bob@acme.example"]]), repr(designers))
names = [g["name"] for g in groups]
check("system groups are not duplicated", names.count("role:owners") == 1 and names.count("role:everyone") == 1, repr(names))
check("the group's manager is Ada, as the export's anonymous group said", designers and designers[0]["can_manage_group"] == {"direct_members": [ids["ada@acme.example"]], "direct_subgroups": []}, repr(designers and designers[0]["can_manage_group"]))

state = ok(ada.register(fetch_event_types=["realm", "user_settings", "realm_user_groups"]), "Ada registers")
group_ids = {g["name"]: g["id"] for g in state["realm_user_groups"]}
general_id = streams["general"]["stream_id"]
check("the announcement channel is general", state["realm_new_stream_announcements_stream_id"] == general_id and state["realm_zulip_update_announcements_stream_id"] == general_id, repr((state["realm_new_stream_announcements_stream_id"], general_id)))
check("administrators create public channels", state["realm_can_create_public_channel_group"] == group_ids["role:administrators"], repr(state["realm_can_create_public_channel_group"]))
check("owners invite", state["realm_can_invite_users_group"] == group_ids["role:owners"], repr(state["realm_can_invite_users_group"]))
check("the waiting period is kept", state["realm_waiting_period_threshold"] == 3, repr(state["realm_waiting_period_threshold"]))
check("Ada's settings came along", state["user_settings"]["twenty_four_hour_time"] is True and state["user_settings"]["emojiset"] == "twitter", repr(state["user_settings"]))
check("moderators post in design", streams["design"].get("can_send_message_group") == group_ids["role:moderators"], repr(streams["design"].get("can_send_message_group")))
check("the channel description is Zulip's rendering", streams["general"].get("rendered_description") == "<p>Everyone</p>", repr(streams["general"].get("rendered_description")))

linkifiers = ok(ada.get_realm_linkifiers(), "Ada lists the linkifiers")["linkifiers"]
check("the linkifier is there", [(l["pattern"], l["url_template"]) for l in linkifiers] == [("#(?P<id>[0-9]+)", "https://tracker.example/{id}")], repr(linkifiers))
personal = ok(ada.register(fetch_event_types=["muted_users"]), "Ada registers for her mutes")
check("Ada still mutes Cy", [m["id"] for m in personal["muted_users"]] == [ids["cy@acme.example"]], repr(personal["muted_users"]))
bobs_state = ok(bob.register(fetch_event_types=["alert_words", "user_topic"]), "Bob registers for alert words and topics")
check("Bob's alert word is there", bobs_state["alert_words"] == ["anvil"], repr(bobs_state["alert_words"]))
topics = sorted((t["stream_id"], t["topic_name"], t["visibility_policy"]) for t in bobs_state["user_topics"])
check("Bob follows greetings and mutes plans", topics == sorted([(general_id, "greetings", 3), (design_id, "plans", 1)]), repr(topics))

fields = {f["name"]: f for f in ok(ada.call_endpoint("realm/profile_fields", method="GET"), "Ada lists the profile fields")["custom_fields"]}
check("the profile fields are there", set(fields) == {"Team", "Mentor"} and fields["Mentor"]["hint"] == "Who helps", repr(fields))
profiles = {m["delivery_email"] or m["email"]: m for m in ok(ada.get_members({"include_custom_profile_fields": True}), "Ada lists profiles")["members"]}
team, mentor = str(fields["Team"]["id"]), str(fields["Mentor"]["id"])
check("Ada's team is kept", profiles["ada@acme.example"].get("profile_data", {}).get(team, {}).get("value") == "1", repr(profiles["ada@acme.example"].get("profile_data")))
check("Bob's mentor is Ada, by her new id", profiles["bob@acme.example"].get("profile_data", {}).get(mentor, {}).get("value") == f"[{ids['ada@acme.example']}]", repr(profiles["bob@acme.example"].get("profile_data")))
folders = ok(ada.call_endpoint("channel_folders", method="GET"), "Ada lists channel folders")["channel_folders"]
check("the channel folder is there, holding design", [f["name"] for f in folders] == ["Engineering"] and streams["design"].get("folder_id") == folders[0]["id"], repr((folders, streams["design"].get("folder_id"))))

helper = members.get("helper-bot@acme.example", {})
check("the bot is an outgoing-webhook bot of Ada's", helper.get("is_bot") is True and helper.get("bot_type") == 3 and helper.get("bot_owner_id") == ids["ada@acme.example"], repr(helper))
bots = ok(ada.call_endpoint("bots", method="GET"), "Ada lists her bots")["bots"]
services = [s for b in bots for s in b.get("services", [])]
check("the bot's service is there, with a new token", [s.get("base_url") for s in services] == ["http://127.0.0.1:9/helper"] and services[0].get("token") != "the old server's", repr(bots))
status = ok(ada.call_endpoint(f"users/{ids['bob@acme.example']}/status", method="GET"), "Ada reads Bob's status")["status"]
check("Bob's status and its custom emoji came along", status.get("status_text") == "At the anvil" and octopus and status.get("emoji_code") == octopus[0]["id"], repr(status))

avatar_url = members["ada@acme.example"]["avatar_url"]
avatar = requests.get(site + avatar_url if avatar_url.startswith("/") else avatar_url)
check("Ada's avatar is the one she uploaded", avatar.status_code == 200 and avatar.content == fixture.AVATAR_BYTES, f"{avatar_url} {avatar.status_code}")

finish()
