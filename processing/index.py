"""The trajectory index: objectives embedded into FAISS, trajectories kept in SQLite.

    index = TrajectoryIndex.load(settings.paths.index_dir, settings)
    for trajectory, score in index.search("sort results by price", k=5, video_ids=["shop_search"]):
        ...

Folder layout (`<cache>/index/` unless `--index DIR`):
- `trajectories.sqlite`: one row per trajectory (its record as JSON, its video, time
  span and objective vector), one row per video (its record and the key of the
  processing output the rows came from), and what built the index (embedding model,
  vector size);
  The `verdicts` table holds what `process-videos --verify` found for each trajectory,
  keyed by the trajectory's id and the hash of its actions (a re-labeled span is not
  taken for verified); readers find it in `trajectory.checks["verification"]`;
- `objectives.faiss`: an `IndexIDMap2` over an exact inner-product index of the
  L2-normalised objective vectors (inner product = cosine), ids = SQLite row ids.

`add_video` replaces every entry of that video, commits SQLite and rewrites the
FAISS file (atomically), so the index is current after each video. SQLite is the
source of truth: if the FAISS file is missing or disagrees with it (a crash between
the two writes), it is rebuilt from the stored vectors. An index records which
embedding model built it and refuses queries or additions from another one.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import tempfile
import threading
import time
from pathlib import Path
from typing import Iterable

import numpy as np

# faiss logs at INFO which of its CPU builds it tried while importing: noise in every run's output.
logging.getLogger("faiss.loader").setLevel(logging.WARNING)
import faiss  # noqa: E402

from foundation.errors import UserError
from model_access.embeddings import Embedder
from foundation.records.trajectory import Trajectory, VideoRecord
from settings.schema import Settings

INDEX_VERSION = 1
DB_NAME = "trajectories.sqlite"
FAISS_NAME = "objectives.faiss"
EMBED_STAGE = "index"
WHOLE_VIDEO_KEY = "whole_video"  # in a video's stored record: its whole action sequence as one trajectory

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS videos (
    video_id TEXT PRIMARY KEY, source_key TEXT NOT NULL, record TEXT NOT NULL,
    trajectory_count INTEGER NOT NULL, added_at TEXT NOT NULL, position INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS trajectories (
    id INTEGER PRIMARY KEY AUTOINCREMENT, trajectory_id TEXT NOT NULL UNIQUE, video_id TEXT NOT NULL,
    objective TEXT NOT NULL, start_s REAL NOT NULL, end_s REAL NOT NULL, record TEXT NOT NULL, vector BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS trajectories_by_video ON trajectories (video_id);
CREATE TABLE IF NOT EXISTS verdicts (
    trajectory_id TEXT PRIMARY KEY, actions_key TEXT NOT NULL, record TEXT NOT NULL);
"""
VERDICT_KEY = "verification"  # in a trajectory's `checks`: what `process-videos --verify` found on the live site


class IndexMismatchError(UserError):
    """The index was built with another embedding model (or format) than the one configured."""


