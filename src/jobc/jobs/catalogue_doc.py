"""The catalogue of signatures as text, JSON or markdown (`docs/triage.md` is the markdown)."""

from __future__ import annotations

import json

from jobc.jobs.judge import ADVICE
from jobc.jobs.signatures import ACTIONS, CATALOGUE, CLASSES, DEFAULT_ACTION, UNKNOWN, UNKNOWN_MEANING
from jobc.tables import contract


def listing(fmt: str) -> str:
    if fmt == "json":
        rows = [
            {
                "code": s.code,
                "name": s.name,
                "class": s.cls,
                "role": s.role,
                "matches": s.matches,
                "extracts": list(s.extracts),
                "source": s.source,
                "example": s.example,
                "near_miss": s.near_miss,
            }
            for s in CATALOGUE
        ]
        return json.dumps({"classes": CLASSES, "actions": ACTIONS, "signatures": rows}, indent=2) + "\n"
    if fmt == "markdown":
        return _markdown()
    width = max(len(s.name) for s in CATALOGUE)
    return "".join(f"{s.code}  {s.name:<{width}}  {s.cls:<18}  {s.role:<7}  {s.matches}\n" for s in CATALOGUE)


def _causal_table() -> list[str]:
    from jobc.jobs.causality import EXPLAINS

    out = [
        "",
        "## The causal table",
        "",
        "A finding of the first kind explains a finding of the second within the scope (`process`: "
        "the same rank, task or local rank; `node`: the same node, or one the log does not name; "
        "`job`: any; `named`: a rank the first names; `earlier`: an earlier time the log states; "
        "`own_step`: a step of the job the first names, ended the same way; `other`: another "
        "process) and order (`after`: "
        "the second comes later in the log; `any`: file order is not event order). The first row "
        "that applies wins. Kinds: "
        "`failure` (a stated failure), `report` (a process's end, reported), `guess` (the fallback "
        "lexicon), `placed` (a guess whose next line names the rank and host it failed on), "
        "`symptom`, `teardown` (SIGTERM, SIGINT), `kill` (SIGKILL), `crash` (SIGSEGV, "
        "SIGABRT, …), `stop` (time limit, preemption, node failure), `cancel`, `host_oom`, "
        '`rendezvous`, `timeout`, `barrier`, `table` (torchrun\'s), `echo` ("see root cause above"), '
        "`received` (a process saying it received a signal), `died` (Ray's word that a worker "
        "died), `interrupt` (a user's Ctrl-C that mpiexec passed on), `job_end` and `step_end` "
        "(slurmstepd's words that a job, or one of its steps, ended). In a log of one process (its prefixes "
        "name at most one rank, task or node), a line that names nobody is that process's. Two "
        "findings that would explain each other leave the earlier one the cause.",
        "",
        "| explains | what | scope | order | why |",
        "|---|---|---|---|---|",
    ]
    for r in EXPLAINS:
        what = ", ".join(f"`{k}`" for k in r.effect.split("|")) + (
            " (not " + ", ".join(f"`{k}`" for k in r.unless.split("|")) + ")" if r.unless else ""
        )
        who = f"`{r.cause}`" + (f" (not `{r.cause_unless}`)" if r.cause_unless else "")
        out.append(f"| {who} | {what} | {r.scope} | {r.order} | {r.why} |")
    return out


def _stages() -> list[str]:
    """The numbered list of triage's stages, one module each."""
    return [
        "1. **normalize** (`normalize.py`): the text a writer printed, without a paste's or a terminal's "
        "debris (ANSI escapes, colour codes without their escape, markdown quotes and fences, a "
        "backtick glued to a line, carriage-return progress bars); the records one line holds are "
        "split (a text glued to a progress bar that lost its carriage return, a log pasted on one "
        "line), a message wrapped onto the next line is read whole, and every record keeps its line "
        "number.",
        "2. **prefixes** (`prefixes.py`): each line's leading fields are peeled by labellers (srun's "
        "task, `[rankN]:`, `[defaultN]:` (a local rank), host prefixes, NCCL's and UCX's "
        "`host:pid:tid`, Ray's `(pid=…, ip=…)`, timestamps, logging headers and levels); a structure "
        "that repeats over the file is inferred from its head (pasted line numbers, host prefixes "
        "without digits or under indentation).",
        "3. **identity** (`identity.py`): which rank, local rank, srun task and node wrote a line, "
        "joined from every "
        "line that pairs them (srun's task reports, torchrun's table, NCCL's `host:pid`, Ray's "
        "`ip=`), and what a message names in words (`on rank: 0`, `on node cn7`, `NodeList=c014`, "
        "slurmstepd's `*** on NODE`); never by arithmetic. An srun task is a rank only where the log "
        "allows it (no launcher that starts a node's processes: its command, modules or log lines, "
        "not a program's mention of it; or jobc's own srun launch), and a failure that names no node "
        "takes the node of its class fellows when they all name one; a shell's prompt that ran the "
        "program on its host (`user@pc:~$ ./run.sh`, not `cat`, `sbatch` or a launcher over several "
        "nodes) names that host when the log names no other, and there a local rank is the world's; "
        "these are inferences, and lower the finding's confidence to medium.",
        "4. **events** (`events.py`): the signatures below, each giving its class, its **statement "
        "line** (the line whose text decided the class), its fields and a strength (3 a stated "
        "failure, 2 a report that a process ended, 1 a symptom). A line no signature reads is read by "
        "the lexicon (`lexicon.py`): when it says something failed (`Error`, `Exception`, `FATAL`, "
        "`Killed`, `oom-kill`, `Segmentation fault`, `Abort`, an `E`/`F` glog line, Slurm's "
        "`CANCELLED`, `WTERMSIG`, …; not advice, a warning, a metric or a recovery), the class its "
        "words name (the table below) at strength 2, or class `unknown` at strength 1. An exception "
        "whose type leaves its class open (RuntimeError, OSError, a library's own type) and whose "
        "message no signature reads takes the class its message's words name.",
        '5. **causality** (`causality.py`): the table of "explains" edges below; the first cause is '
        "the earliest unexplained finding of the highest strength, and a failure the job's progress "
        "went on after is no first cause.",
        "6. **confidence** (`confidence.py`): `high`, `medium` or `low` on every finding; a low one is "
        "of class `unknown` and shows the most error-like line instead of guessing.",
        "7. **findings** (`judge.py`): summaries, actions and advice; the evidence rule puts the "
        "statement line first and never drops it (for a Python exception, its `Type: message` line "
        "and the innermost frame in the program's own code).",
    ]


