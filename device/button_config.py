"""The ``[buttons]`` section of the config file: which buttons, LEDs and buzzer the table has,
on which pins, and how presses are read.

Pins are GPIO numbers (BCM numbering, as gpiozero's): a Raspberry Pi 4 or 5 has GPIO 2 to 27
on its 40-pin header. Each button is wired between its pin and ground. Without the section the
table has the stop button on GPIO 17 and one shout button on GPIO 27; with it, only the buttons
it names.

>>> settings = button_config({"stop": 17, "seats": [22, 23, 24], "buzzer": 26}, "[buttons]")
>>> settings.stop, settings.seats, settings.shout, settings.together_s
(17, (22, 23, 24), None, 0.15)
>>> button_config({"stop": 28}, "[buttons]")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
device.config.ConfigError: [buttons]: “stop” is GPIO 28, which a Raspberry Pi 4 or 5 does not ...
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from device.config import (
    ConfigError,
    Wrong,
    as_written,
    told,
    typed,
    unknown_keys,
    written,
)
from device.notice import Notice

FIRST_PIN, LAST_PIN = 2, 27
"""The GPIO pins of a Pi 4 or 5's header that a button may use (0 and 1 belong to the HAT
EEPROM)."""
KEYS = ("enabled", "stop", "shout", "seats", "stop_led", "shout_led", "seat_leds", "buzzer",
        "bounce_ms", "together_ms", "hold_s", "shutdown", "voice")
DEFAULT_STOP, DEFAULT_SHOUT = 17, 27


class Key(NamedTuple):
    """A button: ``stop``, the table's one ``shout``, or the shout of seat ``seat`` (1-based)."""

    button: Literal["stop", "shout"]
    seat: int | None = None


STOP = Key("stop")


@dataclass(frozen=True)
class ButtonConfig:
    """The table's buttons: pins (None: not there) and how presses are read."""

    stop: int | None = DEFAULT_STOP
    shout: int | None = DEFAULT_SHOUT
    """One shout button for the table (the phones then say who shouted)."""
    seats: tuple[int, ...] = ()
    """One shout button per seat instead, seat 1 first (the game's first player sits there)."""
    stop_led: int | None = None
    shout_led: int | None = None
    seat_leds: tuple[int, ...] = ()
    buzzer: int | None = None
    bounce_s: float = 0.02
    together_s: float = 0.15
    """Shouts this close together count as one, with every caller."""
    hold_s: float = 5.0
    shutdown: bool = True
    """Holding stop for ``hold_s`` closes the journal and powers the Pi off."""
    voice: bool = True
    """A shout in Dalek Dice plays the Dalek's voice when the Pi has a sound card."""


def button_config(settings: Mapping[str, Any], where: str, *,
                  unread: Sequence[ConfigError] = ()) -> ButtonConfig | None:
    """The buttons the ``[buttons]`` ``settings`` describe (none named: the default buttons), or
    None when they are switched off. ConfigError names a wrong setting or pin: the first, after
    the lines of the section the file could not be read from (``unread``); the other wrong
    settings are in its ``more``, so that one restart fixes them all."""
    if not settings and not unread:
        return ButtonConfig()
    wrong = Wrong([*unread, *unknown_keys(settings, KEYS, where)])
    read = wrong.read

    def flag(key: str, default: bool) -> bool:
        """Switch ``key`` (``default`` when not given)."""
        return wrong.read_typed(settings, key, bool, default, where)

    def number(key: str, default: float, bounds: tuple[float, float]) -> float:
        """Number ``key`` within ``bounds`` (``default`` when not given)."""
        return wrong.read_number(settings, key, float, default, bounds, where)

    if not flag("enabled", True) and not wrong:
        return None
    # A section that names no button keeps the default ones (it sets the voice, say).
    named = any(key in settings for key in ("stop", "shout", "seats"))
    config = ButtonConfig(
        stop=read(_pin, None, settings, "stop", where) if named else ButtonConfig.stop,
        shout=read(_pin, None, settings, "shout", where) if named else ButtonConfig.shout,
        seats=read(_pins, (), settings, "seats", where),
        stop_led=read(_pin, None, settings, "stop_led", where),
        shout_led=read(_pin, None, settings, "shout_led", where),
        seat_leds=read(_pins, (), settings, "seat_leds", where),
        buzzer=read(_pin, None, settings, "buzzer", where),
        bounce_s=number("bounce_ms", ButtonConfig.bounce_s * 1000, (1, 200)) / 1000,
        together_s=number("together_ms", ButtonConfig.together_s * 1000, (10, 2000)) / 1000,
        # A stop pressed to end a turn must never be taken for the hold that powers off.
        hold_s=number("hold_s", ButtonConfig.hold_s, (2, 60)),
        shutdown=flag("shutdown", ButtonConfig.shutdown),
        voice=flag("voice", ButtonConfig.voice),
    )
    if wrong:
        first = wrong[0]
        raise ConfigError(str(first), setting=first.setting, why=first.why, line=first.line,
                          more=wrong[1:])
    _check(config, settings, where)
    return config


