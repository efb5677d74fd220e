"""A run as one self-contained HTML file: `gradstep export`, the page's Export menu and the
notebook magic all make it.

The file holds the player's markup, its CSS, every module under `static/js/`, both string
tables and the run's answer (result, trace, layout), and plays from `file://`, an
`<iframe srcdoc>` or a notebook's output with no server and no network. Browsers refuse
`<script type="module" src=...>` from `file://`, and a module loaded from a blob: or data: URL
cannot resolve `./other.js`, so each module's relative imports are rewritten to a bare name
(`gradstep/graph/render.js`) that the file's import map points at the module's blob: URL.

Example:
    >>> module_name(Path("graph/render.js"))
    'gradstep/graph/render.js'
    >>> rewrite_imports("import { h } from '../dom.js';", Path("panels/vjp.js"))
    "import { h } from 'gradstep/dom.js';"
"""
from __future__ import annotations

import base64
import posixpath
import re
from functools import lru_cache
from pathlib import Path, PurePosixPath

import jinja2

from gradstep.app.services.pages import LANGS, load_strings
from gradstep.app.settings import Settings

ENTRY = "standalone_page.js"
STYLESHEETS = ("app.css", "classroom.css")     # what templates/base.html links
# the bundled Chinese font: a served URL on the page, inside the file only where it is needed
_FONT_URL = re.compile(r',\s*url\("/static/(fonts/[^"]+\.woff2)"\)\s*format\("woff2"\)')
_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
# static `import ... from './x.js'`, `export ... from './x.js'` and `import './x.js'`
_SPECIFIER = re.compile(r"""(\bfrom\s+|\bimport\s+)(['"])(\.{1,2}/[^'"]+)\2""")


def module_name(rel: Path) -> str:
    return "gradstep/" + PurePosixPath(*rel.parts).as_posix()


def rewrite_imports(source: str, rel: Path) -> str:
    """`source` with each relative import specifier replaced by its module's bare name."""
    here = PurePosixPath(*rel.parts).parent.as_posix()

    def bare(match: re.Match) -> str:
        target = posixpath.normpath(posixpath.join(here, match.group(3)))
        return f"{match.group(1)}{match.group(2)}gradstep/{target}{match.group(2)}"
    return _SPECIFIER.sub(bare, source)


def _inert(text: str) -> str:
    """Text that cannot end or confuse the <script>/<style> element it is written into."""
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


@lru_cache(maxsize=4)
def _assets(static_dir: Path, templates_dir: Path) -> tuple:
    js = static_dir / "js"
    modules = tuple((module_name(p.relative_to(js)),
                     _inert(rewrite_imports(p.read_text(encoding="utf-8"), p.relative_to(js))))
                    for p in sorted(js.rglob("*.js")))
    css = "\n".join((static_dir / "css" / name).read_text(encoding="utf-8")
                    for name in STYLESHEETS).replace("</", "<\\/")
    tables = {lang: load_strings(static_dir, lang) for lang in LANGS}
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir)),
                             autoescape=True)
    return modules, css, tables, env


def needs_font(answer: dict, lang: str) -> bool:
    """Whether a file should carry the Chinese font: it opens in Chinese, or its program has
    Chinese in it (comments, strings, printed text). Otherwise the file names only the fonts
    a reader's system has, and a switch to Chinese uses those."""
    source = ((answer.get("trace") or {}).get("program") or {}).get("source", "")
    stdout = (answer.get("result") or {}).get("stdout") or ""
    return lang == "zh" or bool(_CJK.search(source) or _CJK.search(stdout))


def _with_font(css: str, static_dir: Path, embed: bool) -> str:
    """The stylesheet with the font's served URL made a data: URL (embed) or left out."""
    def source(match: re.Match) -> str:
        if not embed:
            return ""
        data = base64.b64encode((static_dir / match.group(1)).read_bytes()).decode("ascii")
        return f', url("data:font/woff2;base64,{data}") format("woff2")'
    return _FONT_URL.sub(source, css)


def standalone_html(answer: dict, *, lang: str = "en", title: str = "program",
                    settings: Settings | None = None, font: bool | None = None,
                    before: dict | None = None) -> str:
    """The player with `answer` (a /api/run answer: result, trace, layout, layout_note).
    `font`: carry the bundled Chinese font (about 1.5 MB as text); None decides by
    `needs_font`. `before`: the answer of an earlier version of the program; the file then
    opens on the two runs side by side (and keeps the player of `answer` one click away)."""
    settings = settings or Settings()
    lang = lang if lang in LANGS else "en"
    modules, css, tables, env = _assets(settings.static_dir, settings.templates_dir)
    embed = needs_font(answer, lang) if font is None else font
    if font is None and before is not None:
        embed = embed or needs_font(before, lang)
    css = _with_font(css, settings.static_dir, embed)
    page = env.get_template("pages/standalone.html")
    return page.render(lang=lang, t=tables[lang], tables=tables, title=title, css=css,
                       answer=answer, before=before, modules=modules,
                       entry=module_name(Path(ENTRY)), embed=True)


def run_answer(source: str, filename: str = "main.py") -> dict:
    """Run `source` in the sandbox and lay out its graph: the answer /api/run would give."""
    from gradstep.runner import run_program
    from gradstep.app.services.layout import GraphTooLarge, layout_trace
    from gradstep.app.services.runs import RESULT_FIELDS

    result = run_program(source, filename=filename, trace=True)
    layout, note = None, None
    if result.trace is None:
        note = "The run produced no trace."
    else:
        try:
            layout = layout_trace(result.trace)
        except GraphTooLarge as exc:
            note = str(exc)
    return {"result": {f: getattr(result, f) for f in RESULT_FIELDS}, "trace": result.trace,
            "layout": layout, "layout_note": note}


def export_file(file: str, output: str, lang: str = "en", font: bool | None = None) -> int:
    """`gradstep export FILE -o OUT.html`: the exit code (0 when the file was written)."""
    import sys

    try:
        source = Path(file).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"gradstep export: cannot read {file}: {exc}", file=sys.stderr)
        return 2
    try:
        answer = run_answer(source, Path(file).name)
    except ImportError as exc:     # pygraphviz (Graphviz) missing from a broken install
        print(f"gradstep export: cannot lay out the graph: {exc}", file=sys.stderr)
        return 2
    html = standalone_html(answer, lang=lang, title=Path(file).stem, font=font)
    if output == "-":
        sys.stdout.write(html)
    else:
        Path(output).write_text(html, encoding="utf-8")
        size = len(html.encode("utf-8"))
        print(f"gradstep export: wrote {output} ({size / 1024:.0f} KiB)", file=sys.stderr)
    error = answer["result"].get("error")
    if error:
        print(f"gradstep export: the program stopped with {error.get('type') or 'an error'}; "
              "the file shows the run up to there", file=sys.stderr)
    return 0
