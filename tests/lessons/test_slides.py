"""The slides tool: decks from the committed notebooks only, written all at once, index pages per language."""

import re

import nbformat
import pytest

from course_lib.widgets import encodings
from course_tools.build.course import Course
from course_tools.core.config import LANGUAGE_DATA, LANGUAGES
from course_tools.publish import slides
from tests.lessons.support import course, title, twins, write_lesson
from tests.lessons.test_fonts import write_font_packages

# a stand-in for node_modules: the one file the decks' assets are copied from in these tests
ASSET = ("reveal.js/LICENSE", "reveal.js/LICENSE")


@pytest.fixture
def small_course(tmp_path, monkeypatch):
    """A course of two lessons with committed 'executed' notebooks whose outputs say where they come from."""
    config = course(tmp_path)
    (tmp_path / "node_modules" / "reveal.js").mkdir(parents=True)
    (tmp_path / "node_modules" / "reveal.js" / "LICENSE").write_text("MIT")
    write_font_packages(tmp_path / "node_modules")
    monkeypatch.setattr(slides, "ASSET_FILES", [ASSET])
    notes = twins("Say this aloud.", "Скажите это вслух.", slideshow={"slide_type": "notes"})
    write_lesson(tmp_path, "01_first", *title(1), ("code", "print(1)", {}), *notes)
    write_lesson(
        tmp_path,
        "02_second",
        *title(2),
        ("code", "print(2)", {}),
        ("code", "secret()", {"tags": ["notebook-only"]}),
    )
    commit_notebooks(config)
    return config


def commit_notebooks(config, names=("01_first", "02_second")):
    loaded = Course.load(config)
    for name in names:
        for lang in LANGUAGES:
            nb = loaded.render(name, lang)
            for n, cell in enumerate(c for c in nb.cells if c.cell_type == "code"):
                cell.execution_count = n + 1
                cell.outputs = [
                    nbformat.v4.new_output("stream", name="stdout", text=f"from the {lang} notebook {n}\n")
                ]
            nbformat.write(nb, config.notebook(name, lang))


def quiet(_line: str) -> None:
    pass


def test_decks_take_their_outputs_from_the_committed_notebooks_and_run_nothing(small_course, monkeypatch):
    from nbclient import NotebookClient

    monkeypatch.setattr(
        NotebookClient, "execute", lambda *a, **k: pytest.fail("the slides build executed a notebook")
    )
    slides.build([], small_course, say=quiet)
    for lang in LANGUAGES:
        deck = (small_course.slides_dir / lang / "01_first.html").read_text(encoding="utf-8")
        assert f"from the {lang} notebook 0" in deck
        assert '<aside class="notes">' in deck
        assert f"<title>1. {Course.load(small_course).titles['01_first'].title(lang)}</title>" in deck
        second = (small_course.slides_dir / lang / "02_second.html").read_text(encoding="utf-8")
        assert "secret()" not in second and f"from the {lang} notebook 1" not in second
    assert (small_course.slides_dir / "assets" / "reveal.js" / "LICENSE").read_text() == "MIT"


def test_mathjax_menu_texts_are_copied_for_the_languages_mathjax_has(small_course, monkeypatch, tmp_path):
    """Before: MathJax 2's localization/<lang> was required for every course language, so a language
    MathJax lacks (Hindi, Romanian, the walk's made-up qz) stopped `make slides`: "node_modules/ lacks
    mathjax/localization/qz" (MathJax never asks for a language it does not list)."""
    localization = small_course.node_modules / "mathjax" / "localization"
    for lang in ("en", "ru", "de"):
        (localization / lang).mkdir(parents=True)
        (localization / lang / f"{lang}.js").write_text(f"// MathJax's menu in {lang}")
    monkeypatch.setattr(slides, "LANGUAGES", ["en", "ru", "qz"])
    assert slides.mathjax_localizations(small_course.node_modules) == [
        ("mathjax/localization/en", "mathjax/localization/en"),
        ("mathjax/localization/ru", "mathjax/localization/ru"),
    ]
    slides.copy_assets(small_course, tmp_path / "assets")
    copied = tmp_path / "assets" / "mathjax" / "localization"
    assert sorted(p.name for p in copied.iterdir()) == ["en", "ru"]
    assert (copied / "ru" / "ru.js").read_text() == "// MathJax's menu in ru"


