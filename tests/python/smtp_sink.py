"""A local mail server for the email tests: aiosmtpd accepts every message on 127.0.0.1 at the
port given and writes each one to <dir>/<n>.json as its envelope, headers and decoded text
body, read with the standard library's email parser. Prints "ready" once listening; runs until
killed."""

import json
import sys
import time
from email import message_from_bytes, policy
from pathlib import Path

from aiosmtpd.controller import Controller


class Keep:
    def __init__(self, directory: Path):
        self.directory = directory
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        message = message_from_bytes(envelope.original_content or envelope.content, policy=policy.default)
        received = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "from": str(message["From"]),
            "to": str(message["To"]),
            "subject": str(message["Subject"]),
            "content_type": message.get_content_type(),
            "body": message.get_content(),
        }
        path = self.directory / f"{self.count}.json"
        partial = path.with_suffix(".part")
        partial.write_text(json.dumps(received))
        partial.rename(path)  # whole or not at all, for the reader
        return "250 Message accepted for delivery"


def main() -> None:
    directory, port = Path(sys.argv[1]), int(sys.argv[2])
    directory.mkdir(parents=True, exist_ok=True)
    controller = Controller(Keep(directory), hostname="127.0.0.1", port=port)
    controller.start()
    print("ready", flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
