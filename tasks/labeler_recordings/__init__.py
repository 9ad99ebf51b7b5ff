"""Evaluation fixtures for the OCR labeler: recordings of web apps other than the sandbox, with exact ground truth.

Not part of the pipeline: `benchmarks/labeler_accuracy.py` and the demo score the
labeler on them. Two styles, each its own apps, recorder, pointer and effects:
- `heldout`: a project tracker, a recipe site and account settings, recorded at 12 fps
  with live loading states; the labeler was tuned on these as well as on the sandbox;
- `untouched`: a trip planner, a handbook and a mail inbox, captured at 10 fps and
  encoded at 30 fps, with native menus, key presses and retyping; scored once, after
  the labeler's fixes, and never used to tune it.
"""
