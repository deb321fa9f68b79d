"""Mutation self-check of the suite (``mtg-judge mutants``).

A *mutation* switches one rule of the reference engine off (or gets it wrong on purpose):
no state-based action for lethal damage, a stack that resolves first-in-first-out, storm
that makes no copies… The whole suite then runs against the mutated engine. A mutation is
**killed** when at least one case that passes on the real engine fails or errors under it;
a mutation that **survives** is a rule no fixture checks: a gap in the fixtures.

Each mutation is a small, documented in-memory patch, applied only inside the process that
runs it and undone afterwards (:func:`applied`); engine files are never edited:

- ``replace``: an engine function or method replaced by another (``unittest.mock.patch``);
- ``wrap``: an engine function or method wrapped (it calls the original);
- ``rewrite``: an engine function or method recompiled from its own source with one or two
  textual edits (``old`` → ``new``; whitespace in ``old`` matches any whitespace, and each
  edit must match exactly the number of times it says, so an engine refactoring makes the
  mutation *broken* — reported, never silently a survivor).

:func:`run_mutants` runs the unmutated engine once (the baseline: only cases that pass there
can kill) and each mutation over the selected cases, in a ``ProcessPoolExecutor`` (each
worker applies one mutation at a time and runs the cases serially, in-process, through
:func:`mtg_judge.conformance.runner.run_case`). Each case has a time limit: a mutation that makes the
engine loop errors the case (a kill).
"""

from __future__ import annotations

import __future__
import contextlib
import functools
import inspect
import re
import signal
import sys
import textwrap
import threading
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator
from unittest import mock

from mtg_judge.conformance.runner import DEFAULT_ROOT, CaseResult, collect, run_case

#: The kill rate the issue asks of the suite ("Validate real third-party engines…", item 5).
KILL_RATE_BAR = 0.90
#: How many killing fixture ids a result lists (the count covers them all).
EXAMPLES = 10


class MutationError(Exception):
    """A mutation cannot be applied to this engine (its anchor text is gone)."""


class CaseTimeout(BaseException):
    """A case ran longer than its limit under a mutation (a BaseException so that
    ``run_case``'s ``except Exception`` does not turn it into an ordinary error)."""


@dataclass(frozen=True)
class Mutation:
    """One registered mutation: ``name``, the Comprehensive Rules reference of the rule it
    breaks (``rule``), its documentation (``doc``: what is switched off, and how), and
    ``patches()``, which returns the ``unittest.mock`` patchers that apply it."""

    name: str
    rule: str
    doc: str
    patches: Callable[[], list] = field(repr=False, compare=False)

    @property
    def summary(self) -> str:
        """The first paragraph of the documentation, on one line."""
        return " ".join(self.doc.split("\n\n")[0].split())


#: Every mutation by name, in registration order.
MUTATIONS: dict[str, Mutation] = {}


def mutation(name: str, rule: str) -> Callable[[Callable[[], list]], Callable[[], list]]:
    """Register the decorated function (no arguments, returns a list of patchers; its
    docstring documents the mutation) as mutation ``name`` of CR ``rule``."""
    def register(fn: Callable[[], list]) -> Callable[[], list]:
        doc = inspect.getdoc(fn) or ""
        if name in MUTATIONS:
            raise ValueError(f"mutation {name!r} registered twice")
        MUTATIONS[name] = Mutation(name, rule, doc, fn)
        return fn
    return register


@contextlib.contextmanager
def applied(name: str) -> Iterator[Mutation]:
    """Apply mutation ``name`` for the duration of the ``with`` block, then undo it (even on
    an exception). Raises ``KeyError`` for an unknown name and :class:`MutationError` when the
    engine no longer has the code the mutation patches."""
    m = MUTATIONS[name]
    with contextlib.ExitStack() as stack:
        for patcher in m.patches():
            stack.enter_context(patcher)
        yield m


# --------------------------------------------------------------------------------------------
# Patch helpers


def _defining(owner: Any, attr: str) -> Any:
    """Where ``owner.attr`` is defined: for a class, the class of its MRO whose body defines
    it (``Game`` is composed of mixins, one per part of the rules: ``Game._sba_once`` is
    ``StateBasedActions._sba_once``); a module is its own."""
    if isinstance(owner, type):
        return next((cls for cls in owner.__mro__ if attr in cls.__dict__), owner)
    return owner


def _owner_attr(owner: Any, attr: str) -> Any:
    """The function ``owner.attr`` as defined (not bound), or MutationError."""
    target = owner.__dict__.get(attr) if isinstance(owner, type) else getattr(owner, attr, None)
    if not callable(target):
        raise MutationError(f"{getattr(owner, '__name__', owner)}.{attr} is not a function of the engine")
    return target


def replace(owner: Any, attr: str, new: Any) -> Any:
    """A patcher replacing ``owner.attr`` (a class or a module; for a class, in the class
    that defines it) by ``new``."""
    owner = _defining(owner, attr)
    _owner_attr(owner, attr)
    return mock.patch.object(owner, attr, new)


def wrap(owner: Any, attr: str, make: Callable[[Callable], Callable]) -> Any:
    """A patcher replacing ``owner.attr`` (where it is defined) by ``make(original)``."""
    owner = _defining(owner, attr)
    original = _owner_attr(owner, attr)
    return mock.patch.object(owner, attr, functools.wraps(original)(make(original)))


@dataclass(frozen=True)
class Edit:
    """One textual edit of a function's source: ``old`` (whitespace matches any whitespace)
    becomes ``new``; it must occur exactly ``count`` times. ``after``: text that must come
    just before ``old`` (kept as it is), to pick one occurrence among several."""

    old: str
    new: str
    count: int = 1
    after: str = ""


def _pattern(text: str) -> str:
    return r"\s+".join(re.escape(part) for part in text.split())


def rewrite(owner: Any, attr: str, *edits: Edit) -> Any:
    """A patcher replacing ``owner.attr`` by the same function recompiled from its source
    with ``edits`` applied (in the globals of its module, which stay untouched); for a
    class, in the class that defines it."""
    owner = _defining(owner, attr)
    original = _owner_attr(owner, attr)
    source = textwrap.dedent(inspect.getsource(original))
    where = f"{original.__module__}.{original.__qualname__}"
    if _fingerprint(_compile(original, source, where).__code__) != _fingerprint(original.__code__):
        raise MutationError(f"{where}: its source file changed since the engine was imported; "
                            "run again")
    for edit in edits:
        pre = rf"(?P<pre>{_pattern(edit.after)}\s+)" if edit.after else r"(?P<pre>)"
        pattern = re.compile(pre + _pattern(edit.old))
        found = len(pattern.findall(source))
        if found != edit.count:
            raise MutationError(f"{where}: {edit.old!r} occurs {found} time(s), not {edit.count}; "
                                "the engine changed: update the mutation")
        source = pattern.sub(lambda match: match.group("pre") + edit.new, source)
    new = _compile(original, source, f"mutant of {where}")
    new.__qualname__ = original.__qualname__
    new.__doc__ = original.__doc__
    return mock.patch.object(owner, attr, new)


def _fingerprint(code: Any) -> tuple:
    """What two compilations of the same function source share, whatever the compilation
    context (bytecode details differ: an imported module's methods are called differently):
    argument and local names, names used, constants (strings up to whitespace), recursively
    for nested code."""
    consts = tuple(_fingerprint(c) if inspect.iscode(c) else " ".join(c.split()) if isinstance(c, str)
                   else repr(c) for c in code.co_consts)  # a docstring loses its indentation
    return code.co_varnames, code.co_names, consts


def _compile(original: Callable, source: str, label: str) -> Any:
    """The function defined by ``source``, compiled in the globals of ``original``'s module
    (which are left untouched), annotations unevaluated (the engine's modules use
    ``from __future__ import annotations``; some names exist only for type checkers)."""
    module = sys.modules[original.__module__]
    namespace: dict[str, Any] = {}
    code = compile(source, f"<{label}>", "exec", flags=__future__.annotations.compiler_flag, dont_inherit=True)
    exec(code, module.__dict__, namespace)
    return namespace[original.__name__]


def _engine() -> tuple[Any, Any, Any, Any, Any]:
    from mtg_judge.engine import characteristics, combat, effects, game, keywords
    return game.Game, combat, effects, keywords, characteristics


# --------------------------------------------------------------------------------------------
# The mutations


@mutation("no-lethal-damage-sba", "704.5g")
def _no_lethal_damage() -> list:
    """A creature with lethal damage marked on it is not destroyed.

    ``Game._sba_once``: the 704.5g branch (``perm.damage >= t``) never applies."""
    Game = _engine()[0]
    return [rewrite(Game, "_sba_once", Edit("elif perm.damage >= t and perm.damage > 0:", "elif False:"))]


@mutation("no-zero-toughness-sba", "704.5f")
def _no_zero_toughness() -> list:
    """A creature with toughness 0 or less is not put into its owner's graveyard.

    ``Game._sba_once``: the 704.5f branch (``t <= 0``) never applies (a creature with
    toughness 0 and damage on it would still die of 704.5g)."""
    Game = _engine()[0]
    return [rewrite(Game, "_sba_once", Edit("if t <= 0:", "if False:"))]


@mutation("zero-life-does-not-lose", "704.5a")
def _zero_life() -> list:
    """A player with 0 or less life does not lose the game.

    ``Game._sba_once``: the 704.5a check (``p.life <= 0``) never applies."""
    Game = _engine()[0]
    return [rewrite(Game, "_sba_once", Edit("if p.life <= 0:", "if False:"))]


@mutation("empty-library-draw-does-not-lose", "704.5b")
def _empty_library() -> list:
    """A player who drew from an empty library does not lose the game.

    ``Game._sba_once``: the 704.5b check (``p.drew_from_empty``) never applies."""
    Game = _engine()[0]
    return [rewrite(Game, "_sba_once", Edit("elif p.drew_from_empty:", "elif False:"))]


@mutation("tokens-do-not-cease-to-exist", "704.5d")
def _tokens_stay() -> list:
    """A token that left the battlefield stays in its new zone.

    ``Game._sba_once``: the 704.5d loop finds no token in any zone."""
    Game = _engine()[0]
    return [rewrite(Game, "_sba_once",
                    Edit("for obj in [o for o in p.zone(zone) if o.is_token]:", "for obj in []:"))]


@mutation("illegal-aura-stays", "704.5m")
def _aura_stays() -> list:
    """An Aura attached to an illegal object (or to nothing) stays on the battlefield.

    ``Game._aura_can_stay`` always answers True."""
    Game = _engine()[0]
    return [replace(Game, "_aura_can_stay", lambda self, aura, host: True)]


@mutation("orphaned-aura-destroyed", "704.5m")
def _aura_destroyed() -> list:
    """An Aura attached to an illegal object (or to nothing) is destroyed (``destroyed``
    logged, indestructible and regeneration apply) instead of put into its owner's graveyard.

    ``Game._sba_once``: the 704.5m entries are destroyed like lethal damage."""
    Game = _engine()[0]
    return [rewrite(Game, "_sba_once", Edit("if destroy:", 'if destroy or rule == "704.5m":'))]


@mutation("priority-in-the-untap-step", "502.4")
def _priority_in_untap() -> list:
    """Players get priority in the untap step: abilities that triggered there (and any
    pending) go on the stack before the upkeep, and a player could act there.

    ``Game.run_step``: the untap step runs a priority round like other steps."""
    Game = _engine()[0]
    return [rewrite(Game, "run_step", Edit('elif step != "untap": self.priority_round()',
                                           "else: self.priority_round()"))]


@mutation("untapping-triggers-nothing", "502.3")
def _untap_no_triggers() -> list:
    """Permanents that untap in the untap step trigger no "whenever … becomes untapped"
    ability.

    ``Game.untap_step``: nothing is fired for the permanents it untapped."""
    Game = _engine()[0]
    return [rewrite(Game, "untap_step", Edit("for perm in untapped:", "for perm in []:"))]


@mutation("no-combat-damage-ignored", "510.1a")
def _no_combat_damage_ignored() -> list:
    """A creature that "assigns no combat damage" deals its combat damage anyway.

    ``no_combat_damage.assigns_no_combat_damage`` always answers False."""
    from mtg_judge.engine import no_combat_damage
    return [replace(no_combat_damage, "assigns_no_combat_damage", lambda game, obj: False)]


