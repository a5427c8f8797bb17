"""Widgets through the unmodified Python `zulip` client.

Usage: widgets.py ZULIPRC

The owner (from ZULIPRC) creates Ada and Bob; all three join #design and Ada and Bob register
queues for `submessage` events. The owner sends a `/poll`; Ada votes and Bob adds an option
and votes, through `call_endpoint("submessage", ...)` as Zulip's docs suggest for endpoints
the client has no method for. Each step asserts what Zulip answers: the poll's `widget`
submessage, both queues hearing every change, the message listing all of them, and Zulip's
errors for a bad change.
"""

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
owner_id = ok(owner.get_profile(), "owner's profile")["user_id"]
ada_id = ok(ada.get_profile(), "Ada's profile")["user_id"]
bob_id = ok(bob.get_profile(), "Bob's profile")["user_id"]
queues = {name: ok(client.register(event_types=["submessage"]), f"{name} registers for submessages") for name, client in [("Ada", ada), ("Bob", bob)]}

sent = ok(owner.send_message({"type": "stream", "to": "design", "topic": "lunch", "content": "/poll Where do we eat?\nPizza\nSoup"}), "owner sends a poll")
poll_id = sent["id"]
message = ok(ada.call_endpoint(url=f"messages/{poll_id}", method="GET"), "Ada fetches the poll")["message"]
widget = {"widget_type": "poll", "extra_data": {"question": "Where do we eat?", "options": ["Pizza", "Soup"]}}
submessages = message["submessages"]
check("the poll carries its widget", len(submessages) == 1 and json.loads(submessages[0]["content"]) == widget, repr(submessages))
check("the widget is the sender's", submessages and submessages[0]["sender_id"] == owner_id and submessages[0]["msg_type"] == "widget", repr(submessages))


def submessage(client, content):
    return client.call_endpoint(url="submessage", method="POST", request={"message_id": poll_id, "msg_type": "widget", "content": json.dumps(content)})


changes = [
    (ada, ada_id, {"type": "vote", "key": "canned,0", "vote": 1}),
    (bob, bob_id, {"type": "new_option", "idx": 1, "option": "Salad"}),
    (bob, bob_id, {"type": "vote", "key": f"{bob_id},1", "vote": 1}),
]
for client, _, content in changes:
    ok(submessage(client, content), f"{content['type']} through call_endpoint")

expected = [(sender, content) for _, sender, content in changes]
for name, client in [("Ada", ada), ("Bob", bob)]:
    queue = queues[name]
    events = ok(client.get_events(queue_id=queue["queue_id"], last_event_id=queue["last_event_id"], dont_block=True), f"{name}'s events")["events"]
    heard = [(e["sender_id"], json.loads(e["content"])) for e in events if e["type"] == "submessage" and e["message_id"] == poll_id]
    check(f"{name} hears every change", heard == expected, repr(events))
    check(f"{name}'s events carry their submessage ids", all(isinstance(e.get("submessage_id"), int) and e.get("msg_type") == "widget" for e in events), repr(events))

listed = ok(bob.get_messages({"anchor": poll_id, "num_before": 0, "num_after": 0}), "Bob fetches the poll")["messages"][0]["submessages"]
check("the poll lists its widget and every change", [(s["sender_id"], json.loads(s["content"])) for s in listed] == [(owner_id, widget)] + expected, repr(listed))

error(ada.call_endpoint(url="submessage", method="POST", request={"message_id": poll_id, "msg_type": "widget", "content": "bogus"}), "content that is not JSON", "Invalid json for submessage")
error(submessage(ada, {"type": "question", "question": "Dinner?"}), "a question from someone else", "You can't edit a question unless you are the author.")
error(submessage(ada, {"type": "vote", "key": "canned,0", "vote": 2}), "a vote of 2", 'Invalid poll data["vote"]')
error(ada.call_endpoint(url="submessage", method="POST", request={"message_id": 999999, "msg_type": "widget", "content": "{}"}), "a missing message", "Invalid message(s)")
error(owner.update_message({"message_id": poll_id, "content": "/poll changed"}), "editing the poll", "Widgets cannot be edited.")

finish()
