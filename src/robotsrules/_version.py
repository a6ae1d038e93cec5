"""The version of robotsrules: one home, read by the package, the build and every output
that names the library (``--version``, the User-Agent, SARIF, output metadata)."""

__version__ = "0.1.0"
