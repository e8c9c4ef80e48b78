"""Lesson 2: one step of BPE training -- count the pairs inside the words, merge the most frequent one.

The student writes ``my_merge_step(words, new_id) -> (pair, new_words)``, where ``words`` maps
each word (a tuple of token ids) to its count, as :class:`course_lib.bpe.MergeLearner` keeps
them. The check runs it on small word counts built so that each usual mistake picks a pair
or a segmentation of its own.
"""

import copy
from collections import Counter
from collections.abc import Mapping

from ..bpe.train import count_pairs, merge
from ..i18n import Messages
from .checks import Feedback, describe, feedback, require_function, wrong
from .exercise import Exercise
from .runner import Run

MESSAGES = Messages(
    "merge",
    {
        "correct": (
            "You count every pair inside the words, weighted by each word's count (overlapping "
            "pairs too: `aaa` holds `a a` twice), merge the most frequent one from left to right, and "
            "break ties by the smallest pair. That is one step of BPE training; `course_lib.bpe` "
            "repeats it until the vocabulary is full."
        ),
        "not_pair": "`{name}` must return two things, `pair, new_words`; it returned {got}.",
        "pair_type": "The pair must be a tuple of two token ids, such as `(97, 98)`; yours is `{got}`.",
        "words_type": "`new_words` must be a dict `{{tuple of ids: count}}`, like `words`; yours is {got}.",
        "across_words": (
            "You merged {got} (`{got_text}`), but no word contains it: it joins the end of one word "
            "and the start of the next. BPE counts pairs inside each word only, so a token never "
            "crosses a word boundary: count `zip(word, word[1:])` word by word."
        ),
        "last_pair_not_counted": (
            "You merged {got} (`{got_text}`), but {expected} (`{expected_text}`) occurs more often, "
            "{expected_count} times against {got_count}: your count misses the last pair of every word. "
            "A word of length n has n − 1 pairs: `range(len(word) - 1)`, not `range(len(word) - 2)`."
        ),
        "frequency_ignored": (
            "You merged {got} (`{got_text}`), but {expected} (`{expected_text}`) occurs more often, "
            "{expected_count} times against {got_count}: each word counts as often as it occurs in the "
            "corpus. Add the word's count, `words[word]`, for each of its pairs, not 1."
        ),
        "overlap_count": (
            "You merged {got} (`{got_text}`), but {expected} (`{expected_text}`) occurs more often, "
            "{expected_count} times against {got_count}: a pair counts every time it occurs in a word, "
            "overlapping or not (`aaaa` holds `a a` three times). `set(zip(word, word[1:]))` counts it "
            "once per word."
        ),
        "wrong_pair": (
            "You merged {got} (`{got_text}`), which occurs {got_count} times, but the most frequent "
            "pair is {expected} (`{expected_text}`), {expected_count} times. Print your counts to compare."
        ),
        "tie_break": (
            "The pairs {expected} and {got} both occur {count} times, and you took {got}. Break ties "
            "by the smallest pair, as `course_lib` and `tokenizers` do: then training gives the same "
            "vocabulary whatever the order of the words."
        ),
        "merged_twice": (
            "In the word {word}, merging {pair} should give {expected}, but yours gives {got}: a "
            "symbol went into two merges (so `a a a` becomes `aa aa a`). After merging positions i and "
            "i + 1, go on at i + 2; in a `for` loop `i += 1` changes nothing, so use `while`."
        ),
        "right_to_left": (
            "In the word {word} the pair {pair} overlaps itself: merged from the left it gives "
            "{expected}, yours gives {got}. BPE merges from left to right, as `tokenizers` does, so a "
            "word always splits the same way."
        ),
        "last_symbol_lost": (
            "In the word {word}, merging {pair} should give {expected}, but yours gives {got}: the "
            "last symbol is lost when it is not part of a merge. Loop `while i < len(word)` and keep a "
            "symbol that has no right neighbour."
        ),
        "first_only": (
            "In the word {word}, merging {pair} should give {expected}, but yours gives {got}: only "
            "the first occurrence was merged. Merge every occurrence of the pair in every word."
        ),
        "words_missing": (
            "`new_words` lacks the word {word} (count {count}): keep every word, also those without "
            "the pair, as they are."
        ),
        "old_kept": (
            "`new_words` keeps the old spelling {word} beside its merged form {expected}: a merge "
            "replaces the word, it does not add a copy. Put only the merged form into `new_words`."
        ),
        "extra_word": (
            "`new_words` has the word {got}, which comes from no word of `words`: each word of "
            "`new_words` is a word of `words`, merged or as it was."
        ),
        "counts_lost": (
            "The word {word} occurs {expected} times in `words`, but its merged form has count {got} "
            "in `new_words`: keep each word's count."
        ),
        "word_mismatch": (
            "Merging {pair} in the word {word} should give {expected}; your `new_words` has {got} instead."
        ),
        "modifies_input": (
            "The result is right, but `{name}` changed the dict `words` it was given: the caller's "
            "counts are gone. Build `new_words` as a new dict and leave `words` alone."
        ),
        "hint1": (
            "Two parts. Count: for each `word, count` in `words.items()`, every pair in "
            "`zip(word, word[1:])` gets `+ count` in a `Counter`, `counts`. Then the pair to merge is the most "
            "frequent one; among equals, the smallest: `min(counts, key=lambda p: (-counts[p], p))`."
        ),
        "hint2": (
            "Merge: walk through each word with an index, `i = 0` and `while i < len(word)`. If "
            "`word[i : i + 2] == pair`, append `new_id` and jump by 2; otherwise append `word[i]` and "
            "step by 1."
        ),
        "hint3": (
            "The jump by 2 is what makes `a a a` become `aa a` and not `aa aa a`. The new word is "
            "`tuple(out)` and keeps the old word's count: `new_words[tuple(out)] = count`, for every "
            "word, also those without the pair."
        ),
        "solution": (
            "Count the pairs inside each word, weighted by its count; take the most frequent "
            "(the smallest among equals); rebuild every word left to right, jumping over a merged pair."
        ),
    },
)


