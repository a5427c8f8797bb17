"""Follows one user's events with the unmodified Python `zulip` client, for a test that drives
servers around it (the two servers behind a proxy, `tests/tests/servers_behind_a_proxy.rs`).

Usage: follow_events.py ZULIPRC

Runs `call_on_each_event` for message events and prints, one line each and flushed at once:
`registered QUEUE_ID` whenever the client registers a queue (at start, and again after
BAD_EVENT_QUEUE_ID), and `message ID CONTENT` for each message event. Runs until killed.
"""

import sys

import zulip

client = zulip.Client(config_file=sys.argv[1])
original_register = client.register


def observed_register(*args, **kwargs):
    result = original_register(*args, **kwargs)
    if result.get("result") == "success":
        print(f"registered {result['queue_id']}", flush=True)
    return result


client.register = observed_register


def on_event(event):
    if event["type"] == "message":
        print(f"message {event['message']['id']} {event['message']['content']}", flush=True)


client.call_on_each_event(on_event, event_types=["message"])
