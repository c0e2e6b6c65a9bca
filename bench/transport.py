"""What Discord's transport costs a bot per interaction: the part SimCord leaves out.

SimCord stands in for Discord inside the bot's process: it replaces discord.py's
``HTTPClient.request`` and the webhook adapter's ``request`` (through which interactions are
answered), and hands gateway events straight to discord.py's parsers. So a bot driven by SimCord
never pays what it pays against Discord for the same traffic: building each request's headers
and body (JSON, or a multipart form with the pictures), aiohttp sending it and reading and parsing
the answer, and for each gateway event, reading the websocket frame, inflating the zlib stream and
parsing the JSON.

Both bots' traffic is recorded in a pass of its own (``Recorder``) and then sent again through
discord.py's real ``HTTPClient.request``, ``AsyncWebhookAdapter.request`` and gateway decoding,
against a local server in another process that answers each request with what SimCord answered
(``replay``). The CPU time of the replaying process is the transport's. It leaves out TLS, which
Discord adds to every request and gateway frame, so it is an underestimate.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import io
import json
import multiprocessing
import time
import zlib
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import discord.http
import discord.utils
import simcord.gateway
import simcord.http.client
import simcord.intents
from aiohttp import web
from discord.webhook.async_ import AsyncWebhookAdapter

API_BASE = discord.http.Route.BASE
BOT_USER = {"id": "1", "username": "bench", "discriminator": "0", "avatar": None, "bot": True}


@dataclass
class Call:
    """One REST request as the bot made it, and SimCord's answer."""

    webhook: bool  # answered through the webhook adapter (interactions) or HTTPClient
    route: Any
    options: dict[str, Any]  # the request's keyword arguments, files and form parts aside
    files: list[tuple[str, bytes]]
    form: list[dict[str, Any]] | None  # a file's part (it has a filename) holds its index in ``files``
    answer: Any


@dataclass
class Exchange:
    """The traffic of one interaction: the gateway events it brought, the requests it made."""

    names: tuple[str, ...]
    events: list[dict[str, Any]] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)


class Recorder:
    """Records what goes between the bot and SimCord during each interaction."""

    def __init__(self) -> None:
        self.exchanges: list[Exchange] = []
        self.current: Exchange | None = None
        self._install()

    @contextlib.contextmanager
    def interaction(self, *names: str) -> Iterator[None]:
        self.current = Exchange(names)
        try:
            yield
        finally:
            self.exchanges.append(self.current)
            self.current = None

    def _install(self) -> None:
        recorder = self
        http_request = simcord.http.client.FakeHTTPClient.request
        webhook_request = simcord.http.client.FakeWebhookAdapter.request
        feed = simcord.gateway.FakeGateway.feed

        async def recorded_http(
            client: Any, route: Any, *, files: Any = None, form: Any = None, **options: Any
        ) -> Any:
            answer = await http_request(client, route, files=files, form=form, **options)
            recorder._record(False, route, options, files, form, answer)
            return answer

        async def recorded_webhook(
            adapter: Any,
            route: Any,
            session: Any,
            *,
            files: Any = None,
            multipart: Any = None,
            **options: Any,
        ) -> Any:
            answer = await webhook_request(
                adapter, route, session, files=files, multipart=multipart, **options
            )
            recorder._record(True, route, options, files, multipart, answer)
            return answer

        def recorded_feed(gateway: Any, event: str, payload: Any) -> None:
            gate = simcord.intents.required_intent(event, payload)
            if recorder.current is not None and (gate is None or getattr(gateway.intents, gate)):
                recorder.current.events.append({"op": 0, "t": event, "d": copy.deepcopy(dict(payload))})
            feed(gateway, event, payload)

        simcord.http.client.FakeHTTPClient.request = recorded_http  # type: ignore[method-assign]
        simcord.http.client.FakeWebhookAdapter.request = recorded_webhook  # type: ignore[method-assign]
        simcord.gateway.FakeGateway.feed = recorded_feed  # type: ignore[method-assign]

    def _record(
        self,
        webhook: bool,
        route: Any,
        options: dict[str, Any],
        files: Any,
        form: Any,
        answer: Any,
    ) -> None:
        if self.current is None:
            return
        files = list(files or [])
        # discord.py closes a file once sent; the bytes are kept now, from the start.
        contents = []
        for file in files:
            file.fp.seek(0)
            contents.append((file.filename, file.fp.read()))
        index_of = {id(file.fp): index for index, file in enumerate(files)}
        parts = None
        if form is not None:
            parts = [
                {**part, "value": index_of[id(part["value"])]}
                if id(part["value"]) in index_of
                else dict(part)
                for part in form
            ]
        self.current.calls.append(
            Call(webhook, route, copy.deepcopy(options), contents, parts, copy.deepcopy(answer))
        )


