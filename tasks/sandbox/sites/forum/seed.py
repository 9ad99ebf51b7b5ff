"""Build the forum's seed database: the same bytes on every run.

Text comes from `seed_content`; this module decides authors, times, scores and
comment threading with a fixed random seed, then writes everything in id order.
"""

from __future__ import annotations

import hashlib
import random
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from tasks.sandbox.sites import FORUM
from tasks.sandbox.sites.forum.schema import SCHEMA
from tasks.sandbox.sites.forum.seed_content import (
    BIOGRAPHIES,
    FORUMS,
    GENERAL,
    OWN_COMMENTS,
    OWN_POSTS,
    POSTS,
    REPLIES,
    REPLIES_TO_OWN,
    TOP_LEVEL,
    USERNAMES,
)

RANDOM_SEED = 20230415
TASK_USER = FORUM.accounts[0].username
# Seeded posts fall in this window; comments follow within days, so all stay in 2022-2023.
POSTS_FROM = "2022-01-03 08:00"
POSTS_UNTIL = "2023-11-30 22:00"
MAX_COMMENT_DEPTH = 4
# Seed-only key stretching: cheap enough to hash 25 users quickly, still a real pbkdf2 hash.
SEED_HASH_ITERATIONS = 20_000
# Postmill-style upvote the author gives their own posts and comments.
OWN_POST_VOTE = 1
OWN_SUBSCRIPTIONS = ("technology", "movies", "AskReddit")


def epoch(text: str) -> int:
    return int(datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=timezone.utc).timestamp())


def seed_password_hash(username: str, password: str) -> str:
    """A werkzeug-compatible pbkdf2 hash with a salt derived from the name (so the seed is stable)."""
    salt = hashlib.sha256(f"forum-seed:{username}".encode()).hexdigest()[:16]
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), SEED_HASH_ITERATIONS).hex()
    return f"pbkdf2:sha256:{SEED_HASH_ITERATIONS}${salt}${digest}"


@dataclass
class Comment:
    post: "Post"
    author: str
    text: str
    created: int
    score: int
    parent: "Comment | None" = None
    depth: int = 1
    id: int = 0


@dataclass
class Post:
    forum: str
    author: str
    title: str
    url: str | None
    body: str | None
    created: int
    score: int
    comments: list[Comment] = field(default_factory=list)
    id: int = 0


def post_score(rng: random.Random) -> int:
    if rng.random() < 0.07:
        return -rng.randint(1, 9)
    return min(int(rng.lognormvariate(3.3, 1.25)), 3500)


def comment_score(rng: random.Random) -> int:
    if rng.random() < 0.1:
        return -rng.randint(1, 12)
    return min(int(rng.lognormvariate(1.6, 1.2)), 900)


def comment_total(rng: random.Random) -> int:
    """0-20 comments per post, most posts in the middle."""
    bucket = rng.choices([(0, 0), (1, 4), (5, 10), (11, 16), (17, 20)], weights=[8, 30, 37, 17, 8])[0]
    return rng.randint(*bucket)


def generate_posts(rng: random.Random, others: list[str]) -> list[Post]:
    start, end = epoch(POSTS_FROM), epoch(POSTS_UNTIL)
    posts = [
        Post(forum, rng.choice(others), title, url, body, rng.randint(start, end), post_score(rng))
        for forum, entries in POSTS.items()
        for title, url, body in entries
    ]
    posts += [
        Post(forum, TASK_USER, title, url, body, epoch(created), score)
        for forum, title, url, body, created, score in OWN_POSTS
    ]
    return posts


def generate_thread(rng: random.Random, post: Post, others: list[str]) -> None:
    """Random comments under one post, nested up to MAX_COMMENT_DEPTH levels."""
    top_texts = rng.sample(TOP_LEVEL[post.forum] + GENERAL, k=len(TOP_LEVEL[post.forum]) + len(GENERAL))
    reply_texts = rng.sample(REPLIES, k=len(REPLIES))
    for index in range(comment_total(rng)):
        open_parents = [c for c in post.comments if c.depth < MAX_COMMENT_DEPTH]
        if index == 0 or not open_parents or rng.random() < 0.5:
            author = rng.choice([name for name in others if name != post.author])
            text = top_texts[len([c for c in post.comments if c.parent is None]) % len(top_texts)]
            created = post.created + rng.randint(120, 3 * 86400)
            post.comments.append(Comment(post, author, text, created, comment_score(rng)))
        else:
            parent = rng.choice(open_parents)
            author = rng.choice([name for name in others if name != parent.author])
            text = reply_texts[len([c for c in post.comments if c.parent]) % len(reply_texts)]
            created = parent.created + rng.randint(60, 2 * 86400)
            post.comments.append(
                Comment(post, author, text, created, comment_score(rng), parent=parent, depth=parent.depth + 1)
            )


def add_own_comments(posts: list[Post]) -> list[Comment]:
    """The task account's fixed comments, plus the replies others left under them."""
    by_key = {(post.forum, post.title): post for post in posts}
    own: list[Comment] = []
    for index, (forum, title, text, parent_rule) in enumerate(OWN_COMMENTS):
        post = by_key[(forum, title)]
        parent = None
        if parent_rule == "first":
            top = [c for c in post.comments if c.parent is None]
            parent = max(top, key=lambda c: (c.score, -c.created))
        after = parent.created if parent else post.created
        comment = Comment(
            post, TASK_USER, text, after + 3 * 3600 + index * 600, score=[14, 9, 31, 6, 3][index],
            parent=parent, depth=parent.depth + 1 if parent else 1,
        )
        post.comments.append(comment)
        own.append(comment)
    for index, author, text in REPLIES_TO_OWN:
        parent = own[index]
        parent.post.comments.append(
            Comment(parent.post, author, text, parent.created + 5400, 7, parent=parent, depth=parent.depth + 1)
        )
    return own


