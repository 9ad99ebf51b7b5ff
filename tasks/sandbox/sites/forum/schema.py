"""SQL schema of the forum database.

Times are integer Unix seconds (UTC). Scores are stored aggregates: the seed gives
posts more votes than the seed has users, so `net_score` is the truth and the vote
tables only record each user's own choice (to show "Retract upvote" and to undo it).
"""

SCHEMA = """
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    username TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT NOT NULL,
    email TEXT NOT NULL DEFAULT '',
    biography TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    front_page_sort TEXT NOT NULL DEFAULT 'hot',
    night_mode INTEGER NOT NULL DEFAULT 0,
    open_links_in_new_tab INTEGER NOT NULL DEFAULT 0,
    full_width_display INTEGER NOT NULL DEFAULT 0,
    show_thumbnails INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE forums (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    title TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    sidebar TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);

CREATE TABLE moderators (
    forum_id INTEGER NOT NULL REFERENCES forums(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (forum_id, user_id)
);

CREATE TABLE subscriptions (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    forum_id INTEGER NOT NULL REFERENCES forums(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, forum_id)
);

CREATE TABLE submissions (
    id INTEGER PRIMARY KEY,
    forum_id INTEGER NOT NULL REFERENCES forums(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    url TEXT,
    body TEXT,
    created_at INTEGER NOT NULL,
    edited_at INTEGER,
    last_active INTEGER NOT NULL,
    net_score INTEGER NOT NULL DEFAULT 0,
    comment_count INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX submissions_forum ON submissions(forum_id, id);
CREATE INDEX submissions_user ON submissions(user_id, created_at);

CREATE TABLE comments (
    id INTEGER PRIMARY KEY,
    submission_id INTEGER NOT NULL REFERENCES submissions(id) ON DELETE CASCADE,
    parent_id INTEGER REFERENCES comments(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    edited_at INTEGER,
    net_score INTEGER NOT NULL DEFAULT 0,
    soft_deleted INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX comments_submission ON comments(submission_id);
CREATE INDEX comments_parent ON comments(parent_id);
CREATE INDEX comments_user ON comments(user_id, created_at);

CREATE TABLE submission_votes (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    submission_id INTEGER NOT NULL REFERENCES submissions(id) ON DELETE CASCADE,
    choice INTEGER NOT NULL CHECK (choice IN (-1, 1)),
    PRIMARY KEY (user_id, submission_id)
);

CREATE TABLE comment_votes (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    comment_id INTEGER NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
    choice INTEGER NOT NULL CHECK (choice IN (-1, 1)),
    PRIMARY KEY (user_id, comment_id)
);

-- Full-text search over posts and comments, kept in step by triggers so that new,
-- edited and deleted content is found (or not) at once.
-- The URL is indexed too: the domain shown next to a link post searches for it.
CREATE VIRTUAL TABLE submission_search USING fts5(
    title, body, url, content='submissions', content_rowid='id', tokenize='porter unicode61'
);
CREATE TRIGGER submissions_ai AFTER INSERT ON submissions BEGIN
    INSERT INTO submission_search(rowid, title, body, url)
    VALUES (new.id, new.title, coalesce(new.body, ''), coalesce(new.url, ''));
END;
CREATE TRIGGER submissions_ad AFTER DELETE ON submissions BEGIN
    INSERT INTO submission_search(submission_search, rowid, title, body, url)
    VALUES ('delete', old.id, old.title, coalesce(old.body, ''), coalesce(old.url, ''));
END;
CREATE TRIGGER submissions_au AFTER UPDATE OF title, body, url ON submissions BEGIN
    INSERT INTO submission_search(submission_search, rowid, title, body, url)
    VALUES ('delete', old.id, old.title, coalesce(old.body, ''), coalesce(old.url, ''));
    INSERT INTO submission_search(rowid, title, body, url)
    VALUES (new.id, new.title, coalesce(new.body, ''), coalesce(new.url, ''));
END;

CREATE VIRTUAL TABLE comment_search USING fts5(
    body, content='comments', content_rowid='id', tokenize='porter unicode61'
);
CREATE TRIGGER comments_ai AFTER INSERT ON comments BEGIN
    INSERT INTO comment_search(rowid, body) VALUES (new.id, new.body);
END;
CREATE TRIGGER comments_ad AFTER DELETE ON comments BEGIN
    INSERT INTO comment_search(comment_search, rowid, body) VALUES ('delete', old.id, old.body);
END;
CREATE TRIGGER comments_au AFTER UPDATE OF body ON comments BEGIN
    INSERT INTO comment_search(comment_search, rowid, body) VALUES ('delete', old.id, old.body);
    INSERT INTO comment_search(rowid, body) VALUES (new.id, new.body);
END;
"""