@mutation("unblocked-attackers-trigger-nothing", "509.3")
def _unblocked_no_trigger() -> list:
    """"Whenever … attacks and isn't blocked" never triggers.

    ``no_combat_damage.fire_unblocked_triggers`` does nothing."""
    from mtg_judge.engine import no_combat_damage
    return [replace(no_combat_damage, "fire_unblocked_triggers", lambda game: None)]


@mutation("legend-rule-off", "704.5j")
def _legend_rule() -> list:
    """Two legendary permanents with the same name stay on the battlefield (every era's
    version of the legend rule is off).

    ``Game._legend_rule`` does nothing."""
    Game = _engine()[0]
    return [replace(Game, "_legend_rule", lambda self: False)]


@mutation("counters-do-not-annihilate", "704.5q")
def _counters() -> list:
    """+1/+1 and -1/-1 counters on the same permanent are not removed in pairs.

    ``Game._sba_once``: the 704.5q branch never applies."""
    Game = _engine()[0]
    return [rewrite(Game, "_sba_once", Edit('if self.rules.counter_annihilation and perm.counters.get("+1/+1")',
                                            "if False and perm.counters.get(\"+1/+1\")"))]


@mutation("counters-annihilate-in-every-era", "704.5q")
def _counters_every_era() -> list:
    """+1/+1 and -1/-1 counters are removed in pairs under the 1999 rules too (the rule is
    new in 2006: timespiral.counter-annihilation.01).

    ``Game._sba_once`` ignores the ruleset switch ``counter_annihilation``."""
    Game = _engine()[0]
    return [rewrite(Game, "_sba_once", Edit("if self.rules.counter_annihilation and perm.counters",
                                            "if perm.counters"))]


@mutation("lose-all-abilities-ignores-timestamps", "613.7")
def _lose_all_ignores_timestamps() -> list:
    """In layer 6 a "loses all abilities" effect is applied before every grant, whatever the
    timestamps: a keyword granted before Dress Down is kept.

    ``characteristics._layer_6`` sorts lose-all effects first."""
    from mtg_judge.engine import characteristics
    return [rewrite(characteristics, "_layer_6", Edit("return sorted(out, key=lambda e: e[0])",
                                                      "return sorted(out, key=lambda e: e[1] is not None)"))]


@mutation("clone-copies-only-printed-creatures", "707.2")
def _clone_printed_creatures() -> list:
    """"Enter as a copy of any creature" offers only permanents printed as creatures: not an
    animated land; a creature that isn't one until end of turn is still offered.

    ``transform.enter_as_copy`` reads the printed card types."""
    from mtg_judge.engine import transform
    return [rewrite(transform, "enter_as_copy", Edit("o is not obj and _is_creature(o)",
                                                     'o is not obj and "Creature" in o.chars.types'))]


@mutation("type-loss-beats-later-type-gain", "613.7")
def _type_loss_beats_gain() -> list:
    """"Isn't a creature until end of turn" wins over a later "becomes a creature" (layer 4
    not in timestamp order).

    ``type_gain._gain`` leaves earlier losses of the type in place."""
    from mtg_judge.engine import type_gain
    return [rewrite(type_gain, "_gain", Edit("if lost != getattr(obj, type_loss.ATTR, ()):", "if False:"))]


@mutation("lord-keeps-abilities-it-lost", "613.8a")
def _lord_keeps_lost_abilities() -> list:
    """A permanent that "loses all abilities" still generates the effects of its static
    abilities (a Goblin King under Dress Down still gives other Goblins +1/+1 and
    mountainwalk).

    ``characteristics.static_effects`` keeps the statics of such permanents."""
    from mtg_judge.engine import characteristics
    return [rewrite(characteristics, "static_effects", Edit("return _without_lost_abilities(game, out)",
                                                            "return out"))]


@mutation("triggers-not-in-apnap-order", "603.3b")
def _triggers_napap() -> list:
    """Pending triggered abilities go on the stack nonactive player first (so the active
    player's resolve first).

    ``Game.put_triggers_on_stack`` walks the players in reversed APNAP order."""
    Game = _engine()[0]
    return [rewrite(Game, "put_triggers_on_stack",
                    Edit("for pid in self.apnap():", "for pid in reversed(self.apnap()):"))]


@mutation("first-strike-ignored", "510.4")
def _first_strike() -> list:
    """There is no first-strike combat damage step: every creature deals its combat damage
    at the same time.

    ``Combat.any_first_strike`` always answers False, so the step is skipped."""
    combat = _engine()[1]
    return [replace(combat.Combat, "any_first_strike", lambda self, game: False)]


@mutation("deathtouch-not-lethal-for-trample", "702.2c")
def _deathtouch_lethal() -> list:
    """A trampler with deathtouch must assign each blocker damage equal to its remaining
    toughness before the player, as without deathtouch (CR 702.2c, 702.19c: 1 is lethal).

    ``combat.lethal_damage`` ignores the source's deathtouch."""
    combat = _engine()[1]
    return [rewrite(combat, "lethal_damage",
                    Edit('if source is not None and ch.has_keyword(game, source, "deathtouch"):', "if False:"))]


@mutation("x-chosen-for-an-alternative-cost-without-x", "107.3b")
def _x_without_x() -> list:
    """X may be chosen above 0 for a spell cast without paying its mana cost or for an
    alternative cost without {X} (CR 107.3b: then the only legal X is 0).

    ``Game.cast`` takes X's permission from the card's mana cost, not the cost paid."""
    Game = _engine()[0]
    return [rewrite(Game, "cast", Edit("x = self._x_value(self._total_cost(player, cast_obj, alternative, card_kws, "
                                       "kicked, buyback, extra=mode_mana), inp)", "x = self._x_value(d.mana_cost, inp)"))]


@mutation("cost-reduction-ignores-x", "601.2f")
def _reduction_ignores_x() -> list:
    """A generic cost reduction doesn't take X's mana: X's value is added after the
    reductions, not before (CR 601.2f: the total cost has X replaced by its value).

    ``Game._total_cost`` leaves X unfixed; paying adds X's value later."""
    Game = _engine()[0]
    return [rewrite(Game, "_total_cost", Edit("cost = cost.with_x(x)", "pass"))]


@mutation("stack-mana-value-ignores-x", "202.3e")
def _stack_mana_value() -> list:
    """A spell's mana value on the stack counts X as 0 (CR 202.3e: as the value chosen).

    ``characteristics.stack_mana_value`` drops the X term."""
    characteristics = _engine()[4]
    return [rewrite(characteristics, "stack_mana_value", Edit("mv += obj.x * target.chars.mana_cost.x", "pass"))]


@mutation("face-down-spell-colored-for-costs", "708.2a")
def _face_down_cost_color() -> list:
    """Cost increases and reductions see a spell cast face down with its card's color (CR
    708.2a: a face-down spell is a colorless 2/2).

    ``Game._total_cost`` doesn't turn its probe face down."""
    Game = _engine()[0]
    return [rewrite(Game, "_total_cost", Edit('as_spell.face_down = alternative == "morph"', "pass"))]


@mutation("prepared-copy-refuses-alternative-costs", "118.9")
def _prepared_copy_alternative() -> list:
    """A prepared permanent's copy can't be cast for a permanent's alternative cost (Fist of
    Suns); strixhaven.prepare.19, CR 118.9: such effects may apply to it.

    ``prepare.check_cast`` refuses every alternative."""
    from mtg_judge.engine import prepare
    return [rewrite(prepare, "check_cast", Edit('if alternative in ("flashback", "madness", "harmonize", "morph", '
                                                '"without_paying"):', "if alternative is not None:"))]


@mutation("split-second-ignored", "702.61a")
def _split_second() -> list:
    """Spells can be cast and abilities activated while a split second spell is on the
    stack.

    ``Game.check_can_cast`` and ``Game.activate`` never see a split second keyword."""
    Game = _engine()[0]
    return [rewrite(Game, "check_can_cast", Edit('k["keyword"] == "split_second"', "False")),
            rewrite(Game, "activate", Edit('k["keyword"] == "split_second"', "False"))]


@mutation("targets-not-rechecked-on-resolution", "608.2b")
def _targets() -> list:
    """A spell or ability's targets are not checked again as it resolves: one whose
    targets all became illegal still resolves.

    ``Game.target_still_legal`` always answers True."""
    Game = _engine()[0]
    return [replace(Game, "target_still_legal", lambda self, item, spec, ref: True)]


@mutation("summoning-sick-creatures-attack", "302.6")
def _sick_attack() -> list:
    """A creature can attack though its controller hasn't controlled it continuously since
    their most recent turn began (summoning sickness ignored for attacks).

    ``combat.can_attack``: the summoning sickness check never applies."""
    combat = _engine()[1]
    return [rewrite(combat, "can_attack",
                    Edit('if obj.summoning_sick and not ch.has_keyword(game, obj, "haste"):', "if False:"))]


@mutation("summoning-sick-creatures-tap", "302.6")
def _sick_tap() -> list:
    """A summoning-sick creature can pay {T} costs (its {T} abilities, mana abilities
    included).

    ``Game._pay_tap``: the summoning sickness check never applies."""
    Game = _engine()[0]
    return [rewrite(Game, "_pay_tap", Edit(
        'if ch.is_type(source, "Creature") and source.summoning_sick and not ch.has_keyword(self, source, "haste"):',
        "if False:"))]


@mutation("haste-ignored", "702.10b")
def _haste() -> list:
    """Haste does nothing: a creature with haste is still summoning sick (it can't attack
    or pay {T} costs the turn it comes under its controller's control).

    ``combat.can_attack`` and ``Game._pay_tap`` never see haste."""
    Game, combat = _engine()[:2]
    return [rewrite(combat, "can_attack", Edit('not ch.has_keyword(game, obj, "haste")', "True")),
            rewrite(Game, "_pay_tap", Edit('not ch.has_keyword(self, source, "haste")', "True"))]


@mutation("vigilance-ignored", "702.20b")
def _vigilance() -> list:
    """Attacking causes a creature with vigilance to tap.

    ``combat._declare_attackers`` taps every attacker."""
    combat = _engine()[1]
    return [rewrite(combat, "_declare_attackers",
                    Edit('if not ch.has_keyword(game, obj, "vigilance"):', "if True:"))]


@mutation("defender-can-attack", "702.3b")
def _defender() -> list:
    """A creature with defender can attack.

    ``combat.can_attack``: the defender check never applies."""
    combat = _engine()[1]
    return [rewrite(combat, "can_attack", Edit('if ch.has_keyword(game, obj, "defender"):', "if False:"))]


@mutation("tapped-creatures-block", "509.1a")
def _tapped_block() -> list:
    """A tapped creature can block.

    ``combat.can_block``: the tapped check never applies."""
    combat = _engine()[1]
    return [rewrite(combat, "can_block", Edit("if blocker.tapped:", "if False:"))]


@mutation("blocked-attacker-unblocked-when-blocker-leaves", "509.1h")
def _stays_blocked() -> list:
    """An attacking creature whose blockers have all left combat deals its damage to the
    player as if it were unblocked (it should stay blocked and, without trample, deal
    none).

    ``combat.combat_damage_step`` treats an attacker with no blockers left as unblocked."""
    combat = _engine()[1]
    return [rewrite(combat, "combat_damage_step", Edit("if a_ref not in combat.blocked:", "if not blockers:"))]


@mutation("double-strike-strikes-once", "702.4b")
def _double_strike() -> list:
    """A creature with double strike deals combat damage in the first-strike damage step
    only (as if it had first strike).

    ``combat._deals_damage_now``: in the regular step, double strike doesn't count."""
    combat = _engine()[1]
    return [rewrite(combat, "_deals_damage_now", Edit('or ch.has_keyword(game, obj, "double_strike")', "or False"))]


@mutation("fear-ignored", "702.36b")
def _fear() -> list:
    """A creature with fear can be blocked by nonartifact, nonblack creatures.

    ``combat.can_block``: the fear restriction never applies."""
    combat = _engine()[1]
    return [rewrite(combat, "can_block", Edit('if ch.has_keyword(game, attacker, "fear") and not (',
                                              "if False and not ("))]


