"""pytest plugin of mtg-judge (loaded by ``-p conformance.pytest_plugin`` in pyproject.toml)."""
