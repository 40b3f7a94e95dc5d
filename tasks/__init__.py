"""Task banks, graders and world audits.

A bank (tasks/<language>/<world>.toml) holds a world's worked examples and
held-out tasks; graders check submissions exactly; the audit computes every
expected output and each task's rule dependencies instead of trusting typed
values.
"""