@mutation("shadow-ignored", "702.28b")
def _shadow() -> list:
    """Shadow restricts no blocks (either way).

    ``combat.can_block``: both shadow checks never apply."""
    combat = _engine()[1]
    return [rewrite(combat, "can_block",
                    Edit('if ch.has_keyword(game, attacker, "shadow") and not ch.has_keyword(game, blocker, "shadow"):',
                         "if False:"),
                    Edit('if ch.has_keyword(game, blocker, "shadow") and not ch.has_keyword(game, attacker, "shadow"):',
                         "if False:"))]


@mutation("reach-cannot-block-flyers", "702.17b")
def _reach() -> list:
    """A creature with reach (and without flying) can't block a creature with flying.

    ``combat.can_block``: the flying restriction ignores reach."""
    combat = _engine()[1]
    return [rewrite(combat, "can_block", Edit('or ch.has_keyword(game, blocker, "reach")', "or False"))]


@mutation("shroud-ignored", "702.18a")
def _shroud() -> list:
    """A permanent with shroud can be the target of spells and abilities.

    ``characteristics.target_kinds_match``: the shroud check never applies."""
    ch = _engine()[4]
    return [rewrite(ch, "target_kinds_match", Edit('if has_keyword(game, obj, "shroud"):', "if False:"))]


@mutation("flash-ignored", "702.8a")
def _flash() -> list:
    """A spell with flash can be cast only at sorcery speed (unless it is an instant).

    ``Game.check_can_cast`` never sees flash."""
    Game = _engine()[0]
    return [rewrite(Game, "check_can_cast", Edit('or any(k["keyword"] == "flash" for k in d.keywords)', ""))]


@mutation("cast-as-though-flash-ignored", "702.8a")
def _as_though_flash() -> list:
    """A permission to cast spells as though they had flash (Vedalken Orrery) does nothing:
    its controller's spells keep their own timing, and so does suspending a card.

    ``Game.check_can_cast`` never sees the static ``cast_as_though_flash``."""
    Game = _engine()[0]
    return [rewrite(Game, "check_can_cast", Edit('eff.get("type") == "cast_as_though_flash"', "False"))]


@mutation("damage-trigger-source-filter-ignored", "603.2")
def _damage_source_filter() -> list:
    """A "whenever a [quality] deals damage" trigger (a ``deals_damage`` trigger whose
    ``source`` is a filter: Essence Sliver's "whenever a Sliver deals damage") never
    triggers: only "whenever this deals damage" does (ruling timespiral.slivers.02).

    ``triggers.matches`` treats every filter as matching nothing."""
    from mtg_judge.engine import triggers
    return [rewrite(triggers, "matches", Edit("elif not _damage_source_matches(game, source, spec, event):",
                                              "elif True:"))]


@mutation("intervening-if-not-rechecked", "603.4")
def _intervening_if() -> list:
    """A triggered ability with an intervening "if" clause resolves even though its
    condition is false by then.

    ``Game.resolve_top``: the condition is not checked again on resolution."""
    Game = _engine()[0]
    return [rewrite(Game, "resolve_top", Edit('not condition_holds( self, item.source_lki, '
                                              'item.ability.get("condition"), event=item.trigger_event)', "False"))]


@mutation("flanking-never-triggers", "702.25a")
def _flanking() -> list:
    """Flanking's trigger never triggers: blockers without flanking don't get -1/-1.

    ``keywords.triggered_from_keywords`` leaves flanking's ability out."""
    keywords = _engine()[3]

    def make(original: Callable) -> Callable:
        def without_flanking(kws: list) -> list:
            return [(key, ab) for key, ab in original(kws) if key != "flanking"]
        return without_flanking
    return [wrap(keywords, "triggered_from_keywords", make)]


@mutation("flying-does-not-restrict-blocks", "702.9b")
def _flying() -> list:
    """A creature without flying or reach can block a creature with flying.

    ``combat.can_block``: the flying restriction never applies."""
    combat = _engine()[1]
    return [rewrite(combat, "can_block", Edit('if ch.has_keyword(game, attacker, "flying") and not (',
                                              "if False and not ("))]


@mutation("landwalk-ignored", "702.14c")
def _landwalk() -> list:
    """A creature with landwalk can be blocked even though the defending player controls a
    land of that type.

    ``combat.can_block``: the landwalk restriction never applies."""
    combat = _engine()[1]
    return [rewrite(combat, "can_block", Edit('if kw["keyword"] == "landwalk":', "if False:"))]


@mutation("protection-does-not-prevent-damage", "702.16e")
def _protection_damage() -> list:
    """Damage from a source with a quality a permanent has protection from is dealt.

    ``Game.deal_damage``: protection never prevents damage (it still stops targeting and
    blocking)."""
    Game = _engine()[0]
    return [rewrite(Game, "deal_damage", Edit("ch.protected_from(self, target, source)", "False"))]


@mutation("protection-does-not-stop-targeting", "702.16b")
def _protection_targets() -> list:
    """A permanent can be the target of spells and abilities with a quality it has
    protection from.

    ``characteristics.target_kinds_match``: the protection check never applies."""
    ch = _engine()[4]
    return [rewrite(ch, "target_kinds_match", Edit("if protected_from(game, obj, source):", "if False:"))]


@mutation("trample-ignored", "702.19b")
def _trample() -> list:
    """A blocked attacking creature with trample can't assign its excess damage to the
    player it attacks.

    ``combat.combat_damage_step`` sees no trample."""
    combat = _engine()[1]
    return [rewrite(combat, "combat_damage_step",
                    Edit('trample = ch.has_keyword(game, attacker, "trample")', "trample = False"))]


@mutation("mana-pool-never-empties", "500.4")
def _pool() -> list:
    """Unspent mana stays in the pool from step to step and phase to phase (and so never
    burns under the old rulesets).

    ``Game.end_step``: the pools are never emptied."""
    Game = _engine()[0]
    return [rewrite(Game, "end_step", Edit("if nxt_phase_changes:", "if False:"))]


@mutation("unlimited-lands-per-turn", "305.2")
def _lands() -> list:
    """A player can play any number of lands in a turn.

    ``Game.play_land``: the one-land-per-turn check never applies."""
    Game = _engine()[0]
    return [rewrite(Game, "play_land", Edit("if self.players[player].lands_played >= 1:", "if False:"))]


@mutation("sorcery-timing-not-enforced", "307.1")
def _sorcery_timing() -> list:
    """Sorcery-speed actions (sorceries, creatures and other permanent spells without
    flash, lands, "activate only as a sorcery") are allowed at any time.

    ``Game.sorcery_timing_ok`` always answers True."""
    Game = _engine()[0]
    return [replace(Game, "sorcery_timing_ok", lambda self, player: True)]


@mutation("regeneration-ignored", "701.19")
def _regeneration() -> list:
    """A regeneration shield never replaces destruction.

    ``Game.destroy`` is always called as if the permanent "can't be regenerated"."""
    Game = _engine()[0]
    return [wrap(Game, "destroy", lambda original: lambda self, obj, can_regenerate=True: original(self, obj, False))]


@mutation("stack-resolves-first-in-first-out", "405.5")
def _fifo() -> list:
    """The first object put on the stack resolves first (instead of the last one).

    ``Game.resolve_top`` first moves the bottom object of the stack to the top."""
    Game = _engine()[0]

    def make(original: Callable) -> Callable:
        def resolve_bottom(self: Any) -> None:
            if len(self.stack) > 1:
                self.stack.append(self.stack.pop(0))
            original(self)
        return resolve_bottom
    return [wrap(Game, "resolve_top", make)]


@mutation("priority-not-returned-to-active-player", "117.3b")
def _priority() -> list:
    """After a spell or ability resolves, the player who passed last receives priority
    (not the active player).

    ``Game.priority_round``: after ``resolve_top()``, priority goes to the last player who
    passed."""
    Game = _engine()[0]
    return [rewrite(Game, "priority_round", Edit("self.priority = self.active", "self.priority = player",
                                                 after="self.resolve_top() passes = 0"))]


@mutation("cleanup-damage-stays", "514.2")
def _damage_stays() -> list:
    """Damage marked on permanents does not wear off in the cleanup step.

    ``Game.cleanup_step``: ``perm.damage = 0`` is gone."""
    Game = _engine()[0]
    return [rewrite(Game, "cleanup_step", Edit("perm.damage = 0", "pass"))]


@mutation("until-end-of-turn-effects-last", "514.2")
def _effects_last() -> list:
    """"Until end of turn" effects don't end in the cleanup step.

    ``Game.cleanup_step`` keeps every continuous effect."""
    Game = _engine()[0]
    return [rewrite(Game, "cleanup_step",
                    Edit('self.effects = [e for e in self.effects if e.until != "end_of_turn"]', "pass"))]


@mutation("no-discard-to-hand-size", "514.1")
def _hand_size() -> list:
    """The active player never discards down to the maximum hand size in the cleanup step.

    ``Game.cleanup_step``: the excess is always 0."""
    Game = _engine()[0]
    return [rewrite(Game, "cleanup_step", Edit("excess = len(player.hand) - self.rules.max_hand_size",
                                               "excess = 0"))]


@mutation("flashback-does-not-exile", "702.34a")
def _flashback() -> list:
    """A spell cast with flashback goes to the graveyard (or wherever it would go) instead
    of exile as it leaves the stack.

    ``Game.cast`` never marks the spell "exile it as it leaves the stack"."""
    Game = _engine()[0]
    return [rewrite(Game, "cast", Edit('stack_obj.exile_on_leaving_stack = alternative == "flashback"',
                                       "stack_obj.exile_on_leaving_stack = False"))]


@mutation("harmonize-does-not-exile", "702.180a")
def _harmonize_exile() -> list:
    """A spell cast with harmonize goes to the graveyard (or wherever it would go) instead
    of exile as it leaves the stack (resolved, countered or with illegal targets).

    ``Game.cast`` never marks a harmonized spell "exile it as it leaves the stack"."""
    Game = _engine()[0]
    return [rewrite(Game, "cast", Edit("stack_obj.exile_on_leaving_stack, stack_obj.exile_rule = True, "
                                       "harmonize.EXILE_RULE", "pass"))]


@mutation("harmonize-reduces-colored-mana", "702.180a")
def _harmonize_colored() -> list:
    """The power of the creature tapped for harmonize also reduces the colored mana of the
    total cost once the generic mana is gone (it reduces only generic mana).

    ``harmonize.reduced_cost``: the power left over after the generic mana comes off each
    colored symbol count too."""
    from mtg_judge.engine import harmonize
    return [rewrite(harmonize, "reduced_cost", Edit(
        "return ManaCost(max(0, total.generic - power), total.colored, 0, total.present, total.hybrid)",
        "return ManaCost(max(0, total.generic - power), tuple((c, max(0, n - max(0, power - total.generic))) "
        "for c, n in total.colored), 0, total.present, total.hybrid)"))]


@mutation("graveyard-ability-exile-not-a-cost", "602.2b")
def _renew_exile() -> list:
    """Exiling a renew card from its graveyard is not paid as the ability is activated: the
    card stays in the graveyard (so it can be activated again, and an ability that never
    resolves leaves it there).

    ``graveyard_abilities.pay_exile_self`` does nothing."""
    from mtg_judge.engine import graveyard_abilities
    return [replace(graveyard_abilities, "pay_exile_self", lambda game, source: None)]


@mutation("storm-makes-no-copies", "702.40a")
def _storm() -> list:
    """Storm triggers and resolves but copies nothing.

    ``effects.HANDLERS["storm_copies"]`` does nothing."""
    effects = _engine()[2]
    if "storm_copies" not in effects.HANDLERS:
        raise MutationError("mtg_judge.engine.effects.HANDLERS has no 'storm_copies' effect")
    return [mock.patch.dict(effects.HANDLERS, {"storm_copies": lambda ctx, eff: None})]


@mutation("copies-counted-as-cast", "702.40a")
def _copies_cast() -> list:
    """Each copy of a spell counts as a spell cast this turn for storm (copies are not
    cast, CR 707.10).

    ``effects.copy_spell`` also adds one to ``Game.spells_cast_this_turn``."""
    effects = _engine()[2]

    def make(original: Callable) -> Callable:
        def copy_and_count(ctx: Any, item: Any, new_targets: bool) -> Any:
            ctx.game.spells_cast_this_turn += 1
            return original(ctx, item, new_targets)
        return copy_and_count
    return [wrap(effects, "copy_spell", make)]


