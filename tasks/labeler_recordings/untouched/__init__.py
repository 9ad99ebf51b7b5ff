"""The untouched tutorial style: never used to tune the OCR labeler, scored once after its fixes.

Different from the sandbox and the held-out style in every way a labeler could lean on:
three other web apps (`pages/`: a trip planner, a trail handbook, a mail inbox), its
style record and choreography (`recorder`: the screen captured at 10 fps by virtual
time, each picture encoded three times at 30 fps; its own drawn arrow that glides and
wanders), no click effect, native menus chosen by keyboard or from the opened list,
key presses of their own, retyping into pre-filled fields, hovers that change the page
without a click, and wheel scrolling in a long document with a sticky header and
in-page jump links (`scripts`). Ground truth is the sandbox `<name>.actions.json` format.
"""