def test_a_stale_notebook_is_an_error_that_names_the_rebuild(small_course):
    """Before: the slides build executed the lesson afresh, so a deck could differ from its notebook."""
    path = small_course.source("01_first")
    path.write_text(path.read_text(encoding="utf-8").replace("print(1)", "print(10)"), encoding="utf-8")
    with pytest.raises(
        slides.SlidesError, match=r"stale against .* run `python -m course_tools.lessons build 01`"
    ):
        slides.build([], small_course, say=quiet)
    assert not (small_course.slides_dir / "en").exists()


def test_a_failing_build_leaves_every_old_deck_and_asset(small_course, monkeypatch):
    """Before: the decks built before the failure were replaced, the rest were not."""
    slides.build([], small_course, say=quiet)
    before = {
        p: p.read_bytes()
        for p in small_course.slides_dir.rglob("*")
        if p.is_file() and "template" not in p.parts
    }
    real = slides.deck_notebook

    def fails_on_the_second(loaded, name, lang):
        if name == "02_second":
            raise RuntimeError("nbconvert broke")
        return real(loaded, name, lang)

    monkeypatch.setattr(slides, "deck_notebook", fails_on_the_second)
    (small_course.node_modules / "reveal.js" / "LICENSE").write_text("changed")
    with pytest.raises(RuntimeError, match="nbconvert broke"):
        slides.build([], small_course, say=quiet)
    after = {
        p: p.read_bytes()
        for p in small_course.slides_dir.rglob("*")
        if p.is_file() and "template" not in p.parts
    }
    assert after == before
    assert not list(small_course.slides_dir.glob(".build-*")), "the staging folder was left behind"


def test_missing_vocabularies_are_an_error_and_no_deck_is_written(small_course, monkeypatch, tmp_path):
    """Before: the decks were built, lesson 2's comparator saying "not in this copy" on its slide."""
    slides.build([], small_course, say=quiet)
    before = {p: p.read_bytes() for p in small_course.slides_dir.rglob("*") if p.is_file()}
    monkeypatch.setattr(encodings, "NODE_MODULES", tmp_path / "no-vocabularies")
    with pytest.raises(
        slides.SlidesError,
        match=r"gpt-tokenizer/cjs/encoding/gpt2\.js is missing: run `make vocabularies/node_modules/\.installed-stamp`",
    ):
        slides.build([], small_course, say=quiet)
    assert {p: p.read_bytes() for p in small_course.slides_dir.rglob("*") if p.is_file()} == before
    assert not list(small_course.slides_dir.glob(".build-*"))


def test_a_folder_in_place_of_a_deck_is_a_clear_error_and_no_deck_is_written(small_course):
    """Before: a raw IsADirectoryError with the assets and the English decks already replaced."""
    slides.build([], small_course, say=quiet)
    (small_course.slides_dir / "ru" / "02_second.html").unlink()
    (small_course.slides_dir / "ru" / "02_second.html").mkdir()
    before = {p: p.read_bytes() for p in small_course.slides_dir.rglob("*") if p.is_file()}
    (small_course.node_modules / "reveal.js" / "LICENSE").write_text("changed")
    with pytest.raises(
        slides.SlidesError, match="slides/ru/02_second.html is a folder, not a file: move it away"
    ):
        slides.build([], small_course, say=quiet)
    assert {p: p.read_bytes() for p in small_course.slides_dir.rglob("*") if p.is_file()} == before
    assert not list(small_course.slides_dir.glob(".build-*"))


def test_one_lesson_rebuilt_keeps_the_others_in_the_index(small_course):
    slides.build([], small_course, say=quiet)
    slides.build(["02"], small_course, say=quiet)
    index = (small_course.slides_dir / "en" / "index.html").read_text(encoding="utf-8")
    assert re.findall(r'<li><a href="([^"]+)"', index) == ["01_first.html", "02_second.html"]


def test_the_index_links_every_other_language(lang):
    page = slides.index_page(lang, [("01_first", "1. First")])
    links = re.findall(r'<a href="\.\./(\w+)/index\.html" hreflang="(\w+)" lang="(\w+)">([^<]+)</a>', page)
    assert [link[0] for link in links] == [other for other in LANGUAGES if other != lang]
    for other, hreflang, in_lang, text in links:
        assert other == hreflang == in_lang and text == slides.TEXT("version", other)
        assert LANGUAGE_DATA[other].script.search(text)
    assert f'<html lang="{lang}">' in page and slides.TEXT("title", lang) in page


def test_the_index_text_is_complete_in_every_language():
    assert slides.TEXT.problems() == []
    assert {f"key_{key}" for key in slides.KEYS} | {f"does_{key}" for key in slides.KEYS} <= set(
        slides.TEXT.entries
    )


# ----------------------------------------------------------------------------- the lecture's shape


