"""Benchmark of ``citecast serve``: POST /api/ask under 1, 16 and 64 concurrent clients.

The real app runs under uvicorn on 127.0.0.1 (port 0) in a background thread, with the real
extractive Assistant over (a) the sample knowledge base in examples/ and (b) a generated corpus
of about 10,000 chunks. For each concurrency level a fixed number of requests is sent by that
many httpx clients; the same load against ``GET /healthz`` of the same app is the baseline, so the
printed ratio (ask latency / health latency) says what answering costs on top of serving HTTP.
Time to the first streamed citation comes from ``GET /api/ask/stream``.

    python bench/serve.py            # full run (a few minutes on 2 cores)
    python bench/serve.py --quick    # smaller counts, the small corpus only
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import uvicorn

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bot.assistant import Assistant  # noqa: E402
from bot.config import Settings, parse_settings  # noqa: E402
from bot.connectors.app import build_app  # noqa: E402
from bot.knowledge.ingest import ingest  # noqa: E402
from bot.runtime import Services  # noqa: E402
from bot.store import Store  # noqa: E402

QUESTIONS = [
    "How do I install citecast on Linux?",
    "How are audiences assigned to documents?",
    "How do I restart the service?",
    "What does the security model say about signed links?",
    "Which integrations are supported?",
    "How do I build the knowledge index?",
]
LEVELS = (1, 16, 64)
TIME_CAP_SECONDS = 90.0
WORDS = (
    "install",
    "configure",
    "restart",
    "index",
    "audience",
    "citation",
    "source",
    "page",
    "section",
    "backup",
    "upgrade",
    "token",
    "secret",
    "channel",
    "slack",
    "discord",
    "email",
    "forum",
    "widget",
    "stream",
    "answer",
    "question",
    "policy",
    "replica",
    "cluster",
    "latency",
    "throughput",
    "cache",
    "queue",
    "worker",
    "shard",
    "tenant",
    "quota",
    "invoice",
    "region",
)


@dataclass(frozen=True)
class LoadResult:
    """Latencies (seconds) of one load run and its wall time."""

    latencies: list[float]
    wall: float
    errors: int

    @property
    def throughput(self) -> float:
        return len(self.latencies) / self.wall if self.wall else 0.0

    def pct(self, q: float) -> float:
        ordered = sorted(self.latencies)
        if not ordered:
            return float("nan")
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def generate_corpus(root: Path, chunks: int) -> None:
    """About ``chunks`` sections of ~900 characters in Markdown files under ``root``."""
    rng = random.Random(7)
    per_file = 20
    root.mkdir(parents=True, exist_ok=True)
    for f in range(chunks // per_file):
        parts = [f"# Handbook volume {f}\n"]
        for s in range(per_file):
            sentences = []
            for _ in range(9):
                words = [rng.choice(WORDS) for _ in range(14)]
                sentences.append(" ".join(words).capitalize() + ".")
            parts.append(f"\n## Topic {f}-{s}\n\n" + " ".join(sentences) + "\n")
        (root / f"volume-{f:04d}.md").write_text("".join(parts), encoding="utf-8")


class ServerThread:
    """uvicorn serving the app on 127.0.0.1:0 in its own thread and event loop."""

    def __init__(self, app: Any) -> None:
        config = uvicorn.Config(
            app, host="127.0.0.1", port=0, log_level="warning", access_log=False
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        host, port = self.server.servers[0].sockets[0].getsockname()[:2]
        return f"http://{host}:{port}"

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


async def run_load(
    base: str, clients: int, total: int, call: Callable[[httpx.AsyncClient, int], Awaitable[bool]]
) -> LoadResult:
    """``total`` requests from ``clients`` concurrent httpx clients; bounded by a time cap."""
    latencies: list[float] = []
    errors = 0
    issued = 0
    started = time.perf_counter()

    async def worker() -> None:
        nonlocal issued, errors
        async with httpx.AsyncClient(base_url=base, timeout=60) as client:
            while issued < total and time.perf_counter() - started < TIME_CAP_SECONDS:
                i = issued
                issued += 1
                t0 = time.perf_counter()
                ok = await call(client, i)
                latencies.append(time.perf_counter() - t0)
                errors += not ok

    await asyncio.gather(*(worker() for _ in range(clients)))
    return LoadResult(latencies, time.perf_counter() - started, errors)


async def ask(client: httpx.AsyncClient, i: int) -> bool:
    response = await client.post("/api/ask", json={"question": QUESTIONS[i % len(QUESTIONS)]})
    return response.status_code == 200


async def health(client: httpx.AsyncClient, i: int) -> bool:
    return (await client.get("/healthz")).status_code == 200


async def first_citation(base: str, runs: int) -> tuple[list[float], list[float]]:
    """Seconds to the first ``citation`` event and to ``done``, per streamed question."""
    firsts: list[float] = []
    dones: list[float] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        for i in range(runs):
            t0 = time.perf_counter()
            seen = False
            params = {"question": QUESTIONS[i % len(QUESTIONS)]}
            async with client.stream("GET", "/api/ask/stream", params=params) as response:
                async for line in response.aiter_lines():
                    if line == "event: citation" and not seen:
                        firsts.append(time.perf_counter() - t0)
                        seen = True
                    elif line == "event: done":
                        dones.append(time.perf_counter() - t0)
    return firsts, dones


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f}"


def settings_for(work: Path) -> Settings:
    return parse_settings(
        {
            "index": {"path": str(work / "index.db")},
            "store": {"path": str(work / "store.db")},
            "web": {"file_secret": "bench-secret-0123456789abcdef"},
        }
    )


async def bench_corpus(name: str, settings: Settings, counts: dict[int, int], streams: int) -> None:
    services = Services(
        settings=settings,
        store=Store(settings.store.path),
        assistant=Assistant.from_settings(settings),
    )
    app = build_app(services, connectors=[])
    with ServerThread(app) as base:
        async with httpx.AsyncClient(base_url=base, timeout=60) as warm:
            for question in QUESTIONS:  # warm caches the same way for every level
                await warm.post("/api/ask", json={"question": question})
        print(f"\n## {name}")
        print(
            "clients  requests   ask req/s  ask p50 ms  ask p95 ms  health req/s"
            "  health p50 ms  p50 ratio  errors"
        )
        for clients in LEVELS:
            total = counts[clients]
            asked = await run_load(base, clients, total, ask)
            baseline = await run_load(base, clients, total, health)
            ratio = asked.pct(0.5) / baseline.pct(0.5) if baseline.pct(0.5) else float("nan")
            print(
                f"{clients:7d}  {len(asked.latencies):8d}  {asked.throughput:10.1f}"
                f"  {ms(asked.pct(0.5)):>10}  {ms(asked.pct(0.95)):>10}"
                f"  {baseline.throughput:12.1f}  {ms(baseline.pct(0.5)):>13}"
                f"  {ratio:8.1f}x  {asked.errors:6d}"
            )
        firsts, dones = await first_citation(base, streams)
        if firsts and dones:
            first, done = statistics.median(firsts), statistics.median(dones)
            print(
                f"stream: first citation p50 {ms(first).strip()} ms, done p50 {ms(done).strip()}"
                f" ms ({first / done:.2f} of the answer time), {len(firsts)} runs"
            )
    services.store.close()


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small counts, sample corpus only")
    args = parser.parse_args()
    counts = {1: 40, 16: 160, 64: 256} if not args.quick else {1: 10, 16: 32, 64: 64}
    print("# bench/serve.py: POST /api/ask vs GET /healthz on the same app (loopback, uvicorn)")
    with tempfile.TemporaryDirectory(prefix="citecast-bench-") as tmp:
        work = Path(tmp)
        small = settings_for(work / "sample")
        ingest([REPO / "examples"], small.index)
        await bench_corpus("sample knowledge base (examples/)", small, counts, 10)
        if not args.quick:
            large = settings_for(work / "large")
            started = time.perf_counter()
            generate_corpus(work / "corpus", 10_000)
            ingest([work / "corpus"], large.index)
            print(
                f"\n(generated and ingested the 10,000-chunk corpus in "
                f"{time.perf_counter() - started:.1f} s)"
            )
            await bench_corpus("generated corpus (~10,000 chunks)", large, counts, 10)
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
