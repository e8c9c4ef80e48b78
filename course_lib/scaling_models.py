"""Retrain the base models of lesson 9 that ship in course_lib/data/rope_scaling (on purpose only).

python -m course_lib.scaling_models

Each is lesson 7's rotary model (course_lib.scaling.CONFIG) trained from its seed on one
thread, in float32 (lesson 7 itself trains in float64); tests/unit/test_scaling.py retrains one
and compares it with the shipped file.
"""

from pathlib import Path

from .files import write_atomic
from .scaling import SEEDS, model_bytes, train_model

if __name__ == "__main__":
    root = Path(__file__).resolve().parent / "data" / "rope_scaling"
    root.mkdir(exist_ok=True)
    for seed in SEEDS:
        path = root / f"shift_L16_seed{seed}.pt"
        data = model_bytes(train_model(seed))
        write_atomic(path, data)
        print(f"{path}: {len(data)} bytes")
