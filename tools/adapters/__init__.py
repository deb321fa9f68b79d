"""Adapters that put real third-party rules engines behind protocol v1 (DESIGN §9, §12).

Each adapter is a small program speaking docs/PROTOCOL.md on stdin/stdout:

* ``python -m mtg_judge.tools.adapters.phase_adapter``: phase.rs through its Python bindings
  (PyPI ``phase-python``, import name ``phase``); the adapter is the package
  :mod:`mtg_judge.tools.adapters.phase`, one module per part of the translation;
* ``python -m mtg_judge.tools.adapters.pymtg_adapter``: the Datalog engine of PyPI ``python-mtg``
  (import name ``mtg``).

:mod:`mtg_judge.tools.adapters.common` holds the protocol loop they share. Their measured compliance is
in docs/COMPLIANCE.md.
"""
