"""The spoken result (issue 21, item 11): espeak-ng renders each sentence to a real WAV file,
and the WAV is checked to be speech of a plausible length, not silence. The listener speaks
after real payments against the emulator; nothing it says holds a digit (so never a code)."""

from __future__ import annotations

import time
import wave
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hardware.speaker import Voice, render
from pos_terminal.config import Settings
from pos_terminal.counter import open_counter
from pos_terminal.counter.listeners.speaker import not_paid_sentence, paid_sentence, voices
from pos_terminal.counter.types import PaymentState
from tests.checkout.conftest import wallet_code

WAIT_S = 20.0


def speech(wav: Path) -> tuple[float, float]:
    """(seconds, share of 20 ms windows louder than near-silence) of a 16-bit mono WAV."""
    with wave.open(str(wav)) as audio:
        assert (audio.getnchannels(), audio.getsampwidth()) == (1, 2)
        rate = audio.getframerate()
        samples = np.frombuffer(audio.readframes(audio.getnframes()), dtype=np.int16)
    window = rate // 50
    frames = samples[: len(samples) // window * window].reshape(-1, window).astype(float)
    loud = np.sqrt((frames ** 2).mean(axis=1)) > 500  # full scale is 32767
    return len(samples) / rate, float(loud.mean()) if len(loud) else 0.0


def test_the_sentences_carry_the_amount_in_words_and_no_digit() -> None:
    assert paid_sentence(50_000, "vi") == "Đã nhận năm mươi nghìn đồng"
    assert paid_sentence(125_000, "en") == "Received one hundred and twenty-five thousand dong"
    for sentence in (paid_sentence(1_234_567, "vi"), not_paid_sentence("vi"),
                     paid_sentence(1_234_567, "en"), not_paid_sentence("en")):
        assert not any(c.isdigit() for c in sentence), sentence


@pytest.mark.parametrize("language", ["vi", "en"])
def test_paid_and_not_paid_are_speech_of_plausible_length(settings: Settings, tmp_path: Path,
                                                           language: str) -> None:
    paid_voice, not_paid_voice = voices(settings.speaker, language)
    paid = render(paid_sentence(50_000, language), paid_voice, tmp_path / "paid.wav")
    not_paid = render(not_paid_sentence(language), not_paid_voice, tmp_path / "no.wav")
    for wav in (paid, not_paid):
        seconds, voiced = speech(wav)
        assert 0.8 < seconds < 6.0, (wav, seconds)  # a short sentence, not a click or a loop
        assert voiced > 0.4, (wav, voiced)          # mostly voice, not silence
    assert paid.read_bytes() != not_paid.read_bytes()


def test_silence_is_told_apart(tmp_path: Path) -> None:
    """The check above can fail: a WAV of a blank sentence is no speech."""
    quiet = render(" ", Voice("vi"), tmp_path / "blank.wav")
    seconds, voiced = speech(quiet)
    assert seconds < 0.8 or voiced < 0.4


def test_the_listener_speaks_paid_and_not_paid(settings: Settings, emulator: Any,
                                               tmp_path: Path) -> None:
    spoken = tmp_path / "spoken"
    spoken.mkdir()
    speaking = settings.replace_section("speaker", enabled=True, output=str(spoken),
                                        language="vi")
    with open_counter(speaking) as co:
        co.payments.pay(50_000, wallet_code(emulator, "an"))
        declined = co.payments.pay(26_000, wallet_code(emulator, "dung"))
        assert declined.state is PaymentState.FAILED
        assert co.bus.drain(WAIT_S)
    deadline = time.monotonic() + WAIT_S
    while len(list(spoken.glob("*.wav"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # the last file finished
    first, second = sorted(spoken.glob("*.wav"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
    for wav in (first, second):
        seconds, voiced = speech(wav)
        assert 0.8 < seconds < 6.0 and voiced > 0.4, (wav, seconds, voiced)
    assert first.read_bytes() != second.read_bytes()


def test_a_disabled_speaker_says_nothing(settings: Settings, emulator: Any,
                                         tmp_path: Path) -> None:
    quiet = settings.replace_section("speaker", enabled=False, output=str(tmp_path))
    with open_counter(quiet) as co:
        co.payments.pay(50_000, wallet_code(emulator, "an"))
        assert co.bus.drain(WAIT_S)
    assert not list(tmp_path.glob("*.wav"))
