"""docker-compose.yml, its proxy and the Dockerfile agree with the bot's settings (there is no
docker here to start them, so what can be checked without it is checked: every name, port and
host that one file gives another)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from bot.config import Settings

ROOT = Path(__file__).resolve().parent.parent
WORKERS = ("bot1", "bot2", "bot3")
# Read by docker compose itself (interpolated into the file), not by the bot.
COMPOSE_ONLY = {"POSTGRES_PASSWORD", "PROXY_PORT"}


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return data


def env_example() -> dict[str, str]:
    lines = (ROOT / ".env.example").read_text().splitlines()
    pairs = (line.split("=", 1) for line in lines if line and not line.startswith("#"))
    return {name: value for name, value in pairs}


def interpolate(value: str) -> str:
    """Compose's ${NAME:-default}, with nothing set."""
    return re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", value)


def worker_env(name: str) -> dict[str, str]:
    env = compose()["services"][name]["environment"]
    return {k: interpolate(str(v)) for k, v in env.items()}


def test_postgres_16_and_three_workers_behind_a_proxy() -> None:
    services = compose()["services"]
    assert set(services) == {"db", *WORKERS, "proxy"}
    assert services["db"]["image"].startswith("postgres:16")
    for name in WORKERS:
        worker = services[name]
        assert worker["build"] == "."
        assert worker["env_file"] == ".env"
        assert worker["depends_on"]["db"]["condition"] == "service_healthy"
    assert set(services["proxy"]["depends_on"]) == set(WORKERS)


def test_every_setting_named_is_one_the_bot_reads() -> None:
    fields = {name.upper() for name in Settings.model_fields}
    for name in WORKERS:
        assert set(worker_env(name)) <= fields
    assert set(env_example()) - COMPOSE_ONLY <= fields
    assert set(env_example()) >= COMPOSE_ONLY


@pytest.mark.parametrize("name", WORKERS)
def test_each_worker_reaches_the_database_and_serves_the_webhook(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The worker's settings as it starts: .env.example under the service's own environment.
    for key, value in {**env_example(), **worker_env(name)}.items():
        monkeypatch.setenv(key, value)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    url = urlsplit(str(settings.database))
    db = compose()["services"]["db"]["environment"]
    assert url.scheme == "postgresql" and url.hostname == "db" and url.port == 5432
    assert url.username == db["POSTGRES_USER"] and url.path == "/" + db["POSTGRES_DB"]
    assert url.password == interpolate(db["POSTGRES_PASSWORD"])
    assert settings.webhook_host == "0.0.0.0"
    upstreams = re.findall(r"server (\w+):(\d+)", (ROOT / "deploy/nginx.conf").read_text())
    assert (name, str(settings.webhook_port)) in upstreams
    assert settings.web_host == "0.0.0.0" and (name, str(settings.web_port)) in upstreams
    assert settings.discord_shard_count == len(WORKERS)


def test_the_workers_split_the_discord_shards() -> None:
    shards = sorted(int(worker_env(name)["DISCORD_SHARD_IDS"]) for name in WORKERS)
    assert shards == list(range(len(WORKERS)))


def test_the_proxy_forwards_its_published_port_to_every_worker() -> None:
    conf = (ROOT / "deploy/nginx.conf").read_text()
    upstreams = re.findall(r"server (\w+):(\d+)", conf)
    for port in ("8080", "8081"):  # the webhook and the web table, each on every worker
        assert sorted(host for host, p in upstreams if p == port) == sorted(WORKERS)
    assert {port for _, port in upstreams} == {"8080", "8081"}
    listen = re.search(r"listen (\d+);", conf)
    assert listen is not None
    proxy = compose()["services"]["proxy"]
    [published] = proxy["ports"]
    assert interpolate(published).split(":")[1] == listen[1]
    assert "./deploy/nginx.conf:/etc/nginx/nginx.conf:ro" in proxy["volumes"]


def test_the_image_holds_what_the_bot_reads() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    copied = re.findall(r"^COPY (\S+)", dockerfile, flags=re.M)
    for path in copied:
        assert (ROOT / path).exists(), path
    assert {"bot", "core", "locales", "pyproject.toml"} <= set(copied)
    assert 'CMD ["python", "-m", "bot"]' in dockerfile
