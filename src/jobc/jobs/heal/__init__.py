"""Self-healing jobs, judged inside the allocation: `jobc heal start` and `jobc heal end`.

Takes what the batch shell of a compiled script knows at the start and the end of each attempt
(its job id, restart count, nodes, log, the step's exit code, the preflight's report) and gives
one decision a line — run, requeue without these nodes, or end with this code — with the reason
in the log and in the attempts file beside it (`jobc.jobs.attempts`). `judge` decides from the
evidence (pure functions), `segment` reads one attempt's part of the log with triage, `cluster`
asks Slurm, `run` ties them together.
"""