def _class_words() -> list[str]:
    from jobc.jobs.lexicon import CLASS_WORDS

    out = [
        "",
        "## The words of failures",
        "",
        "A line no signature reads, that says something failed, takes the class of the first row "
        "whose words it holds (said at medium confidence: words are evidence, but indirect). A "
        "signal's words must say which signal, an exit code's which code; otherwise, and for a line "
        "whose words match no row, the class is `unknown` (low confidence).",
        "",
        "| class | words (a regular expression) |",
        "|---|---|",
    ]
    for cls, words in CLASS_WORDS:
        out.append(f"| `{cls}` | `{words.pattern.replace('|', chr(92) + '|')}` |")
    return out


def _markdown() -> str:
    out = [
        "# Triage: the failure signatures",
        "",
        "<!-- generated by `jobc triage --signatures --format markdown > docs/triage.md`; "
        "a test fails when it is stale -->",
        "",
        "`jobc triage JOBID|LOG…` reads a job's log (any job's: torchrun, DeepSpeed, accelerate, "
        "Lightning, Ray, vLLM, MPI or plain srun, compiled by jobc or not) and names the first cause "
        "first. A log flows through seven stages, each a module of `jobc.jobs`:",
        "",
        *_stages(),
        "",
        "## The JSON contract",
        "",
        "`jobc triage --format json` prints, per log, `findings` in order (the first cause first). Every "
        "finding has `class` (below), `role`, `cause` (true for a cause), `action` and `advice`, `code` "
        "and `kind` (the signature), `summary`, `rank`, `local_rank`, `task`, `node`, `ranks`, "
        "`exit_code`, `signal`, `endpoint`, `frame` and `user_frame` (the raising frame and the "
        "program's own last frame), `confidence` (`high`, `medium`, `low`) and `evidence` (`file`, "
        "`line`, `text`; the statement line first; secrets masked). A value "
        "the log does not give is `null`. The advice names a jobc spec field only when the log was "
        "written by jobc's compiled script (`compiled_by_jobc`).",
        "",
        "| class | meaning | usual action |",
        "|---|---|---|",
    ]
    for cls, meaning in [*CLASSES.items(), (UNKNOWN, UNKNOWN_MEANING)]:
        out.append(f"| `{cls}` | {meaning} | `{DEFAULT_ACTION[cls]}`: {ADVICE[cls][0]} |")
    out += ["", "| action | meaning |", "|---|---|"]
    out += [f"| `{a}` | {m} |" for a, m in ACTIONS.items()]
    out += _causal_table()
    out += _class_words()
    out += ["", "## Signatures", ""]
    for s in CATALOGUE:
        out += [
            f"### {s.code} {s.name}",
            "",
            f"{s.matches[0].upper()}{s.matches[1:]}.",
            "",
            f"- class `{s.cls}`, role `{s.role}`" + (" (a report of a process's end)" if s.report else ""),
            f"- extracts: {', '.join(s.extracts) if s.extracts else 'nothing beyond the line'}",
            f"- format from: {s.source}",
            "",
            "Example:",
            "",
            "```text",
            s.example,
            "```",
            "",
            "Near miss (does not fire):",
            "",
            "```text",
            s.near_miss,
            "```",
            "",
        ]
    out += [
        "## The lines of jobc's compiled script",
        "",
        "Read as context (the job id and node list, the launch mode and world size, the master, "
        "signals, the step's exit code, requeues); their formats live in `jobc.tables.contract`.",
        "",
        "| line | printf format |",
        "|---|---|",
    ]
    out += [f"| {b.name} | `{b.printf}` |" for b in contract.BANNERS]
    return "\n".join(out) + "\n"
