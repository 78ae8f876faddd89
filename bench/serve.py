"""Benchmark of ``citecast serve``: POST /api/ask under 1, 16 and 64 concurrent clients.

The real ``citecast serve`` runs in a child process on 127.0.0.1 (port 0), with the real
extractive Assistant over (a) the sample knowledge base in examples/ and (b) a generated corpus
of about 10,000 chunks. For each concurrency level a fixed number of requests is sent by that
many httpx clients; the same load against ``GET /healthz`` of the same app is the baseline, so the
printed ratio (ask latency / health latency) says what answering costs on top of serving HTTP.
Time to the first streamed citation comes from ``GET /api/ask/stream``. ``--history`` instead
asks 240 questions in one conversation, one after another, and prints a question's latency as
the conversation grows against its first 25 turns (the baseline), then the conversation
endpoint and a vote on the first answer.

    python bench/serve.py            # full run (a few minutes on 2 cores)
    python bench/serve.py --quick    # smaller counts, the small corpus only
    python bench/serve.py --history  # one long conversation on the small corpus
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import httpx
import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bot.config import Settings  # noqa: E402
from bot.config_file import parse_settings  # noqa: E402
from bot.knowledge.ingest import ingest  # noqa: E402

QUESTIONS = [
    "How do I install citecast on Linux?",
    "How are audiences assigned to documents?",
    "How do I restart the service?",
    "What does the security model say about signed links?",
    "Which integrations are supported?",
    "How do I build the knowledge index?",
]
# Questions in the generated corpus's vocabulary, so its answers cite something too.
CORPUS_QUESTIONS = [
    "How do I restart a replica in the cluster?",
    "What is the quota policy for a tenant?",
    "How do I configure the cache worker?",
    "How does a backup upgrade work?",
    "Which region holds the invoice queue?",
    "How is a shard token rotated?",
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


class ServerProcess:
    """``citecast serve --port 0`` in a child process (so the load generator does not share its
    interpreter); the port is read from uvicorn's "running on" line."""

    def __init__(self, config: Path) -> None:
        self.config = config
        self.log = config.with_suffix(".log")
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> str:
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "bot", "--config", str(self.config), "serve", "--port", "0"],
                cwd=REPO,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            found = re.search(
                r"citecast listening on (http://127\.0\.0\.1:\d+)", self.log.read_text()
            )
            if found:
                return found.group(1)
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError(f"citecast serve did not start:\n{self.log.read_text()}")

    def __exit__(self, *exc: object) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


async def run_load(
    base: str, clients: int, total: int, call: Callable[[httpx.AsyncClient, int], Awaitable[bool]]
) -> LoadResult:
    """``total`` requests from ``clients`` concurrent httpx clients; bounded by a time cap.

    The clients are created and connected before the clock starts, so the figures measure the
    server, not client setup.
    """
    pool = [httpx.AsyncClient(base_url=base, timeout=120, verify=False) for _ in range(clients)]
    latencies: list[float] = []
    errors = 0
    issued = 0
    try:
        await asyncio.gather(*(client.get("/healthz") for client in pool))
        started = time.perf_counter()

        async def worker(client: httpx.AsyncClient) -> None:
            nonlocal issued, errors
            while issued < total and time.perf_counter() - started < TIME_CAP_SECONDS:
                i = issued
                issued += 1
                t0 = time.perf_counter()
                ok = await call(client, i)
                latencies.append(time.perf_counter() - t0)
                errors += not ok

        await asyncio.gather(*(worker(client) for client in pool))
        wall = time.perf_counter() - started
    finally:
        await asyncio.gather(*(client.aclose() for client in pool))
    return LoadResult(latencies, wall, errors)


def asker(questions: list[str]) -> Callable[[httpx.AsyncClient, int], Awaitable[bool]]:
    """A load step that POSTs the i-th question (cycling through ``questions``)."""

    async def ask(client: httpx.AsyncClient, i: int) -> bool:
        response = await client.post("/api/ask", json={"question": questions[i % len(questions)]})
        return response.status_code == 200

    return ask


async def health(client: httpx.AsyncClient, i: int) -> bool:
    return (await client.get("/healthz")).status_code == 200


async def first_citation(
    base: str, runs: int, questions: list[str]
) -> tuple[list[float], list[float]]:
    """Seconds to the first ``citation`` event and to ``done``, per streamed question."""
    firsts: list[float] = []
    dones: list[float] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        for i in range(runs):
            t0 = time.perf_counter()
            seen = False
            params = {"question": questions[i % len(questions)]}
            async with client.stream("GET", "/api/ask/stream", params=params) as response:
                async for line in response.aiter_lines():
                    if line == "event: citation" and not seen:
                        firsts.append(time.perf_counter() - t0)
                        seen = True
                    elif line == "event: done":
                        dones.append(time.perf_counter() - t0)
    return firsts, dones


# the turns of one long conversation whose median latency --history prints; the first is the base
HISTORY_BANDS = ((0, 25), (95, 105), (160, 240))


