"""Helpers shared by the tests."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
