"""Rendered camera frames of a game on its printed sheet, with exact labels.

A scene is composed on the sheet's plane (SHEET_PX pixels per millimetre): the printed sheet,
then dice (top face, the side faces a camera off to one side sees, a shadow) and cards (small
shifts and turns in their places, a thickness edge, a shadow, sometimes a glossy sleeve). The
plane is then seen by a camera: a homography with perspective onto a table surface, then uneven
light, a passing shadow, glare, colour cast, noise and blur. Every die and card is labelled
with its kind, face, zone and outline in frame pixels.

>>> scene = render_table(3, game="dalek", width=640, height=360)
>>> scene.image.shape, scene.game, {i.kind for i in scene.items}
((360, 640, 3), 'dalek', {'dalek'})
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.art import CARD_PX, DIE_PX, PLAYER_COLOURS, card_face, die_face
from vision.components import (
    DALEK_FACES,
    DICY_CARDS,
    DICY_SIDES,
    SEVENTEEN_CARDS,
    dicy_face,
    seventeen_face,
)
from vision.sheet import Layout, Zone, layout
from vision.sheet_art import draw
from vision.surfaces import FloatImage, noise, table_surface

SHEET_PX = 4.0  # pixels per mm of the plane a scene is composed on
DIE_MM = (15.0, 17.0)  # side of a die's top face
GAME_DICE = {"dalek": 10, "dicy": 6, "17": 0}
"""The dice each game is played with (engine's dalek.DICE and dicy.DICE; vision does not import
engine): the most a frame of it shows."""
Point = tuple[float, float]


@dataclass(frozen=True)
class Item:
    """One labelled die or card: kind ("d6", "dalek", "dicy-card", "17-card"), the face it
    shows (vision.components), for cards the card's id and side, the zone it lies in, and its
    outline (a die's top face, a card) in frame pixels, clockwise."""

    kind: str
    face: str
    zone: str | None
    quad: tuple[Point, Point, Point, Point]
    card: str | None = None
    side: str | None = None

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        xs, ys = [p[0] for p in self.quad], [p[1] for p in self.quad]
        return (min(xs), min(ys), max(xs), max(ys))

    @property
    def centre(self) -> Point:
        return (sum(p[0] for p in self.quad) / 4, sum(p[1] for p in self.quad) / 4)


@dataclass(frozen=True)
class TableScene:
    """A rendered BGR frame, the sheet in it, and what lies on the sheet. empty lists the
    card places with no card."""

    image: NDArray[np.uint8]
    game: str
    paper: str
    items: tuple[Item, ...]
    empty: tuple[str, ...]


def render_table(seed: int | np.random.Generator, *, game: str, paper: str = "a4",
                 style: str = "classic", width: int = 1280, height: int = 720,
                 dice: int | None = None, faces: tuple[str, ...] | None = None,
                 dice_faces: tuple[str, ...] | None = None, lang: str = "en") -> TableScene:
    """Render one frame of a game's sheet. dice: how many dice (default: Dalek 1–10, Dicy 6);
    faces: the faces of the Dalek dice, or of the cards place by place (a face "empty" leaves
    a place empty), instead of random ones; dice_faces: those of a Dicy scene's d6 dice. The
    style "pictures" draws d6 dice with pictures instead of pips (cards as "classic")."""
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    sheet = layout(game, paper)
    plane = draw(sheet, px_per_mm=SHEET_PX, lang=lang).astype(np.float32)
    plane *= rng.uniform(0.9, 1.0, 3).astype(np.float32)  # paper tint
    to_frame = _camera(rng, sheet, width, height)
    nadir = (rng.uniform(0.2, 0.8) * sheet.width, rng.uniform(0.2, 0.8) * sheet.height)
    height_mm = rng.uniform(350, 700)
    placed: list[tuple[Item, NDArray[np.float64]]] = []
    empty: list[str] = []
    if game == "dalek":
        n = int(rng.integers(1, GAME_DICE["dalek"] + 1)) if dice is None else dice
        placed += _dice(rng, plane, sheet, "dalek", n, faces, style, nadir, height_mm)
    else:
        placed += _cards(rng, plane, sheet, style, faces, empty)
        if game == "dicy":
            n = GAME_DICE["dicy"] if dice is None else dice
            d6_style = "pictures" if style == "pictures" else "classic"
            placed += _dice(rng, plane, sheet, "d6", n, dice_faces, d6_style, nadir, height_mm)
    image = _photograph(rng, plane, to_frame @ np.diag([1 / SHEET_PX, 1 / SHEET_PX, 1.0]),
                        width, height)
    items = tuple(_in_frame(item, mm, to_frame) for item, mm in placed)
    return TableScene(image, game, paper, items, tuple(empty))


@dataclass(frozen=True)
class PlacedDie:
    """A die put at a chosen place of the sheet: its face, its centre (mm), its turn
    (radians) and a seed for its look (the same seed looks the same in every frame)."""

    face: str
    x: float
    y: float
    angle: float = 0.0
    look: int = 0


def render_still(seed: int, *, game: str, dice: tuple[PlacedDie, ...] = (),
                 cards: dict[str, str] | None = None, paper: str = "a4",
                 style: str = "classic", width: int = 1280, height: int = 720,
                 print_scale: float = 1.0) -> TableScene:
    """One frame of a still table with chosen dice and cards (place → face): the camera,
    light, table and paper come from seed alone, and each die's and card's look from its own
    seed, so two frames of one seed differ only where what lies on the sheet differs (frames
    for films of a game, vision.table_film). print_scale: the sheet as printed "fit to page"
    at this scale and seen rectified: the cards, not shrunk with it, 1/print_scale as big."""
    setting = np.random.default_rng(seed)
    sheet = layout(game, paper)
    card_sheet = replace(sheet, card=(sheet.card[0] / print_scale, sheet.card[1] / print_scale))
    plane = draw(sheet, px_per_mm=SHEET_PX).astype(np.float32)
    plane *= setting.uniform(0.9, 1.0, 3).astype(np.float32)
    to_frame = _camera(setting, sheet, width, height)
    nadir = (setting.uniform(0.2, 0.8) * sheet.width, setting.uniform(0.2, 0.8) * sheet.height)
    height_mm = setting.uniform(350, 700)
    placed: list[tuple[Item, NDArray[np.float64]]] = []
    cards = cards or {}
    for number, place in enumerate(sheet.places()):
        if place.name in cards:
            look = np.random.default_rng([seed, number, len(cards[place.name])])
            placed.append(_card(look, plane, card_sheet, place, style, cards[place.name],
                                False))
    kind = "dalek" if game == "dalek" else "d6"
    body = setting.uniform(0.9, 1.05)
    for die in dice:
        look = np.random.default_rng([seed, die.look])
        size = look.uniform(*DIE_MM)
        lean = (np.array([die.x, die.y]) - nadir) * size / height_mm
        quad = _die(look, plane, die_face(die.face, style), (die.x, die.y), size, die.angle,
                    lean, body)
        where = sheet.zone_at(die.x, die.y)
        placed.append((Item(kind, die.face, where.name if where else None, _quad(quad)), quad))
    image = _photograph(np.random.default_rng([seed, 1]), plane,
                        to_frame @ np.diag([1 / SHEET_PX, 1 / SHEET_PX, 1.0]), width, height)
    empty = tuple(p.name for p in sheet.places() if p.name not in cards)
    return TableScene(image, game, paper,
                      tuple(_in_frame(item, mm, to_frame) for item, mm in placed), empty)


def _camera(rng: np.random.Generator, sheet: Layout, width: int, height: int
            ) -> NDArray[np.float64]:
    """A homography from sheet mm to frame pixels: the sheet fills 65–95 % of the frame, turned
    a little (or half a turn), seen slightly askew."""
    fit = min(width / sheet.width, height / sheet.height)
    for _ in range(100):
        scale = fit * rng.uniform(0.65, 0.93)
        angle = rng.normal(0, 0.06) + (math.pi if rng.random() < 0.15 else 0.0)
        c, s = math.cos(angle), math.sin(angle)
        centre = np.array([width / 2, height / 2]) + rng.normal(0, 0.03, 2) * [width, height]
        corners = np.array([[0, 0], [sheet.width, 0], [sheet.width, sheet.height],
                            [0, sheet.height]]) - [sheet.width / 2, sheet.height / 2]
        quad = corners @ np.array([[c, s], [-s, c]]) * scale + centre
        quad += rng.normal(0, 0.025, (4, 2)) * scale * sheet.height
        if (quad.min() >= 4 and quad[:, 0].max() <= width - 5
                and quad[:, 1].max() <= height - 5):
            break
    src = corners + np.array([sheet.width / 2, sheet.height / 2])
    return np.asarray(cv2.getPerspectiveTransform(src.astype(np.float32),
                                                  quad.astype(np.float32)), np.float64)


def _dice(rng: np.random.Generator, plane: FloatImage, sheet: Layout, kind: str, n: int,
          faces: tuple[str, ...] | None, style: str, nadir: Point, height_mm: float
          ) -> list[tuple[Item, NDArray[np.float64]]]:
    """n dice in the sheet's dice zones (not overlapping), each drawn on the plane."""
    zones = [z for z in sheet.zones if z.kind == "area"]
    weights = np.array([0.6 if z.name in ("to-roll", "dice") else 0.4 / max(1, len(zones) - 1)
                        for z in zones])
    out: list[tuple[Item, NDArray[np.float64]]] = []
    spots: list[tuple[float, float, float]] = []
    body = rng.uniform(0.9, 1.05)
    for i in range(n):
        size = rng.uniform(*DIE_MM)
        for _ in range(300):
            zone = zones[int(rng.choice(len(zones), p=weights / weights.sum()))]
            x = rng.uniform(zone.x + size * 0.75, zone.x + zone.w - size * 0.75)
            y = rng.uniform(zone.y + size * 0.75, zone.y + zone.h - size * 0.75)
            if all(math.hypot(x - sx, y - sy) > (size + ss) * 0.75 for sx, sy, ss in spots):
                break
        else:
            continue
        spots.append((x, y, size))
        if faces is not None:
            face = faces[i % len(faces)]
        else:
            face = str(rng.choice(DALEK_FACES)) if kind == "dalek" else str(rng.integers(1, 7))
        lean = (np.array([x, y]) - nadir) * size / height_mm
        quad = _die(rng, plane, die_face(face, style), (x, y), size, rng.uniform(0, 2 * math.pi),
                    lean, body)
        out.append((Item(kind, face, zone.name, _quad(quad)), quad))
    return out


def _die(rng: np.random.Generator, plane: FloatImage, face: NDArray[np.uint8], at: Point,
         size: float, angle: float, lean: NDArray[np.float64], body: float
         ) -> NDArray[np.float64]:
    """Draw a die; returns its top face's corners (mm)."""
    k = SHEET_PX
    top = _rect(at[0] + lean[0], at[1] + lean[1], size, size, angle)
    bottom = top - lean
    foot = np.concatenate([top, bottom]) + rng.normal(0.12, 0.05, 2) * size
    _shadow(rng, plane, foot * k, size * k * 0.15, rng.uniform(0.25, 0.5))
    colour = face[2, 2].astype(np.float32) * body
    for i in range(4):  # the side faces turned toward the camera
        a, b = top[i], top[(i + 1) % 4]
        normal = np.array([b[1] - a[1], a[0] - b[0]])
        if float(normal @ lean) >= 0:
            continue
        side = np.empty((8, 8, 3), np.float32)
        side[:] = colour * rng.uniform(0.55, 0.8)
        _paste(plane, side, np.array([a, b, b - lean, a - lean]) * k)
    tex = face.astype(np.float32) * body * rng.uniform(0.92, 1.06)
    _paste(plane, _bevel(tex), top * k, _rounded(DIE_PX, DIE_PX, 0.14))
    return top


def _cards(rng: np.random.Generator, plane: FloatImage, sheet: Layout, style: str,
           faces: tuple[str, ...] | None, empty: list[str]
           ) -> list[tuple[Item, NDArray[np.float64]]]:
    """Cards in the sheet's places: Dicy each place at random; 17 the row from its start."""
    places = sheet.places()
    out: list[tuple[Item, NDArray[np.float64]]] = []
    length = int(rng.integers(0, len(places) + 1))
    sleeves = rng.random() < 0.35
    for i, place in enumerate(places):
        if faces is not None:
            face_given: str | None = faces[i % len(faces)]
            if face_given == "empty":
                empty.append(place.name)
                continue
        elif (sheet.game == "17" and i >= length) or (sheet.game == "dicy"
                                                        and rng.random() < 0.12):
            empty.append(place.name)
            continue
        else:
            face_given = None
        item, quad = _card(rng, plane, sheet, place, style, face_given, sleeves)
        out.append((item, quad))
    return out


def _card(rng: np.random.Generator, plane: FloatImage, sheet: Layout, place: Zone, style: str,
          face: str | None, sleeved: bool) -> tuple[Item, NDArray[np.float64]]:
    if sheet.game == "dicy":
        player = int(place.name[1]) - 1
        if face is None:
            card, side = str(rng.choice(DICY_CARDS)), str(rng.choice(DICY_SIDES))
            face = dicy_face(card, side)
        card, side = face.split("/")
        art = card_face("dicy-card", face, style, colour=PLAYER_COLOURS[player])
        kind = "dicy-card"
    else:
        if face is None:
            card, side = str(rng.choice(SEVENTEEN_CARDS)), str(rng.choice(["up", "down"]))
            face = seventeen_face(card, side)
        else:
            card, side = _seventeen_card(face), "down" if face.endswith(("d", "back")) else "up"
        art = card_face("17-card", face, style)
        kind = "17-card"
    w, h = sheet.card
    cx, cy = place.centre
    cx, cy = cx + rng.normal(0, 0.7), cy + rng.normal(0, 0.7)
    angle = rng.normal(0, 0.04) + (math.pi if place.turned != (rng.random() < 0.1) else 0.0)
    quad = _rect(cx, cy, w, h, angle)
    k = SHEET_PX
    _shadow(rng, plane, quad * k + rng.normal(0.5, 0.3, 2) * k, k * 0.8, rng.uniform(0.2, 0.4))
    edge = np.empty((4, 4, 3), np.float32)
    edge[:] = rng.uniform(150, 230)
    _paste(plane, edge, (quad + np.array([0.25, 0.35])) * k, _rounded(4, 4, 0.0))
    tex = art.astype(np.float32) * rng.uniform(0.9, 1.05)
    _paste(plane, tex, quad * k, _rounded(CARD_PX[0], CARD_PX[1], 0.05))
    if sleeved:
        sleeve = _rect(cx, cy, w + 1.6, h + 1.6, angle) * k
        gloss = np.empty((CARD_PX[1], CARD_PX[0], 3), np.float32)
        gloss[:] = 255
        streak = noise(rng, CARD_PX[1], CARD_PX[0], 60)
        alpha = (0.08 + 0.25 * (streak > rng.uniform(0.6, 0.8))).astype(np.float32)
        _paste(plane, gloss, sleeve, alpha * _rounded(CARD_PX[0], CARD_PX[1], 0.04))
    return Item(kind, face, place.name, _quad(quad), card, side), quad


def _seventeen_card(face: str) -> str:
    """A card that shows this face (the front-only card for a number front)."""
    return "trap" if face == "back" else face


def _rect(cx: float, cy: float, w: float, h: float, angle: float) -> NDArray[np.float64]:
    c, s = math.cos(angle), math.sin(angle)
    pts = np.array([(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)])
    return np.asarray(pts @ np.array([[c, s], [-s, c]]) + [cx, cy], np.float64)


def _quad(points: NDArray[np.float64]) -> tuple[Point, Point, Point, Point]:
    p = [(float(x), float(y)) for x, y in points]
    return (p[0], p[1], p[2], p[3])


def _rounded(w: int, h: int, radius: float) -> FloatImage:
    """An alpha mask of a w×h rectangle with rounded corners (radius as a fraction of w)."""
    alpha = np.zeros((h, w), np.float32)
    r = max(1, round(radius * w)) if radius > 0 else 0
    if r == 0:
        alpha[:] = 1
        return alpha
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 1.0, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 1.0, -1)
    for x, y in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(alpha, (x, y), r, 1.0, -1, cv2.LINE_AA)
    return alpha


