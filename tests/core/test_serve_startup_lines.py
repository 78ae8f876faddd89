"""``citecast serve`` stopped at start by a refused credential says so in one line.

uvicorn's and the app's progress lines ("Application startup complete", then "Shutting down")
came first and read as a server that had come up; they are held until the server listens and
dropped when the start fails.
"""

from __future__ import annotations

import io
import logging
from pathlib import Path

from bot.commands.serve_startup_log import StartupLines
from tests.connectors.test_email_imap_refused import REFUSED, serve_refused_from_the_environment


def _logger(name: str) -> tuple[logging.Logger, io.StringIO]:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    logger = logging.getLogger(f"tests.startup.{name}")
    logger.handlers = [handler]
    logger.propagate = False
    logger.setLevel(logging.INFO)
    return logger, out


def test_info_lines_wait_for_the_start_and_warnings_do_not() -> None:
    logger, out = _logger("release")
    lines = StartupLines(logger.handlers)
    logger.info("Started server process")
    logger.warning("no knowledge index yet")
    assert out.getvalue() == "WARNING no knowledge index yet\n"
    lines.release()
    logger.info("listening")
    assert out.getvalue().splitlines() == [
        "WARNING no knowledge index yet",
        "INFO Started server process",
        "INFO listening",
    ]
    lines.close()


def test_a_failed_start_drops_its_info_lines_and_the_shutdown_lines() -> None:
    logger, out = _logger("drop")
    lines = StartupLines(logger.handlers)
    logger.info("Application startup complete.")
    lines.drop()
    logger.info("Shutting down")
    lines.release()  # (run_server's finally: nothing held, nothing written)
    lines.close()
    assert out.getvalue() == ""
    logger.info("after close")
    assert out.getvalue() == "INFO after close\n"


async def test_serve_with_a_refused_imap_password_prints_only_the_reason(
    tmp_path: Path,
) -> None:
    _, returncode, stderr = await serve_refused_from_the_environment(tmp_path)
    assert returncode == 2, stderr
    *before, last = stderr.splitlines()
    assert last.startswith(f"citecast serve: {tmp_path / 'config.yaml'}: {REFUSED}"), stderr
    # (a fresh folder: the missing index is a warning of its own, and stays)
    assert [line for line in before if " WARNING " not in line] == [], stderr
