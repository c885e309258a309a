"""Render d6 dice on a table with Blender's Cycles: a physically based domain the reader never saw.

    blender -b -noaudio --python-exit-code 1 -P training/render_blender.py -- runs/blender \
        --seed 7 --images 40
    .venv/bin/dicetable eval runs/blender
    blender -b -noaudio --python-exit-code 1 -P training/render_blender.py -- runs/bl-train \
        --seed 1000 --images 400 --samples 10 --patches    # train.py --blender-patches

Runs inside Debian's `blender` (`apt-get install blender`; headless, Cycles on the CPU; only
`bpy`, `mathutils` and the standard library). The hand-drawn randomiser of `vision/render.py`
paints flat dice; here a die is a 16 mm cube with bevelled edges and pips engraved into it and
painted, of glossy, matte or translucent plastic, lit by a sun or a lamp over a procedural table
(wood, marble, granite, felt, tablecloth, plain), seen by a camera up to 35° from straight down
at a distance that makes dice 20–150 px across. Seeded: the same seed writes the same set.

Writes a labelled set like `training/render_set.py` (images/ as JPEG, labels.json, split
"test"): a die's box bounds its top face as the camera sees it; dice whose box would leave the
frame are not placed. `--patches` draws training scenes instead, cheaply: 320 × 240 frames
seen from near (a few dice of 30–120 px), split "train". Training data stays out of the repo:
write it under runs/.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import bpy
from bpy_extras.object_utils import world_to_camera_view
from mathutils import Matrix, Quaternion, Vector


@dataclass(frozen=True)
class Frame:
    """The size of the frames drawn, the camera's distance range in die sides, the split."""

    width: int
    height: int
    distance: tuple[float, float]
    split: str


HELD_OUT = Frame(1024, 768, (6.5, 45.0), "test")  # dice 15–200 px, a domain to read
PATCHES = Frame(320, 240, (4.0, 10.0), "train")  # a few dice of 30–120 px, to train on
PIP_AT = {  # a face's pips on a 3 × 3 grid of its own (u, v) in -1, 0, 1
    1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (-1, 1), (1, -1), (1, 1)], 5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}
FACES = {  # value: (outward normal, u axis, v axis) of a standard die, opposite faces sum to 7
    1: ((0, 0, 1), (1, 0, 0), (0, 1, 0)), 6: ((0, 0, -1), (1, 0, 0), (0, 1, 0)),
    2: ((1, 0, 0), (0, 1, 0), (0, 0, 1)), 5: ((-1, 0, 0), (0, 1, 0), (0, 0, 1)),
    3: ((0, 1, 0), (1, 0, 0), (0, 0, 1)), 4: ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
}
UP = {  # the turn that brings a value's face to the top
    1: Matrix.Identity(4), 6: Matrix.Rotation(math.pi, 4, "X"),
    2: Matrix.Rotation(-math.pi / 2, 4, "Y"), 5: Matrix.Rotation(math.pi / 2, 4, "Y"),
    3: Matrix.Rotation(math.pi / 2, 4, "X"), 4: Matrix.Rotation(-math.pi / 2, 4, "X"),
}
BODIES = [  # (body colour, pip colour, transmission)
    ((0.85, 0.85, 0.82), (0.02, 0.02, 0.02), 0.0), ((0.9, 0.85, 0.7), (0.05, 0.03, 0.02), 0.0),
    ((0.6, 0.03, 0.03), (0.9, 0.9, 0.9), 0.0), ((0.03, 0.1, 0.5), (0.9, 0.9, 0.9), 0.0),
    ((0.02, 0.3, 0.08), (0.9, 0.9, 0.85), 0.0), ((0.02, 0.02, 0.02), (0.9, 0.9, 0.9), 0.0),
    ((0.9, 0.7, 0.05), (0.02, 0.02, 0.02), 0.0), ((0.25, 0.05, 0.4), (0.9, 0.8, 0.2), 0.0),
    ((0.8, 0.2, 0.02), (0.02, 0.02, 0.02), 0.0), ((0.7, 0.05, 0.05), (0.95, 0.95, 0.95), 0.8),
    ((0.1, 0.3, 0.8), (0.95, 0.95, 0.95), 0.8), ((0.8, 0.8, 0.8), (0.6, 0.02, 0.02), 0.9),
    ((0.1, 0.6, 0.2), (0.95, 0.95, 0.95), 0.7),
]


