"""Closing a table's WebSocket with a reason the client can show."""

from __future__ import annotations

import contextlib
import json


async def close_with_reason(websocket, code: int, reason: str) -> None:
    """Say why in an ``error`` message, then close with ``code`` and the reason (a close
    frame holds at most 123 bytes: the message carries it whole). A client already gone is
    no error: there is nobody left to tell."""
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps({"type": "error", "reason": reason}))
    with contextlib.suppress(Exception):
        await websocket.close(code=code, reason=reason[:100])
