"""Mana costs, mana pools and paying costs (CR 106, 107.4, 202, 601.2f–h)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalAction

COLORS = ("W", "U", "B", "R", "G")
POOL_ORDER = ("C", "W", "U", "B", "R", "G")  # the order generic mana is paid with by default
COLOR_NAMES = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}

_SYMBOL = re.compile(r"\{([^}]+)\}")
_HYBRID = re.compile(r"^(?:[WUBRG]|2)/[WUBRG]$")  # {W/U}, {2/W} (CR 107.4e)


@dataclass(frozen=True)
class ManaCost:
    """A parsed mana cost: ``generic`` (int), ``colored`` ({"U": 1}), ``x`` (number of {X}),
    ``hybrid`` (the hybrid symbols, CR 107.4e: ``"U/R"`` for {U/R}, ``"2/W"`` for {2/W}).

    ``present`` is False for an object with no mana cost at all (CR 202.1b); such a cost
    can't be paid (CR 118.6).
    """

    generic: int = 0
    colored: tuple[tuple[str, int], ...] = ()  # sorted (color, n) pairs; a tuple keeps the dataclass hashable
    x: int = 0
    present: bool = True
    hybrid: tuple[str, ...] = ()  # hybrid symbols in cost order, e.g. ("U/R", "U/R") or ("2/W",)

    @staticmethod
    def parse(text: str | None) -> "ManaCost":
        """Parse ``"{2}{U}"``, ``"{X}{R}"``, hybrid ``"{3}{U/R}{U/R}"`` and ``"{2/W}"`` (CR
        107.4e), ``""`` (a cost of 0) or ``None`` (no cost).

        Raises ValueError on an unknown symbol (Phyrexian ``{W/P}``, snow ``{S}`` …).
        """
        if text is None:
            return ManaCost(present=False)
        generic, x = 0, 0
        colored: dict[str, int] = {}
        hybrid: list[str] = []
        rest = _SYMBOL.sub("", text).strip()
        if rest:
            raise ValueError(f"mana cost {text!r}: text outside braces")
        for sym in _SYMBOL.findall(text):
            if sym.isdigit():
                generic += int(sym)
            elif sym == "X":
                x += 1
            elif sym in COLORS or sym == "C":
                colored[sym] = colored.get(sym, 0) + 1
            elif _HYBRID.match(sym) and sym[0] != sym[2]:
                hybrid.append(sym)
            else:
                raise ValueError(f"mana cost {text!r}: unsupported symbol {{{sym}}}")
        return ManaCost(generic, tuple(sorted(colored.items())), x, True, tuple(hybrid))

    def mana_value(self) -> int:
        """CR 202.3: the total amount of mana in the cost, X counting as 0; CR 202.3f: a
        hybrid symbol counts its largest component ({W/U} 1, {2/W} 2)."""
        return (self.generic + sum(n for _, n in self.colored)
                + sum(2 if h[0] == "2" else 1 for h in self.hybrid))

    def colors(self) -> list[str]:
        """Color names from the colored symbols (CR 105.2, 202.2), a hybrid symbol giving
        each of its colors (CR 202.2d: {U/R} is blue and red, {2/W} white), in WUBRG
        order."""
        present = {c for c, _ in self.colored if c != "C"}
        for h in self.hybrid:
            present.update(part for part in h.split("/") if part in COLORS)
        return [COLOR_NAMES[c] for c in COLORS if c in present]

    def with_x(self, x_value: int) -> "ManaCost":
        """The cost to pay once X is chosen (CR 107.3a)."""
        return ManaCost(self.generic + self.x * x_value, self.colored, 0, self.present, self.hybrid)

    def add(self, other: "ManaCost") -> "ManaCost":
        """Sum of two costs (additional costs, CR 601.2f)."""
        colored = dict(self.colored)
        for c, n in other.colored:
            colored[c] = colored.get(c, 0) + n
        return ManaCost(self.generic + other.generic, tuple(sorted(colored.items())),
                        self.x + other.x, self.present and other.present, self.hybrid + other.hybrid)

    def text(self) -> str:
        """Back to ``{2}{U}`` form (hybrid symbols after the generic part, in cost order)."""
        out = "{X}" * self.x
        if self.generic or not (self.colored or self.hybrid):
            out += f"{{{self.generic}}}" if (self.generic or not self.x) else ""
        out += "".join(f"{{{h}}}" for h in self.hybrid)
        order = {c: i for i, c in enumerate(POOL_ORDER)}
        for c, n in sorted(self.colored, key=lambda cn: order[cn[0]]):
            out += f"{{{c}}}" * n
        return out

    def hybrid_choices(self) -> list["ManaCost"]:
        """The costs without hybrid symbols this cost can be paid as (CR 107.4e: {W/U} is
        paid with W or U, {2/W} with W or two generic mana), in a fixed order: each symbol's
        first color first, then its second color (or two generic). One cost (itself) when
        there is no hybrid symbol."""
        if not self.hybrid:
            return [self]
        out: list[ManaCost] = []
        options = [[(h[0], 0), (h[2], 0)] if h[0] != "2" else [(h[2], 0), (None, 2)] for h in self.hybrid]

        def walk(i: int, colored: dict[str, Any], generic: int) -> None:
            if i == len(options):
                out.append(ManaCost(generic, tuple(sorted(colored.items())), self.x, self.present))
                return
            for color, extra in options[i]:
                c = dict(colored)
                if color is not None:
                    c[color] = c.get(color, 0) + 1
                walk(i + 1, c, generic + extra)

        walk(0, dict(self.colored), self.generic)
        return out


def parse_mana_symbols(text: str) -> dict[str, int]:
    """Parse mana to add, e.g. ``"{G}"`` → ``{"G": 1}``, ``"{B}{B}{B}"`` → ``{"B": 3}``,
    ``"{2}"`` → ``{"C": 2}``. Raises ValueError on other symbols."""
    out: dict[str, int] = {}
    for sym in _SYMBOL.findall(text):
        if sym.isdigit():
            out["C"] = out.get("C", 0) + int(sym)
        elif sym in POOL_ORDER:
            out[sym] = out.get(sym, 0) + 1
        else:
            raise ValueError(f"mana {text!r}: unsupported symbol {{{sym}}}")
    return out


@dataclass
class ManaPool:
    """A player's mana pool (CR 106.4): amounts by symbol ``W U B R G C``."""

    mana: dict[str, Any] = field(default_factory=dict)

    def add(self, mana: dict[str, int]) -> None:
        for k, n in mana.items():
            self.mana[k] = self.mana.get(k, 0) + n

    def total(self) -> int:
        return sum(self.mana.values())

    def copy(self) -> "ManaPool":
        """An independent pool with the same mana (to try a payment without spending)."""
        return ManaPool(dict(self.mana))

    def as_dict(self) -> dict[str, int]:
        """Non-zero amounts, in a stable order."""
        return {k: self.mana[k] for k in POOL_ORDER if self.mana.get(k)}

    def empty(self) -> dict[str, int]:
        """Empty the pool (CR 500.4); return what was in it."""
        was = self.as_dict()
        self.mana = {}
        return was

    def pay(self, cost: ManaCost, spend: dict[str, int] | None = None) -> dict[str, int]:
        """Pay ``cost`` (X already fixed) from the pool; return the mana spent.

        ``spend`` names exactly the mana to use (a fixture's ``mana`` field); without it
        colored symbols are paid with their own color and generic mana with colorless first,
        then W, U, B, R, G (docs/FORMAT.md §3.2).
        Raises IllegalAction ``cannot_pay`` (not enough mana, or no mana cost at all, CR
        118.6) or ``invalid_payment`` (``spend`` does not pay the cost exactly).
        """
        if not cost.present:
            raise IllegalAction("cannot_pay", "an object with no mana cost can't be cast by paying it")
        if cost.hybrid:
            # CR 107.4e: each hybrid symbol is paid with one of its halves; the first choice
            # (ManaCost.hybrid_choices order) the pool can pay is used
            for choice in cost.hybrid_choices():
                try:
                    return self.pay(choice, spend)
                except IllegalAction as exc:
                    if spend is not None and exc.code == "cannot_pay":
                        raise  # the pool lacks the named mana, whatever the choice
            if spend is not None:
                raise IllegalAction("invalid_payment", f"the named mana doesn't pay {cost.text()}")
            raise IllegalAction("cannot_pay", f"the pool can't pay {cost.text()}")
        if spend is not None:
            return self._pay_exact(cost, spend)
        available = dict(self.mana)
        spent: dict[str, int] = {}
        for c, n in cost.colored:
            if available.get(c, 0) < n:
                raise IllegalAction("cannot_pay", f"needs {n} {c} mana, the pool has {available.get(c, 0)}")
            available[c] -= n
            spent[c] = spent.get(c, 0) + n
        need = cost.generic
        for c in POOL_ORDER:
            take = min(need, available.get(c, 0))
            if take:
                available[c] -= take
                spent[c] = spent.get(c, 0) + take
                need -= take
        if need:
            raise IllegalAction("cannot_pay", f"needs {need} more mana than the pool holds")
        self.mana = {k: v for k, v in available.items() if v}
        return {k: spent[k] for k in POOL_ORDER if spent.get(k)}

    def _pay_exact(self, cost: ManaCost, spend: dict[str, int]) -> dict[str, int]:
        for k, n in spend.items():
            if k not in POOL_ORDER or not isinstance(n, int) or n < 0:
                raise IllegalAction("invalid_payment", f"bad mana symbol or amount {k}: {n}")
            if self.mana.get(k, 0) < n:
                raise IllegalAction("cannot_pay", f"the pool has {self.mana.get(k, 0)} {k}, {n} named")
        left = dict(spend)
        for c, n in cost.colored:
            if left.get(c, 0) < n:
                raise IllegalAction("invalid_payment", f"the named mana lacks {n} {c}")
            left[c] -= n
        if sum(left.values()) != cost.generic:
            raise IllegalAction("invalid_payment",
                                f"the named mana is {sum(left.values())} for {cost.generic} generic")
        for k, n in spend.items():
            self.mana[k] = self.mana.get(k, 0) - n  # naming 0 of a symbol the pool lacks is no error
        self.mana = {k: v for k, v in self.mana.items() if v}
        return {k: spend[k] for k in POOL_ORDER if spend.get(k)}
