"""Why the camera gives no frame: :class:`CameraError` and the words of each reason.

A reason is a message key of the score pad's catalogs (``camera.why.…``, ``web/i18n``) and its
values, as a :class:`device.notice.Notice` is; :data:`WHY` holds its English, the one source of
the English words: ``str()`` of the error (the host's log), and the score pad's English
(``web.i18n`` takes it from here, the system's own words, ``({detail})``, left for a line of
their own), while the other catalogs translate the key. A path among
the values is the one the host gave the table; the pad shows it only to a phone with the PIN.

>>> err = CameraError("camera.why.device_busy", device=0)
>>> str(err), err.key, err.params
('the camera 0 cannot be opened: is it plugged in, or used by another program?', \
'camera.why.device_busy', {'device': 0})
"""

from __future__ import annotations

from pathlib import Path

from vision.image_size import TOO_LARGE

WHY: dict[str, str] = {
    "camera.why.no_path": "there is no folder or file “{path}”: check its name (or give "
                          "picamera2, a camera number such as 0 or a /dev/video path)",
    "camera.why.not_camera": "“{path}” is no camera: give picamera2, a camera number such as "
                             "0, a /dev/video path, a folder of pictures or a video file",
    "camera.why.rate": "the frame rate and the speed must be above 0",
    "camera.why.ended": "the recording has ended",
    "camera.why.heic": "the folder {folder} holds HEIC photos (as an iPhone takes them), which "
                       "the table cannot read: save them as JPEG pictures",
    "camera.why.raw": "the folder {folder} holds RAW photos (as a camera saves them "
                      "unprocessed), which the table cannot read: save them as JPEG pictures",
    "camera.why.unreadable_photos": "the folder {folder} holds {kind} photos, which the table "
                                    "cannot read: save them as JPEG pictures",
    "camera.why.no_pictures": "the folder {folder} holds no pictures",
    "camera.why.pictures_below": "the folder {folder} holds no pictures; they are in its "
                                 "folder {inside}: give that one",
    "camera.why.folder_gone": "the folder {folder} is not there any more: is the USB stick or "
                              "card that holds it plugged in?",
    "camera.why.folder_unreadable": "the folder {folder} cannot be read ({detail})",
    "camera.why.picture_gone": "the picture {name} has gone from {folder}",
    "camera.why.picture_unreadable": "the picture {name} cannot be read",
    "camera.why.picture_too_large": "the picture {name} is " + TOO_LARGE,
    "camera.why.picture_format": "the picture {name} is in the {kind} format, which the table "
                                 "cannot read: convert it to JPEG",
    "camera.why.picture_unusable": "the picture cannot be used ({detail})",
    "camera.why.no_video": "there is no video file {path}",
    "camera.why.video_unplayable": "the video {path} cannot be played",
    "camera.why.video_unreadable": "the video {path} cannot be read: is the USB stick or card "
                                   "that holds it plugged in?",
    "camera.why.video_no_frame": "the video {path} has no readable frame",
    "camera.why.not_open": "the camera is not open",
    "camera.why.device_missing": "{device} is not there: is the camera plugged in?",
    "camera.why.device_busy": "the camera {device} cannot be opened: is it plugged in, or used "
                              "by another program?",
    "camera.why.device_stopped": "the camera {device} stopped sending pictures",
    "camera.why.stalled": "the camera sent no picture for {seconds} s",
    "camera.why.picamera_start": "the Raspberry Pi camera cannot be started ({detail})",
    "camera.why.picamera_stopped": "the Raspberry Pi camera stopped sending pictures ({detail})",
    "camera.why.picamera_missing": "picamera2 is not installed: on a Raspberry Pi, `sudo apt "
                                   "install python3-picamera2` and make the venv with "
                                   "--system-site-packages (see the README)",
    "camera.why.picamera_broken": "picamera2 is installed but cannot be loaded ({detail}); "
                                  "Raspberry Pi OS 13 or later is needed (see the README)",
    "camera.why.fault": "the table failed to take up its last picture",
}
"""Each reason's key and its English words, with the fields of its values."""

Value = str | int | float


class CameraError(Exception):
    """The camera cannot give a frame now: ``key`` (one of :data:`WHY`) and its values say why;
    ``str()`` is the English, for the host's log."""

    def __init__(self, key: str, **params: Value | Path) -> None:
        self.key = key
        self.params: dict[str, Value] = {
            name: str(value) if isinstance(value, Path) else value
            for name, value in params.items()}
        super().__init__(WHY[key].format_map(self.params))


class UnreadableFrame(CameraError):
    """One frame could not be read (a damaged file); the next one may be fine."""


class SourceEnded(CameraError):
    """An unpaced recording has no more frames (its last one was held long enough)."""
