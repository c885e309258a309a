"""Watching motion on small colour pictures, and settling: when to read, when a read stands."""

from __future__ import annotations

import cv2
import numpy as np

from device.camera import small_yuv
from device.motion import Settler, StillnessWatch, Verdict, motion_picture
from tests.device.cheap_camera import banded
from vision.film import SKIN, FilmDie, Rest, film
from vision.table_scene import PlacedDie, render_still, render_table


def table(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(60, 200, (720, 1280, 3), dtype=np.uint8)


def test_the_motion_picture_is_small_and_in_colour() -> None:
    assert motion_picture(table()).shape == (90, 160, 3)
    assert motion_picture(table(), np.zeros((180, 320), np.uint8)).shape == (90, 160)


def test_sensor_noise_is_not_motion_but_a_die_landing_is() -> None:
    rng = np.random.default_rng(1)
    scene = table()
    watch = StillnessWatch()
    assert watch.moved(motion_picture(scene)) is False  # the first picture starts a rest
    for _ in range(10):
        noisy = np.clip(scene + rng.normal(0, 4, scene.shape), 0, 255).astype(np.uint8)
        assert watch.moved(motion_picture(noisy)) is False
    landed = scene.copy()
    landed[300:360, 600:660] = 250
    assert watch.moved(motion_picture(landed)) is True


def test_differences_do_not_wrap_around() -> None:
    dark = np.full((90, 160), 3, np.uint8)
    bright = dark.copy()
    bright[:, :40] = 255  # 3 - 255 would wrap to 4 in unsigned bytes
    watch = StillnessWatch()
    watch.moved(dark)
    assert watch.moved(bright) is True


def test_a_slow_slide_is_seen_against_the_start_of_the_rest() -> None:
    table = np.full((720, 1280, 3), 100, np.uint8)

    def die_at(x: int) -> np.ndarray:
        frame = table.copy()
        frame[340:380, 600 + x:640 + x] = 230  # a die's top at the table's usual scale
        return frame

    watch = StillnessWatch()
    watch.moved(motion_picture(die_at(0)))
    moved = [watch.moved(motion_picture(die_at(step))) for step in range(1, 12)]  # 1 px a frame
    assert moved[0] is False  # one step alone is too small to see …
    assert any(moved)  # … but the rest's start sees the die has gone


def test_a_read_stands_once_still_for_the_settle_time_and_agreeing_with_the_one_before() -> None:
    settler = Settler(settle_s=0.3)
    times = [i / 15 for i in range(12)]
    assert [settler.frame(moved=False, at=t) for t in times[:3]] == [False] * 3
    assert settler.frame(moved=False, at=times[3]) is True  # reads start half-way
    assert settler.read((1, 2, 3, 4, 5, 6)) is Verdict.AGAIN
    assert settler.frame(moved=False, at=times[4]) is True
    assert settler.read((1, 2, 3, 4, 5, 6)) is Verdict.AGAIN  # they agree, but 0.27 s < 0.3 s
    assert settler.frame(moved=False, at=times[5]) is True
    assert settler.read((1, 2, 3, 4, 5, 5)) is Verdict.AGAIN  # they disagree: read again
    assert settler.frame(moved=False, at=times[6]) is True
    assert settler.read((1, 2, 3, 4, 5, 5)) is Verdict.STANDS
    # Nothing more is read however long the rest lasts, until something moves.
    assert not any(settler.frame(moved=False, at=t) for t in (1.0, 5.0, 60.0))


def test_a_rest_starts_with_the_frame_the_first_still_one_matched() -> None:
    settler = Settler(settle_s=0.3)
    assert settler.frame(moved=True, at=10.0) is False  # the last frame of the motion
    assert settler.frame(moved=False, at=10.1) is False  # it matches the one before: still
    assert settler.frame(moved=False, at=10.15) is True
    assert settler.read((2,)) is Verdict.AGAIN
    assert settler.frame(moved=False, at=10.3) is True
    assert settler.read((2,)) is Verdict.STANDS


def test_a_rest_told_to_wait_is_read_once_still_that_long_and_the_next_as_before() -> None:
    settler = Settler(settle_s=0.3)
    assert settler.frame(moved=True, at=10.0) is False
    assert settler.frame(moved=False, at=10.15) is True  # reads would start: a hand lies there
    assert settler.fresh and settler.waits_s == 0.0
    settler.wait(3.0)
    assert [settler.frame(moved=False, at=t) for t in (10.3, 11.0, 12.8)] == [False] * 3
    assert settler.frame(moved=False, at=12.85) is True  # reads start half a settle before
    assert not settler.fresh and settler.waits_s == 3.0
    assert settler.read((2,)) is Verdict.AGAIN
    assert settler.frame(moved=False, at=13.0) is True
    assert settler.read((2,)) is Verdict.STANDS
    assert settler.frame(moved=True, at=14.0) is False  # it left: the next rest is read as any
    assert settler.frame(moved=False, at=14.1) is False
    assert settler.frame(moved=False, at=14.15) is True
    assert settler.fresh and settler.waits_s == 0.0


def test_reads_that_never_agree_end_unsettled() -> None:
    settler = Settler(settle_s=0.0, max_reads=4)
    verdicts = []
    for n in range(4):
        settler.frame(moved=False, at=float(n))
        verdicts.append(settler.read((n,)))
    assert verdicts == [Verdict.AGAIN] * 3 + [Verdict.UNSETTLED]
    assert settler.frame(moved=False, at=10.0) is False


def _sheet() -> np.ndarray:
    return render_table(3, game="17").image  # the sharp edges of markers and cards


def test_light_flickering_a_few_percent_is_not_motion() -> None:
    # mains flicker, or a webcam's automatic exposure: the whole picture a little lighter
    # or darker from one frame to the next
    scene = _sheet().astype(np.float32)
    watch = StillnessWatch()
    watch.moved(motion_picture(scene.astype(np.uint8)))
    for gain in (1.08, 0.92, 1.05, 0.95, 1.08):
        assert watch.moved(motion_picture(np.clip(scene * gain, 0, 255).astype(np.uint8))) is False


def test_a_camera_trembling_by_half_a_pixel_is_not_motion() -> None:
    scene = _sheet()
    watch = StillnessWatch()
    watch.moved(motion_picture(scene))
    for dx, dy in ((0.5, 0.0), (-0.5, 0.5), (0.0, -0.5), (0.5, 0.5)):
        shift = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]])
        shaken = cv2.warpAffine(scene, shift, (scene.shape[1], scene.shape[0]),
                                borderMode=cv2.BORDER_REPLICATE)
        assert watch.moved(motion_picture(shaken)) is False


