"""Lesson 6's figure and explorer of left padding: the rows each token gets, in both languages."""

import numpy as np
import pytest
import torch
import traitlets

import course_lib
from course_lib import plots, widgets
from course_lib.plots.positions import MESSAGES
from course_lib.widgets.positions import MESSAGES as MESSAGES_W

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
    assert plots.positions.left_padded_positions(3, padding, mode).tolist() == expected


def test_positions_from_the_mask_are_what_the_lesson_computes():
    mask = torch.tensor([False, False, True, True, True])
    assert torch.equal(plots.positions.left_padded_positions(3, 2, "mask"), (mask.cumsum(0) - 1).clamp(min=0))


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
        plots.positions.left_padded_positions(*args)


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


def test_the_explorer_follows_the_slider_and_the_choice(lang):
    # a live explorer: the browser draws (tests/browser/test_explorers_more.py); here the traits
    # and what Python computes for it
    explorer = widgets.left_padding_explorer(TOKENS, padding=0, max_padding=4, lang=lang)
    assert isinstance(explorer, widgets.LiveExplorer)
    assert explorer.same and explorer.max_padding == 4
    explorer.padding = 3
    assert not explorer.same
    assert explorer.get_state()["padding"] == 3
    assert explorer.position_ids.tolist() == [0, 1, 2, 3, 4, 5]
    assert explorer.readout() == MESSAGES_W(
        "readout", lang, padding=3, positions="3, 4, 5", verdict=MESSAGES("differ", lang)
    )
    table = course_lib.sinusoidal_table(6, 8, dtype=torch.float64)
    assert torch.equal(explorer.rows, table)
    explorer.positions = "mask"
    assert explorer.same and explorer.readout().endswith(MESSAGES("same", lang) + ".")
    assert explorer.position_ids.tolist() == [0, 0, 0, 0, 1, 2]
    assert torch.equal(explorer.rows, table[[0, 0, 0, 0, 1, 2]])


def test_the_explorer_is_labelled_in_the_lesson_language():
    explorer = widgets.left_padding_explorer(TOKENS, lang="ru")
    assert explorer.labels["padding"] == "паддинг слева"
    assert (explorer.labels["mode_default"], explorer.labels["mode_mask"]) == ("0 .. seq-1", "из маски")
    # the title a template the browser fills
    assert explorer.labels["mask"] == "{padding} × <pad> слева, позиции из маски"
    explorer.padding = 1
    assert (
        explorer.readout()
        == "1 × <pad>, затем текст на позициях 1, 2, 3: текст получает не те строки, что отдельно."
    )
    assert repr(explorer) == (
        "LeftPaddingExplorer(tokens=['the', 'dog', 'sat'], padding=1, positions='default', max_padding=5, d_model=8)"
    )


def test_the_explorer_slider_reaches_the_padding_asked_for():
    assert widgets.left_padding_explorer(TOKENS, padding=7, max_padding=5).max_padding == 7


@pytest.mark.parametrize(
    "trait, value, error, match",
    [
        ("padding", 6, ValueError, r"padding must be an integer from 0 to max_padding = 5, got 6"),
        ("padding", -1, ValueError, r"padding must be an integer from 0 to max_padding = 5, got -1"),
        ("padding", 1.5, traitlets.TraitError, r"padding"),
        ("positions", "cumsum", ValueError, r"positions must be one of 'default', 'mask', got 'cumsum'"),
        ("tokens", [], ValueError, r"tokens must be a non-empty list of strings, got \[\]"),
        ("d_model", 0, ValueError, r"d_model must be a positive integer, got 0"),
        ("max_padding", 1, ValueError, r"padding must be an integer from 0 to max_padding = 1, got 2"),
    ],
)
def test_the_explorer_traits_reject_what_it_cannot_show(trait, value, error, match):
    explorer = widgets.left_padding_explorer(TOKENS, padding=2)
    with pytest.raises(error, match=match):
        setattr(explorer, trait, value)
    assert (explorer.padding, explorer.positions, explorer.tokens) == (2, "default", TOKENS)


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
