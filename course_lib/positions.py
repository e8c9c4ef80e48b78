"""The two other choices of the input layer's positions: a learned table, and none at all.

- :class:`LearnedPositionalEmbedding`: a trained vector per position, as in BERT (Devlin et
  al., 2019) and GPT-2 (Radford et al., 2019). Vaswani et al. (2017, section 3.5 and table 3,
  row E) tried it and found "nearly identical results" to the sinusoids, which they kept
  because they "may allow the model to extrapolate to sequence lengths longer than the
  ones encountered during training": a learned table has no row beyond ``max_len``.
- :class:`NoPositionalEncoding`: nothing added. Without positions self-attention is
  permutation-equivariant (lesson 4), so an encoder sees a bag of words; a decoder with a
  causal mask can still infer positions (NoPE: Kazemnejad et al., 2023, "The Impact of
  Positional Encoding on Length Generalization in Transformers", https://arxiv.org/abs/2305.19466).

Both take the input and the ``positions=`` argument of
:class:`~course_lib.embedding.PositionalEncoding` and check them the same way, so
``TransformerEmbedding(positional=...)`` changes what is added, never which inputs are
accepted.
"""

import math

import torch
from torch import nn

from . import validate

__all__ = ["LEARNED_INIT_STD", "LearnedPositionalEmbedding", "NoPositionalEncoding"]

#: Standard deviation of the learned table at initialisation: 1/√2, the RMS of the sinusoidal
#: table (see :class:`LearnedPositionalEmbedding` for why).
LEARNED_INIT_STD = 1 / math.sqrt(2)


class LearnedPositionalEmbedding(validate.CheckedModule):
    r"""Adds a trained vector per position to a batch of vectors, then applies dropout.

    ``weight`` has one row per position, like the sinusoidal table, but it is a parameter:
    trained, saved in ``state_dict`` and moved by ``.to()``. A position has a row only if
    it is below ``max_len``: a longer sequence is an error, not a silent wrap-around.

    **Initialisation**: :math:`\mathcal{N}(0, 1/2)`, so the table starts with RMS
    :math:`1/\sqrt{2}`, the RMS of the sinusoidal table it replaces, next to the course's
    token vectors of RMS 1 (:math:`\mathcal{N}(0, 1/d_{model})` times :math:`\sqrt{d_{model}}`).
    Switching ``TransformerEmbedding(positional=...)`` from "sinusoidal" to "learned" then
    keeps the size of the model's input, and neither part drowns the other. The usual
    recipes are sized for other token vectors:

    - BERT, and GPT-2 as Hugging Face and nanoGPT build it, draw tokens and positions
      from one :math:`\mathcal{N}(0, 0.02^2)` (``initializer_range=0.02``) and do not scale
      the tokens: both parts start the same size (OpenAI's GPT-2 code: 0.01 for the
      positions, half the tokens'). Next to the course's scaled tokens, 0.02 would start
      the positions 50 times smaller than the tokens.
    - fairseq's learned positions use :math:`\mathcal{N}(0, 1/d_{model})`, beside its own
      tokens of RMS 1 (the same init times :math:`\sqrt{d_{model}}`), so they start
      :math:`\sqrt{d_{model}}` times smaller (23 times at 512) and must grow in training.
    - ``nn.Embedding``'s default :math:`\mathcal{N}(0, 1)` gives RMS 1, the tokens' size:
      a sound start too, :math:`\sqrt{2}` times the sinusoids.

    Args:
        max_len: number of rows: every position must be below it.
        d_model: width of the vectors.
        dropout: dropout probability applied to the sum.

    Shape:
        - Input: ``x`` ``(batch, seq, d_model)`` with ``seq <= max_len``; ``positions``
          (optional) integers ``(seq,)`` or ``(batch, seq)``, each in ``[0, max_len)``.
        - Output: ``(batch, seq, d_model)``, in ``x``'s dtype and device.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> lpe = LearnedPositionalEmbedding(max_len=100, d_model=8)
        >>> lpe
        LearnedPositionalEmbedding(
          max_len=100, d_model=8, dropout=0.0
          (dropout): Dropout(p=0.0, inplace=False)
        )
        >>> torch.equal(lpe(torch.zeros(2, 3, 8))[1], lpe.weight[:3])  # zeros in: rows 0, 1, 2 out
        True
        >>> list(lpe.state_dict())  # trained, so saved
        ['weight']
        >>> round(lpe.weight.pow(2).mean().sqrt().item(), 1)  # RMS 1/√2, as the sinusoidal table
        0.7
    """

    def __init__(self, max_len: int, d_model: int, dropout: float = 0.0):
        super().__init__()
        self.max_len = validate.positive_int("max_len", max_len)
        self.d_model = validate.positive_int("d_model", d_model)
        itemsize = torch.get_default_dtype().itemsize  # the table itself is all it takes
        validate.table_size(self.max_len, self.d_model, self.max_len * self.d_model * itemsize)
        self.dropout = nn.Dropout(validate.probability(dropout))
        self.weight = nn.Parameter(torch.empty(self.max_len, self.d_model))  # (max_len, d_model)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        nn.init.normal_(self.weight, mean=0.0, std=LEARNED_INIT_STD)

    def positions_for(self, x: torch.Tensor, positions: torch.Tensor | None = None) -> torch.Tensor:
        """The table's rows for ``x``, in ``x``'s dtype, after checking both (as :class:`PositionalEncoding`)."""
        validate.vectors(x, self.d_model, self.max_len)
        if positions is None:
            rows = self.weight[: x.shape[1]]  # (seq, d_model)
        else:
            positions = validate.positions(positions, tuple(x.shape), self.max_len, device=self.weight.device)
            rows = self.weight[positions.to(self.weight.device)]  # (seq, d_model) or (batch, seq, d_model)
        return rows.to(dtype=x.dtype, device=x.device)

    def forward(self, x: torch.Tensor, positions: torch.Tensor | None = None) -> torch.Tensor:
        return self.dropout(x + self.positions_for(x, positions))  # (batch, seq, d_model)

    def add_to_(self, x: torch.Tensor, positions: torch.Tensor | None = None) -> torch.Tensor:
        """:meth:`forward` with the rows added to ``x`` in place: for a fresh ``x`` that no one else holds."""
        x += self.positions_for(x, positions)
        return self.dropout(x)

    def extra_repr(self) -> str:
        return f"max_len={self.max_len}, d_model={self.d_model}, dropout={self.dropout.p}"


