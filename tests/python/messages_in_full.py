"""Acceptance 2 of the messages issue, through the unmodified Python `zulip` client.

Usage: messages_in_full.py ZULIPRC

The owner (from ZULIPRC) creates Ada and Bob; all three join #design. Then, each step
asserting what Zulip answers:
- a mention of Ada sets `mentioned` for Ada only;
- a linkifier links `#123` in content and in `topic_links`;
- two edits give a history of three snapshots with `prev_content`;
- an edit made from stale content (`prev_content_sha256`) is refused;
- a topic move with `change_all` moves every message of the topic;
- `flags/narrow` marks the channel read and reports its counts;
- reactions are added and removed, with Zulip's exact error texts.
"""

import hashlib
import json
import sys

import zulip

from checks import check, error, finish, new_user, ok, site_of

zuliprc = sys.argv[1]





owner = zulip.Client(config_file=zuliprc)
site = site_of(zuliprc)


def user(email, full_name):
    client, _ = new_user(owner, site, email, full_name)
    ok(client.add_subscriptions(streams=[{"name": "design"}]), f"{full_name} joins #design")
    return client


ok(owner.add_subscriptions(streams=[{"name": "design"}]), "owner creates and joins #design")
ada = user("ada@example.com", "Ada Lovelace")
bob = user("bob@example.com", "Bob Builder")


def flags_of(client, message_id):
    found = ok(client.get_messages({"anchor": message_id, "num_before": 0, "num_after": 0}), "get_messages")
    messages = found["messages"]
    return messages[0]["flags"] if messages else None


# A mention sets `mentioned` for the mentioned user only.
sent = ok(owner.send_message({"type": "stream", "to": "design", "topic": "mentions", "content": "@**Ada Lovelace** please review"}), "owner mentions Ada")
mention_id = sent["id"]
check("Ada is mentioned", "mentioned" in (flags_of(ada, mention_id) or []), repr(flags_of(ada, mention_id)))
bob_flags, owner_flags = flags_of(bob, mention_id), flags_of(owner, mention_id)
check("Bob is not mentioned", bob_flags is not None and "mentioned" not in bob_flags, repr(bob_flags))
check("the sender is not mentioned", owner_flags is not None and "mentioned" not in owner_flags, repr(owner_flags))
rendered = ok(owner.get_messages({"anchor": mention_id, "num_before": 0, "num_after": 0}), "owner reads the mention")["messages"][0]["content"]
check("the mention renders as Zulip's span", 'class="user-mention" data-user-id="' in rendered and "@Ada Lovelace" in rendered, rendered)
mentioned = ok(ada.get_messages({"anchor": "newest", "num_before": 10, "num_after": 0, "narrow": [{"operator": "is", "operand": "mentioned"}]}), "Ada narrows to is:mentioned")
check("is:mentioned finds it", [m["id"] for m in mentioned["messages"]] == [mention_id], repr(mentioned))

# A linkifier links `#123` in content and in topic_links.
added = ok(owner.add_realm_filter("#(?P<id>[0-9]+)", "https://github.com/zulip/zulip/issues/{id}"), "owner adds a linkifier")
check("the linkifier has an id", isinstance(added.get("id"), int), repr(added))
listed = ok(owner.get_realm_linkifiers(), "owner lists linkifiers")["linkifiers"]
check("the linkifier is listed", [(l["pattern"], l["url_template"]) for l in listed] == [("#(?P<id>[0-9]+)", "https://github.com/zulip/zulip/issues/{id}")], repr(listed))
bad = owner.add_realm_filter("(?P<id>[0-9]+", "https://example.com/{id}")
check("a pattern that does not compile is refused", bad.get("result") == "error" and bad.get("code") == "BAD_REQUEST", repr(bad))
sent = ok(owner.send_message({"type": "stream", "to": "design", "topic": "bug #123", "content": "fixes #123"}), "owner sends about #123")
message = ok(owner.get_messages({"anchor": sent["id"], "num_before": 0, "num_after": 0}), "read it back")["messages"][0]
check("#123 is linked in content", '<a href="https://github.com/zulip/zulip/issues/123">#123</a>' in message["content"], message["content"])
check("#123 is linked in topic_links", message["topic_links"] == [{"text": "#123", "url": "https://github.com/zulip/zulip/issues/123"}], repr(message["topic_links"]))
preview = ok(owner.render_message({"content": "see #456"}), "render a preview")
check("the preview is linkified", "https://github.com/zulip/zulip/issues/456" in preview["rendered"], repr(preview))

# Two edits give a history of three snapshots with prev_content.
sent = ok(owner.send_message({"type": "stream", "to": "design", "topic": "drafts", "content": "first"}), "owner sends a draft")
ok(owner.update_message({"message_id": sent["id"], "content": "second"}), "first edit")
ok(owner.update_message({"message_id": sent["id"], "content": "third"}), "second edit")
history = ok(owner.get_message_history(sent["id"]), "get_message_history")["message_history"]
check("three snapshots, oldest first", [h["content"] for h in history] == ["first", "second", "third"], repr(history))
check("edits carry prev_content", [h.get("prev_content") for h in history] == [None, "first", "second"], repr(history))
check("edits carry a content_html_diff", all("content_html_diff" in h for h in history[1:]), repr(history))
# An edit names the content it was made from (feature level 379): a stale one is refused.
def sha256(text):
    return hashlib.sha256(text.encode()).hexdigest()
