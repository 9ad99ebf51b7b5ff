"""Hand-written seed text for the forum: forums, users, posts and comment pools.

Only text lives here; `seed.py` decides authors, times, scores and threading.
"""
