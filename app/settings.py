"""Server settings, read from `GRADSTEP_*` environment variables (pydantic-settings).

Every knob a deployment may turn lives here, with the default that suits a laptop or a
classroom; docs/api.md lists them. Nothing else in `app/` reads the environment.

Example:
    >>> Settings(port=9000).port
    9000
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from gradstep.app.services.answer_budget import ANSWER_MAX_BYTES
from gradstep.app.services.limits import DEFAULT_TRUSTED_PROXIES

PACKAGE_DIR = Path(__file__).resolve().parent


def _asset_dir(name: str) -> Path:
    """`templates/` and `static/` sit at the repository root in a checkout, but are installed
    as the package data `gradstep.app.templates` / `gradstep.app.static` in a wheel."""
    installed = PACKAGE_DIR / name
    return installed if installed.is_dir() else PACKAGE_DIR.parent / name


class Settings(BaseSettings):
    """What the server is allowed to do, and how much."""

    model_config = SettingsConfigDict(env_prefix="GRADSTEP_", extra="ignore")

    host: str = "127.0.0.1"
    port: int = 8000
    web_workers: int = Field(1, ge=1, description="uvicorn worker processes")
    pool_size: int = Field(2, ge=1, description="sandbox worker processes per web worker")
    max_body_bytes: int = Field(65_536, ge=1024, description="largest request body accepted")
    max_program_bytes: int = Field(20_000, ge=1, description="largest program accepted")
    max_header_bytes: int = Field(
        16_384, ge=1024, description="largest request head (request line and headers)")
    header_timeout: float = Field(
        10.0, gt=0, description="seconds a request's head may take to arrive")
    body_timeout: float = Field(
        10.0, gt=0, description="seconds a request's body may take to arrive")
    max_connections: int = Field(
        1000, ge=1, description="open connections and requests per web worker; then 503")
    rate_limit: int = Field(60, ge=0, description="program runs per client per minute; 0 = off")
    queue_timeout: float = Field(20.0, ge=0, description="seconds a run may wait for a worker "
                                 "(the page shows its place in line meanwhile)")
    max_concurrent_runs: int | None = Field(
        None, ge=1, description="runs executing at once; default: pool_size")
    client_slot_share: float = Field(
        0.5, gt=0, le=1, description="share of those runs one client (a learner's browser, or "
        "an address) may hold (at least one)")
    learners_per_address: int = Field(
        64, ge=0, description="learners (browser tokens) one address may name, each counted "
        "as a client of its own; 0 = count by address only")
    precompute: bool = Field(
        True, description="run every lesson and example once at start-up, in the background, "
        "and keep their answers")
    allowed_hosts: str | None = Field(
        None, description="Host names the server answers to besides localhost, 127.0.0.1, [::1] "
        "and its own address, comma-separated; * for any")
    frame_ancestors: str = Field(
        "'self'", description="CSP frame-ancestors: who may embed the app in an iframe")
    trust_proxy_headers: bool = Field(
        False, description="take the client address from X-Forwarded-For (behind a proxy)")
    trusted_proxies: str = Field(
        DEFAULT_TRUSTED_PROXIES, description="the proxies whose X-Forwarded-For hops are "
        "believed: addresses or CIDR networks, comma-separated, or * for any peer")
    layout_cache_size: int = Field(256, ge=0, description="answers kept by source hash, and "
                                   "layouts by graph shape")
    answer_cache_bytes: int = Field(
        64 * 2**20, ge=0, description="bytes the cached answers (gzip-compressed) may hold, "
                                      "and as many the cached layouts")
    layout_max_nodes: int = Field(
        2000, ge=1, description="largest graph (boxes) laid out; larger runs get no layout")
    answer_max_bytes: int = Field(
        ANSWER_MAX_BYTES, ge=0, description="bytes an answer's trace and graph pictures may take "
        "together; pictures that would not fit are not drawn")
    layout_timeout: float = Field(
        20.0, gt=0, description="seconds a layout may take before it is stopped")
    run_timeout: float | None = Field(
        None, gt=0, description="wall-clock seconds per run; default: the runner's limit")
    access_log: bool = True
    templates_dir: Path = _asset_dir("templates")
    static_dir: Path = _asset_dir("static")
    examples_dir: Path = PACKAGE_DIR / "examples"
    lessons_dir: Path | None = Field(
        None, description="a folder of a teacher's own lesson files (*.toml, docs/lessons.md), "
        "shown with the built-in lessons")

    @property
    def concurrency(self) -> int:
        return self.max_concurrent_runs or self.pool_size


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings()