class NoPositionalEncoding(validate.CheckedModule):
    """No positions: checks the input as the other positional modules do, then applies dropout.

    ``TransformerEmbedding(positional="none")`` uses it so that its forward stays one code
    path and a model without positions still rejects what the others reject: a sequence
    longer than ``max_len``, or ``positions`` of the wrong shape or range (they are
    checked, then unused).

    Args:
        d_model: width of the vectors.
        max_len: the longest sequence accepted, as for the other positional modules.
        dropout: dropout probability.

    Shape:
        - Input: ``x`` ``(batch, seq, d_model)``; ``positions`` (optional) as for
          :class:`~course_lib.embedding.PositionalEncoding`.
        - Output: ``(batch, seq, d_model)``: ``x`` itself after dropout.

    Example::

        >>> nope = NoPositionalEncoding(d_model=8, max_len=16)
        >>> x = torch.randn(2, 3, 8)
        >>> nope(x) is x  # eval or p = 0: the input itself
        True
        >>> nope(torch.zeros(1, 20, 8))
        Traceback (most recent call last):
        ...
        ValueError: sequence length 20 exceeds max_len=16: build the module with a larger max_len
    """

    def __init__(self, d_model: int, max_len: int = 5000, dropout: float = 0.0):
        super().__init__()
        self.d_model = validate.positive_int("d_model", d_model)
        self.max_len = validate.positive_int("max_len", max_len)
        self.dropout = nn.Dropout(validate.probability(dropout))

    def forward(self, x: torch.Tensor, positions: torch.Tensor | None = None) -> torch.Tensor:
        validate.vectors(x, self.d_model, self.max_len)
        if positions is not None:
            validate.positions(positions, tuple(x.shape), self.max_len, device=x.device)
        return self.dropout(x)

    # nothing is added, so the in-place form is the forward itself
    add_to_ = forward

    def extra_repr(self) -> str:
        return f"d_model={self.d_model}, max_len={self.max_len}, dropout={self.dropout.p}"
