"""Synthetic TORCH_TRACE log generator behind bench/gen_trace.py (standard library only)."""
