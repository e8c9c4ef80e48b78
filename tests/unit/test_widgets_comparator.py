"""Lesson 2's tokenizer comparator: its traits and bounds, what it computes for the course's BPE, the merge
tree a click unfolds, and gpt-tokenizer's encoders as the scripts the page loads (the browser's side is
tests/browser/test_explorers_comparator.py)."""

import json

import pytest

from course_lib import widgets
from course_lib.bpe import BPETokenizer, course_corpus
from course_lib.widgets import comparator, encodings


@pytest.fixture(scope="module")
def tok():
    return BPETokenizer.train(course_corpus("en")[:200] + course_corpus("ru")[:200], vocab_size=600)


def test_the_course_row_and_ids_are_the_tokenizers(tok):
    explorer = widgets.tokenizer_comparator(
        tok, text="Все люди рождаются свободными", english="All human beings"
    )
    assert explorer.ids() == tok.encode("Все люди рождаются свободными", disallowed_special=())
    n, n_en = len(explorer.ids()), len(tok.encode("All human beings"))
    per_word, ratio = f"{n / 4:.2f}", f"{n / n_en:.2f}"
    assert explorer.course_row() == (
        f"the course's BPE (600 tokens): {n} tokens, {per_word} per word, ×{ratio} against the English text"
    )
    assert explorer.readout() == "The text: 4 words, 29 characters; in English: 3 words."


def test_the_defaults_are_the_declarations_first_article(tok):
    explorer = widgets.tokenizer_comparator(tok)
    assert explorer.text == comparator.ARTICLE_1["ru"] and explorer.english == comparator.ARTICLE_1["en"]
    assert repr(explorer).startswith("TokenizerComparator(text='Все люди")


def test_a_typed_special_token_is_text(tok):
    explorer = widgets.tokenizer_comparator(tok, text="<pad> a", english="")
    assert tok.specials["<pad>"] not in explorer.ids()
    assert explorer.course_row().endswith("×– against the English text")


def test_the_merge_tree_goes_down_to_bytes(tok):
    explorer = widgets.tokenizer_comparator(tok)
    longest = max(set(explorer.ids()), key=lambda i: len(tok.token_bytes(i)))
    token, token_id, parts = explorer.merge_tree(longest)
    assert (token, token_id) == (tok.id_to_token(longest), longest) and len(parts) == 2

    def leaves(node):
        return [node[1]] if not node[2] else [i for part in node[2] for i in leaves(part)]

    def check(node):
        if node[2]:  # a merge: its two parts spell it, and the pair is one of the tokenizer's merges
            a, b = node[2]
            assert (a[1], b[1]) in set(tok.merges)
            assert tok.token_bytes(a[1]) + tok.token_bytes(b[1]) == tok.token_bytes(node[1])
            check(a), check(b)

    check((token, token_id, parts))
    assert all(len(tok.token_bytes(i)) == 1 for i in leaves((token, token_id, parts)))
    assert b"".join(tok.token_bytes(i) for i in leaves((token, token_id, parts))) == tok.token_bytes(longest)
    byte = tok.encode("a")[0]
    assert explorer.merge_tree(byte) == ("a", byte, [])


def test_labels_and_rows_in_russian(tok):
    explorer = widgets.tokenizer_comparator(tok, text="кот", english="cat", lang="ru")
    assert explorer.labels["english"] == "то же по-английски"
    assert explorer.course_row().startswith("BPE курса (словарь на 600 токенов): токенов — ")
    assert "," in explorer.course_row() and explorer.numbers["decimal"] == ","
    assert explorer.labels["tree"].startswith("Как токен «{token}»")


@pytest.mark.parametrize("name", ["text", "english"])
def test_texts_are_bounded_and_checked(tok, name):
    explorer = widgets.tokenizer_comparator(tok, lang="ru")
    with pytest.raises(ValueError, match=rf"{name}: .*1.000.* 1001"):
        setattr(explorer, name, "x" * 1001)
    setattr(explorer, name, "x" * 1000)
    with pytest.raises(ValueError, match=rf"{name} must be at most 1.000 characters long"):
        widgets.tokenizer_comparator(tok, **{name: "x" * 1001})
    with pytest.raises(TypeError, match="text must be a str, got int"):
        widgets.tokenizer_comparator(tok, **{name: 5})
    assert comparator.TokenizerComparator.class_traits()[name].bounds() == {"default": "", "longest": 1000}


def test_it_takes_only_a_course_tokenizer():
    with pytest.raises(TypeError, match=r"tokenizer must be a course_lib\.BPETokenizer, got dict"):
        widgets.tokenizer_comparator({})


def test_the_saved_state_has_no_real_vocabulary(tok):
    # the rank tables are megabytes: never in a notebook's saved widget state, only the course's merges
    state = widgets.tokenizer_comparator(tok).get_state()
    size = len(json.dumps({k: v for k, v in state.items() if k != "_esm"}))
    assert size < 30_000, size
    assert len(state["_esm"]) < 60_000
    assert "bpeRanks" not in state["_esm"] and "courseTokenizers[" in state["_esm"]
    assert state["data"]["encodings"] == ["gpt2", "cl100k_base", "o200k_base"]


def test_the_kernel_sends_an_encoding_when_asked(tok, monkeypatch):
    explorer = widgets.tokenizer_comparator(tok)
    sent = []
    monkeypatch.setattr(explorer, "send", lambda content, buffers=None: sent.append(content))
    explorer._send_encoding(explorer, {"want": "cl100k_base"}, [])
    explorer._send_encoding(explorer, {"want": "../../etc/passwd"}, [])  # not an encoding: no answer
    explorer._send_encoding(explorer, "cl100k_base", [])
    if encodings.missing():
        pytest.fail(
            f"{encodings.NODE_MODULES / encodings.PACKAGE} is missing: "
            "run `make vocabularies/node_modules/.installed-stamp` (npm ci)"
        )
    assert [m["encoding"] for m in sent] == ["cl100k_base"]
    assert sent[0]["script"].startswith("/* gpt-tokenizer 4.0.0, encoding cl100k_base")
    monkeypatch.setattr(comparator, "missing", lambda: list(encodings.ENCODINGS))
    explorer._send_encoding(explorer, {"want": "gpt2"}, [])
    assert sent[-1] == {"encoding": "gpt2", "missing": True}


def test_an_encoding_script_is_one_classic_script(tmp_path):
    script = encodings.encoding_script("gpt2")
    # no import, no export, no require of a file outside the script's own table
    assert "import " not in script.split("*/", 1)[1] and "export " not in script
    assert "MIT License" in script.split("*/", 1)[0]
    assert '"encoding/gpt2.js": function' in script and '"bpeRanks/r50k_base.js": function' in script
    assert "bpeRanks/o200k_base.js" not in script
    written = encodings.write_scripts(tmp_path / "tokenizers")
    assert sorted(p.name for p in written) == ["cl100k_base.js", "gpt2.js", "o200k_base.js"]
    with pytest.raises(ValueError, match=r"encoding must be one of .*, got 'p50k'"):
        encodings.encoding_script("p50k")
    with pytest.raises(
        FileNotFoundError,
        match="is missing: run `make vocabularies/node_modules/.installed-stamp` \\(npm ci\\)",
    ):
        encodings.encoding_script("gpt2", tmp_path)
    assert encodings.missing(tmp_path) == ["gpt2", "cl100k_base", "o200k_base"]
