"""The setup of a scenario (FORMAT §3.1) as a phase game (:class:`Setup`, a mixin of
:class:`~.run.PhaseRun`).

Setup (FORMAT §3.1). phase has no "set up this position" call, so the adapter makes one
from a real game: ``new_game`` with each player's cards as their deck, both players keep,
then the exported state is edited (each object moved to its setup zone and order, tapped,
damage, counters, controller, summoning sickness, Aura attachment; life, lands played, turn,
active player) and loaded back with ``load_game``. The game must start *as the setup step
begins*, with its turn-based actions and "at the beginning of" triggers; so the state is
loaded at the end of the step before it (``draw`` for ``precombat_main``,
``beginning_of_combat`` for ``declare_attackers``, the previous player's ``end`` step for
``untap``, ...) with priority, both players pass, and phase itself begins the step. The
events of that step change are kept (``step_began``, untaps, draws, triggers); the two
passes are not reported. A starting mana pool is put into phase's pool (one unit per mana,
no source, no restriction) once the step has begun, since beginning it empties pools.
A battlefield entry's ``prepared`` (FORMAT §11.9) sets phase's own ``prepared`` flag on
the permanent (phase makes no copy object until the copy is cast: the adapter names the copy
``prepared#N`` in entry order). Setups that this cannot express are skipped: more than two
players, a counter kind phase has no counter for (a +X/+Y counter other than +1/+1 and
-1/-1: phase would make it a ``Generic`` counter that changes no power or toughness; any
single-word kind is phase's own name for it, ``time``, ``lore``, ``loyalty``, ``storage``), a
``transformed`` permanent (phase keeps a transformed permanent as the back face's
characteristics with the front in ``back_face``, trigger-instance bookkeeping included: the
adapter does not rebuild that by hand), an Aura attached to a
permanent of another player's list, a start in ``cleanup`` or in a combat damage step, any
field of a card outside the battlefield but its alias, card and counters, and any
setup-object field not listed in ``KNOWN_OBJECT``. Counters on a card outside the
battlefield are set on phase's object there: a card in exile with suspend and a time counter
is suspended (CR 702.62b), which is all phase's suspend triggers look at. A ``face_down``
permanent gets the fields phase itself gives the card when it turns it face down (its
``PlayFaceDown`` in a scratch game of that card alone: a nameless 2/2 with its face kept in
``back_face``, CR 708.2), not fields the adapter makes up. A
permanent's ``chosen_name`` (Meddling Mage) becomes phase's ``chosen_attributes`` entry
``{"type": "CardName", "value": ...}``, as phase records a ``NamedChoice``.
"""

from __future__ import annotations

from typing import Any

from mtg_judge.tools.adapters.common import Skip
from mtg_judge.tools.adapters.phase.binding import PHASE_VERSION, action
from mtg_judge.tools.adapters.phase.core import RunCore
from mtg_judge.tools.adapters.phase.vocabulary import (
    LETTER_PHASE_COLOR,
    PHASE_TO_STEP,
    PREVIOUS_STEP,
    ZONE_NAME,
    phase_counter,
)

#: :meth:`Setup.face_down_fields` per engine (``id``) and card name
_FACE_DOWN: dict[int, tuple[Any, dict[str, dict]]] = {}


