"""Acceptance 2 of the integrations issue, through the unmodified Python `zulip` client.

Usage: uploads.py ZULIPRC

The owner uploads a file with `upload_file`, links it in a direct message to Ada, and Ada
downloads the same bytes; Bob, who has no message linking it, gets 403 or 404. Then the
owner's attachment list, a temporary URL, and deleting the file.
"""

import io
import os
import sys

import requests
import zulip

from checks import check, error, finish, new_user, ok, site_of

zuliprc = sys.argv[1]
owner = zulip.Client(config_file=zuliprc)
site = site_of(zuliprc)


ada, ada_key = new_user(owner, site, "ada@example.com", "Ada Lovelace")
bob, bob_key = new_user(owner, site, "bob@example.com", "Bob Builder")
ada_id = ada.get_profile()["user_id"]

content = os.urandom(200_000) + "tail of the report".encode()
upload = io.BytesIO(content)
upload.name = "quarterly report.pdf"
uploaded = ok(owner.upload_file(upload), "owner uploads a file with upload_file")
url = uploaded.get("url", "")
# The URL's name is sanitized; `filename` is the name as uploaded (feature level 286).
check("the answer has url, uri and filename", url.endswith("/quarterly-report.pdf") and uploaded.get("uri") == url and uploaded.get("filename") == "quarterly report.pdf", repr(uploaded))

sent = ok(owner.send_message({"type": "private", "to": [ada_id], "content": f"Here it is: [report]({url})"}), "owner links it in a DM to Ada")
message = ok(ada.get_messages({"anchor": sent["id"], "num_before": 0, "num_after": 0}), "Ada reads the DM")["messages"]

downloaded = requests.get(site + url, auth=("ada@example.com", ada_key))
check("Ada downloads the file", downloaded.status_code == 200, f"{downloaded.status_code} {downloaded.text[:200]}")
check("Ada gets the same bytes", downloaded.content == content, f"{len(downloaded.content)} bytes")
check("it comes as a PDF", downloaded.headers.get("Content-Type") == "application/pdf", repr(dict(downloaded.headers)))

refused = requests.get(site + url, auth=("bob@example.com", bob_key))
check("Bob, who has no message linking it, is refused", refused.status_code in (403, 404), f"{refused.status_code}")
missing = requests.get(site + url + "x", auth=("ada@example.com", ada_key))
check("a path nobody uploaded is not found", missing.status_code == 404, f"{missing.status_code}")
anonymous = requests.get(site + url)
check("without credentials there is nothing", anonymous.status_code == 401, f"{anonymous.status_code}")

temporary = ok(ada.call_endpoint(url="/" + url.lstrip("/"), method="GET"), "Ada asks for a temporary URL")
fetched = requests.get(site + temporary.get("url", ""))
check("the temporary URL serves the file without credentials", fetched.status_code == 200 and fetched.content == content, f"{fetched.status_code}")

attachments = ok(owner.call_endpoint(url="attachments", method="GET"), "owner lists attachments")
listed = attachments.get("attachments", [])
check("the upload is listed with its message", len(listed) == 1 and listed[0]["messages"][0]["id"] == sent["id"], repr(attachments))
check("upload space is counted", attachments.get("upload_space_used") == len(content), repr(attachments.get("upload_space_used")))

error(owner.call_endpoint(url="attachments/999999", method="DELETE"), "deleting an unknown attachment", "Invalid attachment")
ok(owner.call_endpoint(url=f"attachments/{listed[0]['id']}", method="DELETE"), "owner deletes the upload")
gone = requests.get(site + url, auth=("ada@example.com", ada_key))
check("a deleted upload is not found", gone.status_code == 404, f"{gone.status_code}")

finish()