async def conversation_growth(base: str, turns: int) -> None:
    """One conversation of ``turns`` questions: latency per band of turns against the first."""
    latencies: list[float] = []
    conversation: str | None = None
    first_turn = 0
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        for i in range(turns):
            body: dict[str, str] = {"question": QUESTIONS[i % len(QUESTIONS)]}
            if conversation is not None:
                body["conversation_id"] = conversation
            t0 = time.perf_counter()
            response = await client.post("/api/ask", json=body)
            latencies.append(time.perf_counter() - t0)
            answer = response.json()
            conversation = conversation or answer["conversation_id"]
            first_turn = first_turn or answer["turn_id"]
        baseline = statistics.median(latencies[slice(*HISTORY_BANDS[0])])
        print("turns      ask p50 ms  ratio to turns 0-25")
        for low, high in HISTORY_BANDS:
            median = statistics.median(latencies[low:high])
            print(f"{low:3d}-{high:<3d}  {ms(median):>12}  {median / baseline:8.2f}x")
        t0 = time.perf_counter()
        page = await client.get(f"/api/conversations/{conversation}")
        took = time.perf_counter() - t0
        shown = len(page.json()["turns"])
        print(
            f"GET /api/conversations/{{id}}: {ms(took).strip()} ms, {len(page.content):,} bytes,"
            f" {shown} of {turns} turns, earlier={page.json().get('earlier', 'absent')}"
        )
        vote = {"conversation_id": conversation, "turn_id": first_turn, "value": "helpful"}
        voted = await client.post("/api/feedback", json=vote)
        print(f"POST /api/feedback on the first answer: {voted.status_code}")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f}"


def write_config(work: Path) -> tuple[Path, Settings]:
    """A config.yaml for one corpus (index and store under ``work``) and its settings."""
    data = {
        "index": {"path": str(work / "index.db")},
        "store": {"path": str(work / "store.db")},
        # thousands of questions from one address: the per-client limit would refuse them
        "web": {
            "file_secret": "bench-secret-0123456789abcdef",
            "host": "127.0.0.1",
            "rate_limit_per_minute": 0,
        },
    }
    work.mkdir(parents=True, exist_ok=True)
    config = work / "config.yaml"
    config.write_text(yaml.safe_dump(data), encoding="utf-8")
    return config, parse_settings(data)


async def bench_corpus(
    name: str, config: Path, questions: list[str], counts: dict[int, int], streams: int
) -> None:
    with ServerProcess(config) as base:
        async with httpx.AsyncClient(base_url=base, timeout=60) as warm:
            for question in questions:  # warm caches the same way for every level
                await warm.post("/api/ask", json={"question": question})
        print(f"\n## {name}")
        print(
            "clients  requests   ask req/s  ask p50 ms  ask p95 ms  health req/s"
            "  health p50 ms  p50 ratio  errors"
        )
        for clients in LEVELS:
            total = counts[clients]
            asked = await run_load(base, clients, total, asker(questions))
            baseline = await run_load(base, clients, total, health)
            ratio = asked.pct(0.5) / baseline.pct(0.5) if baseline.pct(0.5) else float("nan")
            print(
                f"{clients:7d}  {len(asked.latencies):8d}  {asked.throughput:10.1f}"
                f"  {ms(asked.pct(0.5)):>10}  {ms(asked.pct(0.95)):>10}"
                f"  {baseline.throughput:12.1f}  {ms(baseline.pct(0.5)):>13}"
                f"  {ratio:8.1f}x  {asked.errors:6d}"
            )
        firsts, dones = await first_citation(base, streams, questions)
        if firsts and dones:
            first, done = statistics.median(firsts), statistics.median(dones)
            print(
                f"stream: first citation p50 {ms(first).strip()} ms, done p50 {ms(done).strip()}"
                f" ms ({first / done:.2f} of the answer time); {len(firsts)} of {len(dones)}"
                " streamed answers cited something"
            )


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small counts, sample corpus only")
    parser.add_argument("--history", action="store_true", help="one conversation of 240 turns")
    args = parser.parse_args()
    if args.history:
        print("# bench/serve.py --history: POST /api/ask as one conversation grows (loopback)")
        with tempfile.TemporaryDirectory(prefix="citecast-bench-") as tmp:
            config, settings = write_config(Path(tmp))
            ingest([REPO / "examples"], settings.index)
            with ServerProcess(config) as base:
                await conversation_growth(base, HISTORY_BANDS[-1][1])
        return 0
    counts = {1: 40, 16: 160, 64: 256} if not args.quick else {1: 10, 16: 32, 64: 64}
    print("# bench/serve.py: POST /api/ask vs GET /healthz on the same app (loopback, uvicorn)")
    with tempfile.TemporaryDirectory(prefix="citecast-bench-") as tmp:
        work = Path(tmp)
        small_config, small = write_config(work / "sample")
        ingest([REPO / "examples"], small.index)
        await bench_corpus("sample knowledge base (examples/)", small_config, QUESTIONS, counts, 12)
        if not args.quick:
            large_config, large = write_config(work / "large")
            started = time.perf_counter()
            generate_corpus(work / "corpus", 10_000)
            ingest([work / "corpus"], large.index)
            print(
                f"\n(generated and ingested the 10,000-chunk corpus in "
                f"{time.perf_counter() - started:.1f} s)"
            )
            await bench_corpus(
                "generated corpus (~10,000 chunks)", large_config, CORPUS_QUESTIONS, counts, 12
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
