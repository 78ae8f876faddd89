"""A Ctrl-C or SIGTERM that reaches ``citecast serve`` while it is still starting is not lost:
the server stops as soon as it has started, and a second signal still exits at once."""

from __future__ import annotations

import signal

import pytest
import uvicorn
from starlette.applications import Starlette

from bot.commands import serve
from bot.commands.serve import build_server, signals_while_starting


def _server(early: list[int], started: list[str]) -> uvicorn.Server:
    config = uvicorn.Config(
        Starlette(), host="127.0.0.1", port=0, lifespan="off", log_level="warning"
    )
    return build_server(
        Starlette(), config, on_started=lambda: started.append("ready"), early=early
    )


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_before_the_server_listens_stops_it_once_started(sig: int) -> None:
    started: list[str] = []
    before = signal.getsignal(signal.SIGINT)
    with signals_while_starting() as received:
        signal.raise_signal(sig)  # while the index, store and channels are still being set up
        assert received == [sig]
        server = _server(received, started)
        server.run()  # returns once stopped: it would otherwise serve until the next signal
    assert server.started and server.should_exit
    assert started == []  # never said "listening on" for a server that is stopping
    assert signal.getsignal(signal.SIGINT) is before  # the caller's handlers are back


def test_a_second_signal_while_starting_exits_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    exits: list[int] = []
    monkeypatch.setattr(serve, "_exit_at_once", exits.append)
    with signals_while_starting() as received:
        signal.raise_signal(signal.SIGINT)
        signal.raise_signal(signal.SIGTERM)
    assert received[0] == signal.SIGINT
    assert exits == [signal.SIGTERM]  # (the stand-in returns; the real one never does)
