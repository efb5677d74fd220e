"""GET /: language choice, UI strings, examples, embed/presenter flags reach the template."""
from __future__ import annotations

import json

import pytest

from gradstep.app.services.pages import flag, load_strings, negotiate_lang
from app_testing import fake_client

# A template that shows its context, so these tests check what the route hands over
# independently of the real page's markup.
PROBE = """<!doctype html><html lang="{{ lang }}"><body>
<pre id="ctx">{{ {"lang": lang, "t": t, "examples": examples, "embed": embed,
  "presenter": presenter, "frame_ancestors": frame_ancestors} | tojson }}</pre></body></html>"""


@pytest.fixture
def probe_client(tmp_path):
    (tmp_path / "templates" / "pages").mkdir(parents=True)
    (tmp_path / "templates" / "pages" / "index.html").write_text(PROBE, encoding="utf-8")
    (tmp_path / "static" / "i18n").mkdir(parents=True)
    (tmp_path / "static" / "i18n" / "en.json").write_text(
        json.dumps({"run": "Run", "step": "Step"}), encoding="utf-8")
    (tmp_path / "static" / "i18n" / "zh.json").write_text(
        json.dumps({"run": "运行"}), encoding="utf-8")
    with fake_client(templates_dir=tmp_path / "templates", static_dir=tmp_path / "static",
                     frame_ancestors="'self' https://course.example") as c:
        yield c


def context(response) -> dict:
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    text = response.text.split('<pre id="ctx">', 1)[1].split("</pre>", 1)[0]
    return json.loads(text.replace("&#34;", '"').replace("&quot;", '"'))


def test_default_is_english_with_examples(probe_client):
    ctx = context(probe_client.get("/"))
    assert ctx["lang"] == "en" and ctx["t"] == {"run": "Run", "step": "Step"}
    assert ctx["embed"] is False and ctx["presenter"] is False
    assert ctx["frame_ancestors"] == "'self' https://course.example"
    ids = [e["id"] for e in ctx["examples"]]
    assert len(ids) >= 10 and "mean-backward" in ids
    assert set(ctx["examples"][0]) == {"id", "title"}


def test_accept_language_picks_chinese_and_strings_fall_back_to_english(probe_client):
    r = probe_client.get("/", headers={"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"})
    ctx = context(r)
    assert ctx["lang"] == "zh"
    assert ctx["t"] == {"run": "运行", "step": "Step"}
    assert ctx["examples"][0]["title"] == "对均值做反向传播"
    assert r.headers["content-language"] == "zh-Hans"
    assert "Accept-Language" in r.headers["vary"]


def test_query_beats_accept_language(probe_client):
    ctx = context(probe_client.get("/?lang=en", headers={"Accept-Language": "zh-CN"}))
    assert ctx["lang"] == "en"
    assert context(probe_client.get("/?lang=zh"))["lang"] == "zh"
    assert context(probe_client.get("/?lang=klingon"))["lang"] == "en"


def test_embed_and_presenter_flags(probe_client):
    ctx = context(probe_client.get("/?embed=1&presenter=true"))
    assert ctx["embed"] is True and ctx["presenter"] is True
    assert context(probe_client.get("/?embed=0"))["embed"] is False


def test_missing_strings_give_an_empty_table_not_an_error(tmp_path):
    assert load_strings(tmp_path, "zh") == {}
    (tmp_path / "i18n").mkdir()
    (tmp_path / "i18n" / "en.json").write_text("{broken", encoding="utf-8")
    assert load_strings(tmp_path, "en") == {}


@pytest.mark.parametrize("query,header,expected", [
    (None, None, "en"), (None, "", "en"), (None, "fr-FR,fr;q=0.9", "en"),
    (None, "fr;q=1, zh-TW;q=0.4", "zh"), (None, "en;q=0.8, zh;q=0.9", "zh"),
    (None, "zh;q=0, en", "en"), (None, "zh;q=abc", "en"), ("ZH-cn", None, "zh"),
])
def test_negotiate_lang(query, header, expected):
    assert negotiate_lang(query, header) == expected


def test_flag_values():
    assert [flag(v) for v in ("1", "true", "YES", "on")] == [True] * 4
    assert [flag(v) for v in (None, "", "0", "false", "off", "2")] == [False] * 6


def test_static_files_are_served_with_headers(probe_client):
    r = probe_client.get("/static/i18n/en.json")
    assert r.status_code == 200 and r.json()["run"] == "Run"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert probe_client.get("/static/nope.js").status_code == 404


def test_the_real_page_renders_in_both_languages(client):
    en = client.get("/")
    assert en.status_code == 200 and en.headers["content-type"].startswith("text/html")
    assert "<html" in en.text and 'data-lang="en"' in en.text
    zh = client.get("/?lang=zh")
    assert zh.status_code == 200 and 'data-lang="zh"' in zh.text
    assert zh.text != en.text                    # the UI strings changed, not just an attribute


def test_the_real_page_obeys_its_own_csp(client):
    import re

    html = client.get("/?embed=1&presenter=1").text
    assert 'class="is-embed is-presenter"' in html
    # 'unsafe-inline' is off: no inline handlers, style attributes or executable inline scripts
    assert not re.search(r"\son[a-z]+=", html)
    assert 'style="' not in html
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag or 'type="application/json"' in tag, tag
