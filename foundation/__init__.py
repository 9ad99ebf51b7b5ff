"""The ground floor: what every stage stands on and nothing above it.

errors (the one exception the command line prints as a line), reading videos and
subtitle files, downloading a video with yt-dlp, launching Chromium and waiting for a
page to settle, progress that a terminal redraws and a log reads line by line, JSON files
written whole (json_files), and the typed records packages hand each other (records/). It
imports no other package of this project; see docs/architecture.md.
"""
