"""The lessons pages and API: the index links every lesson, each page shows its text in the
chosen language with previous/next navigation, the home page links the index, and a lesson's
run resolves every "watch for" pointer to an event of its kind."""
import re

import pytest

from gradstep.app.services.lessons import load_lessons

LESSONS = load_lessons()


def test_index_lists_every_lesson_in_order(client):
    page = client.get("/lessons").text
    links = re.findall(r'href="/lessons/([a-z0-9-]+)"', page)
    assert links == [lesson.id for lesson in LESSONS]


def test_index_in_chinese(client):
    page = client.get("/lessons?lang=zh").text
    assert "课程" in page and LESSONS[0].text("zh").title in page
    assert 'href="/lessons/scalar-backward?lang=zh"' in page


def test_home_page_links_the_lessons(client):
    assert 'href="/lessons"' in client.get("/").text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_lesson_page_has_its_text_pointers_and_neighbours(client, lang):
    for i, lesson in enumerate(LESSONS):
        page = client.get(f"/lessons/{lesson.id}?lang={lang}").text
        text = lesson.text(lang)
        assert text.title.replace("'", "&#39;") in page
        assert page.count("data-watch=") == len(lesson.watch)
        assert ('id="lesson-prev"' in page) == (i > 0)
        assert ('id="lesson-next"' in page) == (i + 1 < len(LESSONS))
        assert 'data-gs-player' in page and 'lesson_page.js' in page


def test_code_spans_become_code_elements(client):
    page = client.get("/lessons/copyslices").text
    assert "<code>CopySlices</code>" in page and "`" not in page.split("<main")[1].split(
        "data-gs-player")[0]


def test_unknown_lesson_is_a_clear_404(client):
    response = client.get("/api/lessons/no-such-lesson")
    assert response.status_code == 404
    assert "no lesson called 'no-such-lesson'" in response.json()["error"]["message"]
    page = client.get("/lessons/no-such-lesson?lang=en")     # a person gets a page back
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "There is no lesson called “no-such-lesson”" in page.text
    assert page.text.count('class="lesson-card"') == len(LESSONS)


def test_api_lists_lessons_in_the_asked_language(client):
    zh = client.get("/api/lessons?lang=zh").json()
    assert [item["id"] for item in zh] == [lesson.id for lesson in LESSONS]
    assert zh[0]["title"] == LESSONS[0].text("zh").title


def test_lesson_run_points_each_pointer_at_an_event_of_its_kind(real_client):
    body = real_client.get("/api/lessons/accumulation/run?lang=zh").json()
    events = {e["seq"]: e for e in body["run"]["trace"]["events"]}
    assert body["run"]["result"]["exit_code"] == 0
    for pointer in body["lesson"]["watch"]:
        assert pointer["seq"] in events
        assert events[pointer["seq"]]["kind"] == pointer["event"]
    # the second accumulate of lesson 10 is before [1, 1] + added [1, 1] = after [2, 2]
    acc = events[body["lesson"]["watch"][0]["seq"]]
    assert (acc["before"]["data"], acc["added"]["data"], acc["after"]["data"]) == (
        [1.0, 1.0], [1.0, 1.0], [2.0, 2.0])


def test_the_notebook_magic_says_a_bad_option_in_one_line(capsys):
    from gradstep.app.notebook import gradstep_magic
    gradstep_magic("--bogus", "print(1)\n")
    out, err = capsys.readouterr()
    assert err == ""
    assert out.count("\n") == 1 and out.startswith("gradstep: %%gradstep options are")
