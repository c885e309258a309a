"""The live table's benchmark (``dicetable bench --suite live``).

- Latency: from the first still frame of a rest to the new state parsed by an SSE client,
  the settle time included, over REST_COUNT rests of 1280×720 frames played in real time
  through the real loop, reader, session and score-pad server (one process, as on the Pi).
- Idle: the share of one core the table takes while the camera watches a still table at
  15 frames/s (every frame a distinct JPEG to decode, as a camera's MJPEG stream).
- Memory: peak resident memory of a whole ``dicetable serve --demo`` process with the models
  loaded; and its growth over PLAY_MINUTES of replayed play (the demo looped, SPEED× fast).
- Power cuts: ``kill -9`` at KILLS random moments of a replayed live game; after each restart
  every state a phone was shown is still in the journal, and at the end the game, resumed
  from the camera each time, is exactly the planned one.

Times come from :func:`time.perf_counter` (latency) and the kernel's counters (CPU, memory).
"""

from __future__ import annotations

import json
import random
import resource
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from device.camera import Frame, FrameSource, open_source
from device.demo_film import write_film
from device.demo_plan import Plan, PlannedDie, PlannedRest, plan_game
from device.journal import Journal
from device.live import LiveLoop
from device.scripted_player import same_line
from device.session import TableSession
from device.state_dir import journal_path
from dicetable.bench import Figure, ms, percentile
from dicetable.child import ServedTable
from dicetable.live_table import DEMO_SEED, HostLog
from vision.observation import DiceObserver
from web.app import create_app
from web.client import EventStream
from web.server import create_server, end_streams

REST_COUNT = 32
REST_S = 1.2
IDLE_S = 20.0
FPS = 15.0
PLAY_MINUTES = 30.0
SPEED = 6.0
KILLS = 50
DICY = {"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"}


def suite(threads: int) -> Iterator[Figure]:
    """The figures, each measured in this run."""
    from vision.reader import DiceReader

    observer = DiceObserver(DiceReader(threads=threads))
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        latencies = _latencies(folder, observer)
        yield "first still frame → state parsed by an SSE client, median", \
            ms(statistics.median(latencies)), "ms"
        yield "first still frame → state parsed by an SSE client, p95", \
            ms(percentile(latencies, 95)), "ms"
        yield "rests timed (1280×720 frames, 0.3 s settle included)", float(len(latencies)), \
            "rests"
        share, reads = _idle(folder, observer)
        yield f"watching a still table at {FPS:g} frames/s (JPEG decoded each frame)", \
            share * 100, "% of one core"
        yield "reads of the still table after it settled", float(reads), "reads"
        demo = folder / "demo"
        plan = plan_game(DEMO_SEED)
        write_film(plan, demo, seed=DEMO_SEED)
        yield "serve --demo: peak resident memory, models loaded", _peak_rss(folder, demo), "MB"
        first, last = _memory_over_play(folder, demo, plan)
        yield f"serve --demo --loop: resident memory after its first game ({SPEED:g}× speed, " \
            "median of a minute)", first, "MB"
        yield f"serve --demo --loop: growth over {PLAY_MINUTES:g} min of replayed play", \
            last - first, "MB"
        kills, lost, finished = _power_cuts(folder, demo, plan)
        yield "kill -9 at random moments of a replayed live game", float(kills), "kills"
        yield "acknowledged states missing from the journal after a restart", float(lost), \
            "states"
        yield "the game resumed from the camera and ended as planned (1 = yes)", \
            float(finished), ""


class _Stamped:
    """A source that notes when each frame was handed to the loop (perf_counter)."""

    def __init__(self, source: FrameSource, handed: dict[int, float]) -> None:
        self._source, self._handed = source, handed
        self.description, self.paced = source.description, source.paced
        self.plays_recording = source.plays_recording

    def open(self) -> None:
        self._source.open()

    def read(self) -> Frame:
        frame = self._source.read()
        self._handed.setdefault(frame.number, time.perf_counter())
        return frame

    def close(self) -> None:
        self._source.close()


