"""A torch function mode that plays "another CPU" for every inexact float32 operation.

Installed in the lesson kernel by tests/portability/run.py (an IPython startup file), it lets each
wrapped op run natively, then moves a value-keyed half of its inexact results by one ulp towards or
past the exact value (computed in float64): what a different but faithful (< 1 ulp) libm or BLAS may
return. Random draws (randn, normal_, ...) move by one ulp up or down. A printed number that changes
under this mode was printed with more digits than survive another machine.

Exactness is kept: a result that float64 says is exact (one-hot @ W, cos(0) = 1, integer sums) is
never moved, and the move depends only on the value, so equal inputs still give equal outputs.
"""

import os

import torch
from torch.overrides import TorchFunctionMode

# ops whose float32 result may differ in the last bit between implementations (IEEE fixes
# only + - * / and sqrt; MKL VML's sqrt differs between its code paths, so it is here too)
INEXACT = {
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "tanh", "sinh",
    "cosh", "asin", "acos", "atan", "atan2", "sigmoid", "erf", "erfc", "sqrt", "rsqrt", "pow",
    "__pow__", "__rpow__", "float_power", "softmax", "log_softmax", "cosine_similarity", "norm",
    "matmul", "__matmul__", "__rmatmul__", "mm", "bmm", "addmm", "linear", "einsum", "sum", "mean",
    "var", "std", "cumsum", "logsumexp", "dist", "cdist",
}  # fmt: skip
RANDOM = {"randn", "randn_like", "rand", "rand_like", "normal", "normal_", "uniform_"}
SALT = int(os.environ.get("COURSE_FLOAT_JITTER_SALT", "0"))


def _name(func):
    return getattr(func, "__name__", "")


def _coin(bits: torch.Tensor, salt: int = 0) -> torch.Tensor:
    """A value-keyed coin for int32 bit patterns: the same float always gets the same answer."""
    return (((bits ^ (bits >> 13)) & 0xFFFF) * (32749 + 2 * (SALT + salt)) & 0x4000) != 0


def _move(n: torch.Tensor, bits: torch.Tensor, towards_larger: torch.Tensor, where: torch.Tensor):
    """n moved by one float32 ulp (a step of its bit pattern) where `where`; zeros stay."""
    step = torch.where(towards_larger == (bits >= 0), 1, -1).to(torch.int32)
    where = where & ((bits & 0x7FFFFFFF) != 0)
    return torch.where(where, bits + step, bits).view(torch.float32)


def _towards_exact(native: torch.Tensor, exact: torch.Tensor) -> torch.Tensor:
    """native moved one ulp towards (or past) exact, for a value-keyed half of the inexact entries."""
    n = native.detach()
    bits = n.view(torch.int32)
    diff = exact - n.double()
    return _move(n, bits, diff > 0, (diff != 0) & _coin(bits))


def _random_jitter(t: torch.Tensor) -> torch.Tensor:
    """A random draw moved one ulp up or down, or kept, by value-keyed coins."""
    if t.dtype != torch.float32:
        return t
    n = t.detach()
    bits = n.view(torch.int32)
    return _move(n, bits, _coin(bits, 1), _coin(bits))


def _exact_pow(name, args, kwargs) -> bool:
    # x ** 2 is x * x, x ** 1 is x: correctly rounded everywhere
    exponent = kwargs.get("exponent", args[1] if len(args) > 1 else None)
    return name in ("pow", "__pow__") and isinstance(exponent, (int, float)) and exponent in (0, 1, 2)


def _upcast(x):
    if isinstance(x, torch.Tensor) and x.dtype == torch.float32:
        return x.detach().double()
    if isinstance(x, (list, tuple)):
        return type(x)(_upcast(v) for v in x)
    return x


def _replace(native: torch.Tensor, value: torch.Tensor) -> torch.Tensor:
    if torch.equal(native.detach(), value):
        return native
    return native + (value - native.detach()).detach()  # exact: keeps autograd, result is `value`


class FaithfulJitter(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        name = _name(func)
        try:
            if name in RANDOM:
                if isinstance(out, torch.Tensor) and out.dtype == torch.float32:
                    with torch.no_grad():
                        if name.endswith("_"):
                            out.copy_(_random_jitter(out))
                        else:
                            out = _replace(out, _random_jitter(out))
            elif name in INEXACT and isinstance(out, torch.Tensor) and out.dtype == torch.float32:
                if out.numel() and not _exact_pow(name, args, kwargs):
                    exact = func(*_upcast(args), **_upcast(kwargs))
                    if isinstance(exact, torch.Tensor) and exact.shape == out.shape:
                        out = _replace(out, _towards_exact(out, exact.double()))
        except (RuntimeError, TypeError, ValueError):
            pass  # an op whose float64 twin does not run (mixed dtypes, out=...): left native
        return out


def install():
    """Enter the mode for the rest of the process (the kernel)."""
    mode = FaithfulJitter()
    mode.__enter__()
    return mode
