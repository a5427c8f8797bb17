"""What every client script shares: counting checks and printing them as the Rust test reads
them (`N passed, M failed` on the last line), and making the users a script talks as."""

import configparser
import sys

import requests
import zulip

_counts = {"passed": 0, "failed": 0}


def check(label, condition, detail=""):
    """Records one check; prints `ok` or `FAIL` with the detail."""
    if condition:
        _counts["passed"] += 1
        print(f"ok   {label}")
    else:
        _counts["failed"] += 1
        print(f"FAIL {label} {detail}")


def ok(result, label):
    """Checks that an API call succeeded and returns its result."""
    check(label, result.get("result") == "success", repr(result))
    return result


def error(result, label, msg, code="BAD_REQUEST"):
    """Checks that an API call failed with exactly this message and code."""
    check(label, result.get("result") == "error" and result.get("msg") == msg and result.get("code") == code, repr(result))


def finish():
    """Prints the summary and exits non-zero if anything failed."""
    print(f"{_counts['passed']} passed, {_counts['failed']} failed")
    sys.exit(1 if _counts["failed"] else 0)


def new_user(owner, site, email, full_name):
    """Has the owner create an account and logs in as it: its client and its API key."""
    password = "correct horse battery staple"
    ok(owner.create_user({"email": email, "password": password, "full_name": full_name}), f"owner creates {full_name}")
    key = requests.post(f"{site}/api/v1/fetch_api_key", data={"username": email, "password": password}).json()["api_key"]
    return zulip.Client(email=email, api_key=key, site=site), key


def site_of(zuliprc):
    """The server a zuliprc names (its `site`)."""
    config = configparser.ConfigParser()
    config.read(zuliprc)
    return config["api"]["site"]
