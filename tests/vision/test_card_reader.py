"""The card reader on rendered Dicy Cards and 17 sheets (development seeds 200000+: neither
taught from nor among the figures' test scenes)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibrate import Calibration, calibrate, rectify
from vision.card_outline import (
    EMPTY_STEP,
    IN_MM,
    OUT_MM,
    STEP_PX,
    _lines_of,
    _profiles,
    _scan_lines,
    others_of,
    outlines,
    outlines_of,
)
from vision.card_reader import DOUBT, FAINT_STEP, CardReader
from vision.components import D6_FACES, EMPTY, faces
from vision.profile import default
from vision.sheet import PX_PER_MM, layout
from vision.table_dataset import load, write
from vision.table_scene import TableScene, render_table
from vision.teach import teach


def _off(quad: NDArray[np.float64], truth: NDArray[np.float64]) -> float:
    """How far (pixels) a card outline's corners lie from the true ones, either way up."""
    return float(min(np.abs(np.roll(quad, k, 0) - truth).max() for k in (0, 2)))


def _sheet(seed: int, style: str = "classic", game: str = "dicy"
           ) -> tuple[TableScene, Calibration, NDArray[np.uint8]]:
    """A rendered scene (Dicy Cards unless told), its calibration and its rectified frame,
    the frame through JPEG as `dicetable render` writes it."""
    scene = render_table(seed, game=game, style=style)
    jpeg = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])[1]
    image = np.asarray(cv2.imdecode(jpeg, cv2.IMREAD_COLOR), np.uint8)
    found = calibrate(image)
    return scene, found, rectify(image, found)


def _nearest_found(seed: int, zone: str, style: str = "classic", game: str = "dicy"
                   ) -> tuple[TableScene, Calibration, NDArray[np.uint8], NDArray[np.float64],
                              float]:
    """_sheet's scene, calibration and frame, the card in `zone`'s true outline (pixels) and
    how far the nearest outline the finder gives there lies from it."""
    scene, found, flat = _sheet(seed, style, game)
    sheet = found.layout
    item = next(i for i in scene.items if i.zone == zone)
    truth = found.to_sheet(np.array(item.quad, np.float64)) * PX_PER_MM
    index = [p.name for p in sheet.places()].index(zone)
    candidates = outlines(flat, sheet.places(), sheet.card, PX_PER_MM)[index].quads
    return scene, found, flat, truth, min(_off(q, truth) for q in candidates)


def test_a_card_the_outlines_miss_is_found_by_its_look() -> None:
    """Seed 200038's card in p1-3 (a "no six", laid nearly straight) has print and shadow
    steps that make every outline found several pixels off: the cut-outs along them look like
    no card, and the card is found again on a grid of poses around its place."""
    scene, found, flat, truth, nearest = _nearest_found(200038, "p1-3")
    assert nearest > 3.0  # what the search is for
    read = {r.place: r for r in CardReader(default("dicy-card")).read(flat, found.layout)}["p1-3"]
    assert read.face == "no-six/active"
    assert next(i.face for i in scene.items if i.zone == "p1-3") == read.face
    assert _off(np.array(read.outline), truth) < 2.0


def test_cards_in_a_washed_out_frame_are_not_taken_for_empty_places() -> None:
    """Seed 200098's frame is washed out: three frozen cards' edges step less than an empty
    place's may (outline strength under EMPTY_STEP); they are looked for by their look and
    found. Seed 200047's seven empty places, whose printed edges' blur stepped as much past
    their border, stay empty: that blur only falls away from the border, no card's step."""
    reader = CardReader(default("dicy-card"))
    for seed, faint, strong in ((200098, ("p3-1", "p3-2", "p4-3"), FAINT_STEP),
                                (200047, ("p1-1", "p1-2", "p2-2", "p2-3", "p2-5", "p4-4",
                                          "p4-5"), 0.0)):
        scene, found, flat = _sheet(seed)
        sheet = found.layout
        strength = {p.name: o.strength for p, o in
                    zip(sheet.places(), outlines(flat, sheet.places(), sheet.card, PX_PER_MM),
                        strict=True)}
        assert all(strong <= strength[p] < EMPTY_STEP for p in faint)
        reads = {r.place: r.face for r in reader.read(flat, sheet)}
        labelled = {i.zone: i.face for i in scene.items if i.kind == "dicy-card"}
        labelled.update({p: EMPTY for p in scene.empty})
        assert [reads[p] for p in faint] == [labelled[p] for p in faint]


