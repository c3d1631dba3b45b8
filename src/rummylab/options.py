"""Rule options: declared once per game, validated, recorded, shown by the CLI.

>>> spec = {"target": Option("target", 100, "points to win", minimum=1)}
>>> resolve_options(spec, {"target": "150"})
{'target': 150}
>>> resolve_options(spec, {"targt": "1"})
Traceback (most recent call last):
...
rummylab.errors.OptionError: unknown option 'targt' (options: target)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from rummylab.errors import OptionError

OptionValue = int | bool | str

# the most a bonus may be: far above any table's rules, and small enough that a
# match's totals stay exact as floats (a larger one overflowed them)
BONUS_MAX = 100_000

# set while a record's options are read back (:func:`as_played`)
_AS_PLAYED: ContextVar[bool] = ContextVar("rummylab_options_as_played", default=False)


@contextmanager
def as_played() -> Iterator[None]:
    """Options read back from a record are taken as they were played: the
    checks added after a record was written (a ceiling, an option another one
    makes void) do not refuse it, so every record stays reproducible."""
    token = _AS_PLAYED.set(True)
    try:
        yield
    finally:
        _AS_PLAYED.reset(token)


@dataclass(frozen=True)
class Option:
    """One rule option: its name, default, meaning and allowed values."""

    name: str
    default: OptionValue
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    rule: str = ""  # the rule or decision it comes from, e.g. "§1.5"
    needs: str = ""  # a true/false option without which this one does nothing
    void_if: str = ""  # a true/false option that, when true, overrides this one

    def kind(self) -> str:
        if isinstance(self.default, bool):
            return "bool"
        if isinstance(self.default, int):
            return "int"
        return "choice"

    def allowed(self) -> str:
        k = self.kind()
        if k == "bool":
            return "true|false"
        if k == "int":
            lo = "" if self.minimum is None else str(self.minimum)
            hi = "" if self.maximum is None else str(self.maximum)
            return f"integer {lo}..{hi}"
        return "|".join(self.choices)

    def convert(self, value: object) -> OptionValue:
        k = self.kind()
        bad = OptionError(f"option {self.name}: {value!r} is not allowed ({self.allowed()})")
        if k == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "yes", "on", "1"):
                return True
            if isinstance(value, str) and value.lower() in ("false", "no", "off", "0"):
                return False
            raise bad
        if k == "int":
            if isinstance(value, bool):
                raise bad
            if isinstance(value, int):
                n = value
            elif isinstance(value, str):
                try:
                    n = int(value.strip())
                except ValueError:
                    raise bad from None
            else:
                raise bad
            if (self.minimum is not None and n < self.minimum) or (
                self.maximum is not None and n > self.maximum and not _AS_PLAYED.get()
            ):
                raise bad
            return n
        if isinstance(value, str) and value in self.choices:
            return value
        raise bad


def resolve_options(
    spec: Mapping[str, Option], given: Mapping[str, object] | None
) -> dict[str, OptionValue]:
    """Defaults overridden by ``given``, every value checked; key order is the spec's.
    A value other than the default is refused where another option makes it
    do nothing:

    >>> spec = {"big": Option("big", False, "big wins"),
    ...         "big_bonus": Option("big_bonus", 31, "its bonus", minimum=0, needs="big")}
    >>> resolve_options(spec, {"big_bonus": "40", "big": "true"})
    {'big': True, 'big_bonus': 40}
    >>> resolve_options(spec, {"big_bonus": "40"})
    Traceback (most recent call last):
    ...
    rummylab.errors.OptionError: option big_bonus=40 does nothing without big=true
    """
    given = dict(given or {})
    for key in given:
        if key not in spec:
            raise OptionError(f"unknown option {key!r} (options: {', '.join(spec)})")
    out = {name: opt.convert(given[name]) if name in given else opt.default
           for name, opt in spec.items()}
    for name, opt in spec.items():
        if out[name] == opt.default or _AS_PLAYED.get():
            continue
        if opt.needs and not out[opt.needs]:
            raise OptionError(f"option {name}={out[name]} does nothing without {opt.needs}=true")
        if opt.void_if and out[opt.void_if]:
            raise OptionError(f"option {name}={out[name]} does nothing with {opt.void_if}=true, "
                              "which overrides it")
    return out


def parse_option_args(args: list[str] | None) -> dict[str, str]:
    """``["key=value", ...]`` from the command line into a dict."""
    out: dict[str, str] = {}
    for arg in args or []:
        key, sep, value = arg.partition("=")
        key = key.strip()
        if not sep or not key:
            raise OptionError(f"option {arg!r} must be written key=value")
        if key in out:  # the last would silently win
            raise OptionError(f"option {key} is given twice: {key}={out[key]} and {arg.strip()}")
        out[key] = value.strip()
    return out
