"""course_lib.BPETokenizer against tiktoken, built offline from the same ranks.

tiktoken does not read a merge list: a pre-token that is itself a token it takes whole; any other
it splits into bytes and merges, lowest rank first, any two adjacent tokens whose joined bytes are a
token, ``rank = id`` (``encode_ordinary`` and ``byte_pair_encode`` in tiktoken's ``src/lib.rs``). A merge list joins only its listed pairs. On the
course's trained vocabularies the two agree id for id; a hand-made vocabulary in which one token
can be reached by two splits shows where they part.
"""

import pytest
import tiktoken

from course_lib.bpe import GPT2_PATTERN, BPETokenizer, course_corpus
from tests.unit.test_bpe import TRICKY


def as_tiktoken(tok: BPETokenizer) -> tiktoken.Encoding:
    """The same vocabulary as a ``tiktoken.Encoding``: every non-special token ranked by its id."""
    specials = set(tok.specials.values())
    ranks = {tok.token_bytes(i): i for i in range(len(tok)) if i not in specials}
    return tiktoken.Encoding(
        name=f"course-{len(tok)}",
        pat_str=GPT2_PATTERN,
        mergeable_ranks=ranks,
        special_tokens=dict(tok.specials),
    )


@pytest.fixture(scope="module")
def trained():
    texts = course_corpus("en") + course_corpus("ru")  # the held-out lesson is not in it
    return {size: BPETokenizer.train(texts, size) for size in (300, 1000, 4000)}


@pytest.mark.parametrize("size", [300, 1000, 4000])
def test_tiktoken_gives_the_same_ids_on_the_course_corpus_held_out_text_and_tricky_text(trained, size):
    tok = trained[size]
    enc = as_tiktoken(tok)
    texts = course_corpus("en", "all") + course_corpus("ru", "all") + TRICKY
    assert course_corpus("en", "heldout") and set(course_corpus("ru", "heldout")) <= set(texts)
    assert enc.encode_ordinary_batch(texts) == [tok.encode(t, disallowed_special=()) for t in texts]
    assert enc.encode_batch(texts, allowed_special="all") == [
        tok.encode(t, allowed_special="all") for t in texts
    ]
    assert enc.decode(tok.encode(" ".join(texts), disallowed_special=())) == " ".join(texts)


def test_a_token_reachable_by_two_splits_is_where_tiktoken_and_a_merge_list_differ():
    a, b, c = (1 + ord(ch) for ch in "abc")  # id 0 is <pad>, then the 256 bytes in byte order
    tokens = ["<pad>", *(bytes([i]) for i in range(256)), b"bc", b"ab", b"abc"]
    bc, ab, abc = 257, 258, 259
    tok = BPETokenizer(tokens, merges=[(b, c), (a, b), (ab, c)])  # abc is made from ab + c only
    x = 1 + ord("x")
    # the merge list: b c first (the first merge); then (a, bc) is not a listed merge, so it stops
    assert tok.encode("abc") == [a, bc]
    assert tok.encode("xabc") == [x, a, bc]
    # tiktoken: the whole pre-token "abc" is a token, so it is taken whole, no merge at all
    assert as_tiktoken(tok).encode_ordinary("abc") == [abc]
    # "xabc" is no token: b c first (rank 257 < 258 of ab), then a + bc spells "abc", a token, merged anyway
    assert as_tiktoken(tok).encode_ordinary("xabc") == [x, abc]
    # where the listed split is the one that happens they agree: "abx" has no bc
    assert tok.encode("abx") == as_tiktoken(tok).encode_ordinary("abx") == [ab, 1 + ord("x")]
