"""The sealed tutorials: what a person does in each app, step by step.

The same step vocabulary as the untouched style (`tasks.labeler_recordings.untouched.scripts`):
("click", selector, name), ("field", selector, label), ("press", key), ("type", label, text),
("menu_keys", selector, name, option), ("menu_list", selector, name, option),
("scroll", notches), and ("hover", selector), ("wander",), ("pause", seconds), which are
no actions. Every selector must be in view when its step comes (the recorder refuses to
scroll the page by itself, which would be an action nobody logged).
"""

from __future__ import annotations

from tasks.labeler_recordings.untouched.scripts import Script

_ROW = ".row:nth-child({}) .btns button:nth-child({})"
SCRIPTS = (
    Script("library-search", "library", (
        ("field", "#q", "Search"), ("press", "Control+A"), ("type", "Search", "river"), ("press", "Enter"),
        ("pause", 1.0), ("menu_keys", "#format", "Format", "Audiobooks"), ("pause", 0.8),
        ("hover", ".row:nth-child(1)"), ("click", _ROW.format(2, 1), "Reserve"), ("pause", 1.0))),
    Script("library-branch", "library", (
        ("hover", ".top a:nth-of-type(3)"), ("field", "#q", "Search"), ("press", "Control+A"),
        ("type", "Search", "collected"), ("menu_list", "#branch", "Branch", "Central"), ("wander",),
        ("click", ".go", "Search catalogue"), ("pause", 1.0), ("hover", ".row:nth-child(1) .t"),
        ("click", _ROW.format(1, 2), "Save"), ("pause", 1.0))),
    Script("library-loans", "library", (
        ("hover", ".top a:nth-of-type(4)"), ("click", ".top a:nth-of-type(2)", "My loans"), ("pause", 0.8),
        ("hover", "#loanlist .row:nth-child(1)"), ("click", "#loanlist .row:nth-child(2) .btns button", "Renew"),
        ("pause", 0.8), ("click", ".top a:nth-of-type(1)", "Catalogue"), ("field", "#q", "Search"),
        ("press", "Control+A"), ("type", "Search", "garden"), ("click", ".go", "Search catalogue"), ("pause", 1.0))),
    Script("clinic-book", "clinic", (
        ("menu_list", "#dept", "Department", "Physiotherapy"), ("menu_keys", "#slot", "Time", "10:30"),
        ("field", "#reason", "Reason for visit"), ("type", "Reason for visit", "Sore shoulder"),
        ("hover", ".side p:nth-of-type(2)"), ("click", "#book .primary", "Book appointment"), ("pause", 1.4),
        ("press", "Escape"), ("pause", 0.8))),
    Script("clinic-details", "clinic", (
        ("click", ".tabs button:nth-child(2)", "My details"), ("pause", 0.6), ("field", "#phone", "Phone number"),
        ("press", "Control+A"), ("type", "Phone number", "0161 555 0199"), ("press", "Tab"),
        ("type", "Email", "sam.whitfield@example.net"), ("menu_keys", "#remind", "Reminders by", "Email"),
        ("click", "#details .primary", "Save details"), ("pause", 1.0))),
    Script("clinic-cancel", "clinic", (
        ("click", ".tabs button:nth-child(3)", "My appointments"), ("pause", 0.6), ("hover", ".appt:nth-child(1)"),
        ("wander",), ("click", ".appt:nth-child(2) button", "Cancel visit"), ("pause", 1.0),
        ("click", ".tabs button:nth-child(1)", "Book a visit"), ("menu_list", "#day", "Preferred day", "Thursday"),
        ("field", "#reason", "Reason for visit"), ("type", "Reason for visit", "Check-up"),
        ("click", "#book .primary", "Book appointment"), ("pause", 1.4))),
    Script("guide-read", "guide", (
        ("wander",), ("scroll", 5), ("pause", 0.8), ("hover", "nav a:nth-of-type(3)"),
        ("click", "nav a:nth-of-type(4)", "Dragonflies"), ("pause", 0.8), ("scroll", 2),
        ("click", "text=how to send a record", "how to send a record"), ("pause", 0.8), ("scroll", -3), ("wander",),
        ("click", "nav a:nth-of-type(2)", "Frogspawn"), ("pause", 0.6),
        ("click", "text=water boatmen and their prey", "water boatmen and their prey"), ("pause", 0.8),
        ("scroll", 2), ("click", "#boatmen ~ p a.up", "Back to top"), ("pause", 1.0))),
    Script("guide-find", "guide", (
        ("field", "#find", "Search this guide"), ("type", "Search this guide", "newt"), ("press", "Enter"),
        ("pause", 1.0), ("scroll", 3), ("hover", "nav a:nth-of-type(6)"), ("wander",),
        ("click", "nav a:nth-of-type(7)", "Water plants"), ("pause", 0.8), ("scroll", -2),
        ("click", "nav a:nth-of-type(1)", "Before you start"), ("pause", 0.8))),
)  # fmt: skip