def test_frozen_ink_cards_alike_but_for_their_title_are_told_apart(tmp_path: Path) -> None:
    """The `ink` Dicy cards' frozen sides share their frost cracks, which look nearly the
    same upside down, and differ by a title and a few small dice. Taught from 3 photos, a
    frozen "same x5" (seeds 240013, 240014) was read as a frozen "pair": the alike faces'
    looks were compared the way up of the likeliest face's, the "same x5" look upside down
    against it. Each face's look is now turned the way up that matches the card. (Seed
    240014's card fits the "pair" look where it lies as well as its own, 0.112 against 0.113
    misfit, so the check by its look, below, makes it "not sure": never a "pair".)"""
    reader = _taught(tmp_path, "dicy")
    for seed, place, read in ((240013, "p4-2", {"same-x5/frozen"}),
                              (240014, "p2-1", {"same-x5/frozen", None})):
        scene, found, flat = _sheet(seed, "ink", "dicy")
        assert next(i.face for i in scene.items if i.zone == place) == "same-x5/frozen"
        reads = {r.place: r.face for r in reader.read(flat, found.layout)}
        assert reads[place] in read


def test_hatched_ink_backs_are_not_outdone_by_an_outline_off_the_card(tmp_path: Path) -> None:
    """The `ink` 17 back's fine hatching under a glossy sleeve looks little like its other
    examples; taught from 3 photos, these backs (seeds 240009, 240016) were read as an "x2",
    a "2d" and a "2d" along outlines 5–9 px off that looked a little more like those. An
    outline is now judged against how alike its face's own examples look."""
    reader = _taught(tmp_path, "17")
    for seed, places in ((240009, ("row-5", "row-9")), (240016, ("row-3",))):
        scene, found, flat = _sheet(seed, "ink", "17")
        assert all(next(i.face for i in scene.items if i.zone == p) == "back" for p in places)
        reads = {r.place: r.face for r in reader.read(flat, found.layout)}
        assert [reads[p] for p in places] == ["back"] * len(places)


def test_ink_cards_read_along_an_outline_off_are_checked_by_their_look(tmp_path: Path) -> None:
    """Taught from 3 photos, these `ink` cards were read as another face along an outline 3–4
    px off, whose cut-out looked a little more like that face: Dicy seed 240000's frozen
    "lowest three" as a "distinct sum", 240016's active "same x5" as a "pair"; 17 seed
    240003's "1d" back as a "2d", 240004's "5d" as a "1d". Each card is now also matched with
    every face's mean look where it lies (shifted, either way up), and a face that fits well
    and clearly best is the card's."""
    _taught_ink_reads(tmp_path, {"dicy": ((240000, "p2-1", "lowest-three/frozen"),
                                          (240016, "p1-2", "same-x5/active")),
                                 "17": ((240003, "row-2", "1d"), (240004, "row-4", "5d"))})


def test_a_hatched_ink_card_the_outlines_miss_is_read_along_its_edges(tmp_path: Path) -> None:
    """The `ink` 17 backs' fine hatching steps everywhere: for seed 240016's "3d" back in
    row-1 every outline found lies more than 3 px off the card, and taught from 3 photos it
    was read as a "2d" along one 10 px off. A taught profile's outlines that all look unlike a
    card are now also moved while that makes the contrast of the card's edges against what
    lies around them stronger, and judged by that contrast too."""
    reader = _taught(tmp_path, "17")
    scene, found, flat, truth, nearest = _nearest_found(240016, "row-1", "ink", "17")
    assert nearest > 3.0  # what the fitting is for
    read = {r.place: r for r in reader.read(flat, found.layout)}["row-1"]
    assert read.face == "3d"
    assert next(i.face for i in scene.items if i.zone == "row-1") == read.face
    assert _off(np.array(read.outline), truth) < 2.0