def main() -> None:
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--images", type=int, default=40)
    ap.add_argument("--samples", type=int, default=48, help="Cycles samples a pixel")
    ap.add_argument("--patches", action="store_true",
                    help="small training frames of a few near dice (split train)")
    args = ap.parse_args(argv)
    frame = PATCHES if args.patches else HELD_OUT
    rng = random.Random(args.seed)
    (args.out / "images").mkdir(parents=True, exist_ok=True)
    entries = []
    for i in range(args.images):
        file = f"images/{i:04d}.jpg"
        dice = render_scene(rng, args.out / file, args.samples, frame)
        entries.append({"file": file, "width": frame.width, "height": frame.height,
                        "split": frame.split, "dice": dice})
        print(f"scene {i}: {len(dice)} dice", flush=True)
        # after every scene: a long run stopped early still leaves a labelled set
        (args.out / "labels.json").write_text(json.dumps({"images": entries}), encoding="utf-8")


def render_scene(rng: random.Random, path: Path, samples: int, frame: Frame
                 ) -> list[dict[str, object]]:
    """Build one scene from nothing, render it to ``path``; its dice's labels."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    settings(scene, samples, rng, frame)  # the frame's size first: labels are projected on it
    die = die_mesh(rng.uniform(0.06, 0.14), rng.uniform(0.075, 0.1))
    table(rng)
    light(rng)
    distance = rng.uniform(*frame.distance)
    camera = place_camera(rng, distance)
    dice = []
    for x, y in spots(rng, distance):
        value = rng.randint(1, 6)
        obj = bpy.data.objects.new("die", die)
        yaw = Matrix.Rotation(rng.uniform(0, 2 * math.pi), 4, "Z")
        obj.matrix_world = Matrix.Translation((x, y, 0.5)) @ yaw @ UP[value]
        bpy.context.collection.objects.link(obj)
        body, pips, clear = rng.choice(BODIES)
        paint(obj, body, pips, clear, rng)
        corners = [Vector((x, y, 0.5)) + yaw.to_3x3() @ Vector((sx * 0.5, sy * 0.5, 0.5))
                   for sx in (-1, 1) for sy in (-1, 1)]
        box = projected_box(scene, camera, corners, frame)
        if box is None:
            bpy.data.objects.remove(obj)
            continue
        dice.append({"value": value, "bbox": box})
    scene.render.filepath = str(path.resolve())
    bpy.ops.render.render(write_still=True)
    return dice


def die_mesh(bevel: float, pip_radius: float) -> bpy.types.Mesh:
    """A unit cube, edges bevelled, its pips cut in as shallow dimples (material 1 inside)."""
    bpy.ops.mesh.primitive_cube_add(size=1)
    cube = bpy.context.active_object
    cube.data.materials.append(bpy.data.materials.new("body"))
    cube.data.materials.append(bpy.data.materials.new("pips"))
    bevelled = cube.modifiers.new("bevel", "BEVEL")
    bevelled.width, bevelled.segments = bevel, 3
    bpy.ops.object.modifier_apply(modifier="bevel")
    cutters = []
    for value, (normal, u, v) in FACES.items():
        for a, b in PIP_AT[value]:
            centre = [0.5 * n + 0.27 * (a * uu + b * vv) + 0.55 * pip_radius * n
                      for n, uu, vv in zip(normal, u, v, strict=True)]
            bpy.ops.mesh.primitive_uv_sphere_add(radius=pip_radius, location=centre,
                                                 segments=16, ring_count=8)
            cutters.append(bpy.context.active_object)
    for c in cutters:
        c.data.materials.append(cube.data.materials[1])
    bpy.ops.object.select_all(action="DESELECT")
    for c in cutters:
        c.select_set(True)
    bpy.context.view_layer.objects.active = cutters[0]
    bpy.ops.object.join()
    pips = bpy.context.active_object
    cut = cube.modifiers.new("pips", "BOOLEAN")
    cut.operation, cut.object, cut.solver, cut.material_mode = (
        "DIFFERENCE", pips, "EXACT", "TRANSFER")
    bpy.context.view_layer.objects.active = cube
    bpy.ops.object.modifier_apply(modifier="pips")
    bpy.ops.object.shade_smooth()
    mesh = cube.data
    mesh.use_auto_smooth, mesh.auto_smooth_angle = True, math.radians(40)
    bpy.data.objects.remove(pips)
    bpy.data.objects.remove(cube)
    return mesh


def paint(obj: bpy.types.Object, body: tuple[float, float, float],
          pips: tuple[float, float, float], clear: float, rng: random.Random) -> None:
    """The die's own plastic and pip paint (materials linked to the object, not the mesh)."""
    for slot, (colour, transmission) in enumerate(((body, clear), (pips, 0.0))):
        obj.material_slots[slot].link = "OBJECT"
        material = bpy.data.materials.new("plastic")
        material.use_nodes = True
        shader = material.node_tree.nodes["Principled BSDF"]
        shader.inputs["Base Color"].default_value = (*jitter(colour, rng, 0.08), 1.0)
        shader.inputs["Roughness"].default_value = rng.uniform(0.05, 0.5)
        shader.inputs["Transmission"].default_value = transmission
        shader.inputs["Clearcoat"].default_value = rng.choice((0.0, 0.0, 0.5))
        obj.material_slots[slot].material = material


