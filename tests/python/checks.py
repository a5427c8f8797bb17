"""What every client script shares: counting checks and printing them as the Rust test reads
them (`N passed, M failed` on the last line)."""

import sys

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
