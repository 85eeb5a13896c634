"""Reading sbatch scripts: a hand-written batch script → the facts a spec would give.

Takes the text of a shell script and gives facts with positions: the `#SBATCH` directives sbatch
honours, exports, traps, and every launch step with its options and where each per-rank variable
is expanded. The lint pipeline feeds these facts to the same rules as a spec (and to the
script-only rules), so a pitfall keeps its code whether it was written in YAML or in bash.
"""
