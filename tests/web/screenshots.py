"""``make screenshots``: every screen of each game and the host's notices, as PNG files.

At 320×568, 390×844 and on a tablet in landscape, in all four languages, for a reviewer
(``screenshots/SIZE/LANG/NN-screen.png``); the notices are a second table's (a wrong
``[buttons]`` section, a camera picture too large to read).

    python -m tests.web.screenshots [FOLDER] [--lang en ...] [--size phone ...] [--dark]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from dicetable.child import ServedTable
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.web.tour import SIZES, Tour, host_notices, tour, troubled_table
from web.i18n import LANGUAGES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default="screenshots", type=Path)
    parser.add_argument("--lang", nargs="*", default=list(LANGUAGES), choices=LANGUAGES)
    parser.add_argument("--size", nargs="*", default=list(SIZES), choices=list(SIZES))
    parser.add_argument("--dark", action="store_true", help="the phone's dark mode")
    options = parser.parse_args()
    count = 0
    with tempfile.TemporaryDirectory() as state, ServedTable(Path(state)) as served, \
            tempfile.TemporaryDirectory() as other, troubled_table(Path(other)) as troubled, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for size in options.size:
            for lang in options.lang:
                folder = options.folder / size / lang
                folder.mkdir(parents=True, exist_ok=True)
                shots: list[str] = []

                def shoot(name: str, page: Page, folder: Path = folder,
                          shots: list[str] = shots) -> None:
                    shots.append(name)
                    page.evaluate("window.scrollTo(0, 0)")
                    page.screenshot(path=str(folder / f"{len(shots):02d}-{name}.png"),
                                    full_page=True)

                for table, walk in ((served, tour), (troubled, host_notices)):
                    visit = Tour(browser, table.url, table.pin, lang, size,
                                 "dark" if options.dark else "light")
                    try:
                        walk(visit, shoot)
                    finally:
                        visit.close()
                count += len(shots)
                print(f"{folder}: {len(shots)} screens")
        browser.close()
    print(f"{count} screenshots in {options.folder}/")


if __name__ == "__main__":
    main()
