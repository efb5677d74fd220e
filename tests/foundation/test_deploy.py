"""Deployment files: real validators accept them (yamllint, kubernetes-validate, docker
compose), and they agree with each other and with the image (port, probes, user, names).
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from ._repo import ROOT, config_variables, dockerfile_instructions, env_of, tool

DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
MANIFESTS = sorted(p for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")


def load(path: Path) -> dict:
    return yaml.safe_load(path.read_text())


def by_kind() -> dict[str, dict]:
    docs = {}
    for path in MANIFESTS:
        doc = load(path)
        docs[doc["kind"]] = doc
    return docs


def image_port() -> int:
    (expose,) = [i.args for i in dockerfile_instructions() if i.keyword == "EXPOSE"]
    return int(expose)


def test_yaml_is_clean():
    proc = subprocess.run([tool("yamllint"), "--strict", "-c", str(DEPLOY / ".yamllint.yaml"),
                           str(DEPLOY)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("manifest", MANIFESTS, ids=lambda p: p.name)
def test_manifest_passes_kubernetes_schema(manifest):
    # --strict rejects fields the API does not know, so a misspelt key fails here.
    proc = subprocess.run([tool("kubernetes-validate"), "--strict", str(manifest)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_kubernetes_validate_really_validates(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("apiVersion: v1\nkind: Service\nmetadata: {name: x}\nspec: {portz: []}\n")
    proc = subprocess.run([tool("kubernetes-validate"), "--strict", str(bad)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "portz" in proc.stdout + proc.stderr


def test_kustomization_lists_every_manifest():
    kustomization = load(K8S / "kustomization.yaml")
    assert sorted(kustomization["resources"]) == [p.name for p in MANIFESTS]
    assert [i["name"] for i in kustomization["images"]] == ["gradstep"]


def test_deployment_probes_limits_and_security():
    deployment = by_kind()["Deployment"]
    pod = deployment["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports == {"http": image_port()}
    assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}
    assert container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    for kind in ("requests", "limits"):
        assert set(container["resources"][kind]) == {"cpu", "memory"}
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    # A read-only root needs a writable /tmp for the sandbox's working directories.
    assert any(m["mountPath"] == "/tmp" for m in container["volumeMounts"])
    env = {e["name"]: e["value"] for e in container["env"]}
    assert env["GRADSTEP_PORT"] == str(image_port())
    assert env["GRADSTEP_SANDBOX_STRICT"] == "1", "a pod must not serve without its OS layers"
    assert set(env) <= set(config_variables()), "a variable the app does not read"
    # a pod without seccomp or Landlock must not serve: the sandbox refuses to start
    assert env["GRADSTEP_SANDBOX_STRICT"] == "1"


def test_service_and_autoscaler_point_at_the_deployment():
    docs = by_kind()
    deployment, service, hpa = docs["Deployment"], docs["Service"], docs["HorizontalPodAutoscaler"]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert service["spec"]["selector"].items() <= labels.items()
    assert [p["targetPort"] for p in service["spec"]["ports"]] == ["http"]
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", deployment["metadata"]["name"])
    assert 2 <= hpa["spec"]["minReplicas"] < hpa["spec"]["maxReplicas"]
    pdb = docs["PodDisruptionBudget"]
    assert pdb["spec"]["selector"]["matchLabels"].items() <= labels.items()


def compose_command() -> list[str]:
    """Compose v2 (the docker CLI plugin) if present, else Debian's docker-compose."""
    if shutil.which("docker") and subprocess.run(["docker", "compose", "version"],
                                                 capture_output=True).returncode == 0:
        return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    raise AssertionError("neither `docker compose` nor `docker-compose` is installed; "
                         "./dev.sh test installs Debian's docker-compose when run as root, "
                         "otherwise: apt-get install docker-compose")


def compose_config(path: Path) -> subprocess.CompletedProcess:
    # `config` parses, validates against the Compose schema and normalises; it needs no engine.
    return subprocess.run(compose_command() + ["-f", str(path), "config"], capture_output=True,
                          text=True, timeout=120, cwd=path.parent)


def test_compose_file_is_valid():
    proc = compose_config(DEPLOY / "docker-compose.yml")
    assert proc.returncode == 0, proc.stderr
    config = yaml.safe_load(proc.stdout)
    app, proxy = config["services"]["app"], config["services"]["proxy"]
    assert app["deploy"]["replicas"] >= 2
    assert "ports" not in app, "replicas are reached through the proxy only"
    assert [str(p) for p in app["expose"]] == [str(image_port())]
    assert app["environment"]["GRADSTEP_TRUST_PROXY_HEADERS"] == "true"
    assert app["environment"]["GRADSTEP_TRUSTED_PROXIES"] == "*"
    assert app["environment"]["GRADSTEP_SANDBOX_STRICT"] == "1"
    assert set(app["environment"]) <= set(config_variables())
    assert proxy["depends_on"]["app"]["condition"] == "service_healthy"
    (mount,) = proxy["volumes"]
    source = mount["source"] if isinstance(mount, dict) else mount.split(":")[0]
    assert Path(source).resolve() == (DEPLOY / "nginx.conf").resolve()


def test_compose_validator_really_validates(tmp_path):
    bad = tmp_path / "docker-compose.yml"
    bad.write_text("services:\n  app:\n    image: gradstep\n    replicaz: 3\n")
    proc = compose_config(bad)
    assert proc.returncode != 0 and "replicaz" in proc.stdout + proc.stderr


def test_compose_image_settings_match_dockerfile():
    compose = load(DEPLOY / "docker-compose.yml")
    build = compose["services"]["app"]["build"]
    assert (DEPLOY / build["context"] / build["dockerfile"]).resolve() == ROOT / "Dockerfile"
    instructions = dockerfile_instructions()
    env = env_of(instructions, max(i.stage for i in instructions))
    assert compose["services"]["app"]["environment"]["GRADSTEP_PORT"] == env["GRADSTEP_PORT"]


def test_nginx_proxies_to_the_compose_replicas():
    conf = (DEPLOY / "nginx.conf").read_text()
    code = re.sub(r"#.*", "", conf)
    assert code.count("{") == code.count("}")
    compose = load(DEPLOY / "docker-compose.yml")
    (upstream_name, body), = re.findall(r"upstream\s+(\w+)\s*\{([^}]*)\}", code)
    (server,) = re.findall(r"^\s*server\s+(\S+)", body, re.M)
    host, port = server.split(":")
    assert host in compose["services"] and int(port) == image_port()
    # `resolve` re-resolves the service name, which lists every replica.
    assert re.search(rf"server\s+{re.escape(server)}\s[^;]*\bresolve\b", body)
    assert re.search(r"^\s*resolver\s+127\.0\.0\.11\b", code, re.M), "Docker's embedded DNS"
    assert re.search(rf"proxy_pass\s+http://{upstream_name};", code)
    # The app rate-limits by the header's first address: nginx must overwrite, not append.
    assert re.search(r"proxy_set_header\s+X-Forwarded-For\s+\$remote_addr;", code)
    (listen,) = re.findall(r"^\s*listen\s+(\d+);", code, re.M)
    (published,) = compose["services"]["proxy"]["ports"]
    assert published.endswith(f":{listen}")