def test_ink_cards_under_a_sleeves_glare_are_checked_by_their_look_without_it(
        tmp_path: Path) -> None:
    """A glossy sleeve's glare lies on a card as broad white patches with sharp edges. Taught
    from 3 photos, one of a face's two or three examples under glare made that face's mean
    look half glare, and its cards checked by their look went to an alike face: Dicy seeds
    240016's and 240029's frozen "same x5" were read as a "pair", 17 seed 240000's "trash" as
    a "back" and "reverse" as an "x2", 240003's "reverse" as a "trap". The looks are now
    matched with the glare taken off (vision.card_glare), where that makes the taught faces'
    examples look more alike."""
    _taught_ink_reads(tmp_path, {"dicy": ((240016, "p3-4", "same-x5/frozen"),
                                          (240029, "p1-5", "same-x5/frozen")),
                                 "17": ((240000, "row-5", "trash"), (240000, "row-9", "reverse"),
                                        (240003, "row-10", "reverse"))})


def test_a_card_still_not_sure_is_matched_with_each_example_of_its_likeliest_faces(
        tmp_path: Path) -> None:
    """Taught from 3 photos, seed 240020's frozen "same x5" was read "not sure": it fits the
    mean look of its own face (two photos that look unlike each other) little better than
    that of a "pair" (misfit 0.167 against 0.182). A card still not sure is now matched with
    each example of its three likeliest faces: it fits one of its own clearly best (0.136
    against 0.176)."""
    _taught_ink_reads(tmp_path, {"dicy": ((240020, "p2-4", "same-x5/frozen"),)})


def test_glare_is_left_on_cards_whose_broad_light_art_it_would_take(tmp_path: Path) -> None:
    """Taken for glare, a `pop` card's broad light art would be taken off: its faces' examples
    look less alike so, and their looks are matched as they are; the `ink` ones, with glare
    taken off."""
    pop = _taught(tmp_path / "pop", "dicy", "pop").looks_checked
    ink = _taught(tmp_path / "ink", "dicy").looks_checked
    assert pop is not None and ink is not None
    assert (pop.ground, ink.ground > 0) == (0, True)


def _taught(folder: Path, game: str, style: str = "ink") -> CardReader:
    """A reader of the cards of a game (`ink` unless told) taught from 3 photos, as
    `dicetable render --game GAME --style STYLE --teach --count 3 --seed 230000` lays them
    (development seeds)."""
    cards = faces("dicy-card" if game == "dicy" else "17-card")
    write(folder, (("train", render_table(
        230000 + i, game=game, style=style, dice=len(D6_FACES) if game == "dicy" else None,
        dice_faces=D6_FACES if game == "dicy" else None,
        faces=tuple(cards[(i * 16 + k) % len(cards)] for k in range(len(cards)))))
        for i in range(3)))
    return CardReader(teach("dicy-card" if game == "dicy" else "17-card", load(folder)).profile)


def test_a_card_whose_likeliest_outline_reads_clearly_is_cut_out_along_it_alone() -> None:
    """The likeliest outline's cut-out is compared first; when it reads clearly (very like an
    example, one face well ahead and told apart from the faces alike as that face) the place's
    other outlines are not cut out: seed 200001's p2-1 is read along its likeliest outline
    (0.973 like a two-dice frozen side) although its fourth looks more like one (0.989). Where
    the likeliest reads unclearly, every outline is cut out: seed 200000's p4-4 is read along
    its fourth (0.954; the likeliest 0.744, like no card)."""
    reader = CardReader(default("dicy-card"))
    for seed, place, k in ((200001, "p2-1", 0), (200000, "p4-4", 3)):
        scene, found, flat = _sheet(seed)
        sheet = found.layout
        index = [p.name for p in sheet.places()].index(place)
        quads = outlines(flat, sheet.places(), sheet.card, PX_PER_MM)[index].quads
        read = {r.place: r for r in reader.read(flat, sheet)}[place]
        assert [j for j, q in enumerate(quads) if np.allclose(read.outline, q, atol=0.01)] == [k]
        assert read.face == next(i.face for i in scene.items if i.zone == place)


