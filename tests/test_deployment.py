"""The image and the compose file as an operator runs them. Where no container engine runs
(these tests' machines), the files are read: the compose file's services, health-gated start
and named volume; the Dockerfile's layers, user and health check; the lock file's pins."""

import re
import tomllib
from pathlib import Path

import yaml
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parent.parent
VARIABLE = re.compile(r"\$\{(\w+)(?::-([^}]*)|:\?[^}]*)?\}")


def interpolated(text: str, env: dict[str, str]) -> str:
    """``${NAME}``, ``${NAME:-default}`` and ``${NAME:?error}`` as Docker Compose fills them in."""

    def value(match: re.Match) -> str:
        name, default = match.groups()
        if name in env:
            return env[name]
        assert default is not None, f"compose.yaml needs {name}"
        return default

    return VARIABLE.sub(value, text)


def compose(**env: str) -> dict:
    return yaml.safe_load(interpolated((ROOT / "compose.yaml").read_text(), env))


def test_compose_runs_the_bot_on_postgresql_once_it_is_healthy():
    services = compose(DISCORD_TOKEN="token", SHARD_COUNT="3")["services"]
    assert set(services) == {"bot", "postgres"}
    database, bot = services["postgres"], services["bot"]
    probe = database["healthcheck"]["test"]
    assert probe[0] == "CMD-SHELL" and probe[1].startswith("pg_isready ")
    assert bot["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    url = make_url(bot["environment"]["DATABASE_URL"])
    assert (url.drivername, url.host, url.username, url.password, url.database) == (
        "postgresql+asyncpg",
        "postgres",
        database["environment"]["POSTGRES_USER"],
        database["environment"]["POSTGRES_PASSWORD"],
        database["environment"]["POSTGRES_DB"],
    )
    assert bot["environment"]["SHARD_COUNT"] == "3" and bot["environment"]["DISCORD_TOKEN"] == "token"
    assert bot["build"] == "."


def test_compose_keeps_the_games_in_a_named_volume():
    config = compose(DISCORD_TOKEN="token")
    (volume,) = config["services"]["postgres"]["volumes"]
    name, target = volume.split(":")
    assert target == "/var/lib/postgresql/data" and name in config["volumes"]


def test_the_bot_service_can_be_scaled():
    """``--scale bot=3`` needs a service without a fixed container name or host port."""
    bot = compose(DISCORD_TOKEN="token")["services"]["bot"]
    assert "container_name" not in bot and "ports" not in bot
    assert bot["environment"]["SHARD_COUNT"] == "1"  # one process unless told


def dockerfile() -> list[str]:
    """The Dockerfile's instructions, continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_the_image_installs_the_locked_dependencies_before_the_code_and_runs_as_a_user():
    steps = dockerfile()
    first_code = next(i for i, step in enumerate(steps) if step.startswith("COPY") and " bot " in f"{step} ")
    lock_install = next(i for i, step in enumerate(steps) if "--require-hashes" in step)
    assert steps[lock_install - 1].startswith("COPY requirements.lock ")
    assert lock_install < first_code
    users = [step.split()[1] for step in steps if step.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    (health,) = [step for step in steps if step.startswith("HEALTHCHECK")]
    assert health.endswith('CMD ["python", "-m", "bot", "--check"]')
    assert any(step.startswith("ENV") and "LOG_JSON=true" in step for step in steps)


def normalised(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0]).lower()


def test_the_lock_file_pins_every_dependency_of_the_image_with_hashes():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {normalised(r) for r in project["dependencies"] + project["optional-dependencies"]["postgres"]}
    lock = (ROOT / "requirements.lock").read_text()
    pinned = dict(re.findall(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)", lock, flags=re.MULTILINE))
    assert wanted <= {normalised(name) for name in pinned}
    entries = re.split(r"\n(?=[A-Za-z0-9])", lock.split("\n", 2)[2])
    assert all("--hash=sha256:" in entry for entry in entries if "==" in entry)
