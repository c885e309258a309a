"""The pad's join code (and the host link ``dicetable pin --link`` prints) follows the Pi's
network: a table started before the Pi had a network (a headless Pi at a friend's house) and
then put on its own hotspot, then on the house's Wi-Fi, shows the address phones on that
network use, not the one it started with.

The network changes for real, in a network namespace of the test's own (``unshare -rn``: no
root needed): linked pairs of interfaces stand for the Wi-Fi cards, given the addresses and
routes comitup's hotspot and a house's router give."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

PORT = 8017
CHANGES = r'''
import re, socket, subprocess, sys, time, urllib.request

def ip(*words):
    subprocess.run(["ip", *words], check=True)

def join_url():
    """The pad's join code, and the host link ``dicetable pin --link`` prints now."""
    page = urllib.request.urlopen("http://127.0.0.1:%d/" % PORT, timeout=10).read().decode()
    link = subprocess.run([sys.executable, "-m", "dicetable", "pin", "--link", "--state", STATE],
                          capture_output=True, text=True, check=True).stdout.strip()
    return re.search(r'id="join-url">([^<]*)<', page)[1] + " " + link.split("auth/join?")[0]

ip("link", "set", "lo", "up")
serve = subprocess.Popen([sys.executable, "-m", "dicetable", "serve", "--state", STATE,
                          "--port", str(PORT)],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", PORT), timeout=1).close()
            break
        except OSError:
            if time.monotonic() > deadline or serve.poll() is not None:
                raise
            time.sleep(0.1)
    print(join_url())
    for card in ("eth0", "wlan0", "wlan1"):  # a pair of linked interfaces, each as a card
        ip("link", "add", card, "type", "veth", "peer", "name", card + "p")
        ip("link", "set", card + "p", "up")
    ip("link", "set", "eth0", "up")  # a cable to a laptop: a link-local address only
    ip("addr", "add", "169.254.12.7/16", "dev", "eth0")
    ip("link", "set", "wlan0", "up")
    ip("addr", "add", "10.41.0.1/24", "dev", "wlan0")  # the Pi's own hotspot, as comitup
    print(join_url())                                   # sets it: no default route
    ip("link", "set", "wlan1", "up")
    ip("addr", "add", "192.168.1.23/24", "dev", "wlan1")  # the house's Wi-Fi, by its router,
    ip("route", "add", "default", "via", "192.168.1.1")   # the hotspot still up
    print(join_url())
    ip("addr", "del", "10.41.0.1/24", "dev", "wlan0")  # the hotspot gone
    print(join_url())
finally:
    serve.terminate()
    serve.wait(timeout=20)
'''


def _own_network_namespace() -> bool:
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return False
    done = subprocess.run(["unshare", "-rn", "ip", "link", "set", "lo", "up"],
                          capture_output=True, check=False)
    return done.returncode == 0


@pytest.mark.skipif(not _own_network_namespace(),
                    reason="no network namespace of its own (util-linux unshare, iproute2, "
                           "unprivileged user namespaces)")
def test_the_join_code_and_host_link_show_the_address_of_the_network_the_pi_is_on_now(
        tmp_path: Path) -> None:
    script = f"PORT = {PORT}\nSTATE = {str(tmp_path / 'state')!r}\n" + CHANGES
    done = subprocess.run(["unshare", "-rn", sys.executable, "-c", script],
                          capture_output=True, text=True, timeout=90, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"{url} {url}" for url in (
        f"http://{socket.gethostname()}:{PORT}/",  # no network yet: the Pi's name
        f"http://10.41.0.1:{PORT}/",
        f"http://192.168.1.23:{PORT}/",  # the network the default route leaves by
        f"http://192.168.1.23:{PORT}/",
    )]


SHOWN = r'''
import json, subprocess, sys, time
import cv2, numpy as np
from playwright.sync_api import sync_playwright
from dicetable.child import start_serving

def ip(*words):
    subprocess.run(["ip", *words], check=True)

def shown(page, was):
    """The join code ``page`` shows once it is not ``was`` (or after 8 s): its address and
    what its QR code reads."""
    deadline = time.monotonic() + 8
    while page.inner_text("#join-url") == was and time.monotonic() < deadline:
        time.sleep(0.1)
    picture = cv2.imdecode(np.frombuffer(page.locator("#join svg").screenshot(), np.uint8),
                           cv2.IMREAD_GRAYSCALE)
    return [page.inner_text("#join-url"), cv2.QRCodeDetector().detectAndDecode(picture)[0]]

ip("link", "set", "lo", "up")
serve = start_serving([sys.executable, "-m", "dicetable", "serve", "--state", STATE,
                       "--port", str(PORT)])
try:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                             args=["--headless", "--no-sandbox", "--disable-gpu"])
        tv = browser.new_page(viewport={"width": 1280, "height": 720})
        tv.goto("http://127.0.0.1:%d/kiosk" % PORT)
        phone = browser.new_page(viewport={"width": 360, "height": 740})
        phone.goto("http://127.0.0.1:%d/" % PORT)
        phone.click("#menu-button")
        phone.get_by_role("button", name="Join code (QR)").click()
        first = shown(tv, "")
        ip("link", "add", "wlan0", "type", "veth", "peer", "name", "wlan0p")
        ip("link", "set", "wlan0p", "up")
        ip("link", "set", "wlan0", "up")
        ip("addr", "add", "10.41.0.1/24", "dev", "wlan0")  # the Pi's own hotspot, minutes on
        hotspot = [shown(tv, first[0]), shown(phone, first[0])]
        ip("link", "add", "wlan1", "type", "veth", "peer", "name", "wlan1p")
        ip("link", "set", "wlan1p", "up")
        ip("link", "set", "wlan1", "up")
        ip("addr", "add", "192.168.1.23/24", "dev", "wlan1")  # then the house's Wi-Fi
        ip("route", "add", "default", "via", "192.168.1.1")
        house = [shown(tv, hotspot[0][0]), shown(phone, hotspot[1][0])]
        print(json.dumps([first, hotspot, house]))
        browser.close()
finally:
    serve.terminate()
    serve.wait(timeout=20)
'''


@pytest.mark.browser
@pytest.mark.skipif(not _own_network_namespace() or not Path("/usr/bin/chromium").exists(),
                    reason="no network namespace of its own (util-linux unshare, iproute2, "
                           "unprivileged user namespaces), or no /usr/bin/chromium")
def test_an_open_kiosk_and_phone_show_the_join_code_of_the_address_the_pi_has_now(
        tmp_path: Path) -> None:
    """A TV's kiosk page loaded at boot, before the Pi had its Wi-Fi address, is never
    reloaded: its join code (and a phone's, open on the join screen) follows the address."""
    script = f"PORT = {PORT}\nSTATE = {str(tmp_path / 'state')!r}\n" + SHOWN
    done = subprocess.run(["unshare", "-rn", sys.executable, "-c", script],
                          capture_output=True, text=True, timeout=90, check=False)
    assert done.returncode == 0, done.stderr
    first, hotspot, house = json.loads(done.stdout)
    name = f"http://{socket.gethostname()}:{PORT}/"
    assert first == [name, name]
    assert hotspot == [[f"http://10.41.0.1:{PORT}/"] * 2] * 2  # on the TV, on the phone
    assert house == [[f"http://192.168.1.23:{PORT}/"] * 2] * 2
