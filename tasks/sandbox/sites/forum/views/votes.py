"""Voting on submissions (/sv/ID) and comments (/cv/ID); the form posts `choice` 1, -1 or 0."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, request, url_for

from tasks.sandbox.sites.forum.store.votes import cast_vote
from tasks.sandbox.sites.forum.web import db, redirect_back, send_to_login, viewer_id

bp = Blueprint("votes", __name__)


def _vote(kind: str, item_id: int, as_json: bool):
    if viewer_id() is None:
        if as_json:
            return jsonify({"error": "log in to vote"}), 401
        return send_to_login()
    try:
        choice = int(request.form.get("choice", ""))
    except ValueError:
        abort(400, description="The vote needs a choice of 1, -1 or 0.")
    if choice not in (-1, 0, 1):
        abort(400, description="The vote needs a choice of 1, -1 or 0.")
    result = cast_vote(db(), kind, item_id, viewer_id(), choice)
    if result is None:
        abort(404, description=f"That {kind} does not exist.")
    if as_json:
        return jsonify({"choice": result[0], "netScore": result[1]})
    return redirect_back(url_for("submissions.shortcut", submission_id=item_id) if kind == "submission" else "/")


@bp.post("/sv/<int:item_id>")
@bp.post("/sv/<int:item_id>.json")
def submission_vote(item_id: int):
    return _vote("submission", item_id, request.path.endswith(".json"))


@bp.post("/cv/<int:item_id>")
@bp.post("/cv/<int:item_id>.json")
def comment_vote(item_id: int):
    return _vote("comment", item_id, request.path.endswith(".json"))