@mutation("madness-does-not-exile", "702.35a")
def _madness() -> list:
    """A discarded card with madness goes to the graveyard: it is never exiled and its
    madness ability never triggers.

    ``Game.discard``: the madness replacement never applies."""
    Game = _engine()[0]
    return [rewrite(Game, "discard", Edit('if any(k["keyword"] == "madness" for k in obj.definition.keywords):',
                                          "if False:"))]


@mutation("buyback-ignored", "702.27a")
def _buyback() -> list:
    """A spell whose buyback cost was paid goes to the graveyard as it resolves.

    ``Game._buyback_applies`` always answers False."""
    Game = _engine()[0]
    return [replace(Game, "_buyback_applies", lambda self, item: False)]


@mutation("echo-never-triggers", "702.30a")
def _echo() -> list:
    """Echo's upkeep trigger never triggers: permanents with echo are never sacrificed.

    ``keywords.triggered_from_keywords`` leaves echo's ability out."""
    keywords = _engine()[3]

    def make(original: Callable) -> Callable:
        def without_echo(kws: list) -> list:
            return [(key, ab) for key, ab in original(kws) if key != "echo"]
        return without_echo
    return [wrap(keywords, "triggered_from_keywords", make)]


@mutation("mobilize-sacrifice-at-end-of-combat", "603.7c")
def _mobilize_end_of_combat() -> list:
    """Mobilize's Warrior tokens are sacrificed at the beginning of the end of combat step
    instead of the next end step (rulings tarkir.mobilize.02).

    ``keywords.mobilize_ability`` builds its delayed trigger for ``end_of_combat``."""
    keywords = _engine()[3]

    def make(original: Callable) -> Callable:
        def at_end_of_combat(n: int) -> dict:
            ab = original(n)
            effects = [dict(e, trigger={**e["trigger"], "step": "end_of_combat"})
                       if e["type"] == "create_delayed_trigger" else e for e in ab["effects"]]
            return {**ab, "effects": effects}
        return at_end_of_combat
    return [wrap(keywords, "mobilize_ability", make)]


@mutation("entering-attacking-counts-as-attacking", "508.4")
def _entering_attacking_triggers() -> list:
    """A creature put onto the battlefield attacking triggers "whenever a creature attacks"
    abilities as if it had been declared as an attacker (rulings tarkir.mobilize.03, .05).

    ``combat.put_onto_battlefield_attacking`` also fires an ``attacks`` event."""
    combat = _engine()[1]

    def make(original: Callable) -> Callable:
        def and_attacks(game: Any, obj: Any) -> Any:
            defender = original(game, obj)
            if defender is not None:
                game.fire_triggers({"event": "attacks", "object": obj})
            return defender
        return and_attacks
    return [wrap(combat, "put_onto_battlefield_attacking", make)]


@mutation("delayed-trigger-never-ends", "603.7c")
def _delayed_forever() -> list:
    """A delayed triggered ability triggers every time its event happens, not only the
    next time.

    ``delayed_triggers.fire_delayed_triggers`` keeps the abilities that triggered."""
    from mtg_judge.engine import delayed_triggers
    return [rewrite(delayed_triggers, "fire_delayed_triggers",
                    Edit("game.delayed_triggers = waiting", "game.delayed_triggers = list(game.delayed_triggers)"))]


@mutation("flurry-counts-every-players-spells", "207.2c")
def _flurry_all_players() -> list:
    """Flurry (an ability word, CR 207.2c): "your second spell each turn" counts the spells
    every player cast this turn, not only yours (rulings tarkir.flurry.01–02).

    ``turn_records.record_spell_cast`` answers the turn's total of spells cast."""
    from mtg_judge.engine import turn_records

    def total(game: Any, player: str) -> int:
        game.spells_cast_by = {**game.spells_cast_by, player: game.spells_cast_by.get(player, 0) + 1}
        return sum(game.spells_cast_by.values())
    return [replace(turn_records, "record_spell_cast", total)]


@mutation("flurry-counts-every-spell-after-the-first", "207.2c")
def _flurry_every_spell() -> list:
    """Flurry (an ability word, CR 207.2c) triggers on each spell after your first this
    turn, not only the second (rulings tarkir.flurry.02–03).

    ``triggers.matches`` compares ``nth_this_turn`` with "at least" instead of "equal"."""
    from mtg_judge.engine import triggers
    return [rewrite(triggers, "matches",
                    Edit('event.get("nth_this_turn") != trigger["nth_this_turn"]',
                         'event.get("nth_this_turn") < trigger["nth_this_turn"]'))]


def _endure_patched(*edits: Edit) -> list:
    """The endure effect recompiled with ``edits``, both where it is defined and where
    ``effects.HANDLERS`` holds it (the dict keeps the function itself)."""
    from mtg_judge.engine import effects, endure_behold
    if effects.HANDLERS.get("endure") is not endure_behold.endure:
        raise MutationError("mtg_judge.engine.effects.HANDLERS['endure'] is not endure_behold.endure")
    patcher = rewrite(endure_behold, "endure", *edits)
    return [patcher, mock.patch.dict(effects.HANDLERS, {"endure": patcher.new})]


@mutation("endure-off-the-battlefield-does-nothing", "701.63a")
def _endure_gone() -> list:
    """A permanent that has left the battlefield endures for nothing: no Spirit token
    (ruling tarkir.endure.03: the token is created).

    ``endure_behold.endure`` returns without creating the token when counters can't be put
    on the permanent."""
    return _endure_patched(Edit("create_token_for(g, who, spirit_token(n)) return", "return"))


@mutation("endure-always-counters", "701.63a")
def _endure_counters() -> list:
    """The endure choice is asked but ignored: the counters always go on the permanent
    (ruling tarkir.endure.01: the controller chooses counters or a token).

    ``endure_behold.endure`` puts the counters whatever the answer."""
    return _endure_patched(Edit('if choice == "counters":', "if True:"))


@mutation("behold-ignores-the-quality", "701.4a")
def _behold_any_card() -> list:
    """Any card in the hand or permanent you control can be beheld, with the quality or not
    (ruling tarkir.behold.02: a "Dragon card" is a card with the subtype Dragon).

    ``endure_behold.can_behold`` doesn't check the filter."""
    from mtg_judge.engine import endure_behold
    return [rewrite(endure_behold, "can_behold", Edit("if not ch.matches(game, obj, flt, player):", "if False:"))]


@mutation("beheld-forgotten-when-it-leaves", "701.4b")
def _beheld_forgotten() -> list:
    """"If a Dragon was beheld" is false once the beheld card or permanent has left its zone
    (ruling tarkir.behold.03: it was beheld, whatever happened to it since).

    ``effects.condition_true`` answers ``beheld`` false when the beheld object is gone."""
    from mtg_judge.engine import effects

    def make(original: Callable) -> Callable:
        def condition_true(ctx: Any, cond: dict) -> bool:
            b = getattr(ctx.item, "beheld", None)
            if cond.get("beheld") and b and ctx.game.objects.get(b["object"]) is None:
                return False
            return original(ctx, cond)
        return condition_true
    return [wrap(effects, "condition_true", make)]


@mutation("revealed-card-not-kept-revealed", "701.4a")
def _revealed_not_kept() -> list:
    """A card revealed for a spell's cost is revealed only for an instant, not until the
    spell leaves the stack (ruling tarkir.behold.04).

    ``state.revealed_cards`` (the state's ``players.<id>.revealed``) is always empty."""
    from mtg_judge.engine import state
    return [replace(state, "revealed_cards", lambda game, player: [])]


@mutation("revealed-card-cannot-be-revealed-again", "701.4a")
def _revealed_again() -> list:
    """A card already revealed (for a spell still on the stack) can't be revealed again for
    another spell's cost (ruling tarkir.behold.05: it can).

    ``endure_behold.can_behold`` refuses a card that is revealed now."""
    from mtg_judge.engine import endure_behold

    def make(original: Callable) -> Callable:
        def can_behold(game: Any, player: str, obj: Any, flt: Any) -> Any:
            if obj is not None and obj.card in endure_behold.revealed_cards(game, player):
                return f"{obj.name} is already revealed"
            return original(game, player, obj, flt)
        return can_behold
    return [wrap(endure_behold, "can_behold", make)]


@mutation("omen-goes-to-graveyard", "608.2n")
def _omen_to_graveyard() -> list:
    """A resolved Omen spell is put into its owner's graveyard like any sorcery or instant
    (CR 608.2n; ruling tarkir.omen.09: an Omen is shuffled into its owner's library instead).

    ``faces.shuffles_on_resolution`` is always false."""
    from mtg_judge.engine import faces
    return [replace(faces, "shuffles_on_resolution", lambda item: False)]


@mutation("omen-keeps-its-omen-characteristics", "400.7")
def _omen_stays_omen() -> list:
    """A card cast as an Omen keeps the Omen's characteristics after it leaves the stack (the
    new object of CR 400.7 is the card; rulings tarkir.omen.06, .07: everywhere but the
    stack it is only the creature card).

    ``faces.card_of`` returns the object's current definition (the Omen face)."""
    from mtg_judge.engine import faces
    return [replace(faces, "card_of", lambda obj: obj.definition)]


@mutation("omen-copy-shuffles-nothing", "707.10a")
def _omen_copy_no_shuffle() -> list:
    """A resolved copy of an Omen spell just ceases to exist (CR 707.10a) and its owner
    doesn't shuffle (ruling tarkir.omen.12: the copy is an Omen; its owner still shuffles
    their library).

    ``faces.shuffle_into_library`` skips the shuffle for a copy."""
    from mtg_judge.engine import faces
    return [rewrite(faces, "shuffle_into_library",
                    Edit("if obj.is_copy: shuffle_library(game, obj.owner)", "if obj.is_copy:"))]


@mutation("adventure-goes-to-graveyard", "715.3d")
def _adventure_to_graveyard() -> list:
    """A resolved Adventure spell is put into its owner's graveyard like any instant or
    sorcery (CR 715.3d: its controller exiles it instead; finalfantasy.adventure.03, .09).

    ``adventure.exiles_on_resolution`` is always false."""
    from mtg_judge.engine import adventure
    return [replace(adventure, "exiles_on_resolution", lambda item: False)]


@mutation("adventure-recast-as-adventure-from-exile", "715.3d")
def _adventure_again() -> list:
    """A card on an adventure may be cast from exile as the Adventure again (CR 715.3d: it
    can't be cast as an Adventure this way; finalfantasy.adventure.04).

    ``adventure.check_cast_from_exile`` accepts any face."""
    from mtg_judge.engine import adventure
    return [replace(adventure, "check_cast_from_exile", lambda obj, face: None)]


@mutation("adventure-permission-for-any-exiled-card", "715.3d")
def _adventure_any_exile() -> list:
    """Any adventurer card its owner has in exile may be cast or played from there, however
    it got there (CR 715.3d; finalfantasy.adventure.09, .10: only a card exiled by its own
    resolution as an Adventure gives the permission).

    ``adventure.on_adventure`` holds for every card its owner has in exile."""
    from mtg_judge.engine import adventure
    return [replace(adventure, "on_adventure",
                    lambda obj, player: obj is not None and obj.zone == "exile" and obj.owner == player)]


@mutation("enters-tapped-ignored", "614.1c")
def _enters_tapped_ignored() -> list:
    """A permanent whose text says "This land enters tapped" enters untapped (CR 614.1c;
    FORMAT §11.7: the Final Fantasy Towns; finalfantasy.adventure.04, finalfantasy.town.01).

    ``Zones.move`` never applies ``enters_tapped``."""
    from mtg_judge.engine.zones import Zones
    return [rewrite(Zones, "move", Edit('.get("enters_tapped") and not new.face_down:',
                                        '.get("enters_tapped") and False:'))]


@mutation("has-an-adventure-only-as-an-adventure", "715.2a")
def _has_adventure_when_used() -> list:
    """Only a spell cast as an Adventure "has an Adventure" (CR 715.2a: an object with those
    alternative characteristics has one even if it doesn't use them; finalfantasy.adventure.13).

    ``adventure.has_adventure`` holds only for a spell cast with ``"face": "adventure"``."""
    from mtg_judge.engine import adventure
    return [replace(adventure, "has_adventure", lambda obj: obj.cast_face == "adventure")]


