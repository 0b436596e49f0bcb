"""Typed keys of the aiohttp application's shared objects."""

from __future__ import annotations

from aiohttp import web

from pos_terminal.emulator.faults import FaultBook
from pos_terminal.emulator.zalopay.service import Service

SERVICE_KEY: web.AppKey[Service] = web.AppKey("service", Service)
FAULTS_KEY: web.AppKey[FaultBook] = web.AppKey("faults", FaultBook)
