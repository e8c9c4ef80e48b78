"""The site tool: a small course built into a website, all or nothing, asking the network nothing.

One real Sphinx build of a two-lesson course (both languages, a few seconds) serves the tests of
what the site holds; the failures are provoked before Sphinx runs, or with Sphinx replaced.
"""

import html
import json
import os
import re

import nbformat
import pytest

from course_lib.widgets import encodings
from course_tools.build.course import Course
from course_tools.core.config import LANGUAGE_DATA, LANGUAGES, SOURCE_LANGUAGE, TRANSLATIONS
from course_tools.publish import site, site_pages, site_theme
from tests.lessons.support import course, title, twins, write_lesson
from tests.lessons.test_fonts import write_font_packages
from tests.support import ROOT

NETGUARD = ROOT / "tests" / "browser" / "netguard"
GLOSSARY = "# Glossary — Глоссарий\n\nIntro.\n\n| English | Русский | not |\n|---|---|---|\n| token | токен | жетон |\n"


def quiet(_line: str) -> None:
    pass


def small_course(root):
    """Two lessons with committed 'executed' notebooks, the decks, and node_modules' files as stubs."""
    config = course(root)
    (config.lessons_dir / "GLOSSARY.md").write_text(GLOSSARY, encoding="utf-8")
    write_lesson(
        root,
        "01_first",
        *title(1, "First", "count to one"),
        *twins("## Counting\n\nThe square $x^2$ of one.", "## Счёт\n\nКвадрат $x^2$ единицы."),
        ("code", "print(1)", {}),
    )
    write_lesson(
        root,
        "02_second",
        *title(2, "Second", "count to two"),
        *twins("## One\n\nText.", "## Один\n\nТекст."),
        *twins("### Two\n\nText.", "### Два\n\nТекст."),
        ("code", "print(2)", {}),
        *twins(
            "### Deep dive: the history\n\nOld text.",
            "### Подробнее: история\n\nСтарый текст.",
            tags=["deep-dive"],
        ),
        ("code", "print('deep')", {"tags": ["deep-dive"]}),
        *twins("#### Detail\n\nMore.", "#### Деталь\n\nЕщё.", tags=["deep-dive"]),
        # a second deep dive right after the first
        *twins("### Deep dive: more\n\nSecond.", "### Подробнее: ещё\n\nВторой.", tags=["deep-dive"]),
        *twins("Back on the main path.", "Снова основной путь."),
        ("code", "print(3)", {}),
    )
    loaded = Course.load(config)
    for name in loaded.names:
        for lang in LANGUAGES:
            nb = loaded.render(name, lang)
            for n, cell in enumerate(c for c in nb.cells if c.cell_type == "code"):
                cell.execution_count = n + 1
                cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=f"{lang} output {n}\n")]
            nbformat.write(nb, config.notebook(name, lang))
    for lang in LANGUAGES:
        for page in ["index", *loaded.names, "00_removed_long_ago"]:
            deck = config.slides_dir / lang / f"{page}.html"
            deck.parent.mkdir(parents=True, exist_ok=True)
            deck.write_text(f"deck {lang} {page}", encoding="utf-8")
        for name in loaded.names:
            (config.slides_dir / lang / f"{name}.handout.html").write_text(
                f"handout {lang} {name}", encoding="utf-8"
            )
    (config.slides_dir / "assets").mkdir()
    (config.slides_dir / "assets" / "reveal.js").write_text("reveal", encoding="utf-8")
    for src, _ in site.VENDOR_FILES:
        path = config.node_modules / src
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix:
            path.write_text(f"// {src}", encoding="utf-8")
        else:  # a folder of fonts
            path.mkdir()
            (path / "font.woff").write_bytes(b"woff")
    (config.node_modules / site.WIDGET_FONTS[0] / "icons.woff2").write_bytes(b"woff2")
    write_font_packages(config.node_modules)
    return config


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The small course built once, under a guard that records every attempt to reach another machine."""
    config = small_course(tmp_path_factory.mktemp("course"))
    log = config.root / "network.log"
    saved = {key: os.environ.get(key) for key in ("PYTHONPATH", "COURSE_NETWORK_LOG")}
    # the Sphinx builds run in fresh processes, which load netguard/sitecustomize.py at start-up
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(NETGUARD), saved["PYTHONPATH"]]))
    os.environ["COURSE_NETWORK_LOG"] = str(log)
    try:
        site.build(config, say=quiet)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return config, log


def test_every_lesson_in_every_language_with_its_notebook(built):
    config, _ = built
    out = config.site_dir
    titles = Course.load(config).titles
    for lang in LANGUAGES:
        home = (out / lang / "index.html").read_text(encoding="utf-8")
        assert f'<html lang="{lang}"' in home
        for name in ("01_first", "02_second"):
            page = html.unescape((out / lang / f"{name}.html").read_text(encoding="utf-8"))
            assert f"{lang} output 0" in page
            assert f"<title>{titles[name].heading(lang)} — {site_pages.TEXT('title', lang)}</title>" in page
            assert (out / lang / f"{name}.ipynb").read_bytes() == config.notebook(name, lang).read_bytes()
            assert f'href="{name}.ipynb" download' in page
            for other in LANGUAGES:
                if other != lang:
                    assert f'href="../{other}/{name}.html" hreflang="{other}"' in page
            assert titles[name].summary(lang) in home
            assert f'href="../slides/{lang}/{name}.html"' in home
        assert (out / lang / "glossary.html").exists() and (out / lang / "searchindex.js").exists()
        assert "жетон" in (out / lang / "glossary.html").read_text(encoding="utf-8")
        assert (out / "slides" / lang / "01_first.html").read_text(
            encoding="utf-8"
        ) == f"deck {lang} 01_first"
    assert (out / "slides" / "assets" / "reveal.js").exists()
    assert not list(out.glob("slides/*/00_removed_long_ago.html")), "a deck of no current lesson was copied"
    assert json.dumps(list(LANGUAGES)) in (out / "index.html").read_text(encoding="utf-8")
    assert (out / ".nojekyll").exists()  # GitHub Pages would drop _static/ and _images/ otherwise


def test_only_what_the_pages_load(built):
    config, _ = built
    files = [p.relative_to(config.site_dir).as_posix() for p in config.site_dir.rglob("*") if p.is_file()]
    assert not [f for f in files if f.endswith((".mo", ".map", ".buildinfo", "objects.inv"))]
    assert not [f for f in files if "/_sources/" in f or "jupyter_execute" in f]
    assert not list(config.root.glob(".site-build-*")), "the staging folder was left behind"
    for lang in LANGUAGES:
        assert (config.site_dir / lang / "_static" / "html-manager" / "icons.woff2").exists()
        assert (config.site_dir / lang / "_static" / "mathjax" / "tex-chtml-full.js").exists()


def test_sections_are_numbered_alike_in_every_language(built):
    """The switch keeps the section by its number; the lessons check keeps the twins' headings alike."""
    config, _ = built
    for lang in LANGUAGES:
        page = (config.site_dir / lang / "02_second.html").read_text(encoding="utf-8")
        found = re.findall(
            r'<span id="(sec-\d+)"></span>(?:<details class="course-deep-dive">\s*<summary>)?<h([1-6])>', page
        )
        assert found == [
            ("sec-0", "1"),
            ("sec-1", "2"),
            ("sec-2", "3"),
            ("sec-3", "3"),
            ("sec-4", "4"),
            ("sec-5", "3"),
        ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_deep_dive_is_folded_under_its_heading_and_listed_in_the_contents(built, lang):
    """One <details> holds the deep dive's cells, its heading the summary; the main path goes on after it."""
    config, _ = built
    page = (config.site_dir / lang / "02_second.html").read_text(encoding="utf-8")
    heading = {"en": "Deep dive: the history", "ru": "Подробнее: история"}[lang]
    main = {"en": "Back on the main path.", "ru": "Снова основной путь."}[lang]
    folds = re.findall(r'<details class="course-deep-dive">(.*?)</details>', page, flags=re.S)
    assert len(folds) == 2
    fold = folds[0]
    second = {"en": ("Deep dive: more", "Second."), "ru": ("Подробнее: ещё", "Второй.")}[lang]
    assert second[0] in folds[1] and second[1] in folds[1] and second[1] not in fold
    summary = re.match(r"\s*<summary><h3>(.*?)<a class=\"headerlink\" href=\"#([^\"]+)\"", fold)
    assert summary and summary[1] == heading
    assert f"{lang} output 1" in fold  # the deep dive's code cell, with its output
    assert {"en": "Detail", "ru": "Деталь"}[lang] in fold  # its #### subsection
    assert main not in fold and f"{lang} output 2" not in fold  # the main path after it
    assert page.index("</details>") < page.index(main) < page.index(f"{lang} output 2")
    # the page's table of contents links the deep dive
    assert re.search(rf'<a class="reference internal nav-link" href="#{summary[2]}">{heading}</a>', page)


def test_the_site_copy_marks_each_deep_dive_and_the_download_is_as_committed(built):
    config, _ = built
    for lang in LANGUAGES:
        download = (config.site_dir / lang / "02_second.ipynb").read_text(encoding="utf-8")
        assert download == config.notebook("02_second", lang).read_text(encoding="utf-8")
        assert "course-deep-dive" not in download


def test_the_build_asks_the_network_nothing(built):
    _, log = built
    assert not log.exists() or log.read_text(encoding="utf-8") == ""


def fake_sphinx(jobs: dict) -> list[str]:
    """What run_sphinx leaves: each language's pages in its output folder."""
    for lang, (srcdir, outdir, _, _) in jobs.items():
        (outdir / "_static").mkdir(parents=True)
        for source in srcdir.iterdir():
            (outdir / f"{source.stem}.html").write_text(f"{lang} {source.stem}", encoding="utf-8")
    return []


def test_a_build_replaces_the_old_site_whole(tmp_path, monkeypatch):
    config = small_course(tmp_path)
    monkeypatch.setattr(site, "run_sphinx", fake_sphinx)
    site.build(config, say=quiet)
    (config.site_dir / "stale.html").write_text("left from before", encoding="utf-8")
    site.build(config, say=quiet)
    assert not (config.site_dir / "stale.html").exists()
    assert (config.site_dir / SOURCE_LANGUAGE / "01_first.html").read_text() == f"{SOURCE_LANGUAGE} 01_first"
    assert not list(config.root.glob(".site-build-*")), "the staging folder was left behind"


# ----------------------------------------------------------------------------- failures: nothing written


@pytest.fixture
def old_site(tmp_path):
    config = small_course(tmp_path)
    config.site_dir.mkdir()
    (config.site_dir / "index.html").write_text("the old site", encoding="utf-8")
    return config


def assert_untouched(config):
    assert [p.name for p in config.site_dir.iterdir()] == ["index.html"]
    assert (config.site_dir / "index.html").read_text(encoding="utf-8") == "the old site"
    assert not list(config.root.glob(".site-build-*")), "the staging folder was left behind"


def test_a_stale_notebook_is_an_error_that_names_the_rebuild(old_site):
    path = old_site.source("01_first")
    path.write_text(path.read_text(encoding="utf-8").replace("print(1)", "print(10)"), encoding="utf-8")
    with pytest.raises(
        site.SiteError, match=r"stale against .* run `python -m course_tools.lessons build 01`"
    ):
        site.build(old_site, say=quiet)
    assert_untouched(old_site)


def test_missing_decks_are_an_error_that_names_make_slides(old_site):
    (old_site.slides_dir / SOURCE_LANGUAGE / "02_second.html").unlink()
    with pytest.raises(
        site.SiteError, match=rf"slides/{SOURCE_LANGUAGE}/02_second.html is missing: run `make slides`"
    ):
        site.build(old_site, say=quiet)
    assert_untouched(old_site)


def test_missing_npm_packages_are_an_error_that_names_npm_ci(old_site):
    (old_site.node_modules / site.VENDOR_FILES[0][0]).unlink()
    with pytest.raises(site.SiteError, match=r"node_modules/ lacks mathjax3/.*run `npm ci`"):
        site.build(old_site, say=quiet)
    assert_untouched(old_site)


def test_missing_vocabularies_are_an_error_that_names_their_install(old_site, monkeypatch, tmp_path):
    """Before: the site was built, its comparator saying "not in this copy" on every page of lesson 2."""
    monkeypatch.setattr(encodings, "NODE_MODULES", tmp_path / "no-vocabularies")
    with pytest.raises(
        site.SiteError,
        match=r"gpt-tokenizer/cjs/encoding/gpt2\.js is missing: run `make vocabularies/node_modules/\.installed-stamp`",
    ):
        site.build(old_site, say=quiet)
    assert_untouched(old_site)


def test_a_page_sphinx_warns_about_fails_the_build_and_leaves_the_old_site(old_site, monkeypatch):
    monkeypatch.setattr(site, "run_sphinx", lambda jobs: ["the ru pages have problems (Sphinx's words):\nx"])
    with pytest.raises(site.SiteError, match="Sphinx's words"):
        site.build(old_site, say=quiet)
    assert_untouched(old_site)


# ----------------------------------------------------------------------------- the pieces


def test_home_page_lists_the_lessons_from_their_title_cells(old_site, lang):
    loaded = Course.load(old_site)
    page = site_pages.home_page(loaded, lang)
    items = [line for line in page.splitlines() if line.startswith("- [")]
    assert len(items) == 2
    for name, item in zip(loaded.names, items, strict=True):
        row = loaded.titles[name]
        assert item.startswith(
            f"- [{site_pages.markdown_text(row.heading(lang))}]({name}.ipynb) — {site_pages.markdown_text(row.summary(lang))}"
        )
        assert f'href="../slides/{lang}/{name}.html"' in item and f'href="{name}.ipynb" download' in item
    assert page.startswith(f"# {site_pages.TEXT('title', lang)}\n")
    assert "make lab" in page


HOSTILE_TITLE = "Tags like <b> & *stars* [links](x.html)"
HOSTILE_SUMMARY = 'read <script>alert("x")</script>, `ticks`, $math$, {role}`x`, _under_ and &amp; as text'


def test_home_page_shows_titles_and_summaries_as_text(tmp_path, lang):
    """Before: they went into the page's Markdown unescaped: the <script> reached the HTML."""
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    config = course(tmp_path)
    write_lesson(
        tmp_path,
        "01_hostile",
        *twins(
            f"# 1. {HOSTILE_TITLE}\n\n*{HOSTILE_SUMMARY}*",
            f"# 1. {HOSTILE_TITLE}\n\n*{HOSTILE_SUMMARY}*",
            run_budget_s=10,
        ),
    )
    page = site_pages.home_page(Course.load(config), lang)
    # the parser and the extensions of the site's Sphinx configuration (course_tools.publish.site_theme)
    md = create_md_parser(MdParserConfig(enable_extensions={"dollarmath", "amsmath"}), RendererHTML)
    (item,) = [line for line in md.render(page).splitlines() if "01_hostile.ipynb" in line and "<li>" in line]
    assert "<script" not in item and "<b>" not in item and "<em>" not in item and "<code>" not in item
    assert 'class="math' not in item and 'href="x.html"' not in item
    assert f'<a href="01_hostile.ipynb">1. {html.escape(HOSTILE_TITLE, quote=False)}</a>' in item
    assert f"— {html.escape(HOSTILE_SUMMARY)} · " in item
    assert f'href="../slides/{lang}/01_hostile.html"' in item  # the page's own HTML still works


def test_glossary_page_is_the_table_under_a_title_in_the_language(old_site, lang):
    page = site_pages.glossary_page(old_site, lang)
    assert page.startswith(f"# {site_pages.TEXT('glossary', lang)}\n")
    assert [line for line in page.splitlines() if line.startswith("|")] == GLOSSARY.splitlines()[4:7]
    assert "Intro." not in page


def test_root_page_knows_every_language():
    page = site_pages.root_page()
    for lang in LANGUAGES:
        assert f'href="{lang}/index.html" hreflang="{lang}"' in page
    assert json.dumps(site_pages.STORAGE_KEY) in page


def test_the_configuration_loads_nothing_from_the_internet(tmp_path, lang):
    config = site_theme.sphinx_config(lang, tmp_path, tmp_path, tmp_path)
    assert "://" not in json.dumps(config)
    assert config["language"] == config["html_search_language"] == lang
    others = config["html_context"]["course"]["others"]
    assert [other["lang"] for other in others] == [other for other in LANGUAGES if other != lang]
    for other in others:
        assert LANGUAGE_DATA[other["lang"]].script.search(other["title"])


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_the_search_status_line_is_translated(tmp_path, lang):
    js = site_theme.translations_js(lang, site_theme.THEME / "locales" / lang / "LC_MESSAGES" / "sphinx.po")
    data = json.loads(js.split("(", 1)[1].rsplit(")", 1)[0])
    forms = data["messages"]["Search finished, found one page matching the search query."]
    assert forms and all(LANGUAGE_DATA[lang].script.search(form) for form in forms)
    assert all("${resultCount}" in form for form in forms)


def test_the_site_text_is_complete():
    assert site_pages.TEXT.problems() == []