@mutation("life-gained-this-turn-never-reset", "119.3")
def _life_gained_not_reset() -> list:
    """The life a player gained is remembered from one turn to the next: "if you gained life
    this turn" stays true in later turns (FORMAT §11.1; ruling strixhaven.infusion.01).

    ``bookkeeping.begin_turn`` does nothing."""
    from mtg_judge.engine import bookkeeping
    return [replace(bookkeeping, "begin_turn", lambda game: None)]


@mutation("copy-of-a-spell-spent-the-originals-mana", "707.10")
def _copy_spent_mana() -> list:
    """A copy of a spell counts the mana spent to cast the original as spent on itself
    (converge: a copy counts zero colors; ruling strixhaven.converge.08).

    ``effects.copy_spell`` gives the copy the original's ``mana_spent``."""
    effects = _engine()[2]
    return [rewrite(effects, "copy_spell", Edit("is_copy=True,", "is_copy=True, mana_spent=src_obj.mana_spent,"))]


@mutation("mode-additional-cost-not-paid", "700.2h")
def _mode_cost_free() -> list:
    """Choosing a mode with an additional cost costs nothing more (tiered; ruling finalfantasy.tiered.01).

    ``bookkeeping.mode_additional_costs`` finds no cost."""
    from mtg_judge.engine import bookkeeping
    return [replace(bookkeeping, "mode_additional_costs", lambda spell, modes: (None, {}))]


@mutation("permanent-forgets-the-mana-spent-on-its-spell", "601.2h")
def _permanent_forgets_mana() -> list:
    """A permanent spell that resolves doesn't keep the record of the mana spent to cast
    it: a converge permanent counts zero colors (FORMAT §11.1; ruling strixhaven.converge.01).

    ``Game._spell_to_battlefield`` gives the new permanent no ``mana_spent``."""
    Game = _engine()[0]
    return [rewrite(Game, "_spell_to_battlefield", Edit('"mana_spent": spell.mana_spent', '"mana_spent": None'))]


@mutation("saga-sacrificed-while-its-chapter-is-on-the-stack", "714.4")
def _saga_sacrificed_early() -> list:
    """A Saga whose lore counters reached its final chapter number is sacrificed at once,
    even while its chapter ability is still on the stack (ruling finalfantasy.saga-creature.14).

    ``sagas.sacrifice_finished_sagas`` doesn't wait for a pending chapter ability."""
    from mtg_judge.engine import sagas
    return [rewrite(sagas, "sacrifice_finished_sagas",
                    Edit("and not _chapter_pending(game, perm)", ""))]


@mutation("lore-counter-in-every-main-phase", "714.3c")
def _lore_every_main_phase() -> list:
    """The turn-based lore counter is put on Sagas as each main phase begins, the
    postcombat one too (ruling finalfantasy.saga-creature.08: only the first main phase).

    ``Game.run_step`` calls ``sagas.precombat_main_begins`` in both main phases."""
    Game = _engine()[0]
    return [rewrite(Game, "run_step", Edit('elif step == "precombat_main":',
                                           'elif step in ("precombat_main", "postcombat_main"):'))]


@mutation("ward-payment-counted-as-mana-spent", "601.2h")
def _ward_counted() -> list:
    """The mana paid for a ward cost is added to the mana spent to cast the targeting spell
    (rulings strixhaven.converge.02, increment.03, opus.02: it is not spent to cast it).

    ``ward.counter_unless_pays`` adds what was paid to the spell's ``mana_spent``."""
    from mtg_judge.engine import ward
    effects = _engine()[2]
    # effects.HANDLERS holds the function itself: route it through the module attribute
    late = {"counter_unless_pays": lambda ctx, eff: ward.counter_unless_pays(ctx, eff)}
    return [mock.patch.dict(effects.HANDLERS, late), rewrite(ward, "counter_unless_pays", Edit(
        "g.log(\"cost_paid\", player=payer, object=ctx.item.ref, mana=paid)",
        "g.log(\"cost_paid\", player=payer, object=ctx.item.ref, mana=paid); "
        "item.obj.mana_spent = {k: (item.obj.mana_spent or {}).get(k, 0) + paid.get(k, 0) "
        "for k in set(item.obj.mana_spent or {}) | set(paid)} if item.obj is not None else None"))]


# Job select, Equipment, landfall and flashback (Final Fantasy; FORMAT §11.8)


@mutation("job-select-attaches-before-creating-the-token", "702.182a")
def _job_select_attach_first() -> list:
    """Job select attaches the Equipment first and creates the Hero token after (rulings
    finalfantasy.job-select.01, .03: the token is created, then the Equipment is attached),
    so there is nothing to attach it to.

    ``job_select.JOB_SELECT`` has its two effects in the reverse order."""
    from mtg_judge.engine import job_select
    ab = dict(job_select.JOB_SELECT, effects=list(reversed(job_select.JOB_SELECT["effects"])))
    return [mock.patch.object(job_select, "JOB_SELECT", ab)]


@mutation("job-select-no-token-without-the-equipment", "702.182a")
def _job_select_needs_equipment() -> list:
    """Job select creates no Hero token when the Equipment has left the battlefield (ruling
    finalfantasy.job-select.02: the token is still created).

    ``job_select.JOB_SELECT`` runs its effects only while its source is on the battlefield."""
    from mtg_judge.engine import job_select
    effects = _engine()[2]

    def only_with_source(ctx: Any, eff: dict) -> None:
        if ctx.objects("self"):
            effects.run(ctx, eff["then"])

    ab = dict(job_select.JOB_SELECT, effects=[{"type": "mutant_if_source", "then": job_select.JOB_SELECT["effects"]}])
    return [mock.patch.object(job_select, "JOB_SELECT", ab),
            mock.patch.dict(effects.HANDLERS, {"mutant_if_source": only_with_source})]


@mutation("job-select-attaches-to-the-first-hero", "702.182a")
def _attach_first_host() -> list:
    """An attach effect that names two creatures (two Hero tokens under Doubling Season)
    attaches to the first without asking its controller (ruling finalfantasy.job-select.06:
    to only one of them; the controller chooses which).

    ``equipment.attach`` never asks the ``attach_to`` choice."""
    from mtg_judge.engine import equipment
    effects = _engine()[2]
    late = {"attach": lambda ctx, eff: equipment.attach(ctx, eff)}
    return [mock.patch.dict(effects.HANDLERS, late),
            rewrite(equipment, "attach", Edit("if len(hosts) > 1:", "if False:"))]


@mutation("equipment-dies-with-its-creature", "704.5n")
def _equipment_dies() -> list:
    """An Equipment whose creature left the battlefield is put into its owner's graveyard,
    like an Aura (CR 301.5c, 704.5n; ruling finalfantasy.job-select.04: it stays on the
    battlefield, unattached).

    ``equipment.unattach_illegal`` moves the Equipment to the graveyard."""
    from mtg_judge.engine import equipment
    return [rewrite(equipment, "unattach_illegal",
                    Edit("perm.attached_to = None", 'game.move(perm, "graveyard", cause="state_based_action")'))]


@mutation("trigger-filter-ignores-card-types", "603.2")
def _landfall_any_permanent() -> list:
    """A triggered ability on a permanent entering ignores the card types of its filter:
    landfall ("whenever a land you control enters") triggers on any permanent entering
    (rulings finalfantasy.landfall.01, .02: only a land).

    ``triggers._object_ok`` drops ``types`` from the filter."""
    from mtg_judge.engine import triggers
    return [rewrite(triggers, "_object_ok", Edit(
        "return ch.matches(game, obj, spec, source.controller, source)",
        "return ch.matches(game, obj, {k: v for k, v in spec.items() if k != 'types'}, source.controller, source)"))]


@mutation("flashback-pays-the-mana-cost", "702.34a")
def _flashback_mana_cost() -> list:
    """A spell cast with flashback costs its mana cost, not its flashback cost (rulings
    finalfantasy.flashback.01, .06: the total cost starts from the flashback cost).

    ``Game._total_cost`` takes the mana cost for flashback."""
    Game = _engine()[0]
    return [rewrite(Game, "_total_cost", Edit('cost = ManaCost.parse(kws["flashback"]["cost"])',
                                              "cost = d.mana_cost"))]


@mutation("flashback-ignores-timing", "702.34a")
def _flashback_any_time() -> list:
    """A sorcery cast with flashback may be cast any time its controller has priority
    (rulings finalfantasy.flashback.02, .05: timing permissions still apply).

    ``Game.cast`` ignores timing for a flashback cast."""
    Game = _engine()[0]
    return [rewrite(Game, "cast", Edit("ignore_timing=forced is not None,",
                                       'ignore_timing=forced is not None or alternative == "flashback",'))]


@mutation("becoming-a-land-triggers-landfall", "603.6a")
def _became_land_enters() -> list:
    """A permanent that becomes a land is treated as a land entering: landfall triggers
    (ruling finalfantasy.landfall.03: it doesn't, nothing entered the battlefield).

    The ``gain_card_types`` effect also fires an ``enters_battlefield`` event for each
    permanent it affects."""
    from mtg_judge.engine import type_gain
    effects = _engine()[2]

    def entering(ctx: Any, eff: dict) -> None:
        type_gain.gain_card_types(ctx, eff)
        for obj in ctx.objects(eff["what"]):
            ctx.game.fire_triggers({"event": "enters_battlefield", "object": obj})

    return [mock.patch.dict(effects.HANDLERS, {"gain_card_types": entering})]


@mutation("animated-land-has-all-creature-types", "205.3d")
def _animated_land_typed() -> list:
    """A land that becomes a creature gets every creature type (as with changeling), so
    effects that name a creature type apply to it (ruling classic.g-creature-type.01: lands
    turned into creatures have no creature type; CR 205.3: its subtypes stay its land types).

    The ``become_creature`` effect also adds an ``all_creature_types`` continuous effect to
    the permanents it animates."""
    from mtg_judge.engine import type_gain
    from mtg_judge.engine.objects import ContinuousEffect
    effects = _engine()[2]

    def typed(ctx: Any, eff: dict) -> None:
        type_gain.become_creature(ctx, eff)
        refs = [o.ref for o in ctx.objects(eff["what"]) if o.zone == "battlefield"]
        ctx.game.effects.append(ContinuousEffect("all_creature_types", refs, ctx.game.new_timestamp()))

    return [mock.patch.dict(effects.HANDLERS, {"become_creature": typed})]


@mutation("animated-land-keeps-its-printed-pt", "613.4b")
def _animated_land_no_base_pt() -> list:
    """An effect that makes a land an N/N creature doesn't set its power and toughness
    (layer 7b): the land-creature stays 0/0 and dies at once (CR 704.5f).

    ``characteristics.power_toughness`` skips ``set_pt`` effects."""
    from mtg_judge.engine import characteristics
    return [rewrite(characteristics, "power_toughness", Edit('if ce.kind == "set_pt" and obj.ref in ce.affected:',
                                                             'if False:'))]


# --------------------------------------------------------------------------------------------
# Running


@dataclass
class MutantResult:
    """What became of one mutation: ``status`` ``killed``, ``survived`` or ``broken`` (it
    could not be applied: ``error``). ``killing``: the names (``<id>[<ruleset>]``) of the
    cases that pass on the real engine and fail or error under the mutation, in case
    order; ``killed_by``: their fixture ids, de-duplicated."""

    mutation: Mutation
    status: str
    killing: list[str] = field(default_factory=list)
    killed_by: list[str] = field(default_factory=list)
    error: str = ""
    seconds: float = 0.0

    def as_json(self) -> dict:
        return {"name": self.mutation.name, "rule": self.mutation.rule, "doc": self.mutation.doc,
                "status": self.status, "killed_by": self.killed_by[:EXAMPLES],
                "killed_by_count": len(self.killed_by), "killing_cases": len(self.killing),
                **({"error": self.error} if self.error else {})}


