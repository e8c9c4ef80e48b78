"""Rewrite the frozen corpus from the lesson sources (on purpose only: see course_lib/data/corpus/README.md).

python -m course_lib.bpe.refresh_corpus notebooks/0[013456]_*.md
"""

import sys
from pathlib import Path

from .corpus import write_corpus

if __name__ == "__main__":
    root = Path(__file__).resolve().parents[1] / "data" / "corpus"
    print(write_corpus([Path(p) for p in sys.argv[1:]], root))
