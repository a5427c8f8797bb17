"""Uploads image files through the unmodified Python `zulip` client, as a user would.

Usage: upload_images.py ZULIPRC FILE...

Each file is uploaded with `upload_file`; every upload must succeed (images that cannot be
thumbnailed are kept as plain files, as Zulip keeps them). Prints `URL <file name> <url>` for
each, for the Rust test (`tests/tests/thumbnails.rs`) to link and fetch.
"""

import os
import sys

import zulip

from checks import check, finish, ok

client = zulip.Client(config_file=sys.argv[1])
for path in sys.argv[2:]:
    name = os.path.basename(path)
    with open(path, "rb") as upload:
        uploaded = ok(client.upload_file(upload), f"{name} uploads")
    url = uploaded.get("url", "")
    check(f"{name} has its url", url.startswith("/user_uploads/") and url.endswith(name), repr(uploaded))
    print(f"URL {name} {url}")

finish()