def test_other_outlines_are_fitted_only_when_asked_for_and_the_same_either_way() -> None:
    """A place's likeliest outline is fitted at once; its other outlines only when asked for
    (a card whose likeliest outline reads clearly needs none of them): asked for together,
    place by place, or as the place's quads, they are the same, bit for bit. An empty place
    has none."""
    _, found, flat = _sheet(200002)
    sheet = found.layout
    seen = outlines(flat, sheet.places(), sheet.card, PX_PER_MM)
    full = [o for o in seen if not o.empty]
    assert full and len(full) < len(seen)
    assert all(o.first is None and o.quads == () for o in seen if o.empty)
    together = others_of(full)
    for place, more in zip(full, together, strict=True):
        alone = others_of([place])[0]
        assert place.first is not None
        assert 0 < len(more) == len(alone) == len(place.quads) - 1
        assert np.array_equal(np.stack(more), np.stack(alone))
        assert np.array_equal(np.stack(place.quads), np.stack((place.first, *more)))


def test_scan_lines_see_the_colour_steps_of_the_whole_sheets_gradient() -> None:
    """The scan lines' colour steps, taken from the gradient of only the pixels their samples
    need, are those of the gradient of the whole softened sheet at the samples, bit for bit."""
    _, found, flat = _sheet(200002)
    sheet, places = found.layout, found.layout.places()
    smooth = np.asarray(cv2.GaussianBlur(flat.astype(np.float32), (0, 0), 0.8), np.float32)
    w, h = (v * PX_PER_MM for v in sheet.card)
    base, normal, _ = _scan_lines(w, h)
    steps = np.arange(-OUT_MM * PX_PER_MM, IN_MM * PX_PER_MM + 1e-6, STEP_PX)
    centres = np.array([p.centre for p in places]) * PX_PER_MM
    at = (centres[:, None, None, :] + base[None, :, None, :]
          + normal[None, :, None, :] * steps[None, None, :, None]).reshape(-1, len(steps), 2)
    across = np.tile(normal, (len(places), 1))
    squares = np.zeros(at.shape[:2], np.float64)
    for axis in (0, 1):  # lines across the edges along y (a gradient along x), then along x
        mine = across[:, axis] != 0
        whole = cv2.Sobel(smooth, cv2.CV_32F, 1 - axis, axis, ksize=3)
        along = cv2.remap(whole, at[mine, :, 0].astype(np.float32),
                          at[mine, :, 1].astype(np.float32), cv2.INTER_LINEAR)
        squares[mine] = (along.astype(np.float64) ** 2).sum(axis=2)
    lines = _lines_of(places, sheet.card, PX_PER_MM, smooth.shape[:2])
    expected = np.sqrt(squares).reshape(len(places), -1, len(steps)).astype(np.float32)
    assert expected.max() > EMPTY_STEP  # cards' edges among them
    assert np.array_equal(_profiles(smooth, lines), expected)