NEW_ID = 256


def _words(**counts: int) -> dict[tuple[int, ...], int]:
    return {tuple(map(ord, word)): n for word, n in counts.items()}


# Built by a search over small word counts, so that the usual mistakes pick different pairs:
# b c (right) / a pair across two words (whether the words are repeated by count or not) here ...
ACROSS = _words(acc=2, bcc=3, bbc=3, baa=2)
# ... b b (right) / a b (last pair not counted) / a a (counts ignored) / b c (once per word) here ...
COUNTING = _words(bcbbb=4, ababc=3, aaaa=1)
# ... and a a, whose merge shows each way of getting the segmentation wrong, here
MERGING = _words(aaa=3, aaaa=2, bab=1, ab=2)
TIE = _words(ba=2, ac=2)  # b a and a c both twice: the smallest, a c


def _pick(counts: Counter) -> tuple[int, int]:
    return min(counts, key=lambda p: (-counts[p], p))


def counting_mistakes(words) -> dict[str, tuple[int, int]]:
    """The pair each usual counting mistake merges."""
    last_dropped, unweighted, once = Counter(), Counter(), Counter()
    for word, n in words.items():
        for i in range(len(word) - 2):
            last_dropped[word[i], word[i + 1]] += n
        for pair in zip(word, word[1:], strict=False):
            unweighted[pair] += 1
        for pair in set(zip(word, word[1:], strict=False)):
            once[pair] += n
    found = {
        "merge.last_pair_not_counted": last_dropped,
        "merge.frequency_ignored": unweighted,
        "merge.overlap_count": once,
    }
    return {key: _pick(counts) for key, counts in found.items() if counts}


def merging_mistakes(word, pair, new_id) -> dict[str, tuple[int, ...]]:
    """What each usual merging mistake makes of ``word``."""
    at = [i for i in range(len(word) - 1) if word[i : i + 2] == pair]
    no_skip = [new_id if i in at else word[i] for i in range(len(word))]
    lost, i = [], 0
    while i < len(word) - 1:
        lost.append(new_id if word[i : i + 2] == pair else word[i])
        i += 2 if word[i : i + 2] == pair else 1
    return {
        "merge.merged_twice": tuple(no_skip),
        "merge.right_to_left": merge(word[::-1], pair[::-1], new_id)[::-1],
        "merge.last_symbol_lost": tuple(lost),
        "merge.first_only": word[: at[0]] + (new_id,) + word[at[0] + 2 :] if at else word,
    }


