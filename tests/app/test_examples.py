"""The built-in programs: data files under app/examples/, served by /api/examples."""
from __future__ import annotations

from gradstep.app.services.examples import parse_example


def test_list_has_both_titles_and_no_code(client):
    items = client.get("/api/examples").json()
    assert len(items) >= 10
    assert len({e["id"] for e in items}) == len(items)
    for e in items:
        assert e["title"] == e["title_en"] and e["title_en"] and e["description"]
        assert e["title_zh"] != e["title_en"], e["id"]     # really translated
        assert "code" not in e


def test_chinese_titles(client):
    items = client.get("/api/examples", params={"lang": "zh"}).json()
    assert all(e["title"] == e["title_zh"] for e in items)
    assert client.get("/api/examples", params={"lang": "de"}).status_code == 422


def test_one_example_has_clean_code(client):
    for item in client.get("/api/examples").json():
        ex = client.get(f"/api/examples/{item['id']}").json()
        assert "import torch" in ex["code"]
        for header in ("# title_", "# description:", "# compare:", "# visibility:",
                       "# source:", "# topic:"):
            assert header not in ex["code"], (item["id"], header)


def test_unknown_example_is_a_json_404(client):
    r = client.get("/api/examples/no-such-thing")
    assert r.status_code == 404
    error = r.json()["error"]
    assert error["code"] == "not_found" and "no-such-thing" in error["message"]


def test_parse_example_header_and_ordering_prefix():
    ex = parse_example("07-detach.py", "# title_en: Detach\n# description: d\nimport torch\n")
    assert ex["id"] == "detach" and ex["title_zh"] == "Detach"     # falls back to English
    assert ex["code"] == "import torch\n"
    plain = parse_example("plain.py", "import torch\n# title_en: not a header here\n")
    assert plain["id"] == "plain" and plain["title_en"] == "" and plain["code"].startswith("import")