def _reroll_film(folder: Path) -> Plan:
    """An empty table, a roll, then rerolls of two dice every REST_S seconds: each rerolled
    die shows the next value and lands on the other of its two places."""
    homes = [(220.0 + 165 * i, 230.0) for i in range(6)]
    aways = [(220.0 + 165 * i, 520.0) for i in range(6)]
    values, away = [1, 2, 3, 4, 5, 6], [False] * 6
    looks = 0

    def table() -> tuple[PlannedDie, ...]:
        return tuple(PlannedDie(values[i], *(aways[i] if away[i] else homes[i]), 0.3 * i,
                                looks * 6 + i) for i in range(6))

    rests = [PlannedRest((), 1.5, None, hand=False), PlannedRest(table(), REST_S, 0)]
    for rest in range(REST_COUNT - 1):
        looks += 1
        for slot in (rest % 6, (rest + 2) % 6):
            values[slot] = values[slot] % 6 + 1
            away[slot] = not away[slot]
        rests.append(PlannedRest(table(), REST_S, None))
    plan = Plan([DICY], rests, FPS)
    write_film(plan, folder, seed=9)
    return plan


def _latencies(scratch: Path, observer: DiceObserver) -> list[float]:
    plan = _reroll_film(scratch / "rests")
    journal = Journal(scratch / "latency" / "table.db")
    session = TableSession(journal)
    session.start()
    session.watch_camera()
    session.new_game(DICY, base_version=session.snapshot().version)
    app = create_app({"JOURNAL": journal, "TABLE_SESSION": session})
    server = create_server(app, host="127.0.0.1", port=0)
    threading.Thread(target=server.run, daemon=True).start()
    arrived: dict[int, float] = {}
    stream = EventStream(f"http://127.0.0.1:{server.effective_port}/events")
    threading.Thread(target=_note_pictures, args=(stream, arrived), daemon=True).start()
    handed: dict[int, float] = {}
    loop = LiveLoop(lambda: _Stamped(open_source(str(scratch / "rests"), fps=FPS), handed),
                    observer, HostLog(session))
    loop.start()
    try:
        frames = plan.still_frames()
        time.sleep((frames[-1] + plan.hold(plan.rests[-1])) / FPS + 2)
        return [arrived[picture] - handed[frames[picture - 1]]
                for picture in range(2, len(frames) + 1)
                if picture in arrived and frames[picture - 1] in handed]
    finally:
        loop.stop()
        stream.close()
        end_streams(app)
        time.sleep(0.5)  # the stream's thread sees the end
        server.close()
        session.stop()


def _note_pictures(stream: EventStream, arrived: dict[int, float]) -> None:
    """Note when each new picture of the camera was parsed from the stream."""
    for kind, data in stream.events():
        if kind == "state":
            camera = json.loads(data).get("camera") or {}
            picture = camera.get("picture")
            if picture is not None:
                arrived.setdefault(int(picture), time.perf_counter())


def _idle(scratch: Path, observer: DiceObserver) -> tuple[float, int]:
    """CPU share while watching a still table (frames with sensor noise, each its own file)."""
    still = scratch / "still"
    still.mkdir()
    rng = np.random.default_rng(2)
    scene = np.asarray(cv2.imread(str(sorted((scratch / "rests").glob("*.jpg"))[-1])),
                       np.float32)
    for number in range(int(FPS * 4)):
        noisy = np.clip(scene + rng.normal(0, 2.0, scene.shape), 0, 255).astype(np.uint8)
        cv2.imwrite(str(still / f"{number:05d}.jpg"), noisy, [cv2.IMWRITE_JPEG_QUALITY, 85])
    journal = Journal(scratch / "idle" / "table.db")
    session = TableSession(journal)
    session.start()
    session.watch_camera()
    loop = LiveLoop(lambda: open_source(str(still), fps=FPS, loop=True), observer,
                    HostLog(session))
    loop.start()
    time.sleep(2.0)  # the first rest settles and is read
    reads = loop.reads
    cpu, wall = _cpu_seconds(), time.perf_counter()
    time.sleep(IDLE_S)
    share = (_cpu_seconds() - cpu) / (time.perf_counter() - wall)
    reads = loop.reads - reads
    loop.stop()
    session.stop()
    return share, reads


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _peak_rss(scratch: Path, demo: Path) -> float:
    with ServedTable(scratch / "peak", args=["--demo", str(demo)]) as table:
        time.sleep(40)
        return _status_mb(table.pid, "VmHWM")


