"""GNU parallel and xargs run a command once for each input, putting the input in its words: a
word that holds a replacement string (`{}`, `{1}`, `{.}`, or the one `-I REPL` names) is no
argument as written, so the import keeps it as not known, and a program so written is not known.
xargs without a replacement string puts the input after the command's words: listed."""

from __future__ import annotations

import pytest

from jobc.lint.imported import imported
from jobc.script.derived import Derived
from jobc.script.parse import read_bytes

HEAD = "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --ntasks=1\n#SBATCH --gres=gpu:1\n#SBATCH -t 1:00:00\n"


def _derived(body: str) -> Derived:
    return imported(read_bytes((HEAD + body).encode(), "job.sh"))


@pytest.mark.parametrize(
    ("body", "program", "args"),
    [
        # source: GNU parallel in an array job (the form)
        (
            "parallel -j 4 python train.py --seed {1} --lr {2} ::: 1 2 ::: 0.1 0.2\n",
            "train.py",
            ["--seed", "{unknown.value}", "--lr", "{unknown.value}"],
        ),
        ("parallel python {1} --out {1.}.log ::: a.py b.py\n", None, ["--out", "{unknown.value}"]),
        ("cat seeds.txt | xargs -I{} python train.py --seed {}\n", "train.py", ["--seed", "{unknown.value}"]),
        (
            "xargs -a seeds.txt -P 2 -I SEED srun -n1 python train.py --seed SEED --out run_SEED\n",
            "train.py",
            ["--seed", "{unknown.value}", "--out", "{unknown.value}"],
        ),
        # near miss: braces that are no replacement string, and no parallel at all
        ("parallel python train.py --cfg {a} ::: 1\n", "train.py", ["--cfg", "{a}"]),
        ("python train.py --seed {1}\n", "train.py", ["--seed", "{1}"]),
    ],
)
def test_a_replacement_string_is_no_argument(body: str, program: str | None, args: list[str]) -> None:
    launch = _derived(body).data["launch"]
    assert launch.get("program") == program
    assert launch.get("args") == args


def test_xargs_puts_its_input_after_the_command() -> None:
    derived = _derived("cat seeds.txt | xargs -n 1 python train.py --seed\n")
    assert derived.data["launch"]["program"] == "train.py"
    assert any(u.text == "xargs" and "input's words" in u.why for u in derived.unmapped)
    # near miss: with a replacement string the input goes where it says
    placed = _derived("cat seeds.txt | xargs -I{} python train.py --seed {}\n")
    assert not any("input's words" in u.why for u in placed.unmapped)
