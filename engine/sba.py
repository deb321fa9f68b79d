"""State-based actions and the end of the game (CR 704, 104)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import characteristics as ch
from . import equipment, paradigm, phasing, planeswalkers, sagas
from .errors import GameOver
from .objects import GameObject

if TYPE_CHECKING:
    from .game import Game


class StateBasedActions:
    """State-based actions (a mixin of :class:`~.game.Game`)."""

    def check_state(self: Game) -> bool:
        """CR 704.3: perform every applicable state-based action simultaneously, repeat
        until none apply; return True if any was performed. Implemented: 704.5a (life 0
        or less), 704.5b (drew from an empty library), 704.5d (tokens off the battlefield),
        704.5f (toughness 0 or less), 704.5g (lethal damage), 704.5h (deathtouch damage),
        704.5i (a planeswalker with 0 loyalty), 704.5j (legend rule), 704.5m (Aura attached illegally), 704.5q (+1/+1 and -1/-1
        counters annihilate). Raises GameOver when the game ends (CR 104.2)."""
        any_done = False
        while True:
            done = self._sba_once()
            if not done:
                return any_done
            any_done = True

    def _sba_once(self: Game) -> bool:
        done = False
        losers = []
        for pid in self.order:
            p = self.players[pid]
            if p.lost:
                continue
            if p.life <= 0:
                losers.append((pid, "life", "704.5a"))
            elif p.drew_from_empty:
                losers.append((pid, "empty_library", "704.5b"))
        for pid, reason, rule in losers:
            self.log("state_based_action", rule=rule, player=pid)
            self.players[pid].lost = True
            self.log("player_lost", player=pid, reason=reason)
            done = True
        if losers:
            self.check_game_over()
        # tokens that left the battlefield cease to exist
        for p in self.players.values():
            for zone in ("hand", "library", "graveyard", "exile"):
                for obj in [o for o in p.zone(zone) if o.is_token]:
                    p.zone(zone).remove(obj)
                    del self.objects[obj.ref]
                    self.log("state_based_action", rule="704.5d", object=obj.ref, card=obj.card)
                    self.log("token_ceased_to_exist", object=obj.ref, card=obj.card)
                    done = True
        done = paradigm.copies_cease_to_exist(self) or done  # CR 704.5e
        to_graveyard: list[tuple[GameObject, str, bool]] = []
        for perm in list(self.battlefield):
            if ch.is_type(perm, "Creature"):
                _, t = ch.power_toughness(self, perm)
                if t <= 0:
                    to_graveyard.append((perm, "704.5f", False))
                elif perm.damage >= t and perm.damage > 0:
                    to_graveyard.append((perm, "704.5g", True))
                elif perm.dealt_deathtouch_damage:
                    to_graveyard.append((perm, "704.5h", True))
            if perm.chars.enchant is not None and "Aura" in perm.chars.subtypes:
                host = self.objects.get(perm.attached_to) if perm.attached_to else None
                if not self._aura_can_stay(perm, host):
                    to_graveyard.append((perm, "704.5m", False))
            if self.rules.counter_annihilation and perm.counters.get("+1/+1") and perm.counters.get("-1/-1"):
                n = min(perm.counters["+1/+1"], perm.counters["-1/-1"])
                for kind in ("+1/+1", "-1/-1"):
                    perm.counters[kind] -= n
                    if not perm.counters[kind]:
                        del perm.counters[kind]
                self.log("state_based_action", rule="704.5q", object=perm.ref, card=perm.card)
                self.log("counters_removed", object=perm.ref, card=perm.card, counter="+1/+1", count=n)
                self.log("counters_removed", object=perm.ref, card=perm.card, counter="-1/-1", count=n)
                done = True
        to_graveyard += planeswalkers.zero_loyalty(self)  # CR 704.5i
        seen = set()
        for perm, rule, destroy in to_graveyard:
            if perm.ref in seen or (destroy and ch.has_keyword(self, perm, "indestructible")):
                continue  # CR 702.12b: lethal or deathtouch damage doesn't destroy it
            seen.add(perm.ref)
            self.log("state_based_action", rule=rule, object=perm.ref, card=perm.card)
            if destroy:
                self.destroy(perm)
            else:
                self.move(perm, "graveyard", cause="state_based_action")
            done = True
        done |= self._legend_rule()
        done |= sagas.sacrifice_finished_sagas(self)  # CR 714.4
        done |= equipment.unattach_illegal(self)  # CR 704.5n
        return done

    def _aura_can_stay(self: Game, aura: GameObject, host: GameObject | None) -> bool:
        """CR 303.4d/704.5m: an Aura stays while attached to an object it could enchant;
        "enchant" is not targeting, so only the enchant restriction and protection count
        (shroud doesn't)."""
        if host is None or host.zone != "battlefield":
            return False
        spec = aura.chars.enchant
        kind = spec.get("kind", "permanent")
        type_for_kind = {"creature": "Creature", "land": "Land", "artifact": "Artifact", "enchantment": "Enchantment"}
        if kind in type_for_kind and not ch.is_type(host, type_for_kind[kind]):
            return False
        if not ch.matches(self, host, spec.get("filter"), aura.controller, aura):
            return False
        return not ch.protected_from(self, host, aura)

    def _legend_rule(self: Game) -> bool:
        """The legend rule of the ruleset (``Ruleset.legend_rule``, a
        :class:`~.rulesets.LegendRule`): ``choose`` (CR 704.5j: a player who controls two or
        more legendary permanents with the same name chooses one and puts the rest into
        their owners' graveyards), ``all_die`` (2006: all of them, whoever controls them) or
        ``newest_dies`` (1999: the one that came into play last). Returns True if it put a
        permanent into a graveyard."""
        legend_rule = self.rules.legend_rule
        done = False
        for group in legend_rule.groups(self):
            for perm in legend_rule.put_into_graveyard(self, group):
                self.log("state_based_action", rule=legend_rule.rule, object=perm.ref, card=perm.card)
                self.move(perm, "graveyard", cause="state_based_action")
            done = True
        return done

    def check_game_over(self: Game) -> None:
        """CR 104.2a/104.4a: the last player standing wins; if all remaining players lose
        simultaneously, the game is a draw. Raises GameOver when the game has ended."""
        living = self.living()
        if len(living) > 1:
            return
        losers = [p for p in self.order if self.players[p].lost]
        self.over = True
        self.result: dict[str, Any] | None  # declared for the type checker (Game.__init__)
        self.result = {"winners": living, "losers": losers, "draw": not living}
        self.log("game_ended", winners=living, losers=losers, draw=not living)
        # CR 708.9: face-down spells and permanents are revealed when the game ends
        # and so are phased-out face-down cards (ruling timespiral.morph.15; engine/phasing.py)
        for obj in ([it.obj for it in self.stack if it.obj is not None] + list(self.battlefield)
                    + phasing.phased_out_objects(self)):
            if obj.face_down:
                self.log("card_revealed", player=obj.owner, object=obj.ref, card=obj.card, name=obj.definition.name)
        raise GameOver()
