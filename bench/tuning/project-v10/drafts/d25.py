# gate_agent/passback.py
import time

PASSBACK_WINDOW_S = 600


class Passback:
    def __init__(self):
        self._last: dict[bytes, float] = {}

    def allowed(self, pass_id: bytes, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        last = self._last.get(pass_id)
        return last is None or now - last >= PASSBACK_WINDOW_S

    def record(self, pass_id: bytes, now: float) -> None:
        self._last[pass_id] = now
