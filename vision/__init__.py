"""What the camera sees: dice, Dalek faces and cards read from a frame (one module a job).

onnxruntime (1.29 on) sends usage reports to Microsoft from Linux and keeps a device id in the
user's home unless told not to. A table at home reports to no one: the reports are turned off
here, before any module of this package imports onnxruntime (a value set beforehand stands).
"""

import os

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