@pytest.fixture
def lecture_course(small_course):
    """A third lesson written for a lecture: slides-only bullets, speaker-notes prose, a long cell
    shown by its output only, a deep dive."""
    write_lesson(
        small_course.root,
        "03_third",
        *title(3),
        *twins("The goal, said aloud.", "Цель, вслух.", tags=["speaker-notes"]),
        *twins(
            "## Bullets\n\n- one point",
            "## Пункты\n\n- один пункт",
            tags=["slides-only"],
            slideshow={"slide_type": "slide"},
        ),
        *twins("The fuller prose of the notebook.", "Полный текст ноутбука.", tags=["speaker-notes"]),
        *twins(
            "<details>\n<summary>The answer</summary>\n\nIt was the buffer.\n\n</details>",
            "<details>\n<summary>Ответ</summary>\n\nДело было в буфере.\n\n</details>",
            tags=["speaker-notes"],
        ),
        ("code", "long_code = 1\nprint(long_code)", {"tags": ["slides-output-only"]}),
        *twins(
            "### Deep dive: history\n\nOld facts.",
            "### Подробнее: история\n\nСтарые факты.",
            tags=["deep-dive"],
        ),
        ("code", "print('deep')", {"tags": ["deep-dive"]}),
    )
    commit_notebooks(small_course, names=("03_third",))
    return small_course


def test_a_lecture_deck_has_notes_a_pointer_to_the_code_and_no_deep_dive(lecture_course):
    slides.build(["03"], lecture_course, say=quiet)
    for lang, pointer in (("en", "Full code: in the notebook"), ("ru", "Полный код — в ноутбуке")):
        deck = (lecture_course.slides_dir / lang / "03_third.html").read_text(encoding="utf-8")
        notes = re.findall(r'<aside class="notes">(.*?)</aside>', deck, flags=re.S)
        assert len(notes) == 3
        assert {"en": "The goal, said aloud.", "ru": "Цель, вслух."}[lang] in notes[0]
        assert f'<p class="course-full-code">{pointer}</p>' in deck and "long_code" not in deck
        assert f"from the {lang} notebook 0" in deck  # the output of the slides-output-only cell
        assert "&#39;deep&#39;" not in deck and "notebook 1" not in deck
        assert {"en": "Old facts", "ru": "Старые факты"}[lang] not in deck
        assert f'plugin/notes/{"notes-ru.js" if lang == "ru" else "notes.js"}"' in deck
        # a fold of the notebook reaches the speaker view open: the lecturer reads it without a click
        answer = {"en": "It was the buffer.", "ru": "Дело было в буфере."}[lang]
        assert answer in notes[2] and "<details" not in notes[2] and "<summary" not in notes[2]


def test_the_handout_has_every_slide_in_order_and_its_notes_under_it(lecture_course):
    slides.build(["03"], lecture_course, say=quiet)
    for lang in LANGUAGES:
        page = (lecture_course.slides_dir / lang / "03_third.handout.html").read_text(encoding="utf-8")
        assert (
            'role="application"' not in page and "reveal.js/dist" not in page and 'class="reveal' not in page
        )
        labels = re.findall(r'<p class="course-slide-label[^"]*">([^<]+)</p>', page)
        assert labels == [slides.TEXT("slide", lang, number=n, total=2) for n in (1, 2)]
        texts = {
            "en": [
                "Test lesson",
                "The goal, said aloud.",
                "Bullets",
                "one point",
                "The fuller prose",
                "Full code: in the notebook",
            ],
            "ru": [
                "Тестовый урок",
                "Цель, вслух.",
                "Пункты",
                "один пункт",
                "Полный текст ноутбука",
                "Полный код — в ноутбуке",
            ],
        }[lang]
        at = [page.index(text) for text in texts]
        # each slide's content, then its notes: the notes of slide 2 come after its bullets and output
        assert at[0] < at[1] < page.index(labels[1]) < at[2] < at[3] < at[5] < at[4]
        notes = re.findall(r'<aside aria-label="([^"]+)" class="course-notes">', page)
        assert notes == [slides.TEXT("notes_heading", lang)] * 3
        assert "Old facts" not in page and "Старые факты" not in page


def test_the_index_links_each_handout_and_each_pdf_once_printed(lecture_course):
    slides.build([], lecture_course, say=quiet)
    index = (lecture_course.slides_dir / "ru" / "index.html").read_text(encoding="utf-8")
    assert '<a href="03_third.handout.html">конспект</a>' in index and ".pdf" not in index
    (lecture_course.slides_dir / "ru" / "03_third.pdf").write_bytes(b"%PDF-1.4")
    slides.build(["01"], lecture_course, say=quiet)
    index = (lecture_course.slides_dir / "ru" / "index.html").read_text(encoding="utf-8")
    assert '<a href="03_third.pdf">PDF</a>' in index and '<a href="01_first.pdf">' not in index


