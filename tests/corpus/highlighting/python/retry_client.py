#!/usr/bin/env python3
"""A small HTTP client with retries, as pasted into a chat thread."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import requests

log = logging.getLogger(__name__)
RETRYABLE = {429, 502, 503, 504}


@dataclass
class RetryPolicy:
    attempts: int = 5
    backoff: float = 0.5
    statuses: set[int] = field(default_factory=lambda: set(RETRYABLE))

    def delay(self, attempt: int) -> float:
        # Exponential backoff, capped at 30 seconds.
        return min(self.backoff * 2 ** attempt, 30.0)


class Client:
    def __init__(self, base_url: str, token: str | None = None, policy: RetryPolicy | None = None):
        self.base_url = base_url.rstrip("/")
        self.session = requests.Session()
        self.policy = policy or RetryPolicy()
        if token is not None:
            self.session.headers["Authorization"] = f"Bearer {token}"

    def __repr__(self) -> str:
        return f"Client({self.base_url!r})"

    def get(self, path: str, **params: Any) -> dict[str, Any]:
        url = f"{self.base_url}/{path.lstrip('/')}"
        for attempt in range(self.policy.attempts):
            response = self.session.get(url, params=params, timeout=10)
            if response.status_code not in self.policy.statuses:
                response.raise_for_status()
                return response.json()
            wait = self.policy.delay(attempt)
            log.warning("GET %s returned %d, retrying in %.1fs", url, response.status_code, wait)
            time.sleep(wait)
        raise RuntimeError(f"gave up on {url} after {self.policy.attempts} attempts")