def _letters(ids, pair=None) -> str:
    """Ids as the letters they stand for, one token after another: (256, 97) is 'aa a' after a + a."""
    merged = "".join(map(chr, pair)) if pair else "?"
    return " ".join(
        merged if i == NEW_ID else chr(i) if isinstance(i, int) and 32 < i < 127 else "?" for i in ids
    )


def _show(word, pair=None) -> str:
    """A word as its letters and its ids: `aa a` (256, 97)."""
    return f"`{_letters(word, pair)}` {tuple(word)}"


def _step(student, run: Run, words) -> tuple[tuple[int, int], dict, bool]:
    """The student's ``(pair, new_words)`` for ``words``, checked for shape, and whether ``words`` changed."""
    name = getattr(student, "__name__", "my_merge_step")
    given = copy.deepcopy(words)
    result = run.call(name, student, given, NEW_ID, name=name)
    if not isinstance(result, tuple | list) or len(result) != 2:
        raise wrong("merge.not_pair", name=name, got=describe(result))
    pair, new_words = result
    if not isinstance(pair, tuple | list) or len(pair) != 2 or not all(isinstance(i, int) for i in pair):
        raise wrong("merge.pair_type", got=repr(pair)[:60])
    if not isinstance(new_words, Mapping):
        raise wrong("merge.words_type", got=describe(new_words))
    return tuple(pair), dict(new_words), given != words


def _check_pair(pair, words) -> None:
    counts = count_pairs(words)
    right = _pick(counts)
    if pair == right:
        return
    values = dict(got=pair, got_text=_letters(pair), expected=right, expected_text=_letters(right))
    values.update(got_count=counts.get(pair, 0), expected_count=counts[right])
    if pair not in counts:
        raise wrong("merge.across_words", got=pair, got_text=values["got_text"])
    for key, mistake in counting_mistakes(words).items():
        if pair == mistake:
            raise wrong(key, **values)
    if counts[pair] == counts[right]:
        raise wrong("merge.tie_break", expected=right, got=pair, count=counts[pair])
    raise wrong("merge.wrong_pair", **values)


def _check_words(new_words, words, pair) -> None:
    expected = {merge(word, pair, NEW_ID): n for word, n in words.items()}
    if new_words == expected:
        return
    for word, n in words.items():
        merged = merge(word, pair, NEW_ID)
        if new_words.get(merged) == n:
            continue
        values = dict(word=_show(word), pair=pair, expected=_show(merged, pair))
        for key, mistake in merging_mistakes(word, pair, NEW_ID).items():
            if mistake != merged and mistake in new_words:
                raise wrong(key, **values, got=_show(mistake, pair))
        if merged in new_words:
            raise wrong("merge.counts_lost", word=_show(word), expected=n, got=new_words[merged])
        extra = sorted(new_words.keys() - expected.keys(), key=repr)
        if not extra:
            raise wrong("merge.words_missing", word=_show(word), count=n)
        got = word if word in new_words else extra[0]  # unmerged, or the first form we do not expect
        raise wrong("merge.word_mismatch", **values, got=_shown(got, pair))
    # every word is there, merged, with its count: what else is there?
    for word in sorted(new_words.keys() - expected.keys(), key=repr):
        if word in words:
            merged = merge(word, pair, NEW_ID)
            raise wrong("merge.old_kept", word=_show(word), expected=_show(merged, pair))
        raise wrong("merge.extra_word", got=_shown(word, pair))


def _shown(word, pair) -> str:
    """A key of the student's ``new_words`` as the messages show it, whatever it is."""
    if isinstance(word, tuple) and all(isinstance(i, int) for i in word):
        return _show(word, pair)
    return f"`{repr(word)[:60]}`"


def diagnose(student, run: Run) -> Feedback:
    require_function(student)
    changed = False
    for words in (ACROSS, COUNTING, MERGING, TIE):
        pair, new_words, touched = _step(student, run, words)
        _check_pair(pair, words)
        _check_words(new_words, words, pair)
        changed |= touched
    if changed:
        raise wrong("merge.modifies_input", name=getattr(student, "__name__", "my_merge_step"))
    return feedback("correct", "merge.correct")


EXERCISE = Exercise("bpe_merge", 2, diagnose, MESSAGES)
# what a lesson calls: exercises.<name>.check(...), .hint(n), .solution(), and the build's .template
check, hint, solution = EXERCISE.check, EXERCISE.hint, EXERCISE.solution
__getattr__ = EXERCISE.module_attribute  # .template, in the current language
