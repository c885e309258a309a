"""The command line: ``dicetable <command>``, the thin composition root.

It wires the packages together (camera and buttons from ``device``, the reader from ``vision``,
the score pad from ``web``) and nothing imports it back: web → device → vision/engine.
"""
