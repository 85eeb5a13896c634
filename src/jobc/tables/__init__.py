"""Shared fact tables: the facts more than one stage needs, each kept in one place.

Takes nothing from the rest of jobc (it sits beside `jobc.core`, in the lowest layer). Gives
plain tables and the small functions built from them: what the compiled script prints and the
exit codes it uses (`contract`), read by the compiler that writes those lines and by triage that
reads them back; which directories are node-local (`paths`); what a literal secret looks like and
the cheap prefilter built from those shapes (`secrets`); Slurm's sbatch and srun option grammar
(`slurm_options`), read by the compiler, the script reader and the rules; the variables that
differ from rank to rank (`ranks`), read by the rules that find them in literal values; which
failures a self-healing job retries, and why the others are never retried (`heal`). A stage imports the
table instead of keeping its own copy, so the writer and the reader of a fact cannot drift apart.
"""
