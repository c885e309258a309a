"""OpenCV's thread count while readers on two threads read at once."""

from __future__ import annotations

import threading

import cv2

from vision.cv_threads import one_cv_thread


def test_overlapping_reads_on_two_threads_leave_opencv_threads_as_they_were() -> None:
    before = cv2.getNumThreads()
    cv2.setNumThreads(2)
    try:
        first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
        seen: list[int] = []

        def second() -> None:
            first_in.wait(5)
            with one_cv_thread():
                second_in.set()
                first_out.wait(5)
                seen.append(cv2.getNumThreads())  # the first has left: still one thread here

        worker = threading.Thread(target=second)
        worker.start()
        with one_cv_thread():
            first_in.set()
            second_in.wait(5)
        first_out.set()
        worker.join(5)
        assert seen == [1]
        assert cv2.getNumThreads() == 2
    finally:
        cv2.setNumThreads(before)
