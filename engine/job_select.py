"""Job select (CR 702.182a, Final Fantasy; rulings finalfantasy.job-select.01–06): the
keyword ``"job_select"`` stands for the triggered ability :data:`JOB_SELECT`; the ``attach``
effect and the rest of Equipment are in engine/equipment.py. Plain data, no imports, so that
engine/keywords.py can use it without an import cycle.
"""

#: CR 702.182a: "When this Equipment enters, create a 1/1 colorless Hero creature token,
#: then attach this to it." The token is created even if the Equipment has left the
#: battlefield (finalfantasy.job-select.02); it enters as a 1/1, then the Equipment is
#: attached (finalfantasy.job-select.03). It is named by CR 111.4 ("Hero Token" today).
JOB_SELECT = {
    "kind": "triggered",
    "trigger": {"event": "enters_battlefield", "object": "self"},
    "effects": [
        {"type": "create_token", "count": 1,
         "token": {"types": ["Creature"], "subtypes": ["Hero"], "colors": [],
                   "power": 1, "toughness": 1, "keywords": []}},
        {"type": "attach", "what": "self", "to": "created_tokens"},
    ],
}
