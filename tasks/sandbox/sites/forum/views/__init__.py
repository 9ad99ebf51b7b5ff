"""The forum's pages, one blueprint per area."""

from flask import Flask

from tasks.sandbox.sites.forum.views import auth, comments, forums, listings, submissions, users, votes


def register_views(app: Flask) -> None:
    for module in (auth, listings, forums, submissions, comments, votes, users):
        app.register_blueprint(module.bp)
