"""The one version of nightsky. ``pyproject.toml`` reads it at build time
(``[tool.setuptools.dynamic]``); ``nightsky.__version__``, ``nightsky --version`` and the
server's OpenAPI document import it."""

__version__ = "0.1.0"
