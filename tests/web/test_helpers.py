"""The app's small helpers: the PIN throttle and the colour book."""

from __future__ import annotations

from device.journal import Journal
from web.colours import PALETTE, ColourBook
from web.throttle import PinThrottle


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_wrong_pins_wait_longer_and_longer_up_to_a_cap() -> None:
    clock = Clock()
    throttle = PinThrottle(free_tries=3, base_delay=1, max_delay=8, clock=clock)
    waits = []
    for _ in range(8):
        assert throttle.acquire("phone") == 0
        waits.append(throttle.delay("phone"))
        if waits[-1]:
            assert throttle.acquire("phone") == waits[-1]  # refused, and not counted
        clock.now += waits[-1]
    assert waits == [0, 0, 0, 1, 2, 4, 8, 8]


def test_a_waiting_client_is_told_how_long_and_others_are_not_slowed() -> None:
    clock = Clock()
    throttle = PinThrottle(free_tries=0, base_delay=4, clock=clock)
    throttle.acquire("a")
    clock.now += 1
    assert throttle.acquire("a") == 3 and throttle.acquire("b") == 0


def test_a_right_pin_or_a_quiet_window_forgets_the_tries() -> None:
    clock = Clock()
    throttle = PinThrottle(free_tries=0, window=900, max_delay=300, clock=clock)
    throttle.acquire("a")
    throttle.succeeded("a")
    assert throttle.acquire("a") == 0
    throttle.acquire("b")
    clock.now += 901
    assert throttle.acquire("b") == 0 and throttle.delay("b") == 1


def test_rotating_addresses_get_no_more_than_the_table_rate() -> None:
    clock = Clock()
    throttle = PinThrottle(table_rate=30, table_burst=10, clock=clock)
    checked = 0
    for second in range(120):
        for address in range(100):
            checked += throttle.acquire(f"10.{second}.0.{address}") == 0
        clock.now += 1
    assert checked == 10 + 30 * 2 - 1  # the burst, then 30 a minute: 70 in two minutes


def test_a_locked_out_client_is_not_forgotten_for_others() -> None:
    clock = Clock()
    throttle = PinThrottle(free_tries=3, max_delay=300, table_rate=1e9, table_burst=10**6,
                           clock=clock)
    for _ in range(12):
        clock.now += throttle.acquire("guesser")
        throttle.acquire("guesser")
    locked = throttle.acquire("guesser")
    assert locked > 100
    for address in range(1001):
        throttle.acquire(f"10.0.{address // 256}.{address % 256}")
    assert throttle.acquire("guesser") == locked


def test_colours_are_remembered_in_the_journal(journal: Journal) -> None:
    ColourBook(journal).remember({"Ana": 6, "Ben": 3})
    again = ColourBook(Journal(journal.path))
    assert again.colours_for(["Ben", "Ana", "Cleo"]) == {"Ben": 3, "Ana": 6, "Cleo": 0}


def test_every_player_gets_a_different_colour_even_with_clashing_memories() -> None:
    book = ColourBook(None)
    book.remember({"Ana": 2, "Ben": 2})
    book.remember({"Cleo": 0})
    colours = book.colours_for(["Ana", "Ben", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal"])
    assert sorted(colours.values()) == list(range(len(PALETTE)))
    assert colours["Ana"] == 2 and colours["Ben"] == 0 and colours["Cleo"] == 1


def test_a_damaged_setting_is_ignored(journal: Journal) -> None:
    journal.set_setting("web.colours", "{not json")
    assert ColourBook(journal).colours_for(["Ana"]) == {"Ana": 0}
