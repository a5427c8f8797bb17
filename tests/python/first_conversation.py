"""Acceptance 2 of the foundation: the unmodified Python `zulip` client holds a first
conversation with Confab.

Usage: first_conversation.py ZULIPRC ZULIP_SEND_PATH

The owner (from ZULIPRC) subscribes to a channel, sends a channel message, creates a second
user through the API, and that user gets its key from /fetch_api_key. The owner sends the new
user a direct message; both read their messages back with narrows. `zulip-send` sends a
message from the command line. Every step asserts what Zulip would answer.
"""

import configparser
import subprocess
import sys

import requests
import zulip

from checks import check, finish, ok

zuliprc, zulip_send = sys.argv[1], sys.argv[2]




owner = zulip.Client(config_file=zuliprc)
config = configparser.ConfigParser()
config.read(zuliprc)
site = config["api"]["site"]

# A new organization has #general with its owner subscribed: the README's zulip-send works as it is.
result = subprocess.run([zulip_send, "--config-file", zuliprc, "--stream", "general", "--subject", "hello", "-m", "Hi from zulip-send"], capture_output=True, text=True)
check("zulip-send posts to #general on a new organization", result.returncode == 0, result.stdout + result.stderr)

ok(owner.add_subscriptions(streams=[{"name": "design", "description": "Making things"}]), "owner subscribes to #design")
streams = ok(owner.get_streams(), "get_streams")["streams"]
check("#design is listed", any(s["name"] == "design" for s in streams), repr(streams))

sent = ok(owner.send_message({"type": "stream", "to": "design", "topic": "kickoff", "content": "Hello **team**"}), "owner sends to #design")
stream_message_id = sent["id"]

new_email = "ada@example.com"
ok(owner.create_user({"email": new_email, "password": "analytical-engine", "full_name": "Ada Lovelace"}), "owner creates Ada")
fetched = requests.post(f"{site}/api/v1/fetch_api_key", data={"username": new_email, "password": "analytical-engine"}).json()
check("fetch_api_key returns a 32-character key", len(fetched.get("api_key", "")) == 32, repr(fetched))
check("fetch_api_key returns email and user_id", fetched.get("email") == new_email and isinstance(fetched.get("user_id"), int), repr(fetched))

ada = zulip.Client(email=new_email, api_key=fetched["api_key"], site=site)
me = ok(ada.get_profile(), "Ada reads her profile")
check("Ada's profile is hers", me.get("email") == new_email and me.get("full_name") == "Ada Lovelace", repr(me))

dm = ok(owner.send_message({"type": "private", "to": [new_email], "content": "Welcome, Ada!"}), "owner sends Ada a DM")

owner_email = config["api"]["email"]
ada_dms = ok(ada.get_messages({"anchor": "newest", "num_before": 10, "num_after": 0, "narrow": [{"operator": "dm", "operand": [owner_email]}]}), "Ada reads her DMs with the owner")["messages"]
check("Ada received the DM", [m["id"] for m in ada_dms] == [dm["id"]], repr(ada_dms))
if ada_dms:
    message = ada_dms[0]
    check("the DM is rendered HTML", message["content"] == "<p>Welcome, Ada!</p>", repr(message))
    check("the DM is unread for Ada", "read" not in message["flags"], repr(message["flags"]))
    check("display_recipient lists both", sorted(u["email"] for u in message["display_recipient"]) == sorted([owner_email, new_email]), repr(message))

topic = ok(owner.get_messages({"anchor": "newest", "num_before": 10, "num_after": 0, "narrow": [["stream", "design"], ["topic", "kickoff"]]}), "owner reads #design > kickoff (legacy narrow form)")
check("the channel message is there", [m["id"] for m in topic["messages"]] == [stream_message_id], repr(topic))
check("found_newest is set", topic.get("found_newest") is True and topic.get("found_anchor") is False, repr(topic))

ok(ada.add_subscriptions(streams=[{"name": "design"}]), "Ada joins #design")
history = ok(ada.get_messages({"anchor": "oldest", "num_before": 0, "num_after": 10, "narrow": [{"operator": "channel", "operand": "design"}]}), "Ada reads #design history")
# The channel's history opens with the Notification Bot's notice that it was created.
check("Ada sees history from before she joined", [m["id"] for m in history["messages"]][-1:] == [stream_message_id], repr(history))
check("the channel's history opens with its creation notice", history["messages"][0]["subject"] == "channel events", repr(history))
if history["messages"]:
    check("that history is read and historical", history["messages"][-1]["flags"] == ["read", "historical"], repr(history["messages"][-1]))

by_sender = ok(ada.get_messages({"anchor": "newest", "num_before": 10, "num_after": 0, "narrow": [{"operator": "sender", "operand": owner_email}]}), "Ada narrows by sender")
check("sender narrow finds the DM", dm["id"] in [m["id"] for m in by_sender["messages"]], repr(by_sender))

result = subprocess.run([zulip_send, "--config-file", zuliprc, "--stream", "design", "--subject", "cli", "-m", "Sent by zulip-send"], capture_output=True, text=True)
check("zulip-send exits 0", result.returncode == 0, result.stdout + result.stderr)
cli = ok(owner.get_messages({"anchor": "newest", "num_before": 1, "num_after": 0, "narrow": [{"operator": "topic", "operand": "cli"}]}), "owner finds the zulip-send message")
check("zulip-send's message arrived", [m["content"] for m in cli["messages"]] == ["<p>Sent by zulip-send</p>"], repr(cli))
if cli["messages"]:
    check("its client is ZulipPython", cli["messages"][0]["client"].startswith("ZulipPython") or cli["messages"][0]["client"].startswith("zulip-send"), repr(cli["messages"][0]["client"]))

finish()
