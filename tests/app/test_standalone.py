"""The standalone player's file: modules rewritten to bare names, nothing that can end its
script elements early, and `gradstep export`'s errors."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from gradstep.app.services.standalone import rewrite_imports, standalone_html

ROOT = Path(__file__).resolve().parents[2]


def _answer(source: str) -> dict:
    trace = {"program": {"source": source}, "events": []}
    return {"result": {"stdout": "", "stderr": "", "exit_code": 0, "error": None,
                       "duration_ms": 1}, "trace": trace, "layout": None, "layout_note": None}


def test_relative_imports_become_bare_names():
    src = ("import { a } from './x.js';\nimport * as b from \"../y/z.js\";\n"
           "export { c } from './w.js';\nimport './side.js';\n// import('./lazy.js') stays\n")
    out = rewrite_imports(src, Path("panels/p.js"))
    assert "from 'gradstep/panels/x.js'" in out
    assert 'from "gradstep/y/z.js"' in out
    assert "from 'gradstep/panels/w.js'" in out
    assert "import 'gradstep/panels/side.js'" in out


def test_every_module_the_entry_needs_is_inside():
    html = standalone_html(_answer("x = 1\n"))
    names = set(re.findall(r'data-name="([^"]+)"', html))
    for spec in re.findall(r"""from\s+['"](gradstep/[^'"]+)['"]""", html):
        assert spec in names, spec
    assert "gradstep/standalone_page.js" in names


def test_a_program_cannot_end_the_answer_element():
    hostile = "</script><script>alert(1)</script><!--"
    html = standalone_html(_answer(hostile))
    answer_block = html.split('id="gs-answer">', 1)[1].split("</script>", 1)[0]
    assert "alert(1)" in answer_block            # still inside the JSON block
    assert "<script>alert" not in html


def test_export_reports_an_unreadable_file(tmp_path):
    done = subprocess.run([sys.executable, "-m", "gradstep", "export", str(tmp_path / "nope.py")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "cannot read" in done.stderr and "Traceback" not in done.stderr


def test_export_of_a_failing_program_still_writes_the_player(tmp_path):
    prog = tmp_path / "fails.py"
    prog.write_text("import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * x).sum()\n"
                    "y.backward()\ny.backward()\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "gradstep", "export", str(prog)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "RuntimeError" in done.stderr
    html = (tmp_path / "fails.html").read_text(encoding="utf-8")
    assert "Trying to backward through the graph a second time" in html


def test_the_chinese_font_travels_only_where_it_is_needed():
    plain = standalone_html(_answer("x = 1\n"))
    assert "/static/fonts/" not in plain and "data:font/woff2" not in plain
    assert 'local("Microsoft YaHei")' in plain       # a reader's own fonts are still named
    for answer, lang in ((_answer("x = 1\n"), "zh"), (_answer("# 梯度\nx = 1\n"), "en")):
        html = standalone_html(answer, lang=lang)
        assert "data:font/woff2;base64," in html and "/static/fonts/" not in html
    assert "data:font/woff2" in standalone_html(_answer("x = 1\n"), font=True)
    assert "data:font/woff2" not in standalone_html(_answer("# 梯度\n"), font=False)


def test_a_file_of_two_runs_holds_both_answers_inertly():
    one = standalone_html(_answer("x = 1\n"))
    assert 'id="gs-answer-before"' not in one
    hostile = "</script><script>alert(2)</script>"
    both = standalone_html(_answer("x = 2\n"), before=_answer(hostile))
    block = both.split('id="gs-answer-before">', 1)[1].split("</script>", 1)[0]
    assert "alert(2)" in block and "<script>alert" not in both
    # the earlier program's Chinese comment needs the font as much as the later one's would
    assert "data:font/woff2" in standalone_html(_answer("x = 1\n"), before=_answer("# 梯度\n"))
