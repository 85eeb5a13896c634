"""Model shapes, exact parameter counts and the per-GPU memory estimate.

Pure integer (and rational) arithmetic over small frozen records: nothing here imports torch, and
nothing is loaded until a spec has a model. The pieces, in the order they build on each other:

- `shape`: what a model looks like (`ModelShape`);
- `resolve`: turns the spec's `model:` section (a bundled preset, a Hugging Face config.json or
  explicit fields) into one;
- `params`: exact parameter counts, total and active, and per-layer pieces;
- `placement`: which parameters one rank holds on each pipeline stage (tensor-parallel,
  replicated and expert parameters);
- `states`, `activations`: bytes for weights, gradients, optimizer state, activations and the
  KV cache per workload and sharding mode;
- `estimate`: the per-GPU total for the most loaded rank, with its assumptions;
- `megatron`: Megatron-LM's own weight-and-optimizer accounting, kept for parity checks;
- `ranks`: where each global rank sits (node, local rank, tp/cp/dp/pp/ep coordinates);
- `context`: the model facts of a checked spec, memoised for the rules and `jobc plan`;
- `plan`: what `jobc plan` shows, as data (its JSON) and as text.
"""