def _bevel(tex: FloatImage) -> FloatImage:
    t = tex.shape[0]
    yy, xx = np.mgrid[0:t, 0:t].astype(np.float32)
    edge = np.minimum(np.minimum(xx, t - 1 - xx), np.minimum(yy, t - 1 - yy)) / t
    return np.asarray(tex * (0.72 + 0.28 * np.clip(edge / 0.07, 0, 1) ** 0.5)[..., None],
                      np.float32)


def _paste(canvas: FloatImage, tex: FloatImage, quad: NDArray[np.float64],
           alpha: FloatImage | None = None) -> None:
    """Warp tex (and its alpha, default opaque) onto quad (4×2 canvas pixels, clockwise from
    the texture's top-left)."""
    th, tw = tex.shape[:2]
    if alpha is None:
        alpha = np.ones((th, tw), np.float32)
    src = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float32)
    h, w = canvas.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(0)).astype(int) - 2, 0)
    x1, y1 = np.minimum(np.ceil(quad.max(0)).astype(int) + 2, [w, h])
    if x1 <= x0 or y1 <= y0:
        return
    m = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
    size = (int(x1 - x0), int(y1 - y0))
    c = cv2.warpPerspective(tex, m, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT)
    a = cv2.warpPerspective(alpha, m, size, flags=cv2.INTER_LINEAR)[..., None]
    roi = canvas[y0:y1, x0:x1]
    roi[:] = roi * (1 - a) + c * a


