"""A second tutorial style, for evaluating the OCR labeler on recordings it was not tuned on.

Evaluation only: three small web apps that are not the sandbox shop or forum (`apps`),
its style record and choreography (`recorder`: real Chromium screenshots watched live
after each action, its own pointer drawings and click effects from `pointer_art`,
per-character typing, smooth scrolling, pauses and cursor wander) and the scripts it
plays (`scripts`). Ground truth is written in the sandbox tutorials' `<name>.actions.json`
format.
"""