def jitter(colour: tuple[float, ...], rng: random.Random, by: float) -> tuple[float, ...]:
    """``colour`` with each channel moved up to ``by``, kept within 0–1."""
    return tuple(min(1.0, max(0.0, c + rng.uniform(-by, by))) for c in colour)


def table(rng: random.Random) -> None:
    """A large plane under the dice, of a procedural surface."""
    bpy.ops.mesh.primitive_plane_add(size=400)
    plane = bpy.context.active_object
    material = bpy.data.materials.new("table")
    material.use_nodes = True
    nodes, links = material.node_tree.nodes, material.node_tree.links
    shader = nodes["Principled BSDF"]
    coords = nodes.new("ShaderNodeTexCoord")
    ramp = nodes.new("ShaderNodeValToRGB")
    low: tuple[float, ...]
    high: tuple[float, ...]
    kind = rng.choice(("wood", "marble", "granite", "felt", "cloth", "plain"))
    if kind == "wood":
        pattern = nodes.new("ShaderNodeTexWave")
        pattern.inputs["Scale"].default_value = rng.uniform(0.05, 0.3)
        pattern.inputs["Distortion"].default_value = rng.uniform(2, 10)
        pattern.inputs["Detail"].default_value = 4
        low = (rng.uniform(0.2, 0.5), rng.uniform(0.08, 0.25), rng.uniform(0.02, 0.08))
        high = tuple(min(1.0, c * rng.uniform(1.4, 2.2)) for c in low)
    elif kind == "marble":
        pattern = nodes.new("ShaderNodeTexNoise")
        pattern.inputs["Scale"].default_value = rng.uniform(0.05, 0.4)
        pattern.inputs["Detail"].default_value = 12
        pattern.inputs["Distortion"].default_value = rng.uniform(1, 4)
        low = jitter((0.35, 0.35, 0.37), rng, 0.2)
        high = jitter((0.9, 0.9, 0.88), rng, 0.08)
    elif kind == "granite":
        pattern = nodes.new("ShaderNodeTexVoronoi")
        pattern.inputs["Scale"].default_value = rng.uniform(2, 12)
        low = jitter((0.1, 0.1, 0.1), rng, 0.1)
        high = jitter((0.7, 0.65, 0.6), rng, 0.25)
    elif kind == "cloth":
        pattern = nodes.new("ShaderNodeTexChecker")
        pattern.inputs["Scale"].default_value = rng.uniform(0.05, 0.5)
        low = tuple(rng.uniform(0.05, 0.9) for _ in range(3))
        high = (0.9, 0.9, 0.88)
    else:  # felt and plain: one colour with a fine grain
        pattern = nodes.new("ShaderNodeTexNoise")
        pattern.inputs["Scale"].default_value = rng.uniform(5, 30)
        low = tuple(rng.uniform(0.02, 0.8) for _ in range(3))
        high = jitter(low, rng, 0.06 if kind == "felt" else 0.02)
    ramp.color_ramp.elements[0].color = (*low, 1.0)
    ramp.color_ramp.elements[1].color = (*high, 1.0)
    links.new(coords.outputs["Object"], pattern.inputs["Vector"])
    links.new(pattern.outputs["Fac"] if "Fac" in pattern.outputs else pattern.outputs[0],
              ramp.inputs["Fac"])
    links.new(ramp.outputs["Color"], shader.inputs["Base Color"])
    shader.inputs["Roughness"].default_value = rng.uniform(0.1, 0.9) if kind != "felt" else 1.0
    plane.data.materials.append(material)


