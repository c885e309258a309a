"""The table under attack, timed: how fast the pad answers while a hostile phone on the Wi-Fi
holds connections, trickles headers or rotates addresses to guess the PIN, how many guesses
the table checks a minute, and how many acknowledged actions 50 power cuts lose.

Each attack runs against a real ``dicetable serve`` child on loopback (:mod:`dicetable.attacks`);
the pad is a new phone asking ``GET /api/state`` on a new connection, from its own address,
every :data:`PROBE_EVERY_S` during the attack. Its answer times are compared with the same
probes on the idle table, in the same run. Bars (DESIGN.md, issue 12): the pad answers within
1 s during every attack; at most 60 checked PIN guesses a minute; 0 acknowledged actions lost.
"""

from __future__ import annotations

import http.client
import statistics
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from random import Random
from typing import Any

from device.journal import Journal
from device.state_dir import journal_path
from dicetable import attacks
from dicetable.bench import Figure, ms
from dicetable.child import ServedTable
from engine.selfplay import random_lines
from web.client import Phone

PROBES = 20
PROBE_EVERY_S = 0.1
TRICKLE_S = 13.0
"""How long the slow-headers attack is probed: past the server's 10 s deadline for a head."""
GUESS_S = 60.0
GUESSERS = 4
POWER_CUTS = 50
HEADER = {"game": "dalek", "players": ["Ana", "Ben", "Cleo"], "target": 10_000}


def suite(threads: int) -> Iterator[Figure]:
    """The figures (``threads`` is for the vision suites)."""
    del threads
    with tempfile.TemporaryDirectory() as folder:
        with ServedTable(Path(folder) / "state") as table:
            yield from _attacks(table)
        with ServedTable(Path(folder) / "guessed") as table:
            yield from _guessing(table)
        yield from _power_cuts(Path(folder) / "cut")


def _attacks(table: ServedTable) -> Iterator[Figure]:
    url = table.url
    alone = _probe(url, PROBES)
    yield "pad answer (GET /api/state, new connection), idle table, median", \
        ms(statistics.median(alone)), "ms"
    runs: list[tuple[str, Callable[[], AbstractContextManager[Any]], int]] = [
        ("100 idle connections, 1 address", lambda: attacks.idle_sockets(url, 100), PROBES),
        ("300 idle connections, 30 addresses",
         lambda: attacks.idle_sockets(url, 300, addresses=30), PROBES),
        ("100 trickling headers (1 line / 10 s), 1 address",
         lambda: attacks.trickling_sockets(url, 100, every_s=10.0),
         int(TRICKLE_S / PROBE_EVERY_S)),
        ("250 trickling headers (1 line / 2 s), 25 addresses",
         lambda: attacks.trickling_sockets(url, 250, addresses=25, every_s=2.0),
         int(TRICKLE_S / PROBE_EVERY_S)),
        ("40 live streams + 60 kept-alive connections, 10 addresses",
         lambda: _streams_and_kept_alive(url), PROBES),
    ]
    for name, attack, probes in runs:
        with attack():
            times = _probe(url, probes)
        yield f"pad answer during {name}, max", ms(max(times)), "ms"
        yield f"pad answer during {name}, median / idle median", \
            statistics.median(times) / statistics.median(alone), "x"
    yield "a trickling connection is closed after", _trickle_closed_after(url), "s"


@contextmanager
def _streams_and_kept_alive(url: str) -> Iterator[None]:
    with attacks.held_streams(url, 40, addresses=10), \
            attacks.kept_alive_sockets(url, 60, addresses=6):
        yield


def _trickle_closed_after(url: str) -> float:
    with attacks.trickling_sockets(url, 1, every_s=0.5) as (sock,):
        started = time.monotonic()
        sock.settimeout(30)
        try:
            while sock.recv(65536):
                pass
        except OSError:
            pass
        return time.monotonic() - started


def _guessing(table: ServedTable) -> Iterator[Figure]:
    statuses: Counter[int] = Counter()
    lock = threading.Lock()
    stop = threading.Event()

    def guess(first: int) -> None:
        n = first
        while not stop.is_set():
            got = attacks.guess_pins(table.url, 1, addresses=1, first=n)  # a new address
            n += GUESSERS
            with lock:
                statuses.update(got)

    guessers = [threading.Thread(target=guess, args=(i,), daemon=True) for i in range(GUESSERS)]
    started = time.monotonic()
    for thread in guessers:
        thread.start()
    times = _probe(table.url, int(GUESS_S / PROBE_EVERY_S))
    stop.set()
    for thread in guessers:
        thread.join()
    minutes = (time.monotonic() - started) / 60
    tries = sum(statuses.values())
    yield f"PIN guesses tried, {GUESSERS} guessers, a new address each try", \
        tries / minutes, "per minute"
    yield "PIN guesses checked (wrong: 403) for the whole table (bar: 60)", \
        statuses[403] / minutes, "per minute"
    yield "pad answer during the PIN guessing, max", ms(max(times)), "ms"


def _power_cuts(state: Path) -> Iterator[Figure]:
    lines = random_lines(HEADER, 20_000, Random(50))
    acknowledged: list[dict[str, Any]] = []
    rng = Random(9)
    with ServedTable(state) as table:
        phone = Phone(table.url, pin=table.pin)
        status, body = phone.post("/api/game", {"header": HEADER, "base_version": 0})
        assert status == 200, body
    lost = answered = 0
    for _ in range(POWER_CUTS):
        table = ServedTable(state).start()
        before = len(acknowledged)
        refused: list[RuntimeError] = []
        burst = threading.Thread(target=_post_until_cut,
                                 args=(table, lines, acknowledged, refused))
        burst.start()
        time.sleep(rng.uniform(0.1, 1.0))
        table.stop(kill=True)
        burst.join()
        if refused:
            raise refused[0]
        answered += len(acknowledged) - before
        journal = Journal.existing(journal_path(state))
        stored = journal.latest_game()
        journal.close()
        journalled = list(stored.lines) if stored is not None else []
        lost += sum(1 for i, line in enumerate(acknowledged)
                    if i >= len(journalled) or journalled[i] != line)
        acknowledged[:] = journalled  # the action in flight at the cut may stand as well
    yield f"kill -9 during posted actions, {POWER_CUTS} times: actions acknowledged", \
        float(answered), "actions"
    yield "acknowledged actions lost (bar: 0)", float(lost), "actions"


def _post_until_cut(table: ServedTable, lines: list[dict[str, Any]],
                    acknowledged: list[dict[str, Any]], refused: list[RuntimeError]) -> None:
    """Post the next lines until the table dies, noting each acknowledged one (and, in
    ``refused``, an action the table refused, which no cut explains)."""
    try:
        phone = Phone(table.url, pin=table.pin)
        _, body = phone.get("/api/state")
        version = body["state"]["version"]
        for line in lines[len(acknowledged):]:
            status, body = phone.post("/api/action", {"line": line, "base_version": version})
            if status != 200:
                refused.append(RuntimeError(f"the table refused an action: {body}"))
                return
            acknowledged.append(line)
            version = body["state"]["version"]
    except (OSError, http.client.HTTPException):
        return  # the cut


def _probe(url: str, count: int) -> list[float]:
    times = []
    for _ in range(count):
        times.append(attacks.pad_answer_s(url))
        time.sleep(PROBE_EVERY_S)
    return times