stale = {"message_id": sent["id"], "content": "fourth", "prev_content_sha256": sha256("second")}
error(owner.update_message(stale), "an edit made from stale content", "'prev_content_sha256' value does not match the expected value.", "EXPECTATION_MISMATCH")
current = {"message_id": sent["id"], "content": "third, checked", "prev_content_sha256": sha256("third")}
ok(owner.update_message(current), "an edit made from the current content")
edited = ok(owner.update_message({"message_id": sent["id"], "content": "@**Bob Builder** now"}), "an edit that mentions Bob")
check("the edit sets Bob's mentioned flag", "mentioned" in (flags_of(bob, sent["id"]) or []), repr(flags_of(bob, sent["id"])))
error(owner.get_message_history(999999), "history of a missing message", "Invalid message(s)")

# A topic move with change_all moves every message.
ids = [ok(owner.send_message({"type": "stream", "to": "design", "topic": "old name", "content": f"part {n}"}), f"part {n}")["id"] for n in range(3)]
ok(owner.update_message({"message_id": ids[1], "topic": "new name", "propagate_mode": "change_all"}), "move the topic with change_all")
moved = ok(owner.get_messages({"anchor": "newest", "num_before": 50, "num_after": 0, "narrow": [{"operator": "channel", "operand": "design"}, {"operator": "topic", "operand": "new name"}]}), "read the new topic")
ours = [m["id"] for m in moved["messages"] if m["sender_email"] == owner.email]
check("every message moved", ours == ids, repr(moved["messages"]))
notices = [m["content"] for m in moved["messages"] if m["sender_email"] != owner.email]
check("the notification bot says where they came from", len(notices) == 1 and "old name" in notices[0], repr(notices))
left = ok(owner.get_messages({"anchor": "newest", "num_before": 50, "num_after": 0, "narrow": [{"operator": "channel", "operand": "design"}, {"operator": "topic", "operand": "old name"}]}), "read the old topic")
check("nothing stays behind", all(m["sender_email"] != owner.email for m in left["messages"]), repr(left["messages"]))

# flags/narrow marks a channel read and reports its counts.
unread = ok(ada.get_messages({"anchor": "newest", "num_before": 100, "num_after": 0, "narrow": [{"operator": "channel", "operand": "design"}, {"operator": "is", "operand": "unread"}]}), "Ada's unread in #design")
count = len(unread["messages"])
check("Ada has unread messages in #design", count > 0, repr(unread))
marked = ok(ada.call_endpoint(url="messages/flags/narrow", method="POST", request={
    "anchor": "oldest", "num_before": 0, "num_after": 1000, "include_anchor": True,
    "narrow": [{"operator": "channel", "operand": "design"}], "op": "add", "flag": "read",
}), "Ada marks #design read by narrow")
check("updated_count counts the unread", marked.get("updated_count") == count, repr(marked))
check("processed_count counts every message", marked.get("processed_count", 0) >= count, repr(marked))
check("found_oldest and found_newest", marked.get("found_oldest") is True and marked.get("found_newest") is True, repr(marked))
check("first and last processed ids", isinstance(marked.get("first_processed_id"), int) and isinstance(marked.get("last_processed_id"), int), repr(marked))
again = ok(ada.get_messages({"anchor": "newest", "num_before": 100, "num_after": 0, "narrow": [{"operator": "channel", "operand": "design"}, {"operator": "is", "operand": "unread"}]}), "Ada's unread again")
check("nothing is unread now", again["messages"] == [], repr(again))

# Reactions and their exact error texts.
ok(ada.add_reaction({"message_id": mention_id, "emoji_name": "octopus"}), "Ada reacts with octopus")
reactions = ok(owner.get_messages({"anchor": mention_id, "num_before": 0, "num_after": 0}), "read the reaction")["messages"][0]["reactions"]
ada_id = ok(ada.get_profile(), "Ada's profile")["user_id"]
check("the reaction is on the message", [(r["emoji_name"], r["emoji_code"], r["reaction_type"], r["user_id"]) for r in reactions] == [("octopus", "1f419", "unicode_emoji", ada_id)], repr(reactions))
check("it carries the legacy user object", reactions and reactions[0]["user"]["email"] == "ada@example.com", repr(reactions))
error(ada.add_reaction({"message_id": mention_id, "emoji_name": "octopus"}), "the same reaction twice", "Reaction already exists.", "REACTION_ALREADY_EXISTS")
error(ada.add_reaction({"message_id": mention_id, "emoji_name": "no_such_emoji"}), "an unknown emoji name", "Emoji 'no_such_emoji' does not exist")
error(ada.add_reaction({"message_id": mention_id, "emoji_name": "octopus", "emoji_code": "99999", "reaction_type": "unicode_emoji"}), "an invalid emoji code", "Invalid emoji code")
ok(bob.add_reaction({"message_id": mention_id, "emoji_name": "zulip", "emoji_code": "zulip", "reaction_type": "service_extra_emoji"}), "Bob reacts with the spec's service_extra_emoji")
ok(ada.remove_reaction({"message_id": mention_id, "emoji_name": "octopus"}), "Ada removes her reaction")
error(ada.remove_reaction({"message_id": mention_id, "emoji_name": "octopus"}), "removing it again", "Reaction doesn't exist.", "REACTION_DOES_NOT_EXIST")
error(ada.remove_reaction({"message_id": mention_id, "emoji_code": "99999", "reaction_type": "unicode_emoji"}), "removing an invalid emoji code", "Invalid emoji code")
left = ok(owner.get_messages({"anchor": mention_id, "num_before": 0, "num_after": 0}), "read the reactions left")["messages"][0]["reactions"]
check("only Bob's reaction is left, as zulip_extra_emoji", [(r["emoji_code"], r["reaction_type"]) for r in left] == [("zulip", "zulip_extra_emoji")], repr(left))

finish()
