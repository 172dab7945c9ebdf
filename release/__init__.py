"""Release tooling: `python -m release` builds what a release ships (see __main__.py)."""