def _memory_over_play(scratch: Path, demo: Path, plan: Plan) -> tuple[float, float]:
    """Resident memory (median of a minute of samples) after the first game, and at the end
    of PLAY_MINUTES of play."""
    game_s = (plan.still_frames()[-1] + plan.hold(plan.rests[-1])) / plan.fps
    window = 6  # samples, 10 s apart
    with ServedTable(scratch / "long", args=["--demo", str(demo), "--loop",
                                             "--speed", str(SPEED)]) as table:
        time.sleep(game_s / SPEED)
        samples: list[float] = []
        ends = time.monotonic() + PLAY_MINUTES * 60 / SPEED
        while time.monotonic() < ends or len(samples) < 2 * window:
            time.sleep(10)
            samples.append(_status_mb(table.pid, "VmRSS"))
        return statistics.median(samples[:window]), statistics.median(samples[-window:])


def _power_cuts(scratch: Path, demo: Path, plan: Plan) -> tuple[int, int, int]:
    """Kill the table at random moments; count acknowledged states the journal lost; then
    let the game end and compare it with the plan."""
    rng = random.Random(17)
    state = scratch / "cuts"
    lost = 0
    args = ["--demo", str(demo), "--speed", "4"]
    for _ in range(KILLS):
        with ServedTable(state, args=args) as table:
            seen = _Acknowledged(table.url)
            time.sleep(rng.uniform(0.2, 4.0))
            acknowledged = seen.last()
            table.stop(kill=True)
            seen.close()
        lost += _missing(state, acknowledged)
    with ServedTable(state, args=args) as table:
        deadline = time.monotonic() + 600
        record = _standing(state)
        while time.monotonic() < deadline and not _finished(table.url):
            time.sleep(1)
        record = _standing(state)
    same = len(record) == len(plan.record) and all(
        same_line(a, b) for a, b in zip(record, plan.record, strict=True))
    return KILLS, lost, int(same)


class _Acknowledged:
    """The states a phone was shown (game, version, standing actions), from the stream."""

    def __init__(self, url: str) -> None:
        self._stream = EventStream(f"{url}/events")
        self._last: dict[str, Any] | None = None
        threading.Thread(target=self._follow, daemon=True).start()

    def _follow(self) -> None:
        for kind, data in self._stream.events():
            if kind == "state":
                state = json.loads(data)
                if state.get("view") is not None:
                    self._last = {"game_id": state["game_id"], "version": state["version"],
                                  "actions": state["view"]["actions"]}

    def last(self) -> dict[str, Any] | None:
        return self._last

    def close(self) -> None:
        self._stream.close()


def _missing(state: Path, acknowledged: dict[str, Any] | None) -> int:
    """1 when the journal lacks the last acknowledged state (its version or its actions)."""
    if acknowledged is None:
        return 0
    journal = Journal(journal_path(state))
    try:
        stored = journal.game(acknowledged["game_id"])
        if journal.version() < acknowledged["version"] or stored is None:
            return 1
        standing = 0
        for line in stored.lines:
            standing += -1 if "undo" in line else 1
        return int(standing < acknowledged["actions"])
    finally:
        journal.close()


def _standing(state: Path) -> list[dict[str, Any]]:
    session = TableSession(Journal(journal_path(state)))
    session.start()
    try:
        game_id = session.snapshot().game_id
        return [] if game_id is None else session.record(game_id)
    finally:
        session.stop()


def _finished(url: str) -> bool:
    stream = EventStream(f"{url}/events")
    try:
        for kind, data in stream.events():
            if kind == "state":
                view = json.loads(data).get("view")
                return bool(view and view["over"])
        return False
    finally:
        stream.close()


def _status_mb(pid: int | None, field: str) -> float:
    text = Path(f"/proc/{pid}/status").read_text()
    for line in text.splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field} for process {pid}")