def _moved_by(scene: np.ndarray, dx: float, dy: float) -> np.ndarray:
    shift = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]])
    return np.asarray(cv2.warpAffine(scene, shift, (scene.shape[1], scene.shape[0]),
                                     borderMode=cv2.BORDER_REPLICATE), np.uint8)


def test_a_camera_shaking_by_a_pixel_either_way_is_not_motion_but_a_die_or_a_bump_is() -> None:
    # a camera on an arm that trembles: each frame a pixel or none off its place, either way
    scene = _sheet()
    watch = StillnessWatch()
    watch.moved(motion_picture(scene))
    for dx, dy in ((1, 1), (-1, -1), (1, -1), (0, 1), (-1, 0), (1, 1), (-1, 1)):
        assert watch.moved(motion_picture(_moved_by(scene, dx, dy))) is False
    rolled = _moved_by(scene, 1, -1)
    rolled[400:440, 600:640] = 245  # a die lands, the camera still trembling
    assert watch.moved(motion_picture(rolled)) is True
    assert watch.moved(motion_picture(_moved_by(scene, -1, 1))) is True  # … and is picked up
    assert watch.moved(motion_picture(_moved_by(scene, -1, 0))) is False
    assert watch.moved(motion_picture(_moved_by(scene, 5, 3))) is True  # a bump


def test_rolling_flicker_bands_are_no_motion() -> None:
    # a 30 fps rolling-shutter camera under 50 Hz lamps: bands across the picture that roll
    # from frame to frame (they were motion on every frame: one light for the whole picture);
    # on a sheet near white, too, where the brightest bands saturate
    for scene, amplitude in ((_sheet(), 0.05), (_sheet(), 0.10),
                             (render_still(11, game="dicy", dice=DICE).image, 0.10)):
        watch = StillnessWatch()
        watch.moved(motion_picture(banded(scene, amplitude, 0)))
        assert [watch.moved(motion_picture(banded(scene, amplitude, n)))
                for n in range(1, 10)] == [False] * 9


