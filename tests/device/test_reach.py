"""Something left over the sheet's edge: an arm reaching over the table is, dice at the edge,
the light flickering and a camera trembling or bumped are not, and a cup left there is part
of the table once read."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from device.reach import EdgeWatch
from tests.device.cheap_camera import banded
from vision.calibrate import Calibration, calibrate
from vision.table_film import SheetRest, film
from vision.table_scene import PlacedDie, render_still

SEED = 21
ROLLED = tuple(PlacedDie(face, 60.0 + 40.0 * i, 150.0, 0.3 * i, i)
               for i, face in enumerate(["H4", "H2", "D3", "D2", "DOC"]))
KEPT = (PlacedDie("H4", 60.0, 80.0, 0.0, 0), *ROLLED[1:])


def still(*dice: PlacedDie) -> np.ndarray:
    return render_still(SEED, game="dalek", dice=dice).image


@pytest.fixture(scope="module")
def rolled() -> tuple[np.ndarray, Calibration]:
    image = still(*ROLLED)
    return image, calibrate(image)


def watching(image: np.ndarray) -> EdgeWatch:
    watch = EdgeWatch()
    watch.read(image, reaching=False)
    return watch


def test_an_arm_reaching_over_the_sheets_edge_is_seen_and_not_once_it_left(
        rolled: tuple[np.ndarray, Calibration]) -> None:
    image, lies = rolled
    frames = [frame for frame, _ in film([SheetRest(ROLLED), SheetRest(KEPT)], game="dalek",
                                         seed=SEED, hand_frames=5)]
    *hands, kept = frames[1:]
    watch = watching(image)
    assert [watch.reaching(hand, lies) for hand in hands] == [True] * 5
    assert watch.reaching(kept, lies) is False


@pytest.mark.parametrize("edge", [[(150.0, 208.0)], [(296.0, 100.0)],
                                  [(150.0, 207.0), (167.0, 207.0)]],
                         ids=["a die on the near edge", "a die half off the side",
                              "two dice side by side"])
def test_dice_rolled_onto_the_sheets_edge_are_no_arm(rolled: tuple[np.ndarray, Calibration],
                                                     edge: list[tuple[float, float]]) -> None:
    image, lies = rolled
    astray = tuple(PlacedDie("H4", x, y, 0.3, 40 + i) for i, (x, y) in enumerate(edge))
    assert watching(image).reaching(still(*ROLLED, *astray), lies) is False


def test_light_flickering_a_camera_trembling_or_bumped_are_no_arm(
        rolled: tuple[np.ndarray, Calibration]) -> None:
    image, lies = rolled
    kept = still(*KEPT)

    def moved_by(dx: int, dy: int) -> np.ndarray:
        shift = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]])
        return np.asarray(cv2.warpAffine(kept, shift, (kept.shape[1], kept.shape[0]),
                                         borderMode=cv2.BORDER_REPLICATE), np.uint8)

    watch = watching(banded(image, 0.1, 0))
    assert watch.reaching(banded(kept, 0.1, 1), lies) is False
    assert watch.reaching(moved_by(1, -1), lies) is False
    assert watch.reaching(moved_by(6, 3), lies) is False  # (the read says "moved")


def shaded(frame: np.ndarray, lies: Calibration, dim: float,
           corners: tuple[float, float, float, float]) -> np.ndarray:
    """``frame`` with a soft shadow (its edge blurred by σ 15 pixels, about 7 mm) dimming it
    by ``dim`` over the sheet's rectangle ``corners`` (mm, left, top, right, bottom: past
    its edge)."""
    x0, y0, x1, y1 = corners
    points = lies.to_frame(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
    mask = np.zeros(frame.shape[:2], np.float32)
    cv2.fillConvexPoly(mask, np.rint(points).astype(np.int32), 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), 15)
    return np.clip(frame * (1 - dim * mask[..., None]), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("corners", [(100.0, 180.0, 180.0, 260.0), (-60.0, 60.0, 20.0, 160.0),
                                     (-30.0, -30.0, 40.0, 40.0)],
                         ids=["over the near edge", "along a side", "over a corner"])
@pytest.mark.parametrize("dim", [0.1, 0.3])
def test_a_shadow_cast_across_the_margin_or_gone_from_it_is_no_arm(
        rolled: tuple[np.ndarray, Calibration], corners: tuple[float, float, float, float],
        dim: float) -> None:
    """A player leaning over a lit table shades the paper's margin at every rest: the rest
    was held 3 s as if an arm lay there (8 to 12 % darker over 80 to 100 mm of it)."""
    image, lies = rolled
    kept = still(*KEPT)
    assert watching(image).reaching(shaded(kept, lies, dim, corners), lies) is False
    assert watching(shaded(image, lies, dim, corners)).reaching(kept, lies) is False
    hand = [frame for frame, _ in film([SheetRest(ROLLED), SheetRest(KEPT)], game="dalek",
                                       seed=SEED, hand_frames=1)][1]
    assert watching(image).reaching(shaded(hand, lies, dim, corners), lies) is True


def test_a_cup_left_on_the_margin_is_part_of_the_table_once_read(
        rolled: tuple[np.ndarray, Calibration]) -> None:
    image, lies = rolled

    def cup_on(frame: np.ndarray) -> np.ndarray:
        x, y = lies.to_frame(np.array([[150.0, 205.0]]))[0]
        radius = round(float(np.linalg.norm(lies.to_frame(np.array([[190.0, 205.0]]))[0]
                                            - (x, y))))
        out = frame.copy()
        cv2.circle(out, (round(x), round(y)), radius, (30, 60, 160), -1, cv2.LINE_AA)
        return out

    watch = watching(image)
    cupped = cup_on(still(*KEPT))
    assert watch.reaching(cupped, lies) is True  # read once still a while: then …
    watch.read(cupped, reaching=True)
    assert watch.reaching(cup_on(image), lies) is False  # … the table is read with it
    assert watch.reaching(image, lies) is False  # and without it, as it was before
    watch.read(image, reaching=False)
    hands = [frame for frame, _ in film([SheetRest(ROLLED), SheetRest(ROLLED)], game="dalek",
                                        seed=SEED, hand_frames=1)]
    assert watch.reaching(hands[1], lies) is True


def test_an_arm_read_while_a_cup_stood_on_the_margin_leaves_nothing_new_once_it_went(
        rolled: tuple[np.ndarray, Calibration]) -> None:
    """A cup put on the margin (held, read), then an arm held over the near edge past the
    wait (held, read): the arm leaves, the cup still there, and that rest was held again,
    though the cup had been read and the arm was gone."""
    image, lies = rolled

    def cup_on(frame: np.ndarray) -> np.ndarray:
        x, y = lies.to_frame(np.array([[-20.0, 40.0]]))[0]
        radius = round(float(np.linalg.norm(lies.to_frame(np.array([[20.0, 40.0]]))[0]
                                            - (x, y))))
        out = frame.copy()
        cv2.circle(out, (round(x), round(y)), radius, (30, 60, 160), -1, cv2.LINE_AA)
        return out

    hand = [frame for frame, _ in film([SheetRest(ROLLED), SheetRest(ROLLED)], game="dalek",
                                       seed=SEED, hand_frames=1)][1]
    watch = watching(image)
    assert watch.reaching(cup_on(image), lies) is True
    watch.read(cup_on(image), reaching=True)
    assert watch.reaching(cup_on(hand), lies) is True
    watch.read(cup_on(hand), reaching=True)
    assert watch.reaching(cup_on(image), lies) is False
    watch.read(cup_on(image), reaching=False)
    assert watch.reaching(cup_on(hand), lies) is True  # the arm back: held again


def test_a_table_with_no_sheet_or_not_read_yet_has_nothing_over_its_edge(
        rolled: tuple[np.ndarray, Calibration]) -> None:
    image, lies = rolled
    hand = [frame for frame, _ in film([SheetRest(ROLLED), SheetRest(ROLLED)], game="dalek",
                                       seed=SEED, hand_frames=1)][1]
    assert EdgeWatch().reaching(hand, lies) is False
    assert watching(image).reaching(hand, None) is False


@pytest.mark.parametrize(("dim", "corners"), [(-1.0, (100.0, 180.0, 180.0, 260.0)),
                                              (0.6, (-60.0, 60.0, 20.0, 160.0))],
                         ids=["a lamp doubling the light over the near edge",
                              "a hard shadow along a side"])
def test_a_lasting_change_of_light_over_the_margin_holds_one_rest_only(
        rolled: tuple[np.ndarray, Calibration], dim: float,
        corners: tuple[float, float, float, float]) -> None:
    """A lamp switched on beside the table, or a bottle's hard shadow, changes part of the
    margin for the rest of the evening: the first rest after it is held (read after the
    wait, with the light as it is then), and every rest after it is read at once (each
    read was marked, and every Dalek stop refused for the rest of the evening)."""
    image, lies = rolled
    third = (PlacedDie("H2", 100.0, 80.0, 0.0, 1), ROLLED[0], *ROLLED[2:])
    watch = watching(image)
    held = []
    for dice in (KEPT, ROLLED, third, KEPT):
        frame = shaded(still(*dice), lies, dim, corners)
        held.append(watch.reaching(frame, lies))
        watch.read(frame, reaching=held[-1])  # (held: read once still the longest wait)
    assert held == [True, False, False, False]
