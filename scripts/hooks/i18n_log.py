"""mkdocs hook: mkdocs-static-i18n reports at INFO only what it does wrong, not every setting it applies.

Each build, the i18n plugin logs about ten INFO lines ("Overriding 'en' config 'theme.palette' with [...]",
"Adding 'zh' to the 'material/search' plugin 'lang' option", …), which buried mkdocs serve's own lines.
Its loggers (``mkdocs.plugins.mkdocs_static_i18n.*``) are set to WARNING: its warnings and errors still show
(and still fail a strict build); ``mkdocs build -v`` (DEBUG) shows everything again.
"""

from __future__ import annotations

import logging

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority

I18N_LOGGER = "mkdocs.plugins.mkdocs_static_i18n"


def quiet_i18n(root_level: int) -> None:
    """Set the i18n plugin's loggers to WARNING unless mkdocs runs verbose (``root_level`` DEBUG)."""
    logging.getLogger(I18N_LOGGER).setLevel(logging.NOTSET if root_level <= logging.DEBUG else logging.WARNING)


@event_priority(100)
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    quiet_i18n(logging.getLogger("mkdocs").getEffectiveLevel())
    return config
