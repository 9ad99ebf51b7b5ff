"""The forum's seed and text rendering, without a server."""

from __future__ import annotations

import hashlib
import sqlite3

from tasks.sandbox.sites.forum.formatting import format_score, link_host, relative_time, slugify
from tasks.sandbox.sites.forum.markdown import render_markdown
from tasks.sandbox.sites.forum.seed import build_seed


def test_seed_is_identical_on_every_build(tmp_path):
    build_seed(tmp_path / "a.sqlite")
    build_seed(tmp_path / "b.sqlite")
    digest = [hashlib.sha256((tmp_path / name).read_bytes()).hexdigest() for name in ("a.sqlite", "b.sqlite")]
    assert digest[0] == digest[1]


def test_seed_content_shape(tmp_path):
    build_seed(tmp_path / "seed.sqlite")
    db = sqlite3.connect(tmp_path / "seed.sqlite")
    one = lambda sql: db.execute(sql).fetchone()[0]  # noqa: E731
    assert one("SELECT count(*) FROM forums") >= 10
    assert one("SELECT count(*) FROM submissions") >= 100
    assert one("SELECT count(DISTINCT user_id) FROM submissions") >= 20
    assert one("SELECT count(*) FROM submissions WHERE url IS NOT NULL") >= 15
    assert one("SELECT max(comment_count) FROM submissions") <= 20
    assert one("SELECT count(*) FROM submissions s WHERE s.comment_count !="
               " (SELECT count(*) FROM comments c WHERE c.submission_id = s.id)") == 0
    years = {row[0] for row in db.execute("SELECT DISTINCT strftime('%Y', created_at, 'unixepoch') FROM comments")}
    assert years == {"2022", "2023"}
    # Threads go three levels below a top-level comment at most.
    depth = one(
        "WITH RECURSIVE d(id, level) AS (SELECT id, 1 FROM comments WHERE parent_id IS NULL"
        " UNION ALL SELECT c.id, d.level + 1 FROM comments c JOIN d ON c.parent_id = d.id) SELECT max(level) FROM d"
    )
    assert depth == 4
    # New posts sort by id, so ids must follow time.
    out_of_order = "SELECT count(*) FROM submissions a JOIN submissions b ON a.id < b.id AND a.created_at > b.created_at"
    assert one(out_of_order) == 0
    task_user = "SELECT id FROM users WHERE username = 'MarvelsGrantMan136'"
    assert one(f"SELECT count(*) FROM submissions WHERE user_id = ({task_user})") >= 3
    assert one(f"SELECT count(*) FROM comments WHERE user_id = ({task_user}) AND parent_id IS NOT NULL") >= 2


def test_markdown_renders_the_basics_and_escapes_everything_else():
    out = str(render_markdown("Hi **bold** and *em*, see [docs](https://example.org/a?b=1&c=2).\n\n- one\n- two"))
    assert "<strong>bold</strong>" in out and "<em>em</em>" in out
    assert '<a href="https://example.org/a?b=1&amp;c=2" rel="nofollow noopener noreferrer">docs</a>' in out
    assert "<ul><li>one</li><li>two</li></ul>" in out
    hostile = str(render_markdown('<img src=x onerror=alert(1)> [x](javascript:alert(1)) "quoted"'))
    assert "<img" not in hostile and "&lt;img" in hostile
    assert "<a" not in hostile  # a javascript: target is left as plain text
    expected = "<ol><li>a</li><li>b</li></ol>\n<blockquote><p>quoted</p></blockquote>"
    assert str(render_markdown("1. a\n2. b\n\n> quoted")) == expected
    assert 'href="/f/books"' in str(render_markdown("try /f/books"))


def test_display_formats():
    assert format_score(3085) == "3,085" and format_score(-4) == "\u22124"
    assert link_host("https://www.theguardian.com/books/x") == "theguardian.com"
    assert slugify("What's the best score of the decade?") == "what-s-the-best-score-of-the-decade"
    assert slugify("???") == "-"
    assert relative_time(1000, now=1000 + 3 * 86400) == "3 days ago"
    assert relative_time(1000, now=1000 + 400 * 86400) == "1 year ago"