# ----------------------------------------------------------------------------- the speaker view


def test_the_russian_speaker_view_has_no_english_word_left():
    from course_tools.publish.speaker_view import notes_strings, translate_notes
    from tests.support import ROOT

    original = (ROOT / "node_modules" / "reveal.js" / "plugin" / "notes" / "notes.js").read_text(
        encoding="utf-8"
    )
    russian = translate_notes(original, "ru")
    for english, translated, _ in notes_strings("ru"):
        assert english not in russian and translated in russian
    # the speaker window's page: every text between tags is Russian, numbers or empty
    start, end = russian.index("<body>"), russian.index("<script>", russian.index("<body>"))
    words = re.findall(
        r">([^<>]*[A-Za-z][^<>]*)<", russian[start:end].replace("\\n", " ").replace("\\t", " ")
    )
    assert words == []
    assert '<html lang=\\"ru\\">' in russian


def test_the_russian_help_overlay_and_arrows_have_no_english_word_left():
    """The ? key's help overlay and the arrows' accessible names, in reveal.js's core, read Russian."""
    from course_tools.publish.speaker_view import reveal_strings, translate_reveal
    from tests.support import ROOT

    original = (ROOT / "node_modules" / "reveal.js" / "dist" / "reveal.js").read_text(encoding="utf-8")
    russian = translate_reveal(original, "ru")
    for english, translated, _ in reveal_strings("ru"):
        assert english not in russian and translated in russian
    # every action the overlay lists, and every accessible name of an arrow
    actions = re.findall(r'this\.shortcuts(?:\.\w+|\["[^"]*"\])="([^"]*)"', russian)
    labels = re.findall(r'aria-label="(\w[^"]*)"', russian)  # written out: the up and down arrows
    for left_to_right, right_to_left in re.findall(
        r'aria-label="\'\)?\.concat\(e\?"([^"]*)":"([^"]*)"', russian
    ):
        labels += [left_to_right, right_to_left]  # chosen by the deck's direction: the left and right arrows
    assert len(actions) == 13 and len(labels) == 6, (actions, labels)
    assert [t for t in actions + labels if re.search(r"[A-Za-z]{2}", t)] == []
    assert "Keyboard Shortcuts" not in russian and "<th>KEY</th>" not in russian
    assert translate_reveal(original, "en") == original


def test_a_changed_notes_plugin_is_a_build_error_naming_the_string(small_course, monkeypatch):
    from course_tools.publish.speaker_view import notes_strings

    plugin = small_course.node_modules / "reveal.js" / "plugin" / "notes" / "notes.js"
    plugin.parent.mkdir(parents=True)
    text = " ".join(english for english, _, _ in notes_strings("ru"))
    plugin.write_text(text, encoding="utf-8")
    monkeypatch.setattr(
        slides, "ASSET_FILES", [ASSET, ("reveal.js/plugin/notes/notes.js", "reveal.js/plugin/notes/notes.js")]
    )
    slides.build(["01"], small_course, say=quiet)
    written = (
        small_course.slides_dir / "assets" / "reveal.js" / "plugin" / "notes" / "notes-ru.js"
    ).read_text(encoding="utf-8")
    assert ">Следующий слайд<" in written and ">Upcoming<" not in written
    plugin.write_text(text.replace(">Upcoming<", ">Next<"), encoding="utf-8")
    with pytest.raises(slides.SlidesError, match=r"'>Upcoming<' occurs 0 times, expected 1"):
        slides.build(["01"], small_course, say=quiet)
    assert (small_course.slides_dir / "assets" / "reveal.js" / "plugin" / "notes" / "notes-ru.js").read_text(
        encoding="utf-8"
    ) == written


def test_a_translation_that_would_break_reveal_js_strings_is_a_build_error(monkeypatch):
    """reveal.js's words go into its JavaScript strings as they are: a quote in a translation is refused, by name."""
    from course_tools.publish import speaker_view

    class Quoting:
        english = {"notes": "Notes"}

        def __call__(self, key, lang, **values):
            return 'Заметки "докладчика"' if lang == "ru" else "Notes"

    monkeypatch.setattr(speaker_view, "REVEAL", Quoting())
    with pytest.raises(
        speaker_view.SpeakerViewError, match=r"the ru text of reveal\.notes .* cannot hold '\"'"
    ):
        speaker_view._fields("ru")
    assert speaker_view._fields("en")["notes"] == "Notes"
