"""The ``[buttons]`` section: the default buttons, and every wrong setting named in words."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.button_config import ButtonConfig, button_config, buttons_off
from device.config import ConfigError, load_config
from web.i18n import LANGUAGES
from web.wording import notice_text

WHERE = "config.toml [buttons]"


def test_without_the_section_the_table_has_stop_and_one_shout(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[camera]\nsource = "0"\n')
    config = load_config(path)
    assert button_config(config.section("buttons"), config.where("buttons")) == ButtonConfig(
        stop=17, shout=27)


def test_a_section_that_names_no_button_keeps_the_default_ones() -> None:
    assert button_config({"voice": False, "buzzer": 26}, WHERE) == ButtonConfig(
        stop=17, shout=27, voice=False, buzzer=26)


def test_the_defaults_written_out_are_the_table_without_the_section() -> None:
    written_out = {"enabled": True, "bounce_ms": 20, "together_ms": 150, "hold_s": 5,
                   "shutdown": True, "voice": True}
    assert button_config(written_out, WHERE) == button_config({}, WHERE) == ButtonConfig(
        stop=17, shout=27, bounce_s=0.02, together_s=0.15, hold_s=5.0, shutdown=True,
        voice=True)


def test_buttons_can_be_switched_off() -> None:
    assert button_config({"enabled": False}, WHERE) is None


def test_a_table_with_a_shout_button_per_seat_and_lights() -> None:
    config = button_config({"stop": 5, "seats": [6, 13, 19], "seat_leds": [12, 16, 20],
                            "stop_led": 21, "buzzer": 26, "together_ms": 200, "hold_s": 3},
                           WHERE)
    assert config is not None and config.shout is None
    assert (config.seats, config.seat_leds, config.together_s, config.hold_s) == (
        (6, 13, 19), (12, 16, 20), 0.2, 3.0)


def test_each_wrong_setting_is_named_not_only_the_first() -> None:
    settings = {"stop": 40, "stop_pin": 4, "bounce_ms": 500, "seats": [22, "x"], "voice": 1,
                "buzzer": 26}
    with pytest.raises(ConfigError) as refused:
        button_config(settings, WHERE)
    named = [each.setting for each in (refused.value, *refused.value.more)]
    assert named == ["stop_pin = 4", "stop = 40", "seats = [22, \"x\"]", "bounce_ms = 500",
                     "voice = 1"]
    for lang in LANGUAGES:
        told = notice_text(lang, buttons_off(refused.value, "config.toml"))
        assert all(setting in told for setting in named) and "buzzer = 26" not in told, told


@pytest.mark.parametrize(("settings", "message"), [
    ({"stop": 1}, "“stop” is GPIO 1, which a Raspberry Pi 4 or 5 does not have (use GPIO 2 "
                  "to 27, BCM numbering)"),
    ({"seats": [22, 40]}, "“seats” is GPIO 40, which a Raspberry Pi 4 or 5 does not have"),
    ({"stop": "GPIO17"}, "“stop” must be a whole number, not “GPIO17”"),
    ({"stop": 17.0}, "“stop” must be a whole number, not 17.0"),  # (not "not 17")
    ({"seats": [22, 23.0]}, "“seats” must be a list of GPIO numbers, one per seat, such as "
                            "[22, 23, 24], not [22, 23.0]"),
    ({"stop": 17, "bounce_ms": 0.0}, "“bounce_ms” must be from 1 to 200, not 0.0"),
    ({"stop": 17, "buzzer": 17}, "GPIO 17 is given twice (stop and buzzer)"),
    ({"shout": 27, "seats": [22, 23]}, "give either “shout” (one shout button for the table) "
                                       "or “seats” (one per seat), not both"),
    ({"seats": [22, 23], "seat_leds": [5]}, "“seat_leds” must give one LED per seat (2), not 1"),
    ({"seats": 22}, "“seats” must be a list of GPIO numbers, one per seat, such as [22, 23, 24]"),
    ({"seats": [22, "a"]}, "“seats” must be a list of GPIO numbers, one per seat, such as "
                           '[22, 23, 24], not [22, "a"]'),
    ({"stop": {"pin": 4}}, "“stop” must be a whole number, not { pin = 4 }"),
    ({"stop": 17, "voice": 1}, "“voice” must be true or false, not 1"),
    ({"stop": 17, "together_ms": 0}, "“together_ms” must be from 10 to 2000, not 0"),
    # a hold this short would power the Pi off at every press of stop
    ({"stop": 17, "hold_s": 0.05}, "“hold_s” must be from 2 to 60, not 0.05"),
    ({"stop": 17, "hold_s": 1234567.0}, "“hold_s” must be from 2 to 60, not 1234567.0"),
    ({"stop": 17, "bounce_ms": 0.1234567}, "“bounce_ms” must be from 1 to 200, not 0.1234567"),
    ({"stop": 17, "hold_s": float("nan")}, "“hold_s” must be from 2 to 60, not nan"),
    ({"stop": 17, "hold_s": float("inf")}, "“hold_s” must be from 2 to 60, not inf"),
    ({"stop": 17, "bounce_ms": 100000}, "“bounce_ms” must be from 1 to 200, not 100000"),
    ({"stop": 17, "together_ms": float("nan")}, "“together_ms” must be from 10 to 2000"),
    ({"stop": 17, "shutdown": "yes"}, "“shutdown” must be true or false, not “yes”"),
    ({"stop": 17, "stop_pin": 4}, "unknown setting “stop_pin”"),
    ({"stop": 17, "shout_led": 6}, "“shout_led” is for the table's one shout button"),
])
def test_a_wrong_setting_is_named_with_the_reason(settings: dict[str, object],
                                                  message: str) -> None:
    with pytest.raises(ConfigError) as refused:
        button_config(settings, WHERE)
    assert str(refused.value).startswith(f"{WHERE}: {message}")
    # the host's phone is told the setting as written and why, in its language
    assert refused.value.setting is not None and refused.value.why is not None
    for lang in LANGUAGES:
        told = notice_text(lang, buttons_off(refused.value, "config.toml"))
        assert refused.value.setting in told and "None" not in told and "notice." not in told


def test_each_line_toml_cannot_read_is_logged_with_its_own_reason(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[buttons]\nstop = 17,\nshout = GPIO27\n")
    first, second = load_config(path).unread
    assert str(first).startswith(f"{path} line 2: stop = 17,: Expected newline")
    assert str(second).startswith(f"{path} line 3: shout = GPIO27: Invalid value")
