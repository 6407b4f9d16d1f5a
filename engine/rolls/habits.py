"""Dice forms players bring from other dice bots, read in d20's words or refused with the form
that works here.

- Roll20 and Foundry VTT: ``4d6dl1`` / ``4d6dh1`` / ``3d6d`` drop dice (d20 writes ``pl``/``ph``),
  ``2d20kh`` keeps one die, ``3d6!`` and ``3d6x`` explode on the highest face, ``4d10min2`` and
  ``4d10max8`` bound each die (d20: ``mi``/``ma``);
- Foundry's success count ``8d6cs>4`` (more than 4) and ``cs>=4``, ``cs<3``, ``cs<=3``, put as
  Roll20's ``8d6>=5`` etc., which :mod:`engine.rolls.expressions` counts die by die;
- Avrae's ``adv`` and ``dis``, words after the dice (:func:`advantage_in`).

A form read differently by different bots (``r1`` rerolls once on Foundry, for as long as it
shows on Roll20) or not rolled here (``!!``, ``dF``) is refused, the message naming what to
write. A word after the dice that looks like a dice operator is never taken for a label
(:func:`refuse_operator_words`).
"""

from __future__ import annotations

import re

from d20 import AdvType

from engine.errors import IllegalCommand

# NdS and the modifiers glued to it; what follows is arithmetic, a comparison or a label.
_DICE_GROUP = re.compile(r"(?<![\w%])(?P<dice>\d*d(?P<sides>\d+|%))(?P<chain>[a-z!<>=\d]*)")

_D20_MODIFIER = re.compile(r"(?:k|p|rr|ro|ra|e|mi|ma)[lh<>]?\d+")  # already d20's
_KEEP_ONE = re.compile(r"k(?P<which>[hl])(?!\d)")  # Roll20 and Foundry: kh is kh1
_DROP = re.compile(r"d(?P<which>[hl]?)(?P<count>\d*)")  # Roll20 and Foundry: dl1, dh, d2 (lowest)
_BOUND = re.compile(r"(?P<bound>min|max)(?P<face>\d+)")  # Foundry
_EXPLODE = re.compile(r"[!x](?![!pox<>=\d])")  # Roll20 !, Foundry x: on the highest face
_COUNT = re.compile(r"cs(?P<compare>>=|<=|>|<)(?P<face>\d+)$")  # Foundry, the last modifier

_REFUSED: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"r(?![ora])"),
        "rerolls once on Foundry but for as long as the face shows on Roll20: "
        "write ro1 to reroll a 1 once, rr1 to reroll until no 1 is left",
    ),
    (
        re.compile(r"!!|!p"),
        "(compounding or penetrating dice) is not rolled here: 1d6e6 rolls each 6 again as a die of its own",
    ),
    (
        re.compile(r"x\d"),
        "explodes on Foundry and multiplies elsewhere: write 1d6e6 to roll each 6 again, 1d6*6 "
        "to multiply the total",
    ),
    (
        re.compile(r"![<>=\d]|x[<>=]|xo"),
        "is not read here: e6 rolls each 6 again, e>4 each die over 4, ra6 one 6 once",
    ),
    (
        re.compile(r"cs|cf|df|sf|ms|f[<>=]+\d*|even|odd"),
        "is not read here: only successes are counted, after the other modifiers: 8d6cs>4 or "
        "8d6>=5 counts the dice showing 5 or more, 8d6<=2 those showing 2 or less",
    ),
    (
        re.compile(r"s[ad]?(?![a-z])"),
        "(sorting) is not read here: the dice are shown in the order they were rolled",
    ),
)
_COMPARED = re.compile(r"[<>=]+\d*")  # Roll20's 8d6>4, counted by engine.rolls.expressions

_ADVANTAGE_WORDS = {
    "adv": AdvType.ADV,
    "advantage": AdvType.ADV,
    "dis": AdvType.DIS,
    "disadvantage": AdvType.DIS,
}
_ADVANTAGE_WORD = re.compile(rf"(?<!\S)(?:{'|'.join(_ADVANTAGE_WORDS)})(?!\S)", re.IGNORECASE)