def _shadow(rng: np.random.Generator, plane: FloatImage, points: NDArray[np.float64],
            blur: float, depth: float) -> None:
    """Darken the plane under the convex hull of points (plane pixels), softly."""
    hull = cv2.convexHull(points.astype(np.float32))
    x0, y0 = np.maximum(np.floor(hull.reshape(-1, 2).min(0) - 3 * blur).astype(int), 0)
    x1, y1 = np.ceil(hull.reshape(-1, 2).max(0) + 3 * blur).astype(int)
    roi = plane[y0:y1, x0:x1]
    if roi.size == 0:
        return
    mask = np.zeros(roi.shape[:2], np.float32)
    cv2.fillConvexPoly(mask, np.round(hull.reshape(-1, 2) - [x0, y0]).astype(np.int32), 1.0,
                       cv2.LINE_AA)
    roi *= (1 - depth * cv2.GaussianBlur(mask, (0, 0), blur + 0.5))[..., None]


def _photograph(rng: np.random.Generator, plane: FloatImage, to_frame: NDArray[np.float64],
                width: int, height: int) -> NDArray[np.uint8]:
    """The plane seen by the camera, on a table, with light, glare, noise and blur."""
    frame = table_surface(rng, height, width)
    warped = cv2.warpPerspective(plane, to_frame, (width, height), flags=cv2.INTER_AREA)
    cover = cv2.warpPerspective(np.ones(plane.shape[:2], np.float32), to_frame, (width, height))
    frame = frame * (1 - cover[..., None]) + warped * cover[..., None]
    light = 0.7 + 0.5 * noise(rng, height, width, max(width, height) // 2)
    frame *= (light * rng.uniform(0.75, 1.1))[..., None]
    if rng.random() < 0.35:  # a passing shadow (an arm, the camera's mount)
        mask = np.zeros((height, width), np.float32)
        centre = (int(rng.integers(0, width)), int(rng.integers(0, height)))
        axes = (int(rng.integers(width // 10, width // 3)), int(rng.integers(height // 10,
                                                                              height // 3)))
        cv2.ellipse(mask, centre, axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        frame *= (1 - rng.uniform(0.15, 0.4) * cv2.GaussianBlur(mask, (0, 0), 25))[..., None]
    if rng.random() < 0.4:  # glare: a soft bright spot
        yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
        gx, gy = rng.uniform(0.1, 0.9) * width, rng.uniform(0.1, 0.9) * height
        r = rng.uniform(0.03, 0.12) * width
        spot = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r)) * rng.uniform(0.2, 0.6)
        frame += (255 - frame) * spot[..., None]
    frame *= rng.uniform(0.9, 1.1, 3).astype(np.float32)  # white balance
    frame += rng.normal(0, rng.uniform(0.5, 5), frame.shape).astype(np.float32)
    image = np.clip(frame, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        image = np.asarray(cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 1.1)), np.uint8)
    return image


def _in_frame(item: Item, quad_mm: NDArray[np.float64], to_frame: NDArray[np.float64]) -> Item:
    pts = np.asarray(cv2.perspectiveTransform(quad_mm.reshape(-1, 1, 2), to_frame),
                     np.float64).reshape(-1, 2)
    return Item(item.kind, item.face, item.zone, _quad(pts), item.card, item.side)
