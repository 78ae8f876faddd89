"""``python -m bot`` runs the citecast command."""

from bot.cli import main

raise SystemExit(main())
