"""``python -m bot`` with no token, as its own process: how the playground's tests start it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path


def start_playground(folder: Path, *, browser: bool = False, **environment: str) -> subprocess.Popen[str]:
    """The playground started in ``folder`` (its database goes there), with no ``DISCORD_TOKEN``
    and no browser opened (``browser``: as the README's first command, which opens one where it
    can); its output and its log in ``stdout``, as text (one pipe: a log a test did not read would
    fill a second one and stall the bot)."""
    env = {key: value for key, value in os.environ.items() if key != "DISCORD_TOKEN"}
    env |= {"PYTHONPATH": str(Path.cwd()), **environment}
    return subprocess.Popen(
        [sys.executable, "-m", "bot", *([] if browser else ["--no-browser"])],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        # Ctrl-C is what stops the playground; a test run started in the background ignores it,
        # and its children would too.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
