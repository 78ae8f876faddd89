"""Signed file downloads: tokens, expiry, audience, traversal, and the uniform 404."""

from __future__ import annotations

import base64
import json
import os
import stat
from pathlib import Path

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.errors import ConfigError
from bot.filetokens import FileSigner, FileTokenError, load_file_secret
from bot.models import Source
from tests.connectors.web.conftest import CannedAnswerer, build_harness, cited_answer, manual_pdf

SECRET = b"0123456789abcdef0123456789abcdef"
PUBLIC = frozenset({"public"})


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    root = tmp_path / "kb"
    (root / "guides").mkdir(parents=True)
    (root / "guides" / "install.md").write_text("# Install\n\nRun make serve.\n")
    (root / "manual.pdf").write_bytes(b"%PDF-1.4 fake")
    (root / "page.html").write_text("<script>alert(1)</script>")
    (tmp_path / "secret.txt").write_text("outside the knowledge base")
    return root


def file_source(path: Path, **kwargs: object) -> Source:
    return Source(id=str(path), path=str(path), filename=path.name, kind="file", **kwargs)  # type: ignore[arg-type]


def test_token_round_trip(kb: Path) -> None:
    signer = FileSigner(SECRET, "https://bot.example/", 600, roots=[kb])
    url = signer.url_for(file_source(kb / "guides" / "install.md"), PUBLIC)
    assert url is not None and url.startswith("https://bot.example/files/")
    grant = signer.verify(url.rsplit("/", 1)[1])
    assert grant.path == (kb / "guides" / "install.md").resolve()
    assert grant.filename == "install.md"
    assert grant.audience == PUBLIC
    assert grant.media_type == "text/markdown"


def test_token_does_not_reveal_the_absolute_path(kb: Path) -> None:
    signer = FileSigner(SECRET, "", 600, roots=[kb])
    token = signer.token_for(file_source(kb / "guides" / "install.md"), PUBLIC)
    assert token is not None
    body = token.split(".")[0]
    claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    assert claims["p"] == "guides/install.md"
    assert str(kb) not in json.dumps(claims)


def test_no_token_for_outside_invisible_or_pathless_sources(kb: Path, tmp_path: Path) -> None:
    signer = FileSigner(SECRET, "", 600, roots=[kb])
    assert signer.url_for(file_source(tmp_path / "secret.txt"), PUBLIC) is None
    assert signer.url_for(file_source(kb / ".." / "secret.txt"), PUBLIC) is None
    private = file_source(kb / "manual.pdf", audience=("staff",))
    assert signer.url_for(private, PUBLIC) is None
    assert signer.url_for(private, frozenset({"staff"})) is not None
    assert signer.url_for(Source(id="x", title="no file"), PUBLIC) is None
    assert FileSigner(SECRET, "", 600).url_for(file_source(kb / "manual.pdf"), PUBLIC) is None


def test_expired_and_tampered_tokens_fail_the_same_way(kb: Path) -> None:
    clock = Clock()
    signer = FileSigner(SECRET, "", 60, roots=[kb], clock=clock)
    token = signer.token_for(file_source(kb / "manual.pdf"), PUBLIC)
    assert token is not None
    signer.verify(token)
    body, sig = token.split(".")
    flipped = body[:-1] + ("A" if body[-1] != "A" else "B")
    other = FileSigner(b"another-secret-of-enough-length!", "", 60, roots=[kb], clock=clock)
    bad = [
        f"{flipped}.{sig}",
        f"{body}.{sig[:-1]}{'x' if sig[-1] != 'x' else 'y'}",
        body,
        "",
        "..",
        "a" * 5000,
        other.token_for(file_source(kb / "manual.pdf"), PUBLIC) or "",
    ]
    for token_text in bad:
        with pytest.raises(FileTokenError) as info:
            signer.verify(token_text)
        assert str(info.value) == "invalid or expired download link"
    clock.now += 61
    with pytest.raises(FileTokenError):
        signer.verify(token)


def test_forged_claims_with_traversal_are_rejected(kb: Path) -> None:
    signer = FileSigner(SECRET, "", 600, roots=[kb])
    token = signer.token_for(file_source(kb / "manual.pdf"), PUBLIC)
    assert token is not None
    body = token.split(".")[0]
    claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    for path in ("../secret.txt", "/etc/passwd", "guides/../../secret.txt"):
        forged = dict(claims, p=path)
        raw = json.dumps(forged, separators=(",", ":"), sort_keys=True).encode()
        forged_body = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
        # Even a correctly signed token (as if the secret leaked) cannot leave the root.
        with pytest.raises(FileTokenError):
            signer.verify(f"{forged_body}.{signer._sign(forged_body)}")


def test_symlink_out_of_the_root_is_refused(kb: Path, tmp_path: Path) -> None:
    link = kb / "escape.txt"
    link.symlink_to(tmp_path / "secret.txt")
    signer = FileSigner(SECRET, "", 600, roots=[kb])
    assert signer.url_for(file_source(link), PUBLIC) is None


def test_file_deleted_after_issue_is_invalid(kb: Path) -> None:
    signer = FileSigner(SECRET, "", 600, roots=[kb])
    target = kb / "guides" / "install.md"
    token = signer.token_for(file_source(target), PUBLIC)
    assert token is not None
    target.unlink()
    with pytest.raises(FileTokenError):
        signer.verify(token)


