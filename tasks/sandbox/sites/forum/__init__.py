"""The sandbox forum: a small Postmill-like site standing in for WebArena's reddit site.

URL paths, form field names and the CSS classes WebArena's reddit evaluators read
(`.submission__inner`, `.comment__body`, `.vote__net-score`, `.user-bio__biography`,
`#sidebar > section`, ...) follow Postmill; the look and the code are our own.
"""
