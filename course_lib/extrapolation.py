"""Train short, test long: which positions let a tiny Transformer work beyond its training length (lesson 7).

A two-layer attention model learns a task on sequences of ``min_len .. train_len`` tokens
(``L``) and is then tested on sequences up to ``test_len`` (``4 L``). Its initial weights and
its training batches are the same whatever its positions; only the positions change
(:data:`VARIANTS`), each made by the course's own module:

- ``"sinusoidal"``: :class:`~course_lib.PositionalEncoding`, the fixed table of Vaswani et
  al. (2017, section 3.5), added to the tokens;
- ``"learned"``: :class:`~course_lib.LearnedPositionalEmbedding`, a trained row per position
  (BERT, GPT-2); rows ``L .. 4L-1`` exist, but no training step ever reaches them;
- ``"none"``: :class:`~course_lib.NoPositionalEncoding`, nothing added (NoPE: Haviv et
  al., 2022; Kazemnejad et al., 2023);
- ``"rotary"``: :class:`~course_lib.RotaryEmbedding`, queries and keys turned by their
  positions inside attention (RoPE, Su et al., 2021);
- ``"alibi"``: :func:`~course_lib.alibi_bias`, a penalty ``-s_h |m - n|`` added to each
  head's scores, growing linearly with the distance (ALiBi, Press et al., 2022).

The tasks (``y`` is the target at each position, :data:`IGNORE` where there is none):

- ``"shift"``: ``y[i] = x[i - k]``, "say the token k places back", a rule in *relative*
  positions (with ``k = 1``, the "previous-token head" of induction circuits);
- ``"lookup"``: ``y[i] = x[k]`` for ``i > k``, "say the token at position k", a rule in
  *absolute* positions.

A plain copy, ``y[i] = x[i]``, would not do: every position can copy its own token
without knowing where it is.

    >>> cfg = Config(steps=2)
    >>> x, y = make_batch(cfg, 6, 2, torch.Generator().manual_seed(0))
    >>> x.shape, bool((y[:, 1:] == x[:, :-1]).all()), y[0, 0].item()
    (torch.Size([2, 6]), True, -100)
"""

import contextlib
import dataclasses
import math
import time

import torch
import torch.nn.functional as F
from torch import nn

from . import code_comments, validate
from .embedding import PositionalEncoding, TokenEmbedding
from .messages import EXTRAPOLATION as MESSAGES
from .positions import LearnedPositionalEmbedding, NoPositionalEncoding
from .rotary import RotaryEmbedding, alibi_bias

__all__ = [
    "MESSAGES",
    "VARIANTS",
    "TASKS",
    "IGNORE",
    "Config",
    "make_batch",
    "SelfAttention",
    "Block",
    "TinyTransformer",
    "Result",
    "train",
    "fit",
    "evaluate",
    "run",
    "attention_by_distance",
]


VARIANTS = ("sinusoidal", "learned", "none", "rotary", "alibi")
TASKS = ("shift", "lookup")
IGNORE = -100  # F.cross_entropy's ignore_index: positions without a target


