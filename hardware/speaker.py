"""The counter's speaker: short sentences spoken with espeak-ng (Debian package `espeak-ng`,
which has Vietnamese voices), like the wallets' payment speakers.

Speaking never blocks the caller: sentences queue for one daemon thread that runs espeak-ng
for each in turn. With `output_dir` set, each sentence is written there as a WAV file instead
of played (a counter without a sound device, and the tests)."""

from __future__ import annotations

import itertools
import queue
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

PROGRAM = "espeak-ng"
SPEAK_TIMEOUT_S = 30.0


class SpeakerUnavailable(RuntimeError):
    pass


@dataclass(frozen=True)
class Voice:
    """espeak-ng's voice name ("vi", "en"), amplitude 0-200 (100 is its default), pitch 0-99
    and speed in words per minute."""

    name: str
    volume: int = 100
    pitch: int = 50
    speed: int = 150


def command(voice: Voice, wav: Path | None = None, program: str = PROGRAM) -> list[str]:
    """espeak-ng's argv for `voice`; the sentence itself goes on stdin."""
    argv = [program, "-v", voice.name, "-a", str(voice.volume), "-p", str(voice.pitch),
            "-s", str(voice.speed), "--stdin"]
    return [*argv, "-w", str(wav)] if wav is not None else argv


def render(text: str, voice: Voice, wav: Path, program: str = PROGRAM) -> Path:
    """`text` spoken into the WAV file `wav` (blocking)."""
    _espeak(command(voice, wav, program), text)
    return wav


def _espeak(argv: list[str], text: str) -> None:
    # argv is our own (program, voice, numbers); the sentence goes on stdin, never in argv
    subprocess.run(argv, input=text.encode("utf-8"), check=True,  # noqa: S603
                   capture_output=True, timeout=SPEAK_TIMEOUT_S)


class Speaker:
    """Says sentences one after the other, in a thread of its own."""

    def __init__(self, *, output_dir: Path | None = None, program: str = PROGRAM) -> None:
        if shutil.which(program) is None:
            raise SpeakerUnavailable(
                f"{program} is not installed (apt-get install espeak-ng): nothing is spoken")
        self.program = program
        self.output_dir = output_dir
        self._queue: queue.Queue[tuple[str, Voice] | None] = queue.Queue()
        self._numbers = itertools.count(1)
        self.failures: list[str] = []  # what espeak-ng said when it could not speak
        self._thread = threading.Thread(target=self._run, name="speaker", daemon=True)
        self._thread.start()

    def say(self, text: str, voice: Voice) -> None:
        self._queue.put((text, voice))

    def close(self, timeout_s: float = 5.0) -> None:
        self._queue.put(None)
        self._thread.join(timeout_s)

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            text, voice = item
            wav = None
            if self.output_dir is not None:
                stamp = time.strftime("%Y%m%d-%H%M%S")
                wav = self.output_dir / f"{stamp}-{next(self._numbers)}.wav"
            try:
                _espeak(command(voice, wav, self.program), text)
            except (OSError, subprocess.SubprocessError) as exc:
                self.failures.append(str(exc))