def build_world(rng: random.Random) -> tuple[list[Post], list[Comment]]:
    others = [name for name in USERNAMES if name != TASK_USER]
    posts = generate_posts(rng, others)
    for post in posts:
        if post.author != TASK_USER:
            generate_thread(rng, post, others)
        else:
            # The task account's own posts get a few comments from others.
            for _ in range(rng.randint(2, 5)):
                author = rng.choice(others)
                text = rng.choice(TOP_LEVEL[post.forum])
                created = post.created + rng.randint(600, 86400)
                post.comments.append(Comment(post, author, text, created, comment_score(rng)))
    add_own_comments(posts)
    # Ids follow time, as they would on a live site (so "new" = highest id first).
    posts.sort(key=lambda p: (p.created, p.title))
    for number, post in enumerate(posts, start=1):
        post.id = number
    comments = sorted((c for p in posts for c in p.comments), key=lambda c: (c.created, c.post.id, c.text))
    for number, comment in enumerate(comments, start=1):
        comment.id = number
    return posts, comments


def write_users(conn: sqlite3.Connection, rng: random.Random) -> dict[str, int]:
    ids = {}
    joined = epoch("2021-03-01 09:00")
    for number, name in enumerate(USERNAMES, start=1):
        password = FORUM.accounts[0].password if name == TASK_USER else f"{name}-pw-2021"
        created = joined + number * 9 * 86400 + rng.randint(0, 86400)
        conn.execute(
            "INSERT INTO users (id, username, password_hash, biography, created_at) VALUES (?, ?, ?, ?, ?)",
            (number, name, seed_password_hash(name, password), BIOGRAPHIES.get(name, ""), created),
        )
        ids[name] = number
    return ids


def write_forums(conn: sqlite3.Connection) -> dict[str, int]:
    ids = {}
    for number, (name, title, description, sidebar) in enumerate(FORUMS, start=1):
        created = epoch("2021-01-10 12:00") + number * 3 * 86400
        conn.execute(
            "INSERT INTO forums (id, name, title, description, sidebar, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            (number, name, title, description, sidebar, created),
        )
        ids[name] = number
    return ids


def write_content(
    conn: sqlite3.Connection, posts: list[Post], comments: list[Comment], users: dict[str, int], forums: dict[str, int]
) -> None:
    for post in posts:
        last_active = max([post.created] + [c.created for c in post.comments])
        conn.execute(
            "INSERT INTO submissions (id, forum_id, user_id, title, url, body, created_at, last_active, net_score,"
            " comment_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (post.id, forums[post.forum], users[post.author], post.title, post.url, post.body, post.created,
             last_active, post.score, len(post.comments)),
        )
    for comment in comments:
        conn.execute(
            "INSERT INTO comments (id, submission_id, parent_id, user_id, body, created_at, net_score)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (comment.id, comment.post.id, comment.parent.id if comment.parent else None, users[comment.author],
             comment.text, comment.created, comment.score),
        )


def write_votes_and_subscriptions(
    conn: sqlite3.Connection, rng: random.Random, posts: list[Post], comments: list[Comment],
    users: dict[str, int], forums: dict[str, int],
) -> None:
    me = users[TASK_USER]
    own_posts = [p for p in posts if p.author == TASK_USER]
    others_posts = [p for p in posts if p.author != TASK_USER]
    votes = {p.id: OWN_POST_VOTE for p in own_posts}
    for post in rng.sample(others_posts, 8):
        votes[post.id] = 1
    for post in rng.sample([p for p in others_posts if p.id not in votes], 2):
        votes[post.id] = -1
    conn.executemany(
        "INSERT INTO submission_votes (user_id, submission_id, choice) VALUES (?, ?, ?)",
        [(me, post_id, choice) for post_id, choice in sorted(votes.items())],
    )
    comment_votes = {c.id: 1 for c in comments if c.author == TASK_USER}
    for comment in rng.sample([c for c in comments if c.author != TASK_USER], 6):
        comment_votes[comment.id] = 1
    conn.executemany(
        "INSERT INTO comment_votes (user_id, comment_id, choice) VALUES (?, ?, ?)",
        [(me, comment_id, choice) for comment_id, choice in sorted(comment_votes.items())],
    )
    since = epoch("2021-12-01 12:00")
    rows = [(me, forums[name], since) for name in OWN_SUBSCRIPTIONS]
    for name, user_id in users.items():
        if name != TASK_USER:
            for forum in sorted(rng.sample(sorted(forums), rng.randint(2, 7))):
                rows.append((user_id, forums[forum], since + rng.randint(0, 200 * 86400)))
    conn.executemany("INSERT INTO subscriptions (user_id, forum_id, created_at) VALUES (?, ?, ?)", sorted(rows))


def build_seed(db_path: Path) -> None:
    """Write the complete seed database to `db_path` (replacing any file there)."""
    db_path = Path(db_path)
    db_path.unlink(missing_ok=True)
    rng = random.Random(RANDOM_SEED)
    conn = sqlite3.connect(db_path)
    try:
        conn.executescript(SCHEMA)
        users = write_users(conn, rng)
        forums = write_forums(conn)
        posts, comments = build_world(rng)
        write_content(conn, posts, comments, users, forums)
        write_votes_and_subscriptions(conn, rng, posts, comments, users, forums)
        conn.commit()
        conn.execute("VACUUM")
    finally:
        conn.close()
