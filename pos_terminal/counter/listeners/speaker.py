"""The spoken result, like the wallets' payment speakers: "Đã nhận 50.000 đồng" when a payment
at the counter is PAID, a different sentence in a low voice when it is NOT PAID (`[speaker]
enabled`). Only the amount is ever spoken, never a payment code or an order number. Speaking
runs in the speaker's own thread: the payment never waits for it."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from num2words import num2words

from hardware.speaker import Speaker, SpeakerUnavailable, Voice
from pos_terminal.base.i18n import translate_to
from pos_terminal.counter.events import PaymentSettled
from pos_terminal.counter.types import PaymentState

if TYPE_CHECKING:
    from pos_terminal.config import SpeakerSettings
    from pos_terminal.counter.session import Counter

log = logging.getLogger(__name__)

#: Settled at the counter, with the customer there (not later in the background).
AT_THE_COUNTER = ("pay", "follow", "gateway")
NOT_PAID_PITCH = 15  # low and slow: heard as "no" before the words are understood
NOT_PAID_SPEED = 120


def paid_sentence(amount: int, language: str) -> str:
    """What the speaker says for a PAID of `amount` đồng, in words ("năm mươi nghìn")."""
    return translate_to(language, "Received {amount} dong").format(
        amount=num2words(amount, lang=language))


def not_paid_sentence(language: str) -> str:
    return translate_to(language, "Payment not received")


def voices(settings: SpeakerSettings, language: str) -> tuple[Voice, Voice]:
    """The PAID voice and the NOT PAID voice."""
    paid = Voice(language, volume=settings.volume)
    return paid, Voice(language, volume=settings.volume, pitch=NOT_PAID_PITCH,
                       speed=NOT_PAID_SPEED)


def register(counter: Counter) -> None:
    settings = counter.settings.speaker
    if not settings.enabled:
        return
    language = settings.language or counter.settings.terminal.language
    try:
        speaker = Speaker(output_dir=Path(settings.output) if settings.output else None)
    except SpeakerUnavailable as exc:
        log.warning("speaker off: %s", exc)
        return
    paid_voice, not_paid_voice = voices(settings, language)

    def on_settled(event: PaymentSettled) -> None:
        if event.via not in AT_THE_COUNTER:
            return
        if event.paid:
            speaker.say(paid_sentence(event.view.amount, language), paid_voice)
        elif event.view.state is PaymentState.FAILED:
            speaker.say(not_paid_sentence(language), not_paid_voice)

    counter.bus.subscribe((PaymentSettled,), on_settled, name="speaker")
