"""Lesson 6's figure and explorer of left padding: the rows each token gets, in both languages."""

import numpy as np
import pytest
import torch

import course_lib
from course_lib import plots, widgets
from course_lib.plots.positions import MESSAGES

TOKENS = ["the", "dog", "sat"]


@pytest.mark.parametrize(
    "padding, mode, expected",
    [
        (0, "default", [0, 1, 2]),
        (0, "mask", [0, 1, 2]),
        (2, "default", [0, 1, 2, 3, 4]),
        (2, "mask", [0, 0, 0, 1, 2]),
    ],
)
def test_positions_of_a_left_padded_text(padding, mode, expected):
    assert plots.left_padded_positions(3, padding, mode).tolist() == expected


def test_positions_from_the_mask_are_what_the_lesson_computes():
    mask = torch.tensor([False, False, True, True, True])
    assert torch.equal(plots.left_padded_positions(3, 2, "mask"), (mask.cumsum(0) - 1).clamp(min=0))


@pytest.mark.parametrize(
    "args, error, match",
    [
        ((0, 2, "mask"), ValueError, "length must be a positive integer, got 0"),
        ((3, -1, "mask"), ValueError, "padding must be a non-negative integer, got -1"),
        ((3, 2, "left"), ValueError, "mode must be one of"),
    ],
)
def test_bad_settings_of_the_positions_are_named(args, error, match):
    with pytest.raises(error, match=match):
        plots.left_padded_positions(*args)


def test_the_figure_shows_each_token_with_the_row_it_gets(lang):
    fig = plots.plot_left_padding(TOKENS, padding=2, d_model=8, lang=lang)
    alone, default, mask = (sub.axes[0] for sub in fig.subfigs)
    labels = [[t.get_text() for t in ax.get_yticklabels()] for ax in (alone, default, mask)]
    assert labels == [
        ["the · 0", "dog · 1", "sat · 2"],
        ["<pad> · 0", "<pad> · 1", "the · 2", "dog · 3", "sat · 4"],
        ["<pad> · 0", "<pad> · 0", "the · 0", "dog · 1", "sat · 2"],
    ]
    table = course_lib.sinusoidal_table(5, 8).numpy()
    assert np.array_equal(default.images[0].get_array(), table[[0, 1, 2, 3, 4]])
    assert np.array_equal(mask.images[0].get_array(), table[[0, 0, 0, 1, 2]])
    assert mask.get_xlabel() == MESSAGES("dimension", lang)
    assert default.get_title() == MESSAGES("default", lang, padding=2)
    assert fig._suptitle.get_text() == MESSAGES("suptitle", lang)


@pytest.mark.parametrize("tokens", ["the dog", [], ["the", 3], None])
def test_the_figure_rejects_what_is_no_list_of_tokens(tokens):
    with pytest.raises(ValueError, match="tokens must be a non-empty list of strings"):
        plots.plot_left_padding(tokens)


def test_the_explorer_follows_the_slider_and_the_toggle(lang):
    explorer = widgets.left_padding_explorer(TOKENS, padding=0, max_padding=4, lang=lang)
    assert explorer.same and explorer.padding.max == 4
    first = explorer.image.value
    explorer.padding.value = 3
    assert not explorer.same
    assert explorer.readout.value == MESSAGES("differ", lang)
    assert explorer.image.value != first
    labels = [t.get_text() for t in explorer.figure.axes[0].get_yticklabels()]
    assert labels[-3:] == ["the · 3", "dog · 4", "sat · 5"]
    explorer.positions.value = "mask"
    assert explorer.same and explorer.readout.value == MESSAGES("same", lang)
    labels = [t.get_text() for t in explorer.figure.axes[0].get_yticklabels()]
    assert labels[-3:] == ["the · 0", "dog · 1", "sat · 2"]
    # one figure size for every setting, so the image does not jump
    assert tuple(explorer.figure.get_size_inches()) == explorer.figsize


def test_the_explorer_is_labelled_in_the_lesson_language():
    explorer = widgets.left_padding_explorer(TOKENS, lang="ru")
    assert explorer.padding.description == "паддинг слева"
    assert [label for label, _ in explorer.positions.options] == ["0 .. seq-1", "из маски"]


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"tokens": "the dog"}, "tokens must be a non-empty list of strings"),
        ({"tokens": TOKENS, "padding": -1}, "padding must be a non-negative integer"),
        ({"tokens": TOKENS, "d_model": 0}, "d_model must be a positive integer"),
    ],
)
def test_the_explorer_rejects_bad_settings(kwargs, match):
    with pytest.raises(ValueError, match=match):
        widgets.left_padding_explorer(**kwargs)
