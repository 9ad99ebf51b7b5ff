"""The sealed tutorial style: never used to tune the OCR labeler, scored once after its last change.

A fourth style, unlike the sandbox, the held-out and the untouched ones: three other
web apps (`pages/`: a library catalogue, a clinic's booking pages, a pond-life field
guide), its style record and choreography (`recorder`: the screen captured at 15 fps by
virtual time, each picture written twice into a 30 fps file; its own black-and-white
arrow that overshoots its target and corrects, trembles a pixel while it rests and
drifts while the person talks), no click effect, native menus chosen by keyboard or from an
opened list drawn in a look of its own, key presses of their own (Control+A, Enter,
Escape, Tab), retyping into pre-filled fields, hovers that change the page (tints,
revealed buttons, tool tips) but are no actions, and wheel scrolling in a long document
with a sticky header, a sticky contents list and in-page jump links (`scripts`). Ground
truth is the sandbox `<name>.actions.json` format.
"""
