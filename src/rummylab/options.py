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

from collections.abc import Mapping
from dataclasses import dataclass

from rummylab.errors import OptionError

OptionValue = int | bool | str


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
                self.maximum is not None and n > self.maximum
            ):
                raise bad
            return n
        if isinstance(value, str) and value in self.choices:
            return value
        raise bad


def resolve_options(
    spec: Mapping[str, Option], given: Mapping[str, object] | None
) -> dict[str, OptionValue]:
    """Defaults overridden by ``given``, every value checked; key order is the spec's."""
    given = dict(given or {})
    for key in given:
        if key not in spec:
            raise OptionError(f"unknown option {key!r} (options: {', '.join(spec)})")
    return {name: opt.convert(given[name]) if name in given else opt.default
            for name, opt in spec.items()}


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