def buttons_off(err: ConfigError, file: object) -> Notice:
    """What the host's phone says of a wrong ``[buttons]`` section (``err`` and its ``more``) in
    ``file``: each wrong setting and why; the table runs without buttons until it is fixed. A
    guest's phone reads only that the buttons are off."""
    return told("buttons_off", [err], file)


def _check(config: ButtonConfig, settings: Mapping[str, Any], where: str) -> None:
    if config.shout is not None and config.seats:
        raise ConfigError(f"{where}: give either “shout” (one shout button for the table) or "
                          "“seats” (one per seat), not both", setting=written(settings, "seats"),
                          why=Notice("notice.config.shout_and_seats"))
    if config.seat_leds and len(config.seat_leds) != len(config.seats):
        raise ConfigError(f"{where}: “seat_leds” must give one LED per seat "
                          f"({len(config.seats)}), not {len(config.seat_leds)}",
                          setting=written(settings, "seat_leds"),
                          why=Notice("notice.config.seat_leds", {"seats": len(config.seats)}))
    if config.shout_led is not None and config.shout is None:
        raise ConfigError(f"{where}: “shout_led” is for the table's one shout button, "
                          "which is not given", setting=written(settings, "shout_led"),
                          why=Notice("notice.config.shout_led"))
    if config.stop_led is not None and config.stop is None:
        raise ConfigError(f"{where}: “stop_led” is for the stop button, which is not given",
                          setting=written(settings, "stop_led"),
                          why=Notice("notice.config.stop_led"))
    seen: dict[int, str] = {}
    for name, pins in (("stop", [config.stop]), ("shout", [config.shout]),
                       ("seats", config.seats), ("stop_led", [config.stop_led]),
                       ("shout_led", [config.shout_led]), ("seat_leds", config.seat_leds),
                       ("buzzer", [config.buzzer])):
        for pin in pins:
            if pin is None:
                continue
            if pin in seen:
                raise ConfigError(f"{where}: GPIO {pin} is given twice ({seen[pin]} and {name})",
                                  setting=written(settings, name),
                                  why=Notice("notice.config.twice",
                                             {"pin": pin, "first": seen[pin]}))
            seen[pin] = name


def _pin(settings: Mapping[str, Any], key: str, where: str) -> int | None:
    if key not in settings:
        return None
    pin = typed(settings, key, int, 0, where)
    if not FIRST_PIN <= pin <= LAST_PIN:
        raise ConfigError(f"{where}: “{key}” is GPIO {pin}, which a Raspberry Pi 4 or 5 does "
                          f"not have (use GPIO {FIRST_PIN} to {LAST_PIN}, BCM numbering)",
                          setting=written(settings, key),
                          why=Notice("notice.config.no_gpio", {"pin": pin, "first": FIRST_PIN,
                                                            "last": LAST_PIN}))
    return pin


def _pins(settings: Mapping[str, Any], key: str, where: str) -> tuple[int, ...]:
    if key not in settings:
        return ()
    values = settings[key]
    if not isinstance(values, list) or not values or \
            not all(isinstance(value, int) and not isinstance(value, bool) for value in values):
        raise ConfigError(f"{where}: “{key}” must be a list of GPIO numbers, one per seat, "
                          f"such as [22, 23, 24], not {as_written(values)}",
                          setting=written(settings, key), why=Notice("notice.config.pins"))
    try:
        found = [_pin({key: value}, key, where) for value in values]
    except ConfigError as err:  # named as the file writes the list
        err.setting = written(settings, key)
        raise
    return tuple(pin for pin in found if pin is not None)

