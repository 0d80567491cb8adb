"""Where the Discord adapter's parts may reach, read from their import statements (all of them:
TYPE_CHECKING and function-level ones too).

The publisher decides which message shows what and talks to Discord only through the message
operations' protocol, so that it can move below the adapters as is; the items find their cogs
on the bot, so that the widgets never import a handler."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DISCORD = ROOT / "bot" / "discord"


def imported(path: Path) -> set[str]:
    """Every module an import statement of `path` names (`from a import b` names `a` and
    `a.b`)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_the_reader_sees_every_kind_of_import() -> None:
    source = DISCORD / "items.py"
    assert {"discord", "bot.presentation.buttons", "bot.presentation.buttons.parse"} <= imported(
        source
    )


@pytest.mark.parametrize("module", ["publisher.py", "message_ops.py", "switches.py"])
def test_the_publisher_side_never_calls_discord(module: str) -> None:
    names = imported(DISCORD / module)
    assert not {n for n in names if n == "discord" or n.startswith("discord.")}
    ours = {n for n in names if n.startswith("bot.discord.")}
    allowed = (
        "bot.discord.chats",
        "bot.discord.message_ops",
        "bot.discord.reply",
        "bot.discord.switches",
    )
    assert {n for n in ours if not n.startswith(allowed)} == set()


def test_no_item_or_widget_imports_a_handler() -> None:
    for module in ("items.py", "layout.py", "texts.py", "messages.py"):
        names = imported(DISCORD / module)
        reached = {n for n in names if n.startswith(("bot.discord.cogs", "bot.discord.app"))}
        assert reached == set(), module
