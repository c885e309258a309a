"""``dicetable kiosk``: the score pad on a TV on the Pi's HDMI: Chromium, full screen, on the
table's ``/kiosk`` page (the join QR code, the score pad large, the camera's last settled
frame). Run it in the Pi's desktop session (e.g. from its autostart), beside the service."""

from __future__ import annotations

import argparse
import os
import shutil
import sys

BROWSERS = ("chromium", "chromium-browser")
DEFAULT_URL = "http://localhost:8017/kiosk"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the kiosk arguments."""
    parser.add_argument("--url", default=DEFAULT_URL,
                        help=f"the table's kiosk page (default {DEFAULT_URL})")
    parser.add_argument("--browser", default=None,
                        help="the browser to run (default: chromium, else chromium-browser)")


def browser_command(browser: str, url: str) -> list[str]:
    """Chromium in kiosk mode on ``url``, without first-run or crash prompts.

    >>> browser_command("chromium", "http://localhost:8017/kiosk")[-1]
    '--app=http://localhost:8017/kiosk'
    """
    return [browser, "--kiosk", "--noerrdialogs", "--disable-infobars", "--no-first-run",
            "--disable-session-crashed-bubble", "--check-for-update-interval=31536000",
            f"--app={url}"]


def run(args: argparse.Namespace) -> int:
    """Replace this process with the browser."""
    browser = args.browser or next(filter(None, map(shutil.which, BROWSERS)), None)
    if browser is None:
        print("dicetable: no browser for the kiosk: sudo apt install chromium",
              file=sys.stderr)
        return 2
    if os.geteuid() == 0:  # Chromium refuses to start as root, in words no host should read
        print("dicetable: the kiosk runs in the Pi's desktop session as its user, not as "
              "root (Chromium does not start as root)", file=sys.stderr)
        return 2
    command = browser_command(browser, args.url)
    try:
        os.execvp(command[0], command)
    except OSError as err:
        print(f"dicetable: cannot start {browser}: {err.strerror}", file=sys.stderr)
    return 2
