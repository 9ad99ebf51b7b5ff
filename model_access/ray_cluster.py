"""Ray for the project's work units: start or join a cluster, and bound each model endpoint cluster-wide.

Used by `videodemo run --ray` (evaluation/running/ray_runner.py) and `process-videos --ray`
(processing/ray_pipeline.py); these three modules are the only ones importing ray, and only
when `--ray` is given. Each endpoint's limit is a named async actor holding
`models.max_concurrency` slots, so N worker processes send at most that many requests to one
server together, not N times as many.
"""

from __future__ import annotations

import os
from typing import Any, Callable

from foundation.errors import UserError
from settings.schema import Settings

LOCAL = ""  # `--ray` without an address: start a Ray on this machine
LOCAL_OBJECT_STORE_BYTES = 100 * 1024**2  # records are small; a 2-core laptop keeps its memory
ACTOR_RESTARTS = 3  # a worker killed mid-task comes back this many times before the run gives up on it


def import_ray():
    try:
        import ray
    except ImportError:
        raise UserError("--ray needs the ray package; install it with `pip install -e .[scale]`") from None
    return ray


def connect(address: str, workers: int):
    """Start a local Ray (no address) or join the cluster at `address`; returns the ray module."""
    ray = import_ray()
    if ray.is_initialized():
        return ray
    # Workers import the project from the driver's folder whether or not it is installed. A local Ray's
    # workers inherit this process's environment; a runtime_env would cost several seconds per start.
    python_path = os.pathsep.join(filter(None, [os.getcwd(), os.environ.get("PYTHONPATH")]))
    if address == LOCAL:
        os.environ["PYTHONPATH"] = python_path
        ray.init(
            num_cpus=workers,
            include_dashboard=False,
            object_store_memory=LOCAL_OBJECT_STORE_BYTES,
            _node_ip_address="127.0.0.1",
            log_to_driver=True,
        )
    else:
        try:
            ray.init(address=address, runtime_env={"env_vars": {"PYTHONPATH": python_path}})
        except ConnectionError as exc:
            raise UserError(f"no Ray cluster answers at {address} ({exc}); start one with `ray start --head`") from None
    return ray


class EndpointLimit:
    """A named async actor: the slots of one model endpoint, shared by every process of the cluster."""

    def __init__(self, slots: int) -> None:
        import asyncio

        self.slots = asyncio.Semaphore(slots)

    async def acquire(self) -> None:
        await self.slots.acquire()

    def release(self) -> None:
        self.slots.release()


def limit_name(base_url: str) -> str:
    return f"videodemo-endpoint:{base_url}"


def endpoint_urls(settings: Settings) -> list[str]:
    """Every model endpoint the settings name (each role's base_url)."""
    from dataclasses import fields, is_dataclass

    urls = []
    for item in fields(settings.models):
        role = getattr(settings.models, item.name)
        if is_dataclass(role) and getattr(role, "base_url", None):
            urls.append(role.base_url)
    return sorted(set(urls))


def start_endpoint_limits(ray, settings: Settings) -> list[Any]:
    """One EndpointLimit per endpoint, `models.max_concurrency` slots each, owned by this driver."""
    slots = max(1, int(settings.models.max_concurrency))
    remote_limit = ray.remote(num_cpus=0, max_concurrency=1000)(EndpointLimit)
    return [
        remote_limit.options(name=limit_name(url), get_if_exists=True).remote(slots)
        for url in endpoint_urls(settings)
    ]


def release(
    ray, actors: list[Any], limits: list[Any], started_here: bool, on_close: Callable[[Any], None] | None = None
) -> None:
    """Close and kill the actors a run started, then its endpoint limits; stop Ray if this run started it."""
    for actor in actors:
        try:
            closed = ray.get(actor.close.remote(), timeout=30)
            if on_close is not None:
                on_close(closed)
        except Exception:  # noqa: BLE001 - a dead actor has nothing left to close
            pass
        ray.kill(actor)
    for limit in limits:
        ray.kill(limit)
    if started_here:
        ray.shutdown()


def use_endpoint_limits() -> None:
    """In a Ray worker: every ModelClient of this process takes its slots from the endpoint's named actor."""
    from contextlib import contextmanager

    import ray

    from model_access import client

    limits: dict[str, Any] = {}

    @contextmanager
    def slot(base_url: str):
        if base_url not in limits:
            try:
                limits[base_url] = ray.get_actor(limit_name(base_url))
            except ValueError:  # an endpoint the driver did not know: bounded per process only
                limits[base_url] = None
        limit = limits[base_url]
        if limit is None:
            yield
            return
        ray.get(limit.acquire.remote())
        try:
            yield
        finally:
            limit.release.remote()

    client.ENDPOINT_SLOTS = slot


__all__ = ["connect", "import_ray", "start_endpoint_limits", "use_endpoint_limits"]