@dataclasses.dataclass(frozen=True)
class Config:
    """The experiment, with lesson 7's settings but for the dtype (lesson 7 passes ``dtype=torch.float64``:
    about 4.5 s of one CPU core per variant, against about 3 s in float32)."""

    task: str = "shift"  # "shift" (a relative rule) or "lookup" (an absolute rule)
    k: int = 1  # shift: y[i] = x[i-k]; lookup: y[i] = x[k]
    vocab_size: int = 16  # chance accuracy 1/16
    d_model: int = 32
    n_heads: int = 2  # head_dim 16: eight rotary frequencies
    n_layers: int = 2  # with one, "none" stays near 1/3 on the shift task; the others need only one
    causal: bool = True  # True: a decoder (sees only the past); False: an encoder (sees both sides)
    min_len: int = 4  # training lengths are drawn uniformly from min_len .. train_len
    train_len: int = 16  # L, the longest training sequence
    test_len: int = 64  # 4 L: the longest test sequence, and the number of rows of every table
    steps: int = 400  # sinusoidal, learned and rotary reach a loss < 0.01 on the shift task
    batch_size: int = 64
    lr: float = 3e-3  # Adam
    # of the weights and the training: float32 rounds a few last bits otherwise on another CPU (vector
    # width, libm, BLAS), and 400 steps grow them into other weights (for seed 0 under tests/portability's
    # other-cpu settings, a tensor's largest difference up to 9 % of its largest weight, enough to change
    # accuracies); float64's stayed within 3e-10 of it, so lesson 7, which trains in float64, saves the
    # same figures on any CPU
    dtype: torch.dtype = torch.float32

    def __post_init__(self):
        validate.choice("task", self.task, TASKS)
        validate.flag("causal", self.causal)
        for name in ("vocab_size", "d_model", "n_heads", "n_layers", "min_len", "train_len", "test_len"):
            validate.positive_int(name, getattr(self, name))
        validate.positive_int("steps", self.steps)
        validate.positive_int("batch_size", self.batch_size)
        validate.non_negative_int("k", self.k)
        if self.d_model % self.n_heads or (self.d_model // self.n_heads) % 2:
            raise ValueError(MESSAGES("head_dim", d_model=self.d_model, n_heads=self.n_heads))
        if not self.k < self.min_len <= self.train_len <= self.test_len:
            raise ValueError(
                MESSAGES(
                    "lengths", **{n: getattr(self, n) for n in ("k", "min_len", "train_len", "test_len")}
                )
            )
        if self.task == "lookup" and self.k + 1 >= self.min_len:
            raise ValueError(MESSAGES("lookup_k", k=self.k, min_len=self.min_len))
        if isinstance(self.lr, bool) or not isinstance(self.lr, int | float) or not 0 < self.lr < math.inf:
            raise ValueError(MESSAGES("lr", value=self.lr))
        if self.dtype not in (torch.float32, torch.float64):
            raise TypeError(MESSAGES("dtype", value=self.dtype))

    @property
    def head_dim(self) -> int:
        return self.d_model // self.n_heads


def make_batch(cfg: Config, seq_len: int, batch_size: int, generator: torch.Generator):
    """Random token sequences ``x`` and their targets ``y``, both ``(batch_size, seq_len)``."""
    x = torch.randint(cfg.vocab_size, (batch_size, seq_len), generator=generator)  # (b, n)
    y = torch.full_like(x, IGNORE)  # (b, n)
    if cfg.task == "shift":
        y[:, cfg.k :] = x[:, : seq_len - cfg.k]  # y[i] = x[i-k]; the first k have no target
    else:
        y[:, cfg.k + 1 :] = x[:, cfg.k : cfg.k + 1]  # y[i] = x[k] after position k
    return x, y


# ----------------------------------------------------------------------------- the model


@contextlib.contextmanager
def _default_dtype(dtype: torch.dtype):
    """``dtype`` as torch's default while the block runs: the dtype every module below draws its weights in."""
    before = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        yield
    finally:
        torch.set_default_dtype(before)


class SelfAttention(nn.Module):
    """Multi-head self-attention; with ``rotary``, queries and keys are turned by their positions;
    with ``alibi``, each head's scores get ALiBi's linear penalty for distance."""

    def __init__(self, cfg: Config, rotary: RotaryEmbedding | None = None, alibi: bool = False):
        super().__init__()
        self.n_heads, self.causal, self.rotary = cfg.n_heads, cfg.causal, rotary
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model)
        self.proj = nn.Linear(cfg.d_model, cfg.d_model)
        # derived, so never in a checkpoint: -s_h |m - n| for every pair of the longest test sequence,
        # (heads, test_len, test_len)
        bias = alibi_bias(cfg.n_heads, cfg.test_len, cfg.dtype) if alibi else None
        self.register_buffer("alibi", bias, persistent=False)

    def project(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Queries, keys and values ``(b, heads, n, head_dim)`` each; with ``rotary``, q and k turned."""
        b, n, d = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.n_heads, d // self.n_heads).permute(2, 0, 3, 1, 4)
        # q, k, v: (b, heads, n, head_dim)
        if self.rotary is not None:
            q, k = self.rotary(q, k)
        return q, k, v

    def scores(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The attention scores ``(b, heads, n, n)``, before the mask, and the values ``(b, heads, n, head_dim)``.

        With ALiBi the scores include its bias: it is what the softmax compares.
        """
        q, k, v = self.project(x)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (b, heads, n, n)
        if self.alibi is not None:
            n = x.shape[1]
            scores = scores + self.alibi[:, :n, :n]  # (heads, n, n) broadcast over the batch
        return scores, v

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # x: (batch, seq, d_model)
        batch, seq, d = x.shape
        scores, v = self.scores(x)  # (batch, heads, seq, seq)
        if self.causal:  # the query at position m sees the keys 0 .. m only
            future = torch.ones(seq, seq, dtype=torch.bool, device=x.device).triu(1)  # (seq, seq)
            scores = scores.masked_fill(future, float("-inf"))
        out = scores.softmax(dim=-1) @ v  # (batch, heads, seq, head_dim)
        return self.proj(out.transpose(1, 2).reshape(batch, seq, d))  # (batch, seq, d_model)


class Block(nn.Module):
    """A pre-norm Transformer block: ``x + attention(LN(x))``, then ``x + MLP(LN(x))``."""

    def __init__(self, cfg: Config, rotary: RotaryEmbedding | None = None, alibi: bool = False):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(cfg.d_model), nn.LayerNorm(cfg.d_model)
        self.attn = SelfAttention(cfg, rotary, alibi)
        self.mlp = nn.Sequential(
            nn.Linear(cfg.d_model, 4 * cfg.d_model), nn.GELU(), nn.Linear(4 * cfg.d_model, cfg.d_model)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # x: (b, n, d_model)
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TinyTransformer(nn.Module):
    """Token ids ``(b, n)`` to logits ``(b, n, vocab_size)``: the course's input layer, blocks, a linear head.

    ``positions`` is one of :data:`VARIANTS`. The positional module is built last, so that a
    learned table's random rows do not change the initial weights of everything else. Every
    weight is drawn in ``cfg.dtype`` (a float32 draw cast to float64 would keep float32's last bit,
    which another CPU may round otherwise).
    """

    def __init__(self, cfg: Config, positions: str):
        super().__init__()
        self.positions = validate.choice("positions", positions, VARIANTS)
        with _default_dtype(cfg.dtype):
            self.tok = TokenEmbedding(cfg.vocab_size, cfg.d_model)  # N(0, 1/d_model) · √d_model: RMS 1
            rotary = RotaryEmbedding(cfg.head_dim, cfg.test_len) if positions == "rotary" else None
            alibi = positions == "alibi"
            self.blocks = nn.ModuleList(Block(cfg, rotary, alibi) for _ in range(cfg.n_layers))
            self.ln = nn.LayerNorm(cfg.d_model)
            self.head = nn.Linear(cfg.d_model, cfg.vocab_size)
            self.pos = {
                "sinusoidal": lambda: PositionalEncoding(cfg.d_model, cfg.test_len),
                "learned": lambda: LearnedPositionalEmbedding(cfg.test_len, cfg.d_model),
                "none": lambda: NoPositionalEncoding(cfg.d_model, cfg.test_len),
                "rotary": lambda: NoPositionalEncoding(cfg.d_model, cfg.test_len),  # it acts inside attention
                "alibi": lambda: NoPositionalEncoding(cfg.d_model, cfg.test_len),  # so does ALiBi
            }[positions]()

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # x: (batch, seq) token ids
        h = self.pos(self.tok(x))  # (batch, seq, d_model)
        for block in self.blocks:
            h = block(h)  # (batch, seq, d_model)
        return self.head(self.ln(h))  # (batch, seq, vocab_size)


# lesson 7 prints these two methods (their comments in its language: the catalogues translate them)
code_comments.show(TinyTransformer.forward, SelfAttention.forward)


# ----------------------------------------------------------------------------- training and testing


@dataclasses.dataclass
class Result:
    """One trained variant and what it got right on the test sequences.

    ``hits`` is ``(n_seqs, test_len)``: 1 where the prediction was right, 0 where wrong, NaN
    where the position has no target. ``by_length`` maps a test length to the accuracy on
    sequences of that length (prefixes of the same test sequences).
    """

    variant: str
    model: TinyTransformer
    loss: float  # on the last training batch
    seconds: float  # of CPU time, training only
    by_length: dict[int, float]
    hits: torch.Tensor

    @property
    def by_position(self) -> torch.Tensor:
        """Accuracy at each position of the longest test sequences ``(test_len,)``, NaN without a target."""
        return self.hits.nanmean(dim=0)

    def beyond(self, train_len: int) -> float:
        """Accuracy on the positions ``train_len ..``, which training never showed."""
        return self.hits[:, train_len:].nanmean().item()


def train(cfg: Config, positions: str, seed: int = 0) -> tuple[TinyTransformer, float, float]:
    """Adam on fresh random batches, each of one length drawn from ``min_len .. train_len``.

    Returns the model in eval mode, the loss of the last batch and the CPU seconds taken.
    """
    torch.manual_seed(seed)
    model = TinyTransformer(cfg, positions)
    data = torch.Generator().manual_seed(seed)  # the same batches for every variant
    start = time.process_time()
    loss = fit(model, cfg, data)
    return model, loss, time.process_time() - start


def fit(model: TinyTransformer, cfg: Config, data: torch.Generator) -> float:
    """``cfg.steps`` steps of Adam (``cfg.lr``) on batches drawn with ``data``; the last batch's loss.

    Each batch has ``cfg.batch_size`` sequences of one length drawn from ``cfg.min_len ..
    cfg.train_len``. Trains ``model`` in place and leaves it in eval mode.
    """
    # plain Adam: a row whose gradient is always zero stays exactly as initialised (AdamW would shrink it)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    model.train()
    for _ in range(cfg.steps):
        seq_len = int(torch.randint(cfg.min_len, cfg.train_len + 1, (), generator=data))
        x, y = make_batch(cfg, seq_len, cfg.batch_size, data)  # (b, n) each
        loss = F.cross_entropy(model(x).flatten(0, 1), y.flatten(), ignore_index=IGNORE)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    return loss.item()


@torch.no_grad()
def evaluate(model: TinyTransformer, cfg: Config, lengths, n_seqs: int = 256, seed: int = 1234):
    """``(by_length, hits)`` of ``model`` on ``n_seqs`` random sequences of ``test_len`` tokens.

    ``by_length[n]`` is the accuracy on their first ``n`` tokens, run as sequences of
    length ``n``; ``hits`` as in :class:`Result`, from the whole sequences.
    """
    x, y = make_batch(cfg, cfg.test_len, n_seqs, torch.Generator().manual_seed(seed))  # (n_seqs, test_len)
    for n in lengths:
        if not validate.is_integer(n) or not 2 <= n <= cfg.test_len:
            raise ValueError(MESSAGES("test_length", test_len=cfg.test_len, value=n))
    full = model(x).argmax(-1) == y  # (n_seqs, test_len); False where y is IGNORE
    by_length = {}
    for n in sorted(lengths):
        right = full if n == cfg.test_len else model(x[:, :n]).argmax(-1) == y[:, :n]  # (n_seqs, n)
        by_length[int(n)] = (right.sum() / (y[:, :n] != IGNORE).sum()).item()
    right = full.float()  # (n_seqs, test_len)
    hits = right.masked_fill(y == IGNORE, math.nan)
    return by_length, hits


def run(cfg: Config = Config(), seed: int = 0, variants=VARIANTS, lengths=None) -> dict[str, Result]:
    """Trains and tests each variant; returns ``{variant: Result}``.

    ``lengths`` default to ``L/2, L, 2L, 3L, 4L`` with ``L = train_len`` and ``4L = test_len``.
    Runs on one thread, then restores the caller's count. The tensors hold a few thousand
    numbers: on the two-core development machine 150 training steps took 0.79 s on one
    thread and 0.71 s on two, for twice the CPU time, so a second thread buys nothing but
    competition with whatever else runs; and the thread count changes the order of sums,
    so one thread also gives the same numbers on machines with any number of cores.
    """
    for variant in variants:
        validate.choice("positions", variant, VARIANTS)
    L = cfg.train_len
    lengths = lengths or sorted({max(2, L // 2), L, *range(2 * L, cfg.test_len, L), cfg.test_len})
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        results = {}
        for variant in variants:
            model, loss, seconds = train(cfg, variant, seed)
            by_length, hits = evaluate(model, cfg, lengths)
            results[variant] = Result(variant, model, loss, seconds, by_length, hits)
    finally:
        torch.set_num_threads(threads)
    return results


@torch.no_grad()
def attention_by_distance(
    model: TinyTransformer,
    cfg: Config,
    n_seqs: int = 256,
    seed: int = 99,
    by_pair: bool = False,
    weights: bool = False,
) -> torch.Tensor:
    """The score of the last query of ``test_len``-token sequences for the key ``d`` places back, averaged.

    What each head has learned to expect at each distance, whatever the tokens. Returns
    ``(n_layers, n_heads, test_len)``: entry ``[l, h, d]`` for distance ``d``.

    With ``by_pair``, each score is split into the terms of the coordinate pairs that RoPE
    turns together (columns ``2i, 2i + 1``; ``i, i + head_dim/2`` for a non-interleaved
    :class:`~course_lib.RotaryEmbedding`): ``(n_layers, n_heads, test_len, head_dim // 2)``,
    whose sum over the last axis is the score.

    With ``weights``, the attention weights instead of the scores: the softmax of each
    sequence's scores over its keys (all of them: the last query sees every key), averaged;
    entry ``[l, h, d]`` is the share of attention the key ``d`` back gets, summing to 1 over ``d``.
    """
    if by_pair and weights:
        raise ValueError(MESSAGES("pairs_or_weights"))
    x, _ = make_batch(cfg, cfg.test_len, n_seqs, torch.Generator().manual_seed(seed))  # (n_seqs, test_len)
    h, found = model.pos(model.tok(x)), []  # (n_seqs, test_len, d_model)
    for block in model.blocks:
        if by_pair:
            q, k, _ = block.attn.project(block.ln1(h))  # (n_seqs, heads, test_len, head_dim) each
            # the last query against every key, term by term: (n_seqs, heads, test_len, head_dim)
            terms = q[:, :, -1:] * k / math.sqrt(q.shape[-1])
            if getattr(block.attn.rotary, "interleaved", True):
                terms = terms.unflatten(-1, (-1, 2)).sum(-1)  # (n_seqs, heads, test_len, head_dim // 2)
            else:
                terms = terms.unflatten(-1, (2, -1)).sum(-2)
            found.append(terms.mean(0).flip(-2))  # (heads, test_len, head_dim // 2): index d = the key d back
        else:
            scores, _ = block.attn.scores(block.ln1(h))  # (n_seqs, heads, test_len, test_len)
            last = scores[:, :, -1].softmax(-1) if weights else scores[:, :, -1]  # (n_seqs, heads, test_len)
            found.append(last.mean(0).flip(-1))  # (heads, test_len): index d = the key d back
        h = block(h)
    return torch.stack(found)  # (n_layers, heads, test_len[, head_dim // 2])
