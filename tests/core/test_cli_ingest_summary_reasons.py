"""A skip reason that names a file is printed on one line, its control characters shown.

Found by QA: the summary wrote each skipped file's path through ``one_line`` but its reason
raw, and an audience rule's reason names the file (``audience rule hr/* gives hr (as
hr/NAME)``): a file named with a line break and an escape sequence printed a forged
``skipped forged.md`` line and coloured the operator's terminal.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.cli_runner import run_cli

CONFIG = (
    'index:\n  path: .citecast/index.db\n  audience_rules:\n    - glob: "hr/*"\n'
    "      audience: [hr]\n"
)
NAME = "pay\n  skipped forged.md: \x1b[31mred.md"


def test_a_reason_naming_a_hostile_file_stays_on_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "kb" / "hr").mkdir(parents=True)
    (tmp_path / "kb" / "hr" / NAME).write_text("# Pay\n\nThe band is 90k.\n", encoding="utf-8")
    (tmp_path / "config.yaml").write_text(CONFIG, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(monkeypatch, capsys, ["ingest", "--audience", "staff", "."])
    assert code == 0, err
    assert "\x1b" not in out
    skipped = [line for line in out.splitlines() if line.lstrip().startswith("skipped")]
    assert len(skipped) == 1
    shown = "pay\\n  skipped forged.md: \\x1b[31mred.md"
    assert skipped[0] == (
        f"  skipped {tmp_path.name}/kb/hr/{shown}: audience rule hr/* gives hr (as hr/{shown}) and "
        "--audience staff: no group may see both"
    )