@dataclass
class MutantsReport:
    """A mutation run: the results in registry order, the number of cases run, and the
    baseline cases that do not pass on the unmutated engine (they cannot kill anything)."""

    results: list[MutantResult]
    cases: int
    baseline_not_passing: list[str]

    @property
    def killed(self) -> list[MutantResult]:
        return [r for r in self.results if r.status == "killed"]

    @property
    def survivors(self) -> list[MutantResult]:
        return [r for r in self.results if r.status != "killed"]

    @property
    def kill_rate(self) -> float:
        """Killed mutations / mutations run (a broken mutation counts as not killed)."""
        return len(self.killed) / len(self.results) if self.results else 0.0

    @property
    def passed_bar(self) -> bool:
        return bool(self.results) and self.kill_rate >= KILL_RATE_BAR

    def as_json(self) -> dict:
        return {"mutations": [r.as_json() for r in self.results], "cases": self.cases,
                "killed": len(self.killed), "total": len(self.results),
                "kill_rate": round(self.kill_rate, 4), "bar": KILL_RATE_BAR,
                "survivors": [r.mutation.name for r in self.results if r.status == "survived"],
                "broken": [r.mutation.name for r in self.results if r.status == "broken"],
                "baseline_not_passing": self.baseline_not_passing}


@functools.lru_cache(maxsize=4)
def _cases(root: str, keyword: str | None) -> tuple:
    return tuple(collect(Path(root), keyword=keyword))


@contextlib.contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    """Raise CaseTimeout in the body after ``seconds`` (main thread on POSIX only; elsewhere
    no limit)."""
    usable = (seconds and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise CaseTimeout()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_cases(cases: Any, case_timeout: float | None = None) -> dict[str, str]:
    """Run ``cases`` serially on the reference engine (as it is patched now); return
    ``{case name: status}`` (a case over its time limit is ``errored``)."""
    statuses = {}
    for case in cases:
        try:
            with _time_limit(case_timeout):
                result: CaseResult = run_case(case)
            statuses[case.name] = result.status
        except CaseTimeout:
            statuses[case.name] = "errored"
    return statuses


def _run_one(name: str | None, selection: tuple, case_timeout: float | None
             ) -> tuple[str | None, dict[str, str] | None, str, float]:
    """Worker task: run the cases with mutation ``name`` applied (None: the baseline).
    ``selection``: ``(root, keyword)`` to collect (cached per process) or the cases
    themselves. Returns ``(name, {case name: status} or None, error, seconds)``."""
    start = time.perf_counter()
    is_key = len(selection) == 2 and isinstance(selection[0], str)
    cases = _cases(*selection) if is_key else selection
    try:
        with applied(name) if name is not None else contextlib.nullcontext():
            statuses = run_cases(cases, case_timeout)
    except MutationError as exc:
        return name, None, str(exc), time.perf_counter() - start
    return name, statuses, "", time.perf_counter() - start


def run_mutants(names: list[str] | None = None, root: Path | str = DEFAULT_ROOT,
                keyword: str | None = None, workers: int = 2, case_timeout: float | None = 10.0,
                progress: Callable[[str | None], None] | None = None,
                cases: list | None = None) -> MutantsReport:
    """Run the baseline and each mutation of ``names`` (default: all, registry order) over
    the cases under ``root`` matching ``keyword`` (or over ``cases``, already collected);
    ``workers`` processes (1: serially in this process, each mutation undone before the
    next). ``progress(name)`` is called as each run finishes (None for the baseline).
    Raises KeyError for an unknown name."""
    names = list(MUTATIONS) if names is None else list(names)
    for name in names:
        if name not in MUTATIONS:
            raise KeyError(name)
    # Collected here, before the pool starts: forked workers inherit the cache.
    selection: Any = tuple(cases) if cases is not None else (str(root), keyword)
    if cases is None:
        _cases(str(root), keyword)
    jobs: list[str | None] = [None, *names]
    outputs: dict[str | None, tuple] = {}
    if workers <= 1:
        for job in jobs:
            outputs[job] = _run_one(job, selection, case_timeout)
            if progress is not None:
                progress(job)
    else:
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
            futures = [pool.submit(_run_one, job, selection, case_timeout) for job in jobs]
            for future in as_completed(futures):
                output = future.result()
                outputs[output[0]] = output
                if progress is not None:
                    progress(output[0])
    _, baseline, error, _ = outputs[None]
    assert baseline is not None, error
    passing = [case for case, status in baseline.items() if status == "passed"]
    results = []
    for name in names:
        _, statuses, error, seconds = outputs[name]
        m = MUTATIONS[name]
        if statuses is None:
            results.append(MutantResult(m, "broken", error=error, seconds=seconds))
            continue
        killing = [case for case in passing if statuses.get(case) in ("failed", "errored")]
        fixtures = list(dict.fromkeys(case.rsplit("[", 1)[0] for case in killing))
        results.append(MutantResult(m, "killed" if killing else "survived", killing, fixtures,
                                    seconds=seconds))
    not_passing = [case for case, status in baseline.items() if status != "passed"]
    return MutantsReport(results, len(baseline), not_passing)


def format_report(report: MutantsReport, examples: int = 2) -> str:
    """The text table (mutation, CR rule, killed by N cases (M fixtures), examples: the
    first killing fixture ids), then the kill rate and the survivors."""
    rows = []
    for r in report.results:
        if r.status == "killed":
            killed = (f"{len(r.killing)} case{'s' if len(r.killing) != 1 else ''} "
                      f"({len(r.killed_by)} fixture{'s' if len(r.killed_by) != 1 else ''})")
            shown = ", ".join(r.killed_by[:examples]) + (", …" if len(r.killed_by) > examples else "")
        elif r.status == "survived":
            killed, shown = "SURVIVED", "no fixture notices"
        else:
            killed, shown = "BROKEN", r.error
        rows.append((r.mutation.name, r.mutation.rule, killed, shown))
    head = ("mutation", "CR", "killed by", "examples")
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(3)]
    lines = ["  ".join(f"{cell:<{widths[i]}}" for i, cell in enumerate(head[:3])) + "  " + head[3]]
    lines.append("-" * (sum(widths) + 6 + len(head[3])))
    for row in rows:
        lines.append("  ".join(f"{cell:<{widths[i]}}" for i, cell in enumerate(row[:3])) + "  " + row[3])
    lines.append("")
    rate = f"{100 * report.kill_rate:.1f}%"
    lines.append(f"kill rate: {len(report.killed)}/{len(report.results)} mutations killed ({rate}; "
                 f"the bar is {100 * KILL_RATE_BAR:.0f}%) over {report.cases} cases")
    survived = [r.mutation.name for r in report.results if r.status == "survived"]
    broken = [r.mutation.name for r in report.results if r.status == "broken"]
    if survived:
        lines.append("survivors (rules no fixture checks): " + ", ".join(survived))
    if broken:
        lines.append("broken (cannot be applied to this engine): " + ", ".join(broken))
    if report.baseline_not_passing:
        lines.append(f"{len(report.baseline_not_passing)} case(s) do not pass on the unmutated engine "
                     "and cannot kill: " + ", ".join(report.baseline_not_passing[:EXAMPLES])
                     + (", …" if len(report.baseline_not_passing) > EXAMPLES else ""))
    return "\n".join(lines)


@mutation("prepared-copy-cast-keeps-it-prepared", "722.4")
def _prepared_stays_prepared() -> list:
    """Casting the copy of a prepare spell doesn't unprepare its permanent (rulings
    strixhaven.prepare.05, .09, .21: as it is cast, the permanent stops being prepared).

    ``prepare.cast_done`` does nothing."""
    from mtg_judge.engine import prepare
    return [replace(prepare, "cast_done", lambda game, stack_obj: None)]


@mutation("prepared-copy-survives-its-permanent-leaving", "722")
def _prepared_copy_stays() -> list:
    """The copy of a prepare spell stays in exile, castable, after its permanent leaves the
    battlefield (ruling strixhaven.prepare.04: it ceases to exist).

    ``prepare.leaves_battlefield`` does nothing."""
    from mtg_judge.engine import prepare
    return [replace(prepare, "leaves_battlefield", lambda game, perm: None)]


@mutation("prepared-twice-makes-a-second-copy", "722.3")
def _prepared_twice() -> list:
    """A prepared permanent that becomes prepared again gets a second copy of its prepare
    spell (rulings strixhaven.prepare.06, .16: it can't become prepared while it is).

    ``prepare.become_prepared`` ignores ``prepared``."""
    from mtg_judge.engine import prepare
    return [rewrite(prepare, "become_prepared", Edit("or perm.prepared or", "or"))]


@mutation("prepared-copy-cast-by-its-owner", "722.4")
def _prepared_copy_any_player() -> list:
    """The player in whose exile the copy is (its creator) may cast it, not the permanent's
    current controller (ruling strixhaven.prepare.10).

    ``prepare.check_cast`` compares ``player`` with the copy's owner."""
    from mtg_judge.engine import prepare
    return [rewrite(prepare, "check_cast", Edit("if perm.controller != player:", "if obj.owner != player:"))]


@mutation("unprepare-leaves-the-copy", "722")
def _unprepare_leaves_copy() -> list:
    """An effect that unprepares a permanent leaves its copy in exile (ruling
    strixhaven.prepare.17: the copy ceases to exist).

    ``prepare._copy_ceases`` does nothing."""
    from mtg_judge.engine import prepare
    return [replace(prepare, "_copy_ceases", lambda game, perm, reason: None)]


@mutation("prepared-copy-removed-by-state-based-actions", "704.5e")
def _prepared_copy_sba() -> list:
    """The copy of a prepare spell in exile is removed like any copy of a card outside the
    stack (CR 704.5e; ruling strixhaven.prepare.11: that rule doesn't apply to it).

    ``paradigm.copies_cease_to_exist`` also removes copies with ``prepared_for``."""
    from mtg_judge.engine import paradigm
    return [rewrite(paradigm, "copies_cease_to_exist",
                    Edit('getattr(o, "paradigm_copy", False)',
                         'getattr(o, "paradigm_copy", False) or getattr(o, "prepared_for", None)'))]


@mutation("any-permanent-becomes-prepared", "722.3a")
def _prepared_without_spell() -> list:
    """A permanent without a prepare spell becomes prepared (ruling strixhaven.prepare.15:
    it can't). ``prepare.become_prepared`` doesn't check for a prepare spell, and the copy
    of a card without one is a copy of the card itself.

    ``prepare.prepare_spell`` returns the card when it has no prepare face."""
    from mtg_judge.engine import prepare, faces
    return [replace(prepare, "prepare_spell",
                    lambda obj: faces.card_of(obj).get_face("prepare") or faces.card_of(obj))]


@mutation("prepare-spell-name-cannot-be-named", "722")
def _prepare_name() -> list:
    """A player choosing a card name can't choose a prepare spell's name (ruling
    strixhaven.prepare.18: they may).

    ``faces.card_with_face_named`` ignores prepare faces."""
    from mtg_judge.engine import faces
    return [rewrite(faces, "card_with_face_named",
                    Edit('(f.face in CASTABLE_FACES or f.face == "prepare")', "f.face in CASTABLE_FACES"))]


# --------------------------------------------------------------------------------------------
# Transforming double-faced cards and meld (engine/transform.py, FORMAT §11.6)


@mutation("transform-makes-a-new-object", "701.28a")
def _transform_new_object() -> list:
    """A permanent that transforms to its back face loses its counters, as if it were a new
    object (ruling finalfantasy.transform.04: it is the same permanent and keeps them).

    ``transform.turn_over`` clears the counters as it turns the permanent over."""
    from mtg_judge.engine import transform
    return [rewrite(transform, "turn_over",
                    Edit('obj.definition, obj.card_definition = _face(card, "back", obj.is_token), card',
                         'obj.definition, obj.card_definition, obj.counters = _face(card, "back", obj.is_token), card, {}'))]


@mutation("back-face-mana-value-is-zero", "202.3b")
def _back_face_mana_value() -> list:
    """A transforming permanent with its back face up has mana value 0, its back face having
    no mana cost (rulings finalfantasy.transform.05, .08: the front face's).

    ``transform.mana_value`` returns 0 for a transformed permanent."""
    from mtg_judge.engine import transform
    return [rewrite(transform, "mana_value",
                    Edit("return obj.card_definition.mana_cost.mana_value()", "return 0"))]


