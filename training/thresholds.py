"""Choose the reader's thresholds on domains the models never saw.

    .venv/bin/python training/thresholds.py runs/no-byler:byler-d6 \
        runs/no-matteop:matteop65-dice
    .venv/bin/python training/thresholds.py models:runs/rendered-99

Each argument is a training run's models folder and a domain it never saw: a real set the
run left out (train.py --exclude), whose whole train split is read, or a folder of rendered
scenes from training/render_set.py with another seed than training's, all of whose images
are read. The reader reads them with those models at every setting of the grid below (the
shared test splits are never read). A threshold that holds on a
table the models have never seen is what a new table needs; validation parts of the sets a
run trained on cannot show it (lowering the locator's threshold changes nothing there).
Prints, per setting, each domain's dice read right and false dice, and the setting with the
most dice read right less false dice over all domains, saying whether it keeps to MAX_FALSE
false dice per labelled die on every domain. (Choosing the most read among the settings that
keep to MAX_FALSE instead picked, where only a very high locator threshold kept to it, a
setting that read half the dice.)
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from data import Sample, load_set  # noqa: E402
from train import score  # noqa: E402

import vision.reader as reader_module  # noqa: E402

GRID = {  # reader constants and the values tried
    "HEAT_THRESHOLD": (0.2, 0.25, 0.3, 0.4),
    "NO_DIE": (0.3, 0.5, 0.7),
    "SURE": (0.4, 0.5, 0.6),
    # one value each: held at the reader's unless --grid names more
    **{name: (getattr(reader_module, name),) for name in (
        "DOUBT_BELOW", "SECOND_READS", "PATCH_BUDGET", "WEAK_HEAT", "WEAK_NO_DIE",
        "LOOK_AGAIN_HEAT")},
}
MAX_FALSE = 0.01


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", metavar="MODELS:SET",
                    help="a run's models folder and the set it left out")
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "datasets")
    ap.add_argument("--grid", action="append", default=[], metavar="NAME=V1,V2",
                    help="try these values of one constant instead of GRID's")
    args = ap.parse_args()
    grid = dict(GRID)
    for item in args.grid:
        key, values = item.split("=")
        if key not in GRID:
            ap.error(f"--grid: {key} is not one of {', '.join(GRID)}")
        grid[key] = tuple(int(v) if v.isdigit() else float(v) for v in values.split(","))
    domains: list[tuple[str, reader_module.DiceReader, list[Sample]]] = []
    for spec in args.runs:
        models, name = spec.rsplit(":", 1)
        if "/" not in name and (args.data / name).is_dir():  # a shared set's name
            samples = (load_set(args.data / name, "train")
                       + load_set(args.data / name, "train", part="val"))
        elif Path(name).resolve().is_relative_to(args.data.resolve()):
            ap.error(f"{name}: a shared set is named, not given as a folder (its test split "
                     "is never read)")
        else:
            samples = load_set(Path(name), "test")
        domains.append((name, reader_module.DiceReader(threads=2, models=Path(models)),
                        samples))
    best: tuple[int, bool, dict[str, float]] | None = None
    for values in itertools.product(*grid.values()):
        setting = dict(zip(grid, values, strict=True))
        for key, value in setting.items():
            setattr(reader_module, key, value)
        shown, ok, net = [], True, 0
        for name, reader, samples in domains:
            t = score(reader, samples)
            net += t["right"] - t["false"]
            ok = ok and t["false"] <= MAX_FALSE * t["dice"]
            shown.append(f"{name} {t['right']}/{t['dice']} false {t['false']}")
        print(" ".join(f"{k}={v}" for k, v in setting.items()), "|", "; ".join(shown),
              flush=True)
        if best is None or net > best[0]:
            best = (net, ok, setting)
    if best is not None:
        keeps = "keeps" if best[1] else "does not keep"
        print(f"most read right less false: {best[2]} ({keeps} false dice <= {MAX_FALSE:.0%} "
              "on every domain)")


if __name__ == "__main__":
    main()
