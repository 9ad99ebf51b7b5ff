"""A typed record that is a JSON object on disk and reads back any object an earlier version wrote, byte for byte.

    @dataclass(init=False)
    class Shown(KeyedRecord):
        how: str = ""
        keyframes: list[str] | str | None = None

    shown = Shown(how="selected")            # {"how": "selected"}
    shown.keyframes = None                   # {"how": "selected", "keyframes": null}: set, so on disk
    Shown.from_dict(data).to_dict() == data  # for any object: key order, nulls, keys this version does not know

A key is on disk once it was read or set, in the order it first was; a field never read nor set holds its default
and stays off the disk, so a reader tells "null" from "absent" by `has(name)`. Keys without a field are kept in
`extra` in their place. A field named in `NESTED` holds records of its own (or a list of them), converted both
ways; anything else (a file's name, a picture not yet saved) is kept as it is. A class with `OPEN` set takes keys
without a field as keyword arguments too, into `extra` in their order (a record whose free keys are documented).
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar

_MEMORY_ONLY = ("extra", "key_order")


@dataclass(init=False)
class KeyedRecord:
    extra: dict[str, Any] = field(default_factory=dict)  # keys without a field, as read or put
    key_order: list[str] = field(default_factory=list)  # the keys on disk, in their order

    # Fields that hold records of their own (or lists of them): name -> record class.
    NESTED: ClassVar[dict[str, type[KeyedRecord]]] = {}
    # Whether keyword arguments without a field go to `extra` (else a TypeError names them).
    OPEN: ClassVar[bool] = False

    def __init__(self, **values: Any) -> None:
        """A record holding `values`, in that order; every other field is absent (its default)."""
        for spec in fields(self):
            object.__setattr__(self, spec.name, _default(spec))
        for name, value in values.items():
            if name not in self._disk_fields() and not self.OPEN:
                raise TypeError(f"{type(self).__name__} has no field {name!r}")
            self.put(name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if name in self._disk_fields() and name not in self.key_order:
            self.key_order.append(name)  # a key set for the first time goes last, as in a dict

    @classmethod
    def _disk_fields(cls) -> frozenset[str]:
        found = cls.__dict__.get("_fields_on_disk")
        if found is None:
            found = frozenset(spec.name for spec in fields(cls) if spec.name not in _MEMORY_ONLY)
            type.__setattr__(cls, "_fields_on_disk", found)
        return found

    def has(self, name: str) -> bool:
        """Whether `name` is on disk (read or set), null or not."""
        return name in self.key_order or name in self.extra

    def drop(self, name: str) -> None:
        """Take a key off the disk (its field reads as its default again)."""
        if name in self.key_order:
            self.key_order.remove(name)
        if name in self._disk_fields():
            spec = next(spec for spec in fields(self) if spec.name == name)
            object.__setattr__(self, name, _default(spec))
        else:
            self.extra.pop(name, None)

    def put(self, key: str, value: Any) -> None:
        """Set a key of the JSON object: its field (a nested record read from a dict), else one in `extra`."""
        if key in self._disk_fields():
            setattr(self, key, _nested(self.NESTED.get(key), value))
            return
        self.extra[key] = value
        if key not in self.key_order:
            self.key_order.append(key)

    def items(self) -> list[tuple[str, Any]]:
        """The keys on disk and their values as held (nested records as records), in their order."""
        return [(key, self._value(key)) for key in self.key_order] + [
            (key, value) for key, value in self.extra.items() if key not in self.key_order
        ]

    def _value(self, key: str) -> Any:
        return getattr(self, key) if key in self._disk_fields() else self.extra[key]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Any:
        record = cls()
        for key, value in data.items():
            record.put(key, value)
        return record

    def to_dict(self) -> dict[str, Any]:
        """The JSON object: the keys read or set, in their order, nested records as objects."""
        return {key: _plain(value) for key, value in self.items()}


def _default(spec: Any) -> Any:
    return spec.default_factory() if spec.default_factory is not MISSING else spec.default


def _nested(kind: type[KeyedRecord] | None, value: Any) -> Any:
    if kind is None:
        return value
    if isinstance(value, dict):
        return kind.from_dict(value)
    if isinstance(value, list):
        return [kind.from_dict(item) if isinstance(item, dict) else item for item in value]
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, KeyedRecord):
        return value.to_dict()
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value