# The first word of a label that a player meant as part of the dice, with what to write instead.
_OPERATOR_WORDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"[x×]\d+"), "to multiply, write * with the dice: 2d6*2"),
    (
        re.compile(r"(?:kh|kl|dh|dl|ph|pl|cs|cf)(?:[<>=]{0,2}\d+)?|(?:[kprex]|rr|ro|ra|mi|ma|min|max)\d+"),
        "a dice modifier goes glued to its dice, with no space: 4d6kh3, 4d6dl1, 1d6e6",
    ),
    (
        re.compile(r"[<>=!].*|[-+*/×]\s*\d.*"),
        "a comparison or arithmetic goes with the dice, before any label: 8d6>=4, 2d6+1",
    ),
    (re.compile(r"\d*d(?:\d+|%|F)"), "several rolls in one command are separated by ;: 2d6; 1d6"),
)

_FATE = re.compile(r"(?<![\w%])\d*dF", re.IGNORECASE)
_LABEL = re.compile(r"(?<!\S)(?!\d*d[\d%])[^\W\d]")  # a word starting with a letter, not dice


def in_d20_words(text: str) -> str:
    """``text`` with the dice modifiers of Roll20 and Foundry VTT put as d20 writes them; a
    modifier that cannot be put so is refused, the message naming the form to write."""
    label = _LABEL.search(text)
    dice = text[: label.start()] if label else text
    if _FATE.search(dice):
        raise IllegalCommand("Fate dice (dF) are not rolled here; 4d3-8 rolls the same totals")
    return _DICE_GROUP.sub(lambda group: _group_in_d20_words(group, text), dice) + text[len(dice) :]


def _group_in_d20_words(group: re.Match[str], text: str) -> str:
    chain, at, written = group["chain"], 0, []
    follows = group.string[group.end() :]
    while at < len(chain) and not chain[at].isdigit():
        rest = chain[at:]
        if compared := _COMPARED.match(rest):
            modifier, read = compared[0], compared[0]
        else:
            modifier, read = _modifier_in_d20_words(rest, group["sides"], text)
        if modifier is None:
            break  # d20 says what is wrong with the rest
        if _COUNT.match(rest) and follows[:1].strip():
            raise IllegalCommand(f"{text!r} cannot be rolled: nothing but a label can follow {rest!r}")
        written.append(read)
        at += len(modifier)
    return group["dice"] + "".join(written) + chain[at:]


def _modifier_in_d20_words(rest: str, sides: str, text: str) -> tuple[str | None, str]:
    """The modifier at the start of ``rest``, and what d20 calls it."""
    if found := _D20_MODIFIER.match(rest):
        return found[0], found[0]
    if found := _KEEP_ONE.match(rest):
        return found[0], f"k{found['which']}1"
    if found := _BOUND.match(rest):
        return found[0], f"{found['bound'][:2]}{found['face']}"
    if found := _COUNT.match(rest):
        return found[0], _counted_as_at_least_or_at_most(found["compare"], int(found["face"]))
    if (found := _EXPLODE.match(rest)) and sides != "%":
        return found[0], f"e{sides}"
    for pattern, why in _REFUSED:
        if refused := pattern.match(rest):
            raise IllegalCommand(f"{text!r} cannot be rolled: {refused[0]!r} {why}")
    if found := _DROP.match(rest):
        return found[0], f"p{found['which'] or 'l'}{found['count'] or 1}"
    return None, ""


def _counted_as_at_least_or_at_most(compare: str, face: int) -> str:
    """Foundry's ``cs`` compares strictly (``cs>4`` is 5 or more): put as at least / at most."""
    return {">": f">={face + 1}", ">=": f">={face}", "<": f"<={face - 1}", "<=": f"<={face}"}[compare]


def advantage_in(label: str) -> tuple[AdvType, str]:
    """Avrae's ``adv``/``dis`` in the words after the dice (any one of them), and the label
    without it."""
    found = _ADVANTAGE_WORD.findall(label)
    if not found:
        return AdvType.NONE, label
    if len(found) > 1:
        raise IllegalCommand(f"{' and '.join(found)}: a roll takes one adv or one dis")
    return _ADVANTAGE_WORDS[found[0].lower()], " ".join(_ADVANTAGE_WORD.sub(" ", label).split())


def refuse_operator_words(label: str) -> None:
    """A label whose first word is a dice operator (``kh3``, ``>4``, ``adv`` left over, more
    dice) was meant as dice: refused, saying where it goes, rather than shown as a label."""
    words = label.split()
    if not words:
        return
    for pattern, where in _OPERATOR_WORDS:
        if pattern.fullmatch(words[0]) or pattern.fullmatch(label):
            raise IllegalCommand(f"{words[0]!r} would be taken as a label, not as dice: {where}")
