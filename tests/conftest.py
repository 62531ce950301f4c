"""Shared test set-up.

The tests must not depend on which plugin packages happen to be installed
beside baccarat (docs/example-plugin installed as its README says, say):
every entry point of the ``baccarat`` group that is not the built-in library
is kept from loading through ``BACCARAT_DISABLE_PLUGINS``, set here for this
process and, by inheritance, for every ``baccarat`` command a test starts.
Tests of third-party packages install them themselves and clear the variable.
"""

import os
import sys
from importlib.metadata import entry_points
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from baccarat.plugin.manager import BUILT_IN_DISTRIBUTION, DISABLE_ENV, ENTRY_POINT_GROUP  # noqa: E402

THIRD_PARTY_PLUGINS = sorted(
    {ep.name for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.dist is None or ep.dist.metadata["Name"] != BUILT_IN_DISTRIBUTION}
)
"""Names of the installed third-party entry-point plugins, disabled in the tests."""

if THIRD_PARTY_PLUGINS:
    os.environ[DISABLE_ENV] = ",".join(THIRD_PARTY_PLUGINS)
