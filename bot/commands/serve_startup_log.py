"""``citecast serve``'s start-up lines, held until the server is known to run.

A connector that the platform refuses at start (a revoked Slack token, an IMAP password the
server rejects) stops the server with one line naming the key. Before that line, uvicorn and
the app had already logged their progress ("Started server process", "Application startup
complete", then "Shutting down" …), which read as a server that came up. So the INFO lines of
the start are held: once the server listens they are written as they came, and a start that
ends in such an error drops them and the shutdown lines after them, leaving the error alone.
Warnings and errors are never held.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable


class _Hold(logging.Filter):
    """One handler's filter: holds its INFO records while the start is undecided."""

    def __init__(self, handler: logging.Handler, lines: StartupLines) -> None:
        super().__init__()
        self.handler = handler
        self.lines = lines

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING or self.lines.state == "released":
            return True
        if self.lines.state == "holding":
            self.lines.held.append((self.handler, record))
        return False


class StartupLines:
    """Holds the INFO lines ``handlers`` would write until :meth:`release` or :meth:`drop`."""

    def __init__(self, handlers: Iterable[logging.Handler] = ()) -> None:
        self.state = "holding"
        self.held: list[tuple[logging.Handler, logging.LogRecord]] = []
        self._filters: list[tuple[logging.Handler, _Hold]] = []
        self.watch(handlers)

    def watch(self, handlers: Iterable[logging.Handler]) -> None:
        """Hold the INFO lines of ``handlers`` too (those not watched already)."""
        watched = {id(handler) for handler, _ in self._filters}
        for handler in handlers:
            if id(handler) not in watched:
                watched.add(id(handler))
                hold = _Hold(handler, self)
                handler.addFilter(hold)
                self._filters.append((handler, hold))

    def release(self) -> None:
        """The server runs: write the held lines, in order, and hold nothing more."""
        if self.state != "holding":
            return
        self.state = "released"
        held, self.held = self.held, []
        for handler, record in held:
            handler.handle(record)

    def drop(self) -> None:
        """The start failed: forget the held lines and the INFO lines still to come."""
        self.state = "dropped"
        self.held = []

    def close(self) -> None:
        """Take the filters off their handlers (nothing held is written)."""
        for handler, hold in self._filters:
            handler.removeFilter(hold)


def hold_startup_lines() -> StartupLines:
    """Hold the INFO lines of the root logger's handlers (and, with :meth:`StartupLines.watch`
    once uvicorn has configured its logging, uvicorn's)."""
    return StartupLines(logging.getLogger().handlers)


def uvicorn_handlers() -> list[logging.Handler]:
    """The handlers uvicorn writes its own lines with (configured by its ``Config``)."""
    return list(logging.getLogger("uvicorn").handlers)