def actions_key(trajectory: Trajectory) -> str:
    """Hash of what a trajectory asks to do: a verdict holds only for these very actions."""
    # The point (where on the frame) asks nothing of the site: stored verdicts hold with or without it.
    asked = [{k: v for k, v in a.to_dict().items() if k != "point"} for a in trajectory.actions]
    text = json.dumps(asked, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def embedding_identity(settings: Settings) -> str:
    embedding = settings.models.embedding
    return f"{embedding.backend}:{embedding.model}"


class TrajectoryIndex:
    def __init__(self, folder: str | Path, settings: Settings, embedder: Embedder | None = None) -> None:
        self.folder = Path(folder)
        self.settings = settings
        self._embedder = embedder
        self._lock = threading.RLock()
        self._faiss: faiss.Index | None = None

    # -- opening ------------------------------------------------------------------------------

    @classmethod
    def load(cls, folder: str | Path, settings: Settings, embedder: Embedder | None = None) -> TrajectoryIndex:
        """An existing index; a folder without one is a clear error."""
        folder = Path(folder)
        if not (folder / DB_NAME).is_file():
            raise UserError(f"no trajectory index in {folder}: run `process-videos` first, or pass --index DIR")
        index = cls(folder, settings, embedder)
        index._check_version()
        return index

    @classmethod
    def open(cls, folder: str | Path, settings: Settings, embedder: Embedder | None = None) -> TrajectoryIndex:
        """The index in `folder`, created empty when there is none."""
        index = cls(folder, settings, embedder)
        index.folder.mkdir(parents=True, exist_ok=True)
        with index._db() as db:
            db.executescript(_SCHEMA)
            db.execute("INSERT OR IGNORE INTO meta VALUES ('version', ?)", (str(INDEX_VERSION),))
        index._check_version()
        return index

    @property
    def embedding_model(self) -> str | None:
        """What built the index ("backend:model"), or None while it is empty."""
        return self._meta("embedding_model")

    # -- reading --------------------------------------------------------------------------------

    def videos(self) -> list[str]:
        with self._db() as db:
            return [row[0] for row in db.execute("SELECT video_id FROM videos ORDER BY position")]

    def video(self, video_id: str) -> VideoRecord | None:
        with self._db() as db:
            row = db.execute("SELECT record FROM videos WHERE video_id = ?", (video_id,)).fetchone()
        return VideoRecord.from_dict(json.loads(row[0])) if row else None

    def source_key(self, video_id: str) -> str | None:
        """The key of the processing output this video's entries came from (None if it has none)."""
        with self._db() as db:
            row = db.execute("SELECT source_key FROM videos WHERE video_id = ?", (video_id,)).fetchone()
        return row[0] if row else None

    def whole_video(self, video_id: str) -> Trajectory | None:
        """Every kept action of the video with its keyframe (the --no-trajectory-selection ablation), when stored."""
        with self._db() as db:
            row = db.execute("SELECT record FROM videos WHERE video_id = ?", (video_id,)).fetchone()
        whole = json.loads(row[0]).get(WHOLE_VIDEO_KEY) if row else None
        return Trajectory.from_dict(whole) if whole else None

    def trajectories(self, video_id: str) -> list[Trajectory]:
        with self._db() as db:
            rows = db.execute("SELECT record FROM trajectories WHERE video_id = ? ORDER BY id", (video_id,)).fetchall()
        found = self._with_verdicts([Trajectory.from_dict(json.loads(row[0])) for row in rows])
        return sorted(found, key=lambda t: (t.span[0], t.span[1]))

    def all_trajectories(self) -> list[Trajectory]:
        """Every trajectory, video by video in the index's order."""
        return [t for video_id in self.videos() for t in self.trajectories(video_id)]

    # -- verdicts of `process-videos --verify` ------------------------------------------------------

    def set_verdict(self, trajectory: Trajectory, verdict: dict) -> None:
        """Keep what verification found for `trajectory` (replacing an earlier verdict)."""
        with self._lock, self._db() as db:
            db.execute("CREATE TABLE IF NOT EXISTS verdicts (trajectory_id TEXT PRIMARY KEY, "
                       "actions_key TEXT NOT NULL, record TEXT NOT NULL)")  # fmt: skip
            db.execute(
                "INSERT OR REPLACE INTO verdicts VALUES (?, ?, ?)",
                (trajectory.trajectory_id, actions_key(trajectory), json.dumps(verdict, ensure_ascii=False)),
            )

    def verdicts(self, trajectory_ids: list[str] | None = None) -> dict[str, tuple[str, dict]]:
        """trajectory id -> (hash of the actions it was verified with, verdict), of every trajectory or those
        named; empty for an unverified index."""
        query = "SELECT trajectory_id, actions_key, record FROM verdicts"
        ids = list(trajectory_ids or [])
        # Named ids go in batches below SQLite's oldest limit of 999 parameters a statement.
        batches = [ids[n : n + 900] for n in range(0, len(ids), 900)] if trajectory_ids is not None else [None]
        rows: list = []
        try:
            with self._db() as db:
                for batch in batches:
                    if batch is None:
                        rows += db.execute(query).fetchall()
                    else:
                        rows += db.execute(f"{query} WHERE trajectory_id IN ({','.join('?' * len(batch))})",
                                           batch).fetchall()  # fmt: skip
        except sqlite3.OperationalError:  # an index made before verdicts were kept
            return {}
        return {row[0]: (row[1], json.loads(row[2])) for row in rows}

    def _with_verdicts(self, trajectories: list[Trajectory]) -> list[Trajectory]:
        verdicts = self.verdicts([t.trajectory_id for t in trajectories])
        for trajectory in trajectories:
            found = verdicts.get(trajectory.trajectory_id)
            if found is not None and found[0] == actions_key(trajectory):
                trajectory.checks = {**trajectory.checks, VERDICT_KEY: found[1]}
        return trajectories

    def __len__(self) -> int:
        with self._db() as db:
            return int(db.execute("SELECT COUNT(*) FROM trajectories").fetchone()[0])

    def search(self, text: str, k: int = 5, video_ids: Iterable[str] | None = None) -> list[tuple[Trajectory, float]]:
        """The k trajectories whose objectives are closest to `text` (cosine), best first, optionally within videos."""
        if k <= 0 or len(self) == 0:
            return []
        query = self._embed([text])
        with self._lock:
            index = self._index()
            params = None
            if video_ids is not None:
                ids = self._ids_of(list(video_ids))
                if ids.size == 0:
                    return []
                params = faiss.SearchParameters(sel=faiss.IDSelectorBatch(ids))
            scores, ids = index.search(query, min(k, index.ntotal), params=params)
        found = [(int(i), float(s)) for i, s in zip(ids[0], scores[0]) if i >= 0]
        records = self._records([i for i, _ in found])
        return [(records[i], score) for i, score in found if i in records]

    # -- writing ----------------------------------------------------------------------------------

    def add_video(
        self,
        video_id: str,
        trajectories: list[Trajectory],
        *,
        source_key: str = "",
        video: VideoRecord | None = None,
        whole_video: Trajectory | None = None,
    ) -> None:
        """Replace the video's entries with `trajectories`, then save; the index is current when this returns.

        `whole_video` (not embedded, not searched) is the video's whole action sequence, kept for the ablation
        that shows it instead of selected trajectories.
        """
        vectors = self._embed([t.objective for t in trajectories]) if trajectories else None
        record = video.to_dict() if video is not None else {"video_id": video_id}
        if whole_video is not None:
            record[WHOLE_VIDEO_KEY] = whole_video.to_dict()
        with self._lock:
            index = self._index()  # loaded before the rows change, so a rebuild cannot see them twice
            self._replace_rows(index, video_id, trajectories, vectors, source_key, record)
            self.save()

    def _replace_rows(
        self,
        index: faiss.Index,
        video_id: str,
        trajectories: list[Trajectory],
        vectors: np.ndarray | None,
        source_key: str,
        record: dict,
    ) -> None:
        with self._db() as db:
            old = np.array([r[0] for r in db.execute("SELECT id FROM trajectories WHERE video_id = ?", (video_id,))])
            db.execute("DELETE FROM trajectories WHERE video_id = ?", (video_id,))
            new_ids = []
            for n, trajectory in enumerate(trajectories):
                cursor = db.execute(
                    "INSERT INTO trajectories (trajectory_id, video_id, objective, start_s, end_s, record, vector) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        trajectory.trajectory_id,
                        video_id,
                        trajectory.objective,
                        trajectory.start_s,
                        trajectory.end_s,
                        json.dumps(trajectory.to_dict(), ensure_ascii=False),
                        vectors[n].astype("<f4").tobytes(),  # type: ignore[index]
                    ),
                )
                new_ids.append(cursor.lastrowid)
            position = db.execute(
                "SELECT COALESCE((SELECT position FROM videos WHERE video_id = ?), "
                "(SELECT COALESCE(MAX(position), 0) + 1 FROM videos))",
                (video_id,),
            ).fetchone()[0]
            db.execute(
                "INSERT OR REPLACE INTO videos VALUES (?, ?, ?, ?, ?, ?)",
                (video_id, source_key, json.dumps(record, ensure_ascii=False), len(trajectories),
                 time.strftime("%Y-%m-%dT%H:%M:%S%z"), position),
            )  # fmt: skip
            db.commit()
        if old.size:
            index.remove_ids(old.astype(np.int64))
        if new_ids:
            index.add_with_ids(vectors, np.array(new_ids, dtype=np.int64))

    def save(self) -> None:
        """Write the FAISS file atomically (SQLite commits on every change)."""
        with self._lock:
            if self._faiss is None:
                return
            self.folder.mkdir(parents=True, exist_ok=True)
            handle = tempfile.NamedTemporaryFile(dir=self.folder, prefix=".tmp-", suffix=".faiss", delete=False)
            handle.close()
            try:
                faiss.write_index(self._faiss, handle.name)
                os.replace(handle.name, self.folder / FAISS_NAME)
            except BaseException:
                Path(handle.name).unlink(missing_ok=True)
                raise

    # -- internals --------------------------------------------------------------------------------

    def _db(self) -> _Closing:
        return _Closing(sqlite3.connect(self.folder / DB_NAME, timeout=30))

    def _meta(self, name: str) -> str | None:
        if not (self.folder / DB_NAME).is_file():
            return None
        with self._db() as db:
            row = db.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
        return row[0] if row else None

    def _check_version(self) -> None:
        version = self._meta("version")
        if version != str(INDEX_VERSION):
            raise IndexMismatchError(
                f"index {self.folder} has format version {version}, this code reads {INDEX_VERSION}: "
                "rebuild it with process-videos into a new --index folder"
            )

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = Embedder(self.settings)
        return self._embedder

    def check_embedding_model(self) -> None:
        """Refuse, in one line, an embedding model other than the one that built the index."""
        current = embedding_identity(self.settings)
        built_with = self.embedding_model
        if built_with is not None and built_with != current:
            backend, _, model = built_with.partition(":")
            raise IndexMismatchError(
                f"index {self.folder} was built with embedding model {built_with}, not {current}: use another "
                f"--index folder, or --set models.embedding.backend={backend} --set models.embedding.model={model}"
            )

    def _embed(self, texts: list[str]) -> np.ndarray:
        self.check_embedding_model()
        current = embedding_identity(self.settings)
        built_with = self.embedding_model
        vectors = np.ascontiguousarray(self.embedder.encode(texts, stage=EMBED_STAGE), dtype=np.float32)
        dimension = self._meta("dimension")
        if dimension is not None and int(dimension) != vectors.shape[1]:
            raise IndexMismatchError(
                f"index {self.folder} holds {dimension}-dimensional vectors but {current} gives "
                f"{vectors.shape[1]}: use another --index folder"
            )
        if built_with is None:
            with self._db() as db:
                db.execute("INSERT OR REPLACE INTO meta VALUES ('embedding_model', ?)", (current,))
                db.execute("INSERT OR REPLACE INTO meta VALUES ('dimension', ?)", (str(vectors.shape[1]),))
                db.commit()
        return vectors

    def _index(self) -> faiss.Index:
        """The FAISS index, read from disk or rebuilt from SQLite when the file is missing or stale."""
        if self._faiss is not None:
            return self._faiss
        with self._db() as db:
            count = int(db.execute("SELECT COUNT(*) FROM trajectories").fetchone()[0])
            dimension = self._meta("dimension")
            path = self.folder / FAISS_NAME
            if path.is_file():
                loaded = faiss.read_index(str(path))
                if loaded.ntotal == count and (dimension is None or loaded.d == int(dimension)):
                    self._faiss = loaded
                    return loaded
            if dimension is None:  # nothing embedded yet: an empty stand-in, not kept, until the size is known
                return faiss.IndexIDMap2(faiss.IndexFlatIP(1))
            index = faiss.IndexIDMap2(faiss.IndexFlatIP(int(dimension)))
            rows = db.execute("SELECT id, vector FROM trajectories ORDER BY id").fetchall()
        if rows:
            vectors = np.stack([np.frombuffer(row[1], dtype="<f4") for row in rows]).astype(np.float32)
            index.add_with_ids(vectors, np.array([row[0] for row in rows], dtype=np.int64))
        self._faiss = index
        return index

    def _ids_of(self, video_ids: list[str]) -> np.ndarray:
        marks = ",".join("?" * len(video_ids))
        with self._db() as db:
            rows = db.execute(f"SELECT id FROM trajectories WHERE video_id IN ({marks})", video_ids).fetchall()
        return np.array([row[0] for row in rows], dtype=np.int64)

    def _records(self, ids: list[int]) -> dict[int, Trajectory]:
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        with self._db() as db:
            rows = db.execute(f"SELECT id, record FROM trajectories WHERE id IN ({marks})", ids).fetchall()
        found = {int(row[0]): Trajectory.from_dict(json.loads(row[1])) for row in rows}
        self._with_verdicts(list(found.values()))
        return found


class _Closing:
    """`with index._db() as db:` yields the connection and closes it afterwards (sqlite3 only ends a transaction)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    def __enter__(self) -> sqlite3.Connection:
        return self.connection

    def __exit__(self, exc_type: object, *exc: object) -> None:
        try:
            if exc_type is None:
                self.connection.commit()
            else:
                self.connection.rollback()
        finally:
            self.connection.close()
