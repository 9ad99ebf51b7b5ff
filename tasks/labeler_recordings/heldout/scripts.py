"""The held-out tutorials: what a person does in each app, step by step.

Steps: ("click", selector, name), ("type", selector, label, text[, enter]) (clicks the field,
types each character, then presses Enter when `enter`: one "type" action, as the sandbox
logs it), ("scroll", pixels), ("wander",), ("pause", seconds); and, as people also work:
("field", selector, label) a click into a field (a click action), ("keys", label, text) typing
into the focused field, ("press", key) a key of its own ("Control+A", "Enter", "Escape", "Tab"),
("menu_keys" | "menu_list", selector, name, option) a native menu chosen by the arrow keys or
from its opened list (one select), ("hover", selector) a rest that changes the page (no action).
`name` and `label` are what a person would call the element: the ground-truth target.
Each script has its own pointer theme and click effect, so the set covers all of them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Script:
    name: str
    app: str
    theme: str
    effect: str
    steps: tuple[tuple, ...]


SCRIPTS = (
    Script("tracker-new-task", "tracker", "classic", "ripple", (
        ("wander",), ("click", "text=New task", "New task"),
        ("type", "#title", "Task title", "Book the venue"), ("type", "#owner", "Assignee", "Maya"),
        ("pause", 1.2), ("click", "#create", "Create task"), ("pause", 1.5))),
    Script("tracker-finish", "tracker", "dark", "dot", (
        ("click", ".row:nth-child(2) button", "Mark done"), ("wander",), ("click", "text=Finished", "Finished"),
        ("pause", 1.0), ("click", "text=All tasks", "All tasks"), ("scroll", 300), ("pause", 1.0))),
    Script("tracker-search", "tracker", "large-yellow", "none", (
        ("type", "#q", "Search tasks", "plan", True), ("pause", 1.5), ("wander",),
        ("click", "text=Open tasks", "Open tasks"), ("scroll", 400), ("scroll", -400))),
    Script("recipes-search", "recipes", "shadowed", "square", (
        ("type", "#q", "Find a recipe", "pasta"), ("click", "button:has-text('Search')", "Search"), ("pause", 1.2),
        ("click", "text=Lemon pasta", "Lemon pasta"), ("wander",),
        ("click", "button:has-text('Save recipe')", "Save recipe"), ("pause", 1.0))),
    Script("recipes-browse", "recipes", "classic", "dot", (
        ("scroll", 350), ("pause", 1.0), ("click", "text=Pancakes", "Pancakes"), ("scroll", 500),
        ("type", "#c", "Your comment", "Lovely and easy"), ("click", "text=Post comment", "Post comment"),
        ("pause", 1.0))),
    Script("recipes-servings", "recipes", "large-yellow", "ripple", (
        ("click", "text=Chickpea curry", "Chickpea curry"), ("wander",), ("type", "#servings", "Servings", "4"),
        ("click", "text=Share", "Share"), ("pause", 0.8), ("click", "text=Back to recipes", "Back to recipes"),
        ("pause", 1.0))),
    Script("settings-profile", "settings", "dark", "square", (
        ("type", "#city", "City", "Lisbon"), ("wander",), ("type", "#bio", "About you", "I bake bread"),
        ("click", "text=Save changes", "Save changes"), ("pause", 1.5))),
    Script("settings-password", "settings", "shadowed", "none", (
        ("click", "text=Security", "Security"), ("type", "#old", "Current password", "hunter22"),
        ("type", "#new", "New password", "correct horse"), ("click", "text=Update password", "Update password"),
        ("pause", 1.5), ("wander",))),
    Script("settings-alerts", "settings", "classic", "ripple", (
        ("click", "text=Notifications", "Notifications"), ("pause", 0.8),
        ("click", ".row:nth-child(3) button", "Turn off"), ("scroll", 300),
        ("click", ".row:nth-child(8) button", "Turn off"), ("pause", 1.0), ("scroll", -300))),
    Script("settings-language", "settings", "classic", "dot", (
        ("field", "#name", "Display name"), ("press", "Control+A"), ("keys", "Display name", "Sam Lee-Park"),
        ("menu_keys", "#lang", "Language", "Español"), ("hover", ".tabs a:nth-child(2)"),
        ("menu_list", "#zone", "Time zone", "Europe/Lisbon"), ("wander",),
        ("click", "text=Save changes", "Save changes"), ("pause", 1.5))),
    Script("tracker-priority", "tracker", "dark", "none", (
        ("click", "text=New task", "New task"), ("field", "#title", "Task title"), ("keys", "Task title", "Order badges"),
        ("press", "Tab"), ("keys", "Assignee", "Omar"), ("menu_list", "#prio", "Priority", "High"),
        ("click", "#create", "Create task"), ("pause", 1.2), ("hover", ".tabs a:nth-child(3)"),
        ("field", "#q", "Search tasks"), ("keys", "Search tasks", "badges"), ("press", "Enter"), ("pause", 1.0),
        ("click", "text=New task", "New task"), ("press", "Escape"), ("pause", 1.0))),
    Script("recipes-keys", "recipes", "shadowed", "ripple", (
        ("field", "#q", "Find a recipe"), ("keys", "Find a recipe", "soup"), ("press", "Enter"), ("pause", 1.2),
        ("hover", ".row:nth-of-type(1) a"), ("wander",), ("field", "#q", "Find a recipe"), ("press", "Control+A"),
        ("keys", "Find a recipe", "curry"), ("click", "button:has-text('Search')", "Search"), ("pause", 1.2))),
)
