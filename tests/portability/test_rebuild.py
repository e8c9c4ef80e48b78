"""A lesson rebuilt as on another machine saves the committed notebook, byte for byte.

nbval, even as on another machine (``make nbval-portable``), compares printed outputs only; a rebuild
also rewrites the explorers' saved state and the figures. Here lesson 4 is built as
``python -m course_tools.lessons build 04`` builds it, in a kernel run under the portable pass's
``other-machine`` settings (MKL's generic path, scalar ATen kernels, one thread, every inexact
float32 result moved by up to one ulp: tests/portability/run.py), into a temporary folder, and
compared with the committed notebook. Before ``course_lib.portable`` and ``on_grid``, 461 places of its English
notebook differed: 408 attention weights and 52 token vectors of its explorer's state and the
balance figure's PNG.

Why lesson 4, in English, suffices: of every lesson rebuilt so (``python -m tests.portability.rebuild``),
what changed were explorers' data computed in float32 (lesson 3's weights, lesson 4's weights
and vectors: all through the one trait wrapper, ``course_lib.widgets.live.computed``), figures whose
points moved in their last bits (lesson 4's balance, lesson 9's dynamic scaling: all drawn through
the one ``course_lib.plots.figure.on_grid``), lesson 6's precision figure (its own fix, a unit test
of its own) and lesson 7's figures of trained models (training moves its weights by 0.2-0.4 %: not
a matter of last bits, and 15 minutes per language under the jitter). Lesson 4 exercises both
guards in about 30 s; Russian runs the same code with other texts. Run
``python -m tests.portability.rebuild 03 06 09`` for the others.

The rebuild is marked ``portable``: it runs in ``make nbval-portable``, not in ``make unit``, which
runs the test of how differences are named.
"""

import json

import pytest

from course_tools.build.course import Course

from .rebuild import compare, differences, kind, rebuild, report

LESSON = "04"
LANG = "en"
STATE = "['metadata']['widgets']['application/vnd.jupyter.widget-state+json']['state']"


def test_each_place_that_differs_is_named_with_its_kind():
    old = {
        "cells": [{"outputs": [{"data": {"image/png": "AAA", "text/plain": "x"}}]}],
        "metadata": {"widgets": {"application/vnd.jupyter.widget-state+json": {"state": {"m1": {"state": {
            "weights": [[0.25, 0.5]], "lang": "en"}}}}}},
    }  # fmt: skip
    new = json.loads(json.dumps(old))
    new["cells"][0]["outputs"][0]["data"]["image/png"] = "AAB"
    new["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]["m1"]["state"][
        "weights"
    ] = [[0.25, 0.5000001]]
    found = differences(old, new)
    assert found == [
        "['cells'][0]['outputs'][0]['data']['image/png']",
        f"{STATE}['m1']['state']['weights'][0][1]",
    ]
    assert [kind(p) for p in found] == ["image/png", "widget state: weights"]
    assert differences(old, {**old, "cells": [*old["cells"], {}]}) == ["['cells']"]  # one cell more
    assert differences(old, json.loads(json.dumps(old))) == []
    assert differences({"a": 1}, {"a": 1.0}) == ["['a']"]  # 1 and 1.0 are written differently


@pytest.mark.portable
def test_lesson_rebuilt_as_on_another_machine_is_the_committed_notebook(tmp_path):
    names = Course.load().select([LESSON])
    texts = rebuild(names, "other-machine", keep=tmp_path, langs=[LANG], say=lambda _line: None)
    found = compare(texts)
    assert not found, "\n".join(
        [
            "rebuilt as on another machine, a committed notebook changes "
            f"(the rebuilt notebooks are in {tmp_path}):",
            *report(found),
        ]
    )