@mutation("non-dfc-transforms-anyway", "701.28c")
def _non_dfc_transforms() -> list:
    """Told to transform, a permanent that isn't a double-faced card takes its own face as
    its "back" face: it is logged as transformed (CR 701.28c: nothing happens).

    ``transform.turn_over`` doesn't check that the card is a transforming double-faced card."""
    from mtg_judge.engine import transform
    return [rewrite(transform, "turn_over",
                    Edit("if not is_transforming_card(card):\n        return False",
                         "if not is_transforming_card(card):\n"
                         "        game.log(\"transformed\", object=obj.ref, card=obj.card, name=obj.name, face=\"back\")\n"
                         "        return True"))]


@mutation("copy-of-a-face-down-creature-copies-its-face", "707.2")
def _copy_of_face_down() -> list:
    """A copy of a face-down creature (Clone entering as a copy, a token copy) copies the
    card's face-up characteristics (CR 707.2, 708.2; rulings timespiral.morph.02, .05: the
    face-down values, a nameless 2/2 with no abilities, are its copiable values).

    ``transform.copiable_faces`` and ``transform.enter_as_copy`` ignore the face-down status."""
    from mtg_judge.engine import transform
    return [rewrite(transform, "copiable_faces", Edit("if src.face_down:", "if False:")),
            rewrite(transform, "enter_as_copy",
                    Edit("face = FACE_DOWN if src.face_down else src.definition", "face = src.definition"))]


@mutation("top-of-library-gives-no-permission", "702.37c")
def _top_of_library_no_permission() -> list:
    """Future Sight's static ``play_from_library_top`` lets no card be cast or played from
    the library (rulings timespiral.morph.01, .02: morph works from any zone the card could
    be cast from, here the top of the library).

    ``library_top.playable_top`` always returns None."""
    from mtg_judge.engine import library_top
    return [rewrite(library_top, "playable_top", Edit("if not library:", "if True:"))]


@mutation("any-library-card-may-be-played", "401.5")
def _any_library_card() -> list:
    """Future Sight lets its controller play any card of their library, not only the top one.

    ``library_top.may_cast`` accepts every card of the library when the static applies."""
    from mtg_judge.engine import library_top
    return [rewrite(library_top, "may_cast",
                    Edit("playable_top(game, player) is obj", "playable_top(game, player) is not None"))]


# Phasing (engine/phasing.py, FORMAT §13.5)


@mutation("phased-out-permanents-never-phase-in", "502.1")
def _never_phase_in() -> list:
    """Phased-out permanents stay phased out: nothing phases in during the untap step (CR
    502.1, 702.26a).

    ``phasing.untap_step_phasing`` phases nothing in."""
    from mtg_judge.engine import phasing
    return [rewrite(phasing, "untap_step_phasing", Edit("_phase_in(game, obj)", "pass"))]


@mutation("attachments-stay-when-a-permanent-phases-out", "702.26g")
def _attachments_stay() -> list:
    """The Auras and Equipment attached to a permanent that phases out stay on the battlefield
    (CR 702.26g: they phase out indirectly with it; an Aura left behind is then put into the
    graveyard as attached to nothing).

    ``phasing.phase_out`` doesn't phase out what is attached."""
    from mtg_judge.engine import phasing
    return [rewrite(phasing, "phase_out", Edit("phase_out(game, att, indirectly=True)", "pass"))]


@mutation("phasing-in-never-counts-for-echo", "702.30a")
def _phasing_in_no_echo() -> list:
    """Under the 2006 rules a permanent that phased in since its controller's last upkeep
    doesn't trigger echo (ruling timespiral.echo.04: it does).

    ``phasing._phase_in`` ignores the ruleset switch ``phasing_in_is_coming_under_control``."""
    from mtg_judge.engine import phasing
    return [rewrite(phasing, "_phase_in", Edit("if game.rules.phasing_in_is_coming_under_control:", "if False:"))]


@mutation("phased-out-face-down-card-not-revealed-at-game-end", "708.9")
def _phased_out_not_revealed() -> list:
    """A face-down card that is phased out when the game ends is not revealed (ruling
    timespiral.morph.15: it is, like every face-down permanent).

    ``Game.check_game_over`` reveals only the stack and the battlefield."""
    Game = _engine()[0]
    return [rewrite(Game, "check_game_over", Edit("+ phasing.phased_out_objects(self)", "+ []"))]


@mutation("melded-permanent-keeps-the-tapped-status", "701.42a")
def _melded_tapped() -> list:
    """The melded permanent enters tapped, as the card with the meld ability was (ruling
    finalfantasy.meld.05: a new, untapped object unrelated to the objects that left).

    ``transform.meld`` taps the new permanent."""
    from mtg_judge.engine import transform
    return [rewrite(transform, "meld", Edit("new.controller = controller", "new.controller = controller; new.tapped = True"))]


@mutation("melded-mana-value-is-zero", "202.3c")
def _melded_mana_value() -> list:
    """A melded permanent has mana value 0, its combined back face having no mana cost
    (ruling finalfantasy.meld.10: the sum of its front faces' mana values).

    ``transform.mana_value`` returns 0 for a melded permanent."""
    from mtg_judge.engine import transform
    return [rewrite(transform, "mana_value",
                    Edit("return whole_card(obj).mana_cost.mana_value() + obj.melded_with[1].mana_cost.mana_value()",
                         "return 0"))]


@mutation("melded-permanent-leaves-as-one-card", "712.4c")
def _melded_one_card() -> list:
    """A melded permanent that leaves the battlefield moves only the card it is named by; the
    other card is lost (ruling finalfantasy.meld.03: both cards go).

    ``Zones.move`` doesn't call ``transform.partner_leaves``."""
    Game = _engine()[0]
    return [rewrite(Game, "move", Edit("transform.partner_leaves(self, obj, to, position, cause)", "pass"))]


@mutation("paradigm-copy-not-cast-stays-in-exile", "704.5e")
def _paradigm_copy_stays() -> list:
    """A paradigm copy that its controller declines to cast stays in exile (ruling
    strixhaven.paradigm.02: it ceases to exist the next time state-based actions are
    checked, CR 704.5e).

    ``paradigm.copies_cease_to_exist`` does nothing."""
    from mtg_judge.engine import paradigm
    return [replace(paradigm, "copies_cease_to_exist", lambda game: False)]


@mutation("paradigm-delayed-trigger-used-up", "603.7c")
def _paradigm_used_up() -> list:
    """Paradigm's delayed ability triggers only once, like other delayed abilities (ruling
    strixhaven.paradigm.02: at the beginning of each of your first main phases for the rest of
    the game).

    ``fire_delayed_triggers`` drops a recurring record once it has triggered."""
    from mtg_judge.engine import delayed_triggers
    return [rewrite(delayed_triggers, "fire_delayed_triggers",
                    Edit('if rec["ability"].get("recurring"):', "if False:"))]


@mutation("paradigm-spell-goes-to-the-graveyard", "608.2n")
def _paradigm_to_graveyard() -> list:
    """A resolved paradigm spell goes to its owner's graveyard and creates no delayed ability
    (ruling strixhaven.paradigm.01: it is exiled, and its first resolution creates it).

    ``paradigm.resolves`` does nothing."""
    from mtg_judge.engine import paradigm
    return [replace(paradigm, "resolves", lambda game, item: False)]


@mutation("paradigm-ability-for-every-resolution", "603.7a")
def _paradigm_every_time() -> list:
    """Every resolution of a paradigm spell creates another delayed ability (ruling
    strixhaven.paradigm.01: only the first spell with that name that resolves for you).

    ``paradigm.resolves`` skips its first-time check."""
    from mtg_judge.engine import paradigm
    return [rewrite(paradigm, "resolves", Edit("if key not in done:", "if True:"))]


@mutation("repartee-triggers-per-target", "207.2c")
def _repartee_per_target() -> list:
    """A repartee ability triggers once for each creature the spell targets (ruling
    strixhaven.repartee.02: once per spell).

    ``Game.add_trigger`` adds a ``targeting`` trigger once per target permanent."""
    Game = _engine()[0]

    def make(original: Callable) -> Callable:
        def add_trigger(self: Any, src: Any, key: Any, ab: Any, event: dict) -> None:
            times = 1
            if isinstance(ab, dict) and "targeting" in ab.get("trigger", {}) and event.get("event") == "spell_cast":
                times = max(1, sum(1 for ref in event["spell"].targets
                                   if isinstance(ref, str) and ref in self.objects
                                   and self.objects[ref].zone == "battlefield"))
            for _ in range(times):
                original(self, src, key, ab, event)
        return add_trigger
    return [wrap(Game, "add_trigger", make)]


@mutation("repartee-ignores-what-the-spell-targets", "207.2c")
def _repartee_any_target() -> list:
    """Repartee triggers for any instant or sorcery spell you cast (ruling
    strixhaven.repartee.01: one that targets a creature).

    ``paradigm.targets_match`` always holds."""
    from mtg_judge.engine import paradigm
    return [replace(paradigm, "targets_match", lambda game, spell, spec, controller: True)]


@mutation("lost-creature-type-ignored", "613.1d")
def _lost_type_ignored() -> list:
    """An effect that makes a permanent not a creature changes nothing: it stays a creature,
    and its increment triggers and resolves (ruling strixhaven.increment.08).

    ``characteristics.is_type`` ignores the lost card types."""
    from mtg_judge.engine import characteristics
    return [rewrite(characteristics, "is_type",
                    Edit('and t not in getattr(obj, "lost_card_types", ())', ""))]


@mutation("a-token-melds", "701.42c")
def _token_melds() -> list:
    """A token exiled with a meld card of its pair's name is melded with it (ruling
    finalfantasy.meld.06: tokens can't be melded; the cards stay in exile).

    ``transform.meld`` doesn't check for tokens."""
    from mtg_judge.engine import transform
    return [rewrite(transform, "meld", Edit("if a.is_token or b.is_token or any(", "if any("))]


@mutation("token-copy-enters-front-face-up", "707.2")
def _token_copy_front() -> list:
    """A token copy of a transforming permanent with its back face up enters with its front
    face up (ruling finalfantasy.transform.13: with its back face up).

    ``transform.copiable_faces`` always copies the front face."""
    from mtg_judge.engine import transform
    return [rewrite(transform, "copiable_faces",
                    Edit('definition = _face(whole, "back", True) if is_transformed(src) else whole', "definition = whole"),
                    Edit("card_definition = whole if is_transformed(src) else None", "card_definition = None"))]


@mutation("meld-partner-not-chosen", "701.42a")
def _meld_partner_not_chosen() -> list:
    """With two permanents of the named name, the meld effect exiles the first one without
    asking (ruling finalfantasy.meld.04: its controller chooses one).

    ``transform.meld_effect`` takes the first candidate."""
    from mtg_judge.engine import transform
    return [rewrite(transform, "meld_effect", Edit("if len(mates) == 1:", "if mates:"))]


@mutation("melded-permanent-returns-as-one-card", "610.3")
def _flicker_one_card() -> list:
    """Exiled and returned, a melded permanent's "that card" is only the card it is named by
    (ruling finalfantasy.meld.12: both cards).

    ``transform.exile_and_return`` forgets the other card."""
    from mtg_judge.engine import transform
    return [rewrite(transform, "exile_and_return", Edit("exiled.append(g.by_card[partner])", "pass"))]


@mutation("non-dfc-returns-transformed", "712.14a")
def _non_dfc_returns() -> list:
    """Told to return to the battlefield transformed, a card that isn't a double-faced card
    returns anyway (ruling finalfantasy.transform.12: it stays in exile).

    ``transform.exile_and_return`` returns it as it is."""
    from mtg_judge.engine import transform
    return [rewrite(transform, "exile_and_return",
                    Edit("if not is_transforming_card(whole):\n                    continue",
                         "if not is_transforming_card(whole):\n"
                         "                    g.move(card, \"battlefield\", controller=controller, cause=eff[\"type\"])\n"
                         "                    continue"))]


# ------------------------------------------------------- planeswalkers (engine/planeswalkers.py)
@mutation("damage-leaves-planeswalker-loyalty", "120.3c")
def _damage_leaves_loyalty() -> list:
    """Damage dealt to a planeswalker removes no loyalty counters (CR 120.3c: it removes that
    many).

    ``planeswalkers.damage_removes_loyalty`` does nothing."""
    from mtg_judge.engine import planeswalkers
    return [replace(planeswalkers, "damage_removes_loyalty", lambda game, obj, dealt: None)]


