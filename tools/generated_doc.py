"""Writing a generated document, or checking that it is up to date (``--check``): the one
behaviour of ``tools/audit_table.py``, ``tools/event_order.py`` and ``tools/omitted_keys.py``."""

from __future__ import annotations

import sys
from pathlib import Path


def write_or_check(output: Path, text: str, check: bool, module: str) -> int:
    """Write ``text`` to ``output`` when it differs (nothing is written otherwise); with
    ``check``, write nothing and return 1 (a line on stderr naming ``python -m module``, the
    command that regenerates it) if the file differs or is missing. Returns the exit code."""
    current = output.read_text(encoding="utf-8") if output.exists() else None
    if check:
        if current != text:
            print(f"{output} is out of date: run python -m {module}", file=sys.stderr)
            return 1
        return 0
    if current != text:
        output.write_text(text, encoding="utf-8")
    return 0
