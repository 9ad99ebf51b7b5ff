"""The sandbox sites on free ports with a throwaway cache, for a benchmark: a user's own sandbox (its ports, its
cache, its SHOPPING/REDDIT variables) is never touched or measured by mistake."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from model_access.local_servers.process import free_port  # noqa: E402
from settings import Settings, load_settings  # noqa: E402
from tasks.sandbox import server  # noqa: E402
from tasks.sandbox.sites import SITES  # noqa: E402


@dataclass
class PrivateSandbox:
    settings: Settings  # its cache and ports are the private ones
    cache: Path
    urls: dict[str, str]  # site name -> base URL
    env: dict[str, str]  # this process's environment plus VIDEODEMO_CACHE and the sites' variables, for commands

    @property
    def shop(self) -> str:
        return self.urls["shop"]

    @property
    def forum(self) -> str:
        return self.urls["forum"]


@contextmanager
def private_sandbox(prefix: str, sites: tuple[str, ...] = ("shop", "forum"), settings: Settings | None = None,
                    ) -> Iterator[PrivateSandbox]:  # fmt: skip
    """Start `sites` on free ports with a cache under a new temporary folder named `prefix`; on exit stop them and
    remove the folder. The sites' variables (SHOPPING, REDDIT) are set in this process too, for in-process
    environments."""
    settings = settings or load_settings()
    cache = Path(tempfile.mkdtemp(prefix=prefix))
    settings.paths.cache_dir = cache
    settings.sandbox.shop_port, settings.sandbox.forum_port = free_port(), free_port()
    for spec in SITES.values():
        os.environ.pop(spec.env_var, None)  # else a user's running sandbox would be used
    urls = dict(zip(sites, server.start_background(settings, list(sites))))
    try:
        for name, url in urls.items():
            os.environ[SITES[name].env_var] = url
        yield PrivateSandbox(settings, cache, urls, dict(os.environ, VIDEODEMO_CACHE=str(cache)))
    finally:
        server.stop_background(settings, list(sites))
        shutil.rmtree(cache, ignore_errors=True)
