"""Benchmark: memory of parsing a mail at the size limit, against the stdlib parse measured in
the same run (what ``parse_mail`` did before ``email_skim``).

Mails of ``--mb`` MB (25: ``email.max_message_bytes``): one base64 attachment, eight of them,
a huge text/plain body (lines of prose), a huge quoted-printable body. For each, and for each
of the two parses, a fresh interpreter reads the mail from a file and measures the tracemalloc
peak (allocations made by the parse: the same on every run) and the process's maximum resident
set (interpreter and mail included; "base": before the parse). Printed: the peaks as multiples
of the mail's size, their new/old ratio (targets: new peak <= 2x the mail, and <= 0.25 of the
old peak), the maximum resident sets in MB, and the new/old ratio of CPU time (informative).
Run: .venv/bin/python bench/email_memory.py [--mb 25]
"""

from __future__ import annotations

import argparse
import base64
import email
import email.policy
import json
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.connectors.email_bodies import bodies  # noqa: E402
from bot.connectors.email_parse import parse_mail  # noqa: E402
from bot.connectors.email_parts import carries_files  # noqa: E402

HEAD = (
    b"From: Ann <ann@example.com>\r\nTo: help@docs.example.org\r\nSubject: Retries\r\n"
    b"Message-ID: <big@example.com>\r\nMIME-Version: 1.0\r\n"
)
TEXT = b"Content-Type: text/plain\r\n\r\nHow do I configure retries?\r\n\r\nAnn\r\n"
PROSE = b"lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor\r\n"
QP = b"r=C3=A9glage =C3=BCber na=C3=AFve log: 12:00:01 - item r=C3=A9glage =C3=BCber=\r\n"


def multipart(*parts: bytes) -> bytes:
    head = HEAD + b'Content-Type: multipart/mixed; boundary="=b="\r\n\r\n'
    return head + b"".join(b"--=b=\r\n" + part + b"\r\n" for part in parts) + b"--=b=--\r\n"


def attachment(name: str, size: int) -> bytes:
    line = base64.b64encode(bytes(range(57))) + b"\r\n"
    return (
        b"Content-Type: application/pdf\r\nContent-Transfer-Encoding: base64\r\n"
        b'Content-Disposition: attachment; filename="%s"\r\n\r\n'
        % name.encode()
        + line * (size // len(line))
    )


def mail(kind: str, size: int) -> bytes:
    if kind == "one attachment":
        return multipart(TEXT, attachment("big.pdf", size))
    if kind == "8 attachments":
        return multipart(TEXT, *(attachment(f"f{i}.pdf", size // 8) for i in range(8)))
    if kind == "huge text body":
        return HEAD + b"Content-Type: text/plain\r\n\r\n" + PROSE * (size // len(PROSE))
    qp = b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable"
    return HEAD + qp + b"\r\n\r\n" + QP * (size // len(QP))


def stdlib_parse(raw: bytes) -> object:
    """The old parse_mail's work: the whole mail through the stdlib parser, bodies decoded."""
    msg = email.message_from_bytes(raw, policy=email.policy.compat32)
    return bodies(msg), carries_files(msg)


def measure(path: Path, which: str) -> dict[str, float]:
    raw = path.read_bytes()  # one allocation of the mail's size, as a server's read is
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    parse = parse_mail if which == "new" else stdlib_parse
    started = time.process_time()
    parse(raw)
    cpu = time.process_time() - started
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    tracemalloc.start()
    parse(raw)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"raw": len(raw), "peak": peak, "rss": rss * 1024, "base": base * 1024, "cpu": cpu}


def child(path: Path, which: str) -> dict[str, float]:
    cmd = [sys.executable, __file__, "--child", str(path), which]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    result: dict[str, float] = json.loads(out)
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=25.0)
    parser.add_argument("--child", nargs=2)
    args = parser.parse_args()
    size = int(args.mb * 2**20)
    if args.child:
        print(json.dumps(measure(Path(args.child[0]), args.child[1])))
        return
    folder = Path(tempfile.mkdtemp(prefix="email-memory-"))
    print(f"{'mail':16} {'MB':>5} {'old peak':>9} {'new peak':>9} {'new/old':>8} "
          f"{'base RSS':>8} {'old RSS':>8} {'new RSS':>8} {'cpu new/old':>11}")  # fmt: skip
    for kind in ("one attachment", "8 attachments", "huge text body", "huge qp body"):
        path = folder / "mail.eml"
        path.write_bytes(mail(kind, size))
        old, new = child(path, "old"), child(path, "new")
        raw = new["raw"]
        print(
            f"{kind:16} {raw / 1e6:5.1f} {old['peak'] / raw:8.2f}x {new['peak'] / raw:8.2f}x "
            f"{new['peak'] / old['peak']:8.3f} {new['base'] / 1e6:6.0f}MB "
            f"{old['rss'] / 1e6:6.0f}MB {new['rss'] / 1e6:6.0f}MB "
            f"{new['cpu'] / max(old['cpu'], 1e-9):11.2f}"
        )
        path.unlink()
    folder.rmdir()


if __name__ == "__main__":
    main()