class Setup(RunCore):
    """Builds the starting position in phase (a mixin of :class:`~.run.PhaseRun`)."""

    KNOWN_SETUP = {"seed", "turn", "active_player", "step", "lands_played", "players"}

    KNOWN_PLAYER = {"id", "life", "library", "hand", "graveyard", "exile", "battlefield",
                    "mana_pool"}

    #: the fields of a setup object (FORMAT §3.1) the adapter sets up (or skips, for
    #: ``face_down`` and counters phase is not given here)
    KNOWN_OBJECT = {"alias", "card", "tapped", "damage", "counters", "controller",
                    "summoning_sick", "attached_to", "face_down", "chosen_name", "prepared"}

    #: why a setup field is not given to phase (the skip message names it)
    WHY_NOT = {
        "start_of_game": "phase-python's Engine.new_game shuffles the decks and deals the "
                         f"opening hands itself, with no way to give it a library order "
                         f"(phase-python {PHASE_VERSION})",
        "deck_rules": f"phase-python has no deck-construction check to ask (phase-python "
                      f"{PHASE_VERSION})",
        "transformed": "a permanent set up with its back face up: not translated (phase "
                       "keeps a transformed flag, but the adapter sets up no swapped faces)",
    }

    def build(self) -> None:
        """Start phase's game at the setup (FORMAT §3.1; see the module docstring): a new game,
        its state edited and loaded at the end of the step before the setup step, both players
        pass so that phase begins it, then the mana pools. Raises :class:`Skip` for what the
        setup cannot express in phase."""
        setup = self.setup
        extra = sorted(set(setup) - self.KNOWN_SETUP) + sorted(
            {k for p in setup.get("players", []) for k in p} - self.KNOWN_PLAYER)
        extra += sorted({k for p in setup.get("players", []) for z in ("library", "hand",
                         "graveyard", "exile", "battlefield") for e in p.get(z, [])
                         for k in e} - self.KNOWN_OBJECT)
        if extra:
            raise Skip(f"setup field(s) {', '.join(extra)}: "
                       + "; ".join(self.WHY_NOT.get(k, "not translated for phase") for k in extra))
        turn = setup.get("turn", 1)
        step = setup.get("step", "precombat_main")
        if step not in PREVIOUS_STEP or PREVIOUS_STEP[step] is None:
            raise Skip(f"a game cannot be started in phase as the {step} step begins")
        active = self.seat[setup.get("active_player", self.players[0])]
        decks = []
        for p in setup["players"]:
            names = [e["card"] for z in ("library", "hand", "graveyard", "exile", "battlefield")
                     for e in p.get(z, [])]
            decks.append(names)
        filler = None
        if not all(decks):
            filler = next(iter(self.cards))
            decks = [d or [filler] for d in decks]
        game = self.engine.new_game(player=decks[0], opponent=decks[1],
                                    seed=int(setup.get("seed", 0)) % (2 ** 63),
                                    first_player=active)
        for _ in range(8):
            wf = game.waiting_for()
            if wf.get("type") != "MulliganDecision":
                break
            seat = wf["data"]["pending"][0]["player"]
            keep = next(a for a in game.actions() if a.kind == "MulliganDecision"
                        and a.data["choice"]["type"] == "Keep")
            game.apply(seat, keep)
        exported = game.state()
        st = exported["state"]
        objs = st["objects"]
        ts = int(st.get("next_timestamp", 1))
        battlefield, exile = [], []
        attach: list[tuple[int, str]] = []
        for seat, p in enumerate(setup["players"]):
            P = st["players"][seat]
            pool: dict[str, list[int]] = {}
            owned = sorted(P["library"] + P["hand"] + P["graveyard"])
            for oid in owned:
                pool.setdefault(objs[str(oid)]["name"], []).append(oid)
            lists: dict[str, list[int]] = {z: [] for z in ZONE_NAME.values()}
            for z, zname in (("library", "Library"), ("hand", "Hand"),
                             ("graveyard", "Graveyard"), ("exile", "Exile"),
                             ("battlefield", "Battlefield")):
                for e in p.get(z, []):
                    oid = pool[e["card"]].pop(0)
                    self.alias[oid] = e["alias"]
                    self.count[oid] = 1
                    o = objs[str(oid)]
                    o["zone"] = zname
                    lists[z].append(oid)
                    if z != "battlefield" and set(e) - {"alias", "card", "counters"}:
                        raise Skip(f"setup field(s) {', '.join(sorted(set(e) - {'alias', 'card', 'counters'}))}"
                                   f" of a card in the {z} are not set up in phase here")
                    if z != "battlefield":
                        # counters on a card outside the battlefield: a suspended card is
                        # one in exile with suspend and a time counter (CR 702.62b), which
                        # is all phase's suspend triggers look at
                        o["counters"] = self.counters(e)
                    if z == "battlefield":
                        self._setup_permanent(o, e, seat, turn, ts)
                        if e.get("prepared"):
                            # phase's prepared designation (FORMAT §11.9): its own flag
                            if (o.get("back_face") or {}).get("layout_kind") != "Prepare":
                                raise Skip(f"{e['alias']}: phase's object has no prepare "
                                           "spell to be prepared with")
                            o["prepared"] = True
                            self.prepared_n += 1
                            self.prepared[oid] = f"prepared#{self.prepared_n}"
                            self.prepared_by[self.prepared[oid]] = o["controller"]
                        ts += 1
                        if e.get("attached_to"):
                            attach.append((oid, e["attached_to"]))
            # the filler card (a player with no cards at all) leaves the game
            leftovers = [oid for ids in pool.values() for oid in ids]
            for oid in leftovers:
                if filler is None:
                    raise Skip("setup bookkeeping: unexpected extra card")
                del objs[str(oid)]
            P["library"], P["hand"], P["graveyard"] = (lists["library"], lists["hand"],
                                                       lists["graveyard"])
            P["life"] = p.get("life", 20)
            P["lands_played_this_turn"] = setup.get("lands_played", 0) if seat == active else 0
            P["drew_from_empty_library"] = False
            P["cards_drawn_this_turn"] = 0
            P["has_drawn_this_turn"] = False
            exile += lists["exile"]
            battlefield += lists["battlefield"]
        for oid, host_alias in attach:
            host = next((h for h, a in self.alias.items() if a == host_alias), None)
            if host is None:
                raise Skip(f"Aura host {host_alias!r} not found")
            objs[str(oid)]["attached_to"] = {"type": "Object", "data": host}
            objs[str(host)].setdefault("attachments", []).append(oid)
        st["battlefield"], st["exile"] = battlefield, exile
        st["next_timestamp"] = ts
        st["lands_played_this_turn"] = setup.get("lands_played", 0)
        st["zone_changes_this_turn"] = []
        st["steps_started_this_turn"] = {}
        previous = PREVIOUS_STEP[step]
        if step == "untap":  # the end step of the previous turn, the other player's
            if turn < 2:
                raise Skip("a game cannot be started in phase in the untap step of turn 1")
            st["turn_number"] = turn - 1
            prev_active = 1 - active
            if len(st["players"][prev_active]["hand"]) > 7:
                raise Skip("starting in untap would make the other player discard at cleanup")
        else:
            st["turn_number"] = turn
            prev_active = active
        st["active_player"] = prev_active
        st["priority_player"] = prev_active
        st["phase"] = previous
        st["waiting_for"] = {"type": "Priority", "data": {"player": prev_active}}
        st["priority_pass_count"] = 0
        st["priority_passes"] = []
        self.load(exported)
        self.turn = st["turn_number"]
        self.events.append({"type": "game_started", "players": list(self.players),
                            "active_player": self.players[active], "turn": turn,
                            "step": step, "ruleset": self.ruleset,
                            "seed": setup.get("seed", 0)})
        # both players pass: phase begins the setup step itself
        for _ in range(2):
            wf = self.waiting()
            if wf.get("type") != "Priority":
                break
            result = self.act(wf["data"]["player"], action("PassPriority"))
            self.translate(result.events, skip_passes=True)
        if step == "untap":
            pass
        elif PHASE_TO_STEP.get(self.game.phase) != step and not (
                step == "declare_attackers" and self.game.phase in ("EndCombat",)):
            raise Skip(f"phase did not begin {step} from the loaded state "
                       f"(it is in {self.game.phase})")
        if any(p.get("mana_pool") for p in setup["players"]):
            self.fill_pools()
        self.note_priority()

    def fill_pools(self) -> None:
        """The setup's mana pools (FORMAT §3.1), put into phase's pools once the setup step
        has begun (beginning it empties them): one unit per mana, as phase's pool holds it,
        with no source (it came from nowhere in this game) and no restriction."""
        exported = self.game.state()  # edited, then loaded: not the cached read
        st = exported["state"]
        pip = int(st.get("next_pip_id", 1))
        for seat, p in enumerate(self.setup["players"]):
            units = []
            for letter, n in (p.get("mana_pool") or {}).items():
                color = LETTER_PHASE_COLOR.get(letter)
                if color is None or not isinstance(n, int):
                    raise Skip(f"mana pool entry {letter!r}: {n!r} is not set up in phase here")
                for _ in range(n):
                    units.append({"color": color, "source_id": 0, "pip_id": pip,
                                  "snow": False, "restrictions": []})
                    pip += 1
            st["players"][seat]["mana_pool"] = {"mana": units}
        st["next_pip_id"] = pip
        self.load(exported)

    #: the fields of a phase object that say where and since when it is, not what it is
    PLACE_FIELDS = frozenset({"zone", "timestamp", "entered_battlefield_turn",
                              "entered_via_ability_source", "has_summoning_sickness",
                              "summoning_sick", "incarnation", "controller", "base_controller",
                              "tapped", "damage_marked", "counters", "attached_to",
                              "attachments"})

    def face_down_fields(self, name: str) -> dict:
        """The fields phase gives a card of this name when it turns it face down (CR 708.2: a
        2/2 creature with no name, types, color or abilities; its own face kept in
        ``back_face`` for ``TurnFaceUp``), as phase's ``PlayFaceDown`` makes them in a
        scratch game of that card alone: the setup object gets phase's own face-down
        object, not one the adapter builds by hand. Cached per card name. Raises
        :class:`Skip` when phase will not turn it face down."""
        engine, cached = _FACE_DOWN.get(id(self.engine), (None, {}))
        if engine is self.engine and name in cached:
            return cached[name]
        game = self.engine.new_game(player=[name], opponent=[name], seed=0, first_player=0)
        for _ in range(8):
            wf = game.waiting_for()
            if wf.get("type") != "MulliganDecision":
                break
            keep = next(a for a in game.actions() if a.kind == "MulliganDecision"
                        and a.data["choice"]["type"] == "Keep")
            game.apply(wf["data"]["pending"][0]["player"], keep)
        st = game.state()["state"]
        oid = (st["players"][0]["hand"] or [None])[0]
        if oid is None:
            raise Skip(f"{name}: no scratch game to turn it face down in")
        before = st["objects"][str(oid)]
        try:
            game.apply(0, action("PlayFaceDown", {"object_id": oid, "card_id": oid}))
        except ValueError as exc:
            raise Skip(f"{name}: phase will not turn it face down ({exc})") from None
        after = game.state()["state"]["objects"][str(oid)]
        fields = {k: v for k, v in after.items()
                  if k not in self.PLACE_FIELDS and before.get(k) != v}
        # the fields phase drops (``base_name``, ``base_abilities``): None, deleted on use
        fields.update({k: None for k in before if k not in after and k not in self.PLACE_FIELDS})
        if engine is not self.engine:
            cached = {}
            _FACE_DOWN[id(self.engine)] = (self.engine, cached)
        cached[name] = fields
        return fields

    def counters(self, entry: dict) -> dict[str, int]:
        """phase's ``counters`` map of a setup object (FORMAT §3.1). Raises :class:`Skip` for a
        counter kind phase has none for (:func:`~.vocabulary.phase_counter`)."""
        counters = {}
        for name, n in (entry.get("counters") or {}).items():
            kind = phase_counter(name)
            if kind is None:
                raise Skip(f"counter kind {name!r}: phase has no such counter (it would be a "
                           "Generic counter that changes no power or toughness)")
            counters[kind] = n
        return counters

    def _setup_permanent(self, o: dict, e: dict, seat: int, turn: int, ts: int) -> None:
        o["tapped"] = bool(e.get("tapped", False))
        o["damage_marked"] = int(e.get("damage", 0))
        o["counters"] = self.counters(e)
        printed = self.cards.get(e["card"], {}).get("loyalty")
        if isinstance(printed, int) and "counters" not in e:
            # FORMAT §12.1: a planeswalker set up without counters has its printed loyalty
            o["counters"]["loyalty"] = printed
        if "loyalty" in o["counters"]:
            o["loyalty"] = o["counters"]["loyalty"]  # phase keeps it in both places
        controller = self.seat[e.get("controller", self.players[seat])]
        o["controller"] = controller
        o["base_controller"] = controller
        sick = bool(e.get("summoning_sick", False))
        o["summoning_sick"] = sick
        o["has_summoning_sickness"] = sick
        o["entered_battlefield_turn"] = turn if sick else max(0, turn - 1)
        o["timestamp"] = ts
        if e.get("face_down"):
            for k, v in self.face_down_fields(o["name"]).items():
                if v is None:
                    o.pop(k, None)
                else:
                    o[k] = v
        if e.get("chosen_name") is not None:
            # the name chosen as it entered (Meddling Mage), as phase records a NamedChoice
            o["chosen_attributes"] = [{"type": "CardName", "value": e["chosen_name"]}]
