"""Evaluation fixtures for the OCR labeler: recordings of web apps other than the sandbox, with exact ground truth.

Not part of the pipeline: `benchmarks/labeler_accuracy.py` and the demo score the
labeler on them (`styles` names them). Three styles, each its own apps, pointer,
effects and choreography, each a record (`recorder.LabelerStyle`) played by the one
recorder engine (`tasks/recording/`) that also makes the sandbox tutorials:
- `heldout`: a project tracker, a recipe site and account settings, recorded at 12 fps
  with live loading states; the labeler was tuned on these as well as on the sandbox;
- `untouched`: a trip planner, a handbook and a mail inbox, captured at 10 fps and
  encoded at 30 fps, with native menus, key presses and retyping; scored once in round 1
  of issue 29, then tuned on in round 2;
- `sealed`: a library catalogue, a clinic's booking pages and a field guide, captured
  at 15 fps and encoded at 30 fps with its own pointer and motion; never used to tune
  the labeler, scored once after its last change.
"""