def test_a_place_whose_steps_only_rise_to_its_scan_lines_ends_has_no_outline() -> None:
    """A place whose colour steps are strong but peak only at its scan lines' ends (a card
    far smaller than its place, its edges inside the lines' reach: here the colour rises
    evenly to the place's centre) gives no outline to vote for: it is empty, strength told
    (it raised cv2.error: no votes to count), and a card in the next place is still found."""
    sheet = layout("17")
    places = sheet.places()[:2]
    h, w = reversed(sheet.pixel_size())
    y, x = np.mgrid[:h, :w].astype(np.float32)
    smooth = np.zeros((h, w, 3), np.float32)
    cx, cy = (v * PX_PER_MM for v in places[0].centre)
    smooth[..., 0] = 11.0 * (np.abs(x - cx) + np.abs(y - cy))  # a step of 88 all along
    cx, cy = (v * PX_PER_MM for v in places[1].centre)
    cw, ch = (v * PX_PER_MM / 2 for v in sheet.card)
    smooth[(np.abs(x - cx) < cw) & (np.abs(y - cy) < ch)] = 250.0  # a card in the next place
    ramp, card = outlines_of(smooth, places, sheet.card, PX_PER_MM)
    assert ramp.empty and ramp.first is None and ramp.strength >= EMPTY_STEP
    assert card.first is not None
    assert np.abs(card.first.mean(axis=0) - (cx, cy)).max() < 1.0


def test_shipped_cards_nudged_less_read_the_faces_more_nudges_would() -> None:
    """With the shipped profile (faces taught often) only cards leading by less than NUDGE
    are nudged: the faces read are those that nudging every card leading by less than DOUBT
    reads, though some outlines end a nudge apart."""
    reader, more = CardReader(default("dicy-card")), CardReader(default("dicy-card"))
    assert reader.nudge_below < DOUBT
    more.nudge_below = DOUBT
    moved = 0
    for seed in (200006, 200007):
        scene, found, flat = _sheet(seed)
        reads, nudged = reader.read(flat, found.layout), more.read(flat, found.layout)
        assert [r.face for r in reads] == [r.face for r in nudged]
        laid = {i.zone: i.face for i in scene.items}
        assert all(r.face == laid[r.place] for r in reads if r.place in laid)
        moved += sum(a.outline != b.outline for a, b in zip(reads, nudged, strict=True))
    assert moved > 0


def test_one_reader_reads_frame_after_frame_as_a_fresh_one_does() -> None:
    """A card reader keeps its softened sheet's buffers from frame to frame (and per set of
    places): what it reads of a frame does not depend on the frames it read before."""
    reader = CardReader(default("dicy-card"))
    frames = [_sheet(seed) for seed in (200003, 200004)]
    for _, found, flat in frames:
        reader.read(flat, found.layout)
        reader.read_places(flat, found.layout.places()[:3], found.layout.card)
    for _, found, flat in frames:
        assert reader.read(flat, found.layout) == CardReader(default("dicy-card")).read(
            flat, found.layout)


def _taught_ink_reads(tmp_path: Path,
                      cases: dict[str, tuple[tuple[int, str, str], ...]]) -> None:
    """Each game's (seed, place, face) of rendered `ink` sheets: the scene lays that face
    there, and a profile taught from 3 `ink` photos reads it so."""
    for game, places in cases.items():
        reader = _taught(tmp_path / game, game)
        for seed, place, face in places:
            scene, found, flat = _sheet(seed, "ink", game)
            assert next(i.face for i in scene.items if i.zone == place) == face
            assert {r.place: r.face for r in reader.read(flat, found.layout)}[place] == face


def test_a_faces_look_lies_the_way_most_of_its_examples_were_taught() -> None:
    """The shipped 17 profile's double-sided backs differ by the number in their disc. A
    face's examples are aligned with its first one, which for "4d" lay upside down: its look
    came out upside down, most of its examples turned to match it, and a "4d" back compared
    with the alike faces' looks the way up of the likeliest ("3d") was read a "3d", sure (17
    development seeds 9000039 and 9000041, row-3). A face's look now lies the way most of its
    examples were taught."""
    reader = CardReader(default("17-card"))
    for seed in (9000039, 9000041):
        scene, found, flat = _sheet(seed, game="17")
        assert next(i.face for i in scene.items if i.zone == "row-3") == "4d"
        reads = {r.place: r.face for r in reader.read(flat, found.layout)}
        assert reads["row-3"] == "4d"
