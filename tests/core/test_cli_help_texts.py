"""``--help`` says what README's Configuration section says about finding config.yaml.

Found in a QA pass of the CLI: ``--config``'s help gave ./config.yaml as the default, leaving
out ``$CITECAST_CONFIG``, which comes first.
"""

from __future__ import annotations

import pytest

from bot.cli import main


@pytest.mark.parametrize("argv", [["--help"], ["ask", "--help"], ["serve", "--help"]])
def test_config_help_names_the_environment_variable(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 0
    help_text = " ".join(capsys.readouterr().out.split())  # argparse wraps at the width
    assert (
        "--config CONFIG path to config.yaml (default: $CITECAST_CONFIG, else ./config.yaml)"
        in (help_text)
    )
