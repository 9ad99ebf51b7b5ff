"""The untouched tutorials: what a person does in each app, step by step.

Steps, each one ground-truth action unless said otherwise:
- ("click", selector, name): click an element called `name`;
- ("field", selector, label): click into a field (a click named by the field's label);
- ("press", key): a key or chord on its own ("Control+A", "Enter", "Escape", "Tab");
- ("type", label, text): type into the focused field, key by key;
- ("menu_keys", selector, name, option): click a native menu, then step to `option` with the
  arrow keys (one select);
- ("menu_list", selector, name, option): click a native menu, and pick `option` from the
  list it opens (one select);
- ("scroll", notches): wheel notches, down when positive;
- ("hover", selector), ("wander",), ("pause", seconds): no action (a hover changes the page).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Script:
    name: str
    app: str
    steps: tuple[tuple, ...]


_GO = "button.go"
SCRIPTS = (
    Script("trips-search", "trips", (
        ("wander",), ("field", "#to", "Going to"), ("type", "Going to", "Bergen"),
        ("field", "#date", "Date"), ("press", "Control+A"), ("type", "Date", "19 May"),
        ("menu_keys", "#people", "Travellers", "2 adults"), ("hover", ".top a:nth-of-type(2)"),
        ("click", _GO, "Find trips"), ("pause", 1.2), ("hover", ".card:nth-child(2)"),
        ("click", ".card:nth-child(2) .pick", "Choose"), ("pause", 1.0))),
    Script("trips-sort", "trips", (
        ("field", "#to", "Going to"), ("type", "Going to", "Stockholm"), ("press", "Enter"), ("pause", 1.0),
        ("menu_list", "#sort", "Sort by", "Fastest first"), ("hover", ".card:nth-child(1)"), ("wander",),
        ("menu_list", "#cabin", "Class", "Business"), ("field", "#name", "Traveller name"),
        ("press", "Control+A"), ("type", "Traveller name", "Ada Larsen"), ("click", _GO, "Find trips"),
        ("pause", 1.2))),
    Script("trips-tab", "trips", (
        ("field", "#from", "Leaving from"), ("press", "Control+A"), ("type", "Leaving from", "Trondheim"),
        ("press", "Tab"), ("type", "Going to", "Oslo"), ("wander",),
        ("menu_list", "#cabin", "Class", "Premium economy"), ("hover", ".top a:nth-of-type(3)"),
        ("click", _GO, "Find trips"), ("pause", 1.2), ("click", ".card:nth-child(3) .pick", "Choose"),
        ("pause", 1.0))),
    Script("handbook-read", "handbook", (
        ("wander",), ("scroll", 5), ("pause", 1.0), ("wander",), ("scroll", 4), ("hover", "aside a:nth-of-type(3)"),
        ("click", "aside a:nth-of-type(4)", "Useful knots"), ("pause", 1.0), ("scroll", 3), ("wander",),
        ("scroll", -6), ("click", "aside a:nth-of-type(2)", "Reading the weather"), ("pause", 0.8),
        ("click", "text=first aid for cold and wet", "first aid for cold and wet"), ("pause", 1.0),
        ("scroll", 2), ("click", "#first-aid ~ p a[href='#top']", "Back to top"), ("pause", 1.0))),
    Script("handbook-find", "handbook", (
        ("field", "#q", "Find in handbook"), ("type", "Find in handbook", "knots"), ("press", "Enter"),
        ("pause", 1.2), ("scroll", 3), ("hover", "aside a:nth-of-type(5)"), ("wander",),
        ("click", "aside a:nth-of-type(7)", "Emergency contacts"), ("pause", 1.0), ("scroll", -4),
        ("click", "aside a:nth-of-type(1)", "Packing list"), ("pause", 1.0))),
    Script("inbox-reply", "inbox", (
        ("hover", ".mail:nth-child(2)"), ("wander",), ("hover", ".mail:nth-child(3)"),
        ("click", ".mail:nth-child(3) .tools button:nth-child(2)", "Open"), ("pause", 0.8),
        ("click", "#reader .act", "Reply"), ("pause", 0.6), ("field", "#subject", "Subject"),
        ("press", "Control+A"), ("type", "Subject", "Cabin photos"), ("press", "Tab"),
        ("type", "Write your message", "Lovely pictures, thanks"), ("click", "text=Send now", "Send now"),
        ("pause", 1.2))),
    Script("inbox-search", "inbox", (
        ("field", "#q", "Search mail"), ("type", "Search mail", "invoice"), ("press", "Enter"), ("pause", 1.0),
        ("hover", ".mail:nth-child(1)"), ("click", ".mail:nth-child(1) .tools button:nth-child(1)", "Archive"),
        ("pause", 0.8), ("menu_keys", "#folder", "Move selected to", "Receipts"),
        ("click", ".bar .act", "Move"), ("pause", 1.0), ("wander",))),
    Script("inbox-compose", "inbox", (
        ("click", "nav .new", "Write message"), ("pause", 0.6), ("field", "#to", "To"),
        ("type", "To", "priya@example.org"), ("press", "Tab"), ("type", "Subject", "Lunch on Thursday"),
        ("pause", 0.8), ("press", "Escape"), ("pause", 0.8), ("hover", ".mail:nth-child(4)"),
        ("menu_list", "#folder", "Move selected to", "Family"), ("click", ".bar .act", "Move"), ("pause", 0.8),
        ("hover", "nav a:nth-of-type(3)"), ("click", "nav a:nth-of-type(2)", "Starred"), ("pause", 1.0))),
)  # fmt: skip
