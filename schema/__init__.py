"""Package data, not code: the JSON Schemas (draft 2020-12) of scenarios, cards, events, states
and protocol messages. Found through :mod:`mtg_judge.conformance.resources`."""