def test_a_camera_trembling_under_rolling_flicker_bands_is_not_motion() -> None:
    scene = _sheet()
    watch = StillnessWatch()
    watch.moved(motion_picture(scene))
    for n, (dx, dy) in enumerate(((1, 1), (-1, -1), (1, -1), (0, 1), (-1, 0), (1, 1))):
        assert watch.moved(motion_picture(banded(_moved_by(scene, dx, dy), 0.05, n))) is False


DICE = (PlacedDie("3", 150, 100), PlacedDie("5", 180, 120))


def _arm_across(image: np.ndarray, share: float) -> np.ndarray:
    """``image`` with a forearm lying across it from the right, over ``share`` of its width,
    a little rounded and with its shadow below (whole rows changed where share is 1)."""
    height, width = image.shape[:2]
    thick, top, left = int(height * 0.11), int(height * 0.45), int(width * (1 - share))
    out = image.astype(np.float32)
    shade = 0.85 + 0.15 * np.sin(np.pi * (np.arange(thick) + 0.5) / thick)
    out[top:top + thick, left:] = np.array(SKIN[0], np.float32) * shade[:, None, None]
    out[top + thick:top + thick + thick // 3, left:] *= 0.75
    return np.clip(out, 0, 255).astype(np.uint8)


def test_a_die_a_card_or_a_hand_is_seen_through_rolling_flicker_bands() -> None:
    dicy = render_still(7, game="dicy", dice=DICE).image
    seventeen = render_still(5, game="17", cards={"row-1": "3"}).image
    hand = list(film([Rest(()), Rest((FilmDie(4, 640.0, 360.0, 0.3, 40.0, 1),))], seed=1))
    changes = {
        "a die added": (dicy, render_still(7, game="dicy",
                                           dice=(*DICE, PlacedDie("6", 120, 60, look=3))).image),
        "a die moved by its side": (dicy, render_still(7, game="dicy",
                                                       dice=(DICE[0], PlacedDie("5", 196, 120))
                                                       ).image),
        "a card turned": (seventeen, render_still(5, game="17", cards={"row-1": "back"}).image),
        "a hand coming in": (hand[0][0], hand[1][0]),
        "an arm across half the sheet": (dicy, _arm_across(dicy, 0.5)),
        "an arm across the whole picture": (dicy, _arm_across(dicy, 1.0)),
    }
    for amplitude in (0.05, 0.10):
        for frame in range(3):
            seen = []
            for before, after in changes.values():
                watch = StillnessWatch()
                watch.moved(motion_picture(banded(before, amplitude, frame)))
                seen.append(watch.moved(motion_picture(banded(after, amplitude, frame + 1))))
            assert dict(zip(changes, seen, strict=True)) == dict.fromkeys(changes, True)


def test_a_pale_die_laid_on_paper_the_camera_shows_white_is_motion_in_steady_light() -> None:
    # Nothing lost light to saturation here: a die a little greyer than the white paper is
    # seen, as it was before the bands were taken out row by row.
    paper = np.full((720, 1280, 3), 254, np.uint8)
    laid = paper.copy()
    laid[300:364, 600:664] = 236  # a pale die, its top no darker than 236
    watch = StillnessWatch()
    watch.moved(motion_picture(paper))
    assert watch.moved(motion_picture(laid)) is True


def test_a_die_put_down_without_a_hand_is_seen_on_the_sheets_grey_and_on_its_paper() -> None:
    # A die is about the watch's resolution: on a card place's grey (the Dicy tray's) a white
    # die showing six changed fewer pixels than MOVING_SHARE in most renders, its pips
    # darkening its top in the small picture, but a patch of them changed a lot.
    for seed in range(6):
        empty = render_still(seed, game="17").image
        for where in ((195.0, 80.5), (150.0, 175.0)):  # an empty card place, the paper
            laid = render_still(seed, game="17", dice=(PlacedDie("6", *where, look=3),)).image
            for amplitude in (0.0, 0.05, 0.10):
                watch = StillnessWatch()
                watch.moved(motion_picture(banded(empty, amplitude, 0)))
                assert watch.moved(motion_picture(banded(laid, amplitude, 1))) is True, seed
                assert watch.moved(motion_picture(banded(laid, amplitude, 2))) is False, seed


TRAY_GREY = 140  # the Dicy sheet's grey tray (0.55) as a camera shows it
RED_AS_THE_TRAY = (70, 110, 232)  # a red die (BGR) as light as the tray: its grey is 142


def _tray(die: tuple[int, int, int] | None = None) -> np.ndarray:
    """A grey table, a little uneven, with a die of colour ``die`` lying on it."""
    rng = np.random.default_rng(3)
    grain = rng.normal(0, 3, (720, 1280, 1))
    table = np.clip(TRAY_GREY + grain, 0, 255) * np.ones(3)
    if die is not None:
        table[330:378, 620:668] = die
    return table.astype(np.uint8)


def test_a_die_as_light_as_the_table_under_it_is_seen_by_its_colour() -> None:
    # a red die put down without a hand on a grey of its own lightness changes no grey pixel
    # by more than 2: only its colour shows it came
    tray, laid = _tray(), _tray(RED_AS_THE_TRAY)
    for amplitude in (0.0, 0.05, 0.10):
        watch = StillnessWatch()
        watch.moved(motion_picture(banded(tray, amplitude, 0)))
        assert watch.moved(motion_picture(banded(laid, amplitude, 1))) is True
        assert [watch.moved(motion_picture(banded(laid, amplitude, n)))
                for n in range(2, 6)] == [False] * 4  # then it lies still


def test_a_webcams_white_balance_settling_is_not_motion() -> None:
    # a USB camera's automatic white balance turns every colour a little bluer or redder
    # from frame to frame, a light colour more than a dark one
    scene = render_still(11, game="dicy", dice=DICE).image.astype(np.float32)
    watch = StillnessWatch()
    watch.moved(motion_picture(scene.astype(np.uint8)))
    for blue, red in ((1.04, 0.97), (1.08, 0.94), (1.12, 0.9), (1.06, 0.95), (0.95, 1.06)):
        cast = np.clip(scene * np.array([blue, 1.0, red], np.float32), 0, 255)
        assert watch.moved(motion_picture(cast.astype(np.uint8))) is False


def _pi_small_stream(scene: np.ndarray, rng: np.random.Generator, *, grey_noise: float,
                     colour_noise: float) -> np.ndarray:
    """The small YUV picture of ``scene`` as the Pi's camera streams it (YUV420 of 320×180,
    through :func:`small_yuv`), its grey and colour as noisy as a sensor's at high gain."""
    small = cv2.resize(scene, (320, 180), interpolation=cv2.INTER_AREA)
    y, v, u = cv2.split(cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb))
    lores = np.zeros((270, 320), np.uint8)
    lores[:180] = np.clip(y + rng.normal(0, grey_noise, y.shape), 0, 255)
    chroma = lores.reshape(540, 160)
    for rows, plane in ((slice(360, 450), u), (slice(450, 540), v)):
        half = cv2.resize(plane, (160, 90), interpolation=cv2.INTER_AREA)
        chroma[rows] = np.clip(half + rng.normal(0, colour_noise, half.shape), 0, 255)
    return small_yuv(lores, (320, 180))


def test_the_pi_streams_colour_noise_in_a_dim_room_is_not_motion_but_a_die_by_colour_is() -> None:
    # the Pi's small stream gives colour at its own 160×90, where a frame's is the average of
    # 8×8 pixels: at high gain its colour is far noisier than any frame's
    rng = np.random.default_rng(1)
    tray, laid = _tray(), _tray(RED_AS_THE_TRAY)
    for colour_noise in (8.0, 10.0):
        watch = StillnessWatch()
        moved = [watch.moved(motion_picture(tray, _pi_small_stream(
            tray, rng, grey_noise=6.0, colour_noise=colour_noise))) for _ in range(30)]
        assert moved == [False] * 30, colour_noise
        assert watch.moved(motion_picture(laid, _pi_small_stream(
            laid, rng, grey_noise=6.0, colour_noise=colour_noise))) is True
