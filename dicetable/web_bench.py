"""The score pad's benchmark: how fast a change reaches every phone, and whether live streams
starve plain requests.

The table runs as ``dicetable serve`` in a child process, as on the Pi; the phones (one that
posts Dalek Dice actions, ten that follow the live stream, twenty idle streams) run in this
process, in threads. Times are from :func:`time.perf_counter` in this process only.
"""

from __future__ import annotations

import json
import re
import statistics
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from random import Random

from dicetable.bench import Figure, ms, percentile
from dicetable.child import ServedTable
from engine import Game
from web.client import EventStream, Phone
from web.server import threads_for_streams

ACTIONS = 200
FOLLOWERS = 10
IDLE_STREAMS = 20
PLAIN_REQUESTS = 100
MAX_STREAMS = 40
SEED = 17
HEADER = {"game": "dalek", "players": ["Ana", "Ben", "Cleo"]}


def suite(threads: int) -> Iterator[Figure]:
    """The figures (``threads`` is for the vision suites; the web server sizes its own)."""
    del threads
    with tempfile.TemporaryDirectory() as state, \
            ServedTable(Path(state), max_streams=MAX_STREAMS) as table:
        yield "waitress threads (one per live stream + spare)", \
            float(threads_for_streams(MAX_STREAMS)), "threads"
        phone = Phone(table.url, pin=table.pin)
        latencies = _push_latencies(table.url, phone)
        yield f"POSTed action → state parsed by all {FOLLOWERS} SSE clients, p50", \
            ms(percentile(latencies, 50)), "ms"
        yield f"POSTed action → state parsed by all {FOLLOWERS} SSE clients, p95", \
            ms(percentile(latencies, 95)), "ms"
        yield "actions timed", float(len(latencies)), "actions"
        alone = _plain_requests(phone)
        yield "plain request (GET /api/state), no stream open, median", \
            ms(statistics.median(alone)), "ms"
        with _idle_streams(table.url, IDLE_STREAMS):
            crowded = _plain_requests(phone)
        yield f"plain request with {IDLE_STREAMS} streams open, median", \
            ms(statistics.median(crowded)), "ms"
        yield f"plain request with {IDLE_STREAMS} streams open, p95", \
            ms(percentile(crowded, 95)), "ms"
        yield "score pad first load (HTML + CSS + JS, uncompressed)", \
            float(page_weight(table.url)), "bytes"
        phone.close()


def page_weight(url: str) -> int:
    """Bytes of the page and of every script and style sheet it loads (no compression)."""
    page = urllib.request.urlopen(f"{url}/").read()
    total = len(page)
    for path in re.findall(rb'(?:src|href)="(/static/[^"]+)"', page):
        total += len(urllib.request.urlopen(url + path.decode()).read())
    return total


class Followers:
    """Phones following the live stream; they note when each version was parsed."""

    def __init__(self, url: str, count: int) -> None:
        self._seen: list[dict[int, float]] = [{} for _ in range(count)]
        self._changed = threading.Condition()
        self._streams = [EventStream(f"{url}/events") for _ in range(count)]
        self._threads = [threading.Thread(target=self._follow, args=(i,), daemon=True)
                         for i in range(count)]
        for thread in self._threads:
            thread.start()

    def _follow(self, index: int) -> None:
        for kind, data in self._streams[index].events():
            if kind == "state":
                version = json.loads(data)["version"]
                with self._changed:
                    self._seen[index][version] = time.perf_counter()
                    self._changed.notify_all()

    def wait_all(self, version: int, timeout: float = 10.0) -> float:
        """When the last follower parsed ``version``."""
        with self._changed:
            if not self._changed.wait_for(
                    lambda: all(version in seen for seen in self._seen), timeout):
                raise TimeoutError(f"not every follower saw version {version}")
            return max(seen[version] for seen in self._seen)

    def close(self) -> None:
        """Close every stream."""
        for stream in self._streams:
            stream.close()


def _push_latencies(url: str, phone: Phone) -> list[float]:
    rng = Random(SEED)
    followers = Followers(url, FOLLOWERS)
    latencies: list[float] = []
    try:
        game = Game.start(HEADER)
        version = _post_ok(phone, "/api/game", {"header": HEADER,
                                                "base_version": phone.get("/api/state")[1]
                                                ["state"]["version"]})
        followers.wait_all(version)
        while len(latencies) < ACTIONS:
            if game.over:
                game = Game.start(HEADER)
                version = _post_ok(phone, "/api/game", {"header": HEADER,
                                                        "base_version": version})
                followers.wait_all(version)
                continue
            action = game.rules.random_action(game.state, rng)
            game = game.play(action)
            line = game.rules.action_to_json(action)
            sent = time.perf_counter()
            version = _post_ok(phone, "/api/action", {"line": line, "base_version": version})
            latencies.append(followers.wait_all(version) - sent)
    finally:
        followers.close()
    return latencies


def _post_ok(phone: Phone, path: str, body: dict[str, object]) -> int:
    status, answer = phone.post(path, body)
    if status != 200:
        raise RuntimeError(f"{path} answered {status}: {answer}")
    version: int = answer["state"]["version"]
    return version


def _plain_requests(phone: Phone) -> list[float]:
    times = []
    for _ in range(PLAIN_REQUESTS):
        started = time.perf_counter()
        status, _ = phone.get("/api/state")
        times.append(time.perf_counter() - started)
        if status != 200:
            raise RuntimeError(f"/api/state answered {status}")
    return times


@contextmanager
def _idle_streams(url: str, count: int) -> Iterator[None]:
    """``count`` live streams held open (and read) for the duration of a ``with`` block."""
    streams = [EventStream(f"{url}/events") for _ in range(count)]
    try:
        for stream in streams:
            if next(stream.events())[0] != "state":
                raise RuntimeError("a stream did not start with the state")
            threading.Thread(target=_drain, args=(stream,), daemon=True).start()
        yield
    finally:
        for stream in streams:
            stream.close()


def _drain(stream: EventStream) -> None:
    for _ in stream.events():
        pass
