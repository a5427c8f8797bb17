"""Acceptance 2 of the real-time issue, through the unmodified Python `zulip` client.

Usage: call_on_each_event.py ZULIPRC

Ada runs `call_on_each_event` in a thread. The owner sends a message; Ada's callback receives
it, and the delay is printed. Then Ada's queue goes away on the server (deleted, which is what
expiry does: the id becomes unknown and fetching from it answers BAD_EVENT_QUEUE_ID); the
client registers a new queue by itself and receives the next message on it. Expiry itself
(10 idle minutes) is tested on a controlled clock in confab-core.
"""

import queue
import sys
import threading
import time

import requests
import zulip

from checks import check, finish, site_of

zuliprc = sys.argv[1]
LIMIT = 30  # seconds; bounds only a failing wait



owner = zulip.Client(config_file=zuliprc)
site = site_of(zuliprc)

password = "correct horse battery staple"
owner.create_user({"email": "ada@example.com", "password": password, "full_name": "Ada Lovelace"})
key = requests.post(f"{site}/api/v1/fetch_api_key", data={"username": "ada@example.com", "password": password}).json()["api_key"]
ada = zulip.Client(email="ada@example.com", api_key=key, site=site)
owner.add_subscriptions(streams=[{"name": "general"}], principals=["ada@example.com", owner.email])

# The client's own register, observed: each queue it makes is reported here.
registered = queue.Queue()
original_register = ada.register


def observed_register(*args, **kwargs):
    result = original_register(*args, **kwargs)
    if result.get("result") == "success":
        registered.put(result["queue_id"])
    return result


ada.register = observed_register
received = queue.Queue()
listener = threading.Thread(
    target=ada.call_on_each_event,
    args=(lambda event: received.put((time.monotonic(), event)),),
    kwargs={"event_types": ["message"]},
    daemon=True,
)
listener.start()


def next_message(label):
    try:
        while True:
            at, event = received.get(timeout=LIMIT)
            if event["type"] == "message":
                return at, event
    except queue.Empty:
        check(label, False, "no message event arrived")
        return None, None


first_queue = registered.get(timeout=LIMIT)
check("call_on_each_event registered a queue", bool(first_queue))
# The listener's first poll may not be parked yet; either way the event must reach it.
sent_at = time.monotonic()
sent = owner.send_message({"type": "stream", "to": "general", "topic": "live", "content": "are you there?"})
at, event = next_message("Ada receives the owner's message")
if event:
    check("Ada receives the owner's message", event["message"]["id"] == sent["id"], repr(event))
    print(f"delivery took {(at - sent_at) * 1000:.1f} ms (send request to callback)")

# The queue goes away on the server, as when it expires.
ada_direct = zulip.Client(email="ada@example.com", api_key=key, site=site)
deleted = ada_direct.deregister(first_queue)
check("the queue is gone from the server", deleted.get("result") == "success", repr(deleted))
second_queue = registered.get(timeout=LIMIT)
check("the client registered a new queue by itself", second_queue and second_queue != first_queue, repr(second_queue))
sent = owner.send_message({"type": "stream", "to": "general", "topic": "live", "content": "still there?"})
at, event = next_message("Ada receives the next message on the new queue")
if event:
    check("Ada receives the next message on the new queue", event["message"]["content"] == "still there?", repr(event))

finish()