@mutation("planeswalker-survives-zero-loyalty", "704.5i")
def _zero_loyalty_survives() -> list:
    """A planeswalker with no loyalty counters stays on the battlefield (CR 704.5i: it is put
    into its owner's graveyard).

    ``planeswalkers.zero_loyalty`` finds none."""
    from mtg_judge.engine import planeswalkers
    return [replace(planeswalkers, "zero_loyalty", lambda game: [])]


@mutation("attacking-a-planeswalker-damages-its-controller", "510.1b")
def _planeswalker_attack_hits_player() -> list:
    """An unblocked creature attacking a planeswalker deals its combat damage to the
    defending player instead (CR 510.1b, 506.2: to the planeswalker it attacks).

    ``planeswalkers.recipient`` always answers the defending player."""
    from mtg_judge.engine import planeswalkers
    return [replace(planeswalkers, "recipient", lambda game, attacker_ref, defender: defender)]


@mutation("entering-attacking-only-players", "508.4")
def _enter_attacking_only_players() -> list:
    """A creature put onto the battlefield attacking can attack only players, never a
    planeswalker (ruling tarkir.mobilize.04: the player, planeswalker or battle of its
    controller's choice).

    ``planeswalkers.attackable`` finds no planeswalker."""
    from mtg_judge.engine import planeswalkers
    return [replace(planeswalkers, "attackable", lambda game, player: [])]


# ------------------------------------------------------- issue 14: effects on spells on the stack
@mutation("returned-spell-stays-on-the-stack", "608.2b")
def _returned_spell_stays() -> list:
    """"Return target spell to its owner's hand" does nothing to a spell (CR 608.2b, 400.7:
    the spell leaves the stack to its owner's hand, neither resolved nor countered).

    ``effects.HANDLERS["return_to_hand"]`` moves only cards that are not on the stack."""
    from mtg_judge.engine import effects
    if "return_to_hand" not in effects.HANDLERS:
        raise MutationError("mtg_judge.engine.effects.HANDLERS has no 'return_to_hand' effect")
    original = effects.HANDLERS["return_to_hand"]

    def cards_only(ctx: Any, eff: dict) -> None:
        if not any(isinstance(r, effects.StackItem) for r in ctx.refs(eff["what"])):
            original(ctx, eff)
    return [mock.patch.dict(effects.HANDLERS, {"return_to_hand": cards_only})]


# ------------------------------------- issue 14 part 3: extra turns, ending the turn, flicker, card targets
@mutation("extra-turns-first-in-first-out", "500.7")
def _extra_turns_fifo() -> list:
    """Extra turns are taken in the order they were added (CR 500.7: the most recently
    added is taken first).

    ``extra_turns.next_turn`` takes the oldest pending extra turn."""
    from mtg_judge.engine import extra_turns
    return [rewrite(extra_turns, "next_turn", Edit("player = waiting.pop()", "player = waiting.pop(0)"))]


@mutation("turn-order-resumes-after-the-extra-turn", "500.7")
def _turn_order_after_extra() -> list:
    """After extra turns, the turn order goes on after the last extra turn's player instead of
    after the normal turn they were added to (an opponent's extra turn from Time Warp would
    replace their own turn).

    ``extra_turns.last_normal_turn`` returns the current active player."""
    from mtg_judge.engine import extra_turns
    return [rewrite(extra_turns, "last_normal_turn",
                    Edit('return getattr(game, "normal_turn_player", game.active)', "return game.active"))]


@mutation("additional-beginning-phase-has-no-untap-step", "500.8")
def _additional_phase_first_step_lost() -> list:
    """An additional phase lacks its first step (an additional beginning phase without its
    untap step: nothing untaps).

    ``extra_turns.additional_phase`` drops the first step of the phase it adds."""
    from mtg_judge.engine import extra_turns
    return [rewrite(extra_turns, "additional_phase",
                    Edit("steps = list(PHASE_STEPS[kind])", "steps = list(PHASE_STEPS[kind])[1:]"))]


@mutation("end-the-turn-leaves-the-stack", "723.1a")
def _end_turn_keeps_stack() -> list:
    """Ending the turn exiles nothing: the spells and abilities on the stack stay there (and
    resolve later), the resolving spell goes to the graveyard.

    ``end_turn.end_the_turn`` skips the exiling loop."""
    from mtg_judge.engine import end_turn
    return [rewrite(end_turn, "end_the_turn", Edit("for item in reversed(list(g.stack)):", "for item in []:"))]


@mutation("end-the-turn-skips-nothing", "723.1d")
def _end_turn_skips_nothing() -> list:
    """Ending the turn doesn't skip to the cleanup step: the rest of the turn's steps
    happen.

    ``end_turn.end_the_turn`` returns instead of raising ``TurnEnded``."""
    from mtg_judge.engine import end_turn
    return [rewrite(end_turn, "end_the_turn", Edit("raise TurnEnded()", "return"))]


@mutation("returned-card-under-the-effects-controller", "610.3")
def _returned_under_controller() -> list:
    """A card returned "under its owner's control" comes back under the control of the
    effect's controller (a stolen permanent flickered by its thief stays with the thief).

    ``flicker.return_to_battlefield`` ignores ``under``."""
    from mtg_judge.engine import flicker
    return [rewrite(flicker, "return_to_battlefield",
                    Edit('controller = obj.owner if eff.get("under", "owner") == "owner" else ctx.controller',
                         "controller = ctx.controller"))]


@mutation("no-card-targets-for-triggers", "115.1")
def _no_card_targets() -> list:
    """Cards in graveyards and in exile are never candidate targets when the game checks
    whether a triggered ability has a legal target: a Gravedigger's trigger is always
    removed (CR 603.3d), with cards to target.

    ``targets.card_target_candidates`` returns no card."""
    from mtg_judge.engine import targets
    return [rewrite(targets, "card_target_candidates",
                    Edit('return [o for pid in game.order for zone in ("graveyard", "exile") '
                         'for o in game.players[pid].zone(zone)]', "return []"))]


# --------------------------------------------------------- proliferate (engine/proliferate.py)
@mutation("proliferate-one-kind-only", "701.34a")
def _proliferate_one_kind() -> list:
    """Proliferate gives each chosen permanent a counter of only one kind it has (the rule
    before 2023; CR 701.34a today: each kind).

    ``proliferate.proliferate`` stops after the first kind."""
    from mtg_judge.engine import proliferate
    return [rewrite(proliferate, "proliferate",
                    Edit("sagas.put_counters(game, obj, kind, 1)", "sagas.put_counters(game, obj, kind, 1)\n            break"))]


@mutation("proliferate-everything", "701.34a")
def _proliferate_everything() -> list:
    """Proliferate gives counters to every permanent with counters, without asking (CR
    701.34a: any number of them, of its controller's choice).

    ``proliferate.proliferate`` chooses all the options."""
    from mtg_judge.engine import proliferate
    return [rewrite(proliferate, "proliferate",
                    Edit('refs = game.decide("choose", player, "choose", lambda inp: chosen(game, offered, inp.get("choice")),\n'
                         '                       reason=REASON, options=offered)', "refs = offered"))]


@mutation("spell-ignores-its-own-cost-reduction", "601.2f")
def _own_cost_ignored() -> list:
    """A spell's own "This spell costs {N} less/more to cast" is ignored (CR 601.2f, 113.6:
    it applies as the spell is cast).

    ``spell_statics.own_cost_effects`` finds none."""
    from mtg_judge.engine import spell_statics
    return [replace(spell_statics, "own_cost_effects", lambda game, obj, player: [])]


@mutation("only-during-your-turn-ignored", "602.5d")
def _your_turn_ignored() -> list:
    """An ability that may be activated "only during your turn" (Sundial of the Infinite)
    can be activated in an opponent's turn.

    ``Game.activate`` skips the ``"timing": "your_turn"`` check."""
    Game = _engine()[0]
    return [rewrite(Game, "activate", Edit('if ab.get("timing") == "your_turn" and player != self.active:',
                                           'if False:'))]


@mutation("returned-aura-enchants-anything", "303.4f")
def _returned_aura_anything() -> list:
    """An Aura put onto the battlefield without being cast may be attached to any
    permanent, whatever its enchant ability names (classic.enchantment.01: an "Enchant
    creature" can be attached only to a creature).

    ``flicker.aura_hosts`` offers every permanent."""
    from mtg_judge.engine import flicker
    return [replace(flicker, "aura_hosts", lambda game, aura: list(game.battlefield))]


# ------------------------------------- copies: alternative characteristics, copy exceptions (engine/transform.py)


@mutation("copy-drops-alternative-characteristics", "707.2")
def _copy_drops_alternatives() -> list:
    """A permanent entering as a copy of an adventurer or prepare card gets only its main
    characteristics: it has no Adventure and no prepare spell (CR 707.2: the alternative
    characteristics are copiable; rulings finalfantasy.adventure.14, strixhaven.prepare.12).

    ``transform.enter_as_copy`` strips the faces of every copied card."""
    from mtg_judge.engine import transform
    return [rewrite(transform, "enter_as_copy", Edit("if face.layout in ALTERNATIVE_LAYOUTS:", "if False:"))]


@mutation("copy-is-prepared-like-the-original", "707.2")
def _copy_is_prepared() -> list:
    """A permanent that enters as a copy of a prepared creature is prepared too, as if the
    designation were a copiable value (ruling strixhaven.prepare.12: it isn't).

    After ``transform.enter_as_copy``, the copy is marked prepared when a prepared permanent
    of the copied name is on the battlefield."""
    from mtg_judge.engine import transform

    def make(original):
        def enter_as_copy(game, obj):
            original(game, obj)
            if any(o.prepared and o is not obj and o.name == obj.name for o in game.battlefield):
                obj.prepared = True
        return enter_as_copy
    return [wrap(transform, "enter_as_copy", make)]


@mutation("token-copy-ignores-exceptions", "707.9b")
def _token_copy_no_exceptions() -> list:
    """A token copy "except it's a 1/1 green Frog" is an exact copy (CR 707.9b: the exceptions
    are part of its copiable values; Croaking Counterpart, strixhaven.prepare.20).

    ``transform.with_exceptions`` returns the definition unchanged."""
    from mtg_judge.engine import transform
    return [replace(transform, "with_exceptions", lambda definition, exceptions: definition)]


@mutation("prepare-spell-takes-the-copy-exceptions", "707.9")
def _prepare_spell_exceptions() -> list:
    """The copy of a prepare spell takes the colors, subtypes, power and toughness of its
    permanent, as if the permanent's copy exceptions applied to it (ruling
    strixhaven.prepare.20: they don't; the copy is the prepare face as printed).

    ``prepare.prepare_spell`` returns the face with the permanent's own values."""
    import dataclasses

    from mtg_judge.engine import prepare

    def make(original):
        def prepare_spell(obj):
            face = original(obj)
            if face is None:
                return None
            d = obj.definition
            return dataclasses.replace(face, colors=d.colors, subtypes=d.subtypes, power=d.power, toughness=d.toughness)
        return prepare_spell
    return [wrap(prepare, "prepare_spell", make)]


@mutation("equipment-adds-no-creature-type", "205.1b")
def _no_added_creature_types() -> list:
    """"Equipped creature … is a Monk in addition to its other types" does nothing: the
    equipped creature keeps only its printed subtypes (CR 205.1b, 613.1d; Monk's Fist,
    Warrior's Sword, finalfantasy.job-select.01: the Equipment's other abilities say how it
    benefits the equipped creature).

    ``characteristics._added_creature_types`` finds no ``add_creature_types`` static."""
    from mtg_judge.engine import characteristics
    return [replace(characteristics, "_added_creature_types", lambda game, obj: [])]


@mutation("life-at-most-is-strict", "103.4")
def _life_at_most_strict() -> list:
    """"If your life total is less than or equal to half your starting life total" is read
    as "less than": Cecil, Dark Knight's Darkness at exactly 10 life does not untap and
    transform it (the condition ``life_at_most``, engine/game_end.py;
    finalfantasy.transform.darkness-loses-life-then-untaps-and-transforms)."""
    from mtg_judge.engine import game_end
    return [replace(game_end, "_life_at_most", lambda life, most: life < most)]
