"""The spec model: what a job spec may say, and what a valid one means.

Takes the plain data the reader gives and gives a checked spec. The pydantic models (`model`) are
the source of truth; `generate` derives from them the JSON Schema and the plain classes
(`plain`) the lint path uses without importing pydantic; `fastcheck` checks data against the
schema, `explain` turns a failure into findings at data paths; `interpolate` resolves
`{dotted.path}` references; `catalog`, `cudaenv` and `slurmtime` are the fixed knowledge about
GPUs and Slurm's formats that the rules and the compiler share; `context` is a checked spec with
the facts derived from it, which rules read and the compiler plans from.
"""