def test_single_file_root(kb: Path) -> None:
    signer = FileSigner(SECRET, "", 600, roots=[kb / "manual.pdf"])
    token = signer.token_for(file_source(kb / "manual.pdf"), PUBLIC)
    assert token is not None
    assert signer.verify(token).path == (kb / "manual.pdf").resolve()
    assert signer.token_for(file_source(kb / "page.html"), PUBLIC) is None


@given(st.text(max_size=200))
def test_arbitrary_tokens_never_verify_or_crash(token: str) -> None:
    signer = FileSigner(SECRET, "", 600, roots=["/"])
    with pytest.raises(FileTokenError):
        signer.verify(token)


def test_short_secret_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="at least 16"):
        FileSigner(b"short", "", 600)
    with pytest.raises(ConfigError, match="at least 16"):
        load_file_secret("short", ":memory:")


def test_secret_is_generated_once_with_owner_only_permissions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CITECAST_FILE_SECRET", raising=False)
    store = tmp_path / "state" / "citecast.db"
    first = load_file_secret("", str(store))
    second = load_file_secret("", str(store))
    assert first == second and len(first) >= 32
    mode = stat.S_IMODE(os.stat(tmp_path / "state" / "file_secret").st_mode)
    assert mode == 0o600
    # the folder it made holds the store and the index too: private whatever the umask
    assert stat.S_IMODE(os.stat(tmp_path / "state").st_mode) == 0o700
    monkeypatch.setenv("CITECAST_FILE_SECRET", "from-the-environment-123")
    assert load_file_secret("", str(store)) == b"from-the-environment-123"
    assert load_file_secret("configured-secret-value", str(store)) == b"configured-secret-value"


def test_loose_secret_file_permissions_are_tightened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CITECAST_FILE_SECRET", raising=False)
    (tmp_path / "file_secret").write_text("x" * 40)
    (tmp_path / "file_secret").chmod(0o644)
    assert load_file_secret("", str(tmp_path / "citecast.db")) == b"x" * 40
    assert stat.S_IMODE(os.stat(tmp_path / "file_secret").st_mode) == 0o600


async def test_files_route_serves_and_refuses_uniformly(kb: Path, tmp_path: Path) -> None:
    clock = Clock(10_000_000_000.0)
    signer = FileSigner(SECRET, "http://citecast.test", 60, roots=[kb], clock=clock)
    answerer = CannedAnswerer(cited_answer())
    _, client = build_harness(tmp_path, answerer, signer=signer)
    pdf = signer.token_for(file_source(kb / "manual.pdf"), PUBLIC)
    html = signer.token_for(file_source(kb / "page.html"), PUBLIC)
    assert pdf is not None and html is not None
    async with client:
        ok = await client.get(f"/files/{pdf}")
        assert ok.status_code == 200
        assert ok.content == b"%PDF-1.4 fake"
        assert ok.headers["content-type"] == "application/pdf"
        assert ok.headers["content-disposition"].startswith("inline")
        assert ok.headers["x-content-type-options"] == "nosniff"
        # Chrome will not start its PDF viewer in a sandboxed document: no CSP for a PDF
        assert "content-security-policy" not in ok.headers
        # HTML is shown on the sanitized reading page, never as itself
        risky = await client.get(f"/files/{html}")
        assert "content-disposition" not in risky.headers
        assert "sandbox" in risky.headers["content-security-policy"]
        assert risky.headers["x-content-type-options"] == "nosniff"
        assert "<script" not in risky.text and "alert(1)" not in risky.text
        refusals: list[httpx.Response] = []
        tampered = pdf[:-2] + ("xx" if pdf[-2:] != "xx" else "yy")
        for token in (tampered, "..%2F..%2Fsecret.txt", "%2e%2e", "x" * 3000):
            refusals.append(await client.get(f"/files/{token}"))
        refusals.append(await client.get("/files/../secret.txt"))
        (kb / "page.html").unlink()
        refusals.append(await client.get(f"/files/{html}"))
        clock.now += 120
        refusals.append(await client.get(f"/files/{pdf}"))
    for response in refusals:
        assert response.status_code == 404
        assert response.json() == {"error": "not found"}
        assert "outside the knowledge base" not in response.text


async def test_signed_links_appear_in_answers_for_files_without_url(
    kb: Path, tmp_path: Path
) -> None:
    source = manual_pdf(kb)
    answerer = CannedAnswerer(cited_answer(source))
    _, client = build_harness(tmp_path, answerer, file_roots=[str(kb)])
    async with client:
        body = (await client.post("/api/ask", json={"question": "restart?"})).json()
        [citation] = body["citations"]
        assert citation["form"] == "download"
        url = citation["url"]
        assert url.startswith("http://citecast.test/files/")
        assert url.endswith("#page=3"), "PDF links open at the cited page"
        download = await client.get(url.split("#")[0].removeprefix("http://citecast.test"))
    assert download.status_code == 200
    assert download.content == b"%PDF-1.4 fake"
    assert str(kb) not in json.dumps(body["citations"])