@dataclass
class Tally:
    """How many, and the CPU seconds they took."""

    count: int = 0
    seconds: float = 0.0

    def add(self, seconds: float) -> None:
        self.count += 1
        self.seconds += seconds


@dataclass
class TransportCost:
    """Per interaction name, and per interaction name and part of the traffic (the gateway
    event, or a request by its route)."""

    interactions: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    parts: dict[tuple[str, str], Tally] = field(default_factory=lambda: defaultdict(Tally))


def transport_cost(exchanges: list[Exchange]) -> TransportCost:
    return asyncio.run(replay(exchanges))


async def replay(exchanges: list[Exchange]) -> TransportCost:
    answers = [BOT_USER] + [call.answer for exchange in exchanges for call in exchange.calls]
    events = [
        {**event, "s": sequence}
        for sequence, event in enumerate((event for exchange in exchanges for event in exchange.events), 1)
    ]
    context = multiprocessing.get_context("spawn")
    ports = context.Queue()
    server = context.Process(target=serve, args=(answers, events, ports), daemon=True)
    server.start()
    costs = TransportCost()
    try:
        base = f"http://127.0.0.1:{ports.get(timeout=60)}"
        http = discord.http.HTTPClient(asyncio.get_running_loop())
        discord.http.Route.BASE = base  # the login's route is built here, not recorded
        try:
            await http.static_login("bench")
        finally:
            discord.http.Route.BASE = API_BASE
        session: aiohttp.ClientSession = http._HTTPClient__session  # type: ignore[attr-defined]
        adapter = AsyncWebhookAdapter()
        decompressor = discord.utils._ActiveDecompressionContext()
        async with session.ws_connect(f"{base}/gateway") as socket:
            for exchange in exchanges:
                parts: list[tuple[str, float]] = []
                for _ in exchange.events:
                    await socket.send_str("next")
                    started = time.process_time()
                    frame = await socket.receive()
                    discord.utils._from_json(decompressor.decompress(frame.data))
                    parts.append(("gateway event", time.process_time() - started))
                for call in exchange.calls:
                    route, arguments = _request(call, base)
                    started = time.process_time()
                    if call.webhook:
                        await adapter.request(route, session, **arguments)
                    else:
                        await http.request(route, **arguments)
                    parts.append((f"{route.method} {route.path}", time.process_time() - started))
                for name in exchange.names:
                    costs.interactions[name].add(sum(seconds for _, seconds in parts))
                    for part, seconds in parts:
                        costs.parts[name, part].add(seconds)
        await http.close()
    finally:
        server.terminate()
        server.join()
    return costs


def _request(call: Call, base: str) -> tuple[Any, dict[str, Any]]:
    """The call's route aimed at the local server, and fresh keyword arguments (files are
    consumed by a send)."""
    route = copy.copy(call.route)
    route.url = base + route.url.removeprefix(API_BASE)
    files = [discord.File(io.BytesIO(content), filename=name) for name, content in call.files]
    arguments = copy.deepcopy(call.options)
    if files:
        arguments["files"] = files
    if call.form is not None:
        # The webhook adapter takes its form parts as "multipart", HTTPClient as "form".
        arguments["multipart" if call.webhook else "form"] = [
            {**part, "value": files[part["value"]].fp} if "filename" in part else dict(part)
            for part in call.form
        ]
    return route, arguments


def serve(answers: list[Any], events: list[dict[str, Any]], ports: Any) -> None:
    """Answer each request with the next recorded answer; send the next gateway event, zlib-stream
    compressed as Discord sends it, when the client asks for it."""
    asyncio.run(_serve(answers, events, ports))


async def _serve(answers: list[Any], events: list[dict[str, Any]], ports: Any) -> None:
    pending_answers, pending_events = iter(answers), iter(events)

    async def answer(request: web.Request) -> web.StreamResponse:
        await request.read()
        recorded = next(pending_answers)
        if recorded is None:
            return web.Response(status=204)
        return web.json_response(recorded)

    async def gateway(request: web.Request) -> web.StreamResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        compressor = zlib.compressobj()
        async for _ in socket:
            text = json.dumps(next(pending_events)).encode()
            await socket.send_bytes(compressor.compress(text) + compressor.flush(zlib.Z_SYNC_FLUSH))
        return socket

    application = web.Application(client_max_size=64 * 1024 * 1024)
    application.router.add_get("/gateway", gateway)
    application.router.add_route("*", "/{path:.*}", answer)
    runner = web.AppRunner(application, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    ports.put(site._server.sockets[0].getsockname()[1])  # type: ignore[union-attr]
    await asyncio.Event().wait()
