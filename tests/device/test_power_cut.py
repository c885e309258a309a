"""A power cut (``kill -9``) during a burst of posted actions loses nothing acknowledged.

The real ``dicetable serve`` runs as a child process; a phone posts 200 actions one after the
other, and the process is killed at a random moment. After a restart, every action that got a
success answer is in the journal, in order, and the game replays to the state the restarted
table shows; the game then goes on.
"""

from __future__ import annotations

import threading
from pathlib import Path
from random import Random
from typing import Any

from device.journal import Journal
from device.state_dir import journal_path
from dicetable.child import ServedTable
from engine.record import replay
from engine.selfplay import random_lines
from web.client import Phone

BURST = 200
HEADER = {"game": "dalek", "players": ["Ana", "Ben", "Cleo"], "target": 10_000}


def legal_lines(count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` legal record lines of one Dalek Dice game, chosen by the engine's random play."""
    return random_lines(HEADER, count, Random(seed))


def post_burst(table: ServedTable, lines: list[dict[str, Any]], version: int,
               acknowledged: list[dict[str, Any]]) -> None:
    """Post ``lines`` one by one, appending each acknowledged line, until the table dies."""
    phone = Phone(table.url, pin=table.pin)
    for line in lines:
        try:
            status, body = phone.post("/api/action", {"line": line, "base_version": version})
        except OSError:
            return
        assert status == 200, body
        acknowledged.append(line)
        version = body["state"]["version"]


def test_no_acknowledged_action_is_lost_to_a_power_cut(tmp_path: Path) -> None:
    state = tmp_path / "state"
    lines = legal_lines(BURST, seed=2026)
    acknowledged: list[dict[str, Any]] = []
    with ServedTable(state) as table:
        host = Phone(table.url, pin=table.pin)
        status, body = host.post("/api/game", {"header": HEADER, "base_version": 0})
        assert status == 200, body
        burst = threading.Thread(target=post_burst, args=(
            table, lines, body["state"]["version"], acknowledged))
        burst.start()
        cut_after = Random(7).randint(20, BURST - 20)
        while len(acknowledged) < cut_after and burst.is_alive():
            threading.Event().wait(0.005)
        table.stop(kill=True)
        burst.join(timeout=30)
    assert cut_after <= len(acknowledged) < BURST, "the cut did not fall inside the burst"

    stored = Journal(journal_path(state)).latest_game()
    assert stored is not None
    journalled = list(stored.lines)
    # Every acknowledged line is there, in order; at most the one in flight may follow.
    assert journalled[: len(acknowledged)] == acknowledged
    assert len(journalled) - len(acknowledged) <= 1
    replayed = replay(enumerate([stored.header, *journalled], start=1))

    with ServedTable(state, port=table.port) as restarted:
        phone = Phone(restarted.url)
        status, body = phone.get("/api/state")
        assert status == 200
        assert body["state"]["view"] == replayed.view()
        assert replayed.view()["actions"] == len(journalled)
        # The game goes on from where it stood.
        phone.enter_pin(restarted.pin)
        more: list[dict[str, Any]] = []
        post_burst(restarted, lines[len(journalled):][:5], body["state"]["version"], more)
    assert more == lines[len(journalled):][:5]
