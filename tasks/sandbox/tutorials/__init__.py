"""Recorded tutorial videos of the sandbox sites, each with the ground truth of what was done.

`scripts/` holds one readable YAML file per tutorial; `recorder.record_tutorials`
plays them in Chromium and writes the videos, subtitles and action logs under
`<cache>/sandbox/tutorials/` (`videodemo sandbox record`).
"""