def light(rng: random.Random) -> None:
    """A sun or a lamp over the table, and a tinted sky for the shadows."""
    world = bpy.data.worlds.new("room")
    world.use_nodes = True
    background = world.node_tree.nodes["Background"]
    background.inputs["Color"].default_value = (*jitter((0.8, 0.8, 0.8), rng, 0.2), 1.0)
    background.inputs["Strength"].default_value = rng.uniform(0.2, 1.2)
    bpy.context.scene.world = world
    if rng.random() < 0.6:
        data = bpy.data.lights.new("sun", "SUN")
        data.energy = rng.uniform(1.5, 5.0)
        data.angle = math.radians(rng.uniform(0.5, 15))
        rotation = (math.radians(rng.uniform(0, 55)), 0.0, rng.uniform(0, 2 * math.pi))
        location = (0.0, 0.0, 50.0)
    else:
        data = bpy.data.lights.new("lamp", "AREA")
        location = (rng.uniform(-20, 20), rng.uniform(-20, 20), rng.uniform(30, 60))
        data.energy = rng.uniform(1.5, 5.0) * math.pi * location[2] ** 2  # W: as a sun of 1.5–5
        data.size = rng.uniform(2, 20)
        rotation = (0.0, 0.0, 0.0)
    data.color = jitter((1.0, 0.95, 0.88), rng, 0.1)
    lamp = bpy.data.objects.new("light", data)
    lamp.location, lamp.rotation_euler = location, rotation
    bpy.context.collection.objects.link(lamp)


def place_camera(rng: random.Random, distance: float) -> bpy.types.Object:
    """A camera up to 35° from straight down, ``distance`` die sides from the table's centre."""
    data = bpy.data.cameras.new("camera")
    data.lens, data.sensor_width = rng.uniform(26, 40), 36
    camera = bpy.data.objects.new("camera", data)
    tilt, heading = math.radians(rng.uniform(0, 35)), rng.uniform(0, 2 * math.pi)
    camera.location = Vector((distance * math.sin(tilt) * math.cos(heading),
                              distance * math.sin(tilt) * math.sin(heading),
                              distance * math.cos(tilt)))
    aim = (-camera.location).to_track_quat("-Z", "Y")
    camera.rotation_euler = (aim @ Quaternion((0, 0, 1), rng.uniform(0, 2 * math.pi))).to_euler()
    bpy.context.collection.objects.link(camera)
    bpy.context.scene.camera = camera
    return camera


def spots(rng: random.Random, distance: float) -> list[tuple[float, float]]:
    """Where dice lie: 3–12 of them, 1.6 sides apart or more, some in a cluster."""
    reach = 0.45 * distance
    crowd = rng.random() < 0.3
    around = (rng.uniform(-reach / 2, reach / 2), rng.uniform(-reach / 2, reach / 2))
    chosen: list[tuple[float, float]] = []
    for _ in range(400):
        if len(chosen) >= rng.randint(3, 12):
            break
        if crowd:
            x, y = around[0] + rng.gauss(0, 2.0), around[1] + rng.gauss(0, 2.0)
        else:
            x, y = rng.uniform(-reach, reach), rng.uniform(-reach, reach)
        if all(math.hypot(x - a, y - b) >= 1.6 for a, b in chosen):
            chosen.append((x, y))
    return chosen


def projected_box(scene: bpy.types.Scene, camera: bpy.types.Object,
                  corners: list[Vector], frame: Frame) -> list[float] | None:
    """The box in pixels round the projected corners; None if it is not wholly in the frame."""
    bpy.context.view_layer.update()
    points = [world_to_camera_view(scene, camera, c) for c in corners]
    xs = [p.x * frame.width for p in points]
    ys = [(1 - p.y) * frame.height for p in points]
    box = [min(xs), min(ys), max(xs), max(ys)]
    inside = (box[0] >= 2 and box[1] >= 2 and box[2] <= frame.width - 2
              and box[3] <= frame.height - 2)
    return [round(v, 1) for v in box] if inside and all(p.z > 0 for p in points) else None


def settings(scene: bpy.types.Scene, samples: int, rng: random.Random, frame: Frame) -> None:
    """Cycles on the CPU, two threads, the frame's size and exposure, JPEG (quality 90)."""
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = samples
    scene.cycles.use_denoising = False
    scene.cycles.max_bounces = 6
    scene.render.threads_mode, scene.render.threads = "FIXED", 2
    scene.render.resolution_x, scene.render.resolution_y = frame.width, frame.height
    scene.render.resolution_percentage = 100
    scene.view_settings.view_transform = rng.choice(("Standard", "Filmic"))
    scene.view_settings.exposure = rng.uniform(-0.7, 0.7)
    scene.render.image_settings.file_format = "JPEG"
    scene.render.image_settings.quality = 90


if __name__ == "__main__":
    main()
