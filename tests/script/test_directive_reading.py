"""`#SBATCH` lines as sbatch 22.05 reads them, each detail tried on the test cluster."""

from __future__ import annotations

from pathlib import Path

from jobc.lint.scripts import lint_path
from jobc.script.parse import read_bytes


def _directives(line: str) -> list[tuple[str, str | None]]:
    facts = read_bytes(f"#!/bin/bash\n{line}\necho hi\n".encode(), "job.sh")
    return [(d.name, d.value) for d in facts.directives]


def test_an_unquoted_hash_ends_the_line_even_inside_a_word() -> None:
    # sbatch named the job `abc` and set no comment
    assert _directives("#SBATCH --job-name=abc#def --comment=zzz") == [("job-name", "abc")]
    assert _directives("#SBATCH --time=01:00:00#SBATCH --ntasks-per-node=1") == [("time", "01:00:00")]
    assert _directives('#SBATCH -J "a#b" -t 1') == [("job-name", "a#b"), ("time", "1")]  # quoted: text
    assert _directives('#SBATCH -J "a b"#x -t 1') == [("job-name", "a b")]


def test_an_option_no_sbatch_can_know_is_refused_and_a_plugins_is_not(tmp_path: Path) -> None:
    # `sbatch: unrecognized option '--frobnicate'`, exit 255, no job; sites add options through
    # SPANK plugins (Shifter's --image and --module), so only a name no plugin could have is judged
    path = tmp_path / "job.sh"
    path.write_text(
        "#!/bin/bash\n#SBATCH --nS}ATCH --ntasks-per-node=8\n#SBATCH --image=nersc/pt:23\nsrun python t.py\n"
    )
    found = [(f.code, f.span.line, f.message) for f in lint_path(path).findings if f.code == "JC809"]
    assert [(c, line) for c, line, _ in found] == [("JC809", 2)]
    assert "sbatch knows no such option and refuses the whole script" in found[0][2]


def test_a_letter_sbatch_has_no_option_for_and_a_long_option_one_letter_off_are_refused(
    tmp_path: Path,
) -> None:
    # source: awmthink/pytorch-in-action lightning/slurm_submit.sh (the form: `#SBATCH -gres=gpu:4`);
    # getopt reads `-g` (sbatch has no such letter, and plugins add long options only): `invalid
    # option -- 'g'`, no job
    path = tmp_path / "job.sh"
    path.write_text(
        "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH -gres=gpu:4\n#SBATCH --gress=gpu:4\n#SBATCH -t 1:00:00\n"
        "srun python t.py\n"
    )
    found = [(f.span.line, f.message) for f in lint_path(path).findings if f.code == "JC809"]
    assert [line for line, _ in found] == [3, 4]
    assert "sbatch has no option -g" in found[0][1]
    assert "two dashes: `--gres=gpu:4`" in found[0][1]
    assert "did you mean --gres?" in found[1][1]
    assert "unless a plugin of the site adds it" in found[1][1]
    # near misses: a letter sbatch has (`-G`, `-N2`), and a name two letters off any option (a
    # plugin's, as far as the text says)
    path.write_text(
        "#!/bin/bash\n#SBATCH -N2\n#SBATCH -G 8\n#SBATCH --grease=gpu:4\n#SBATCH -t 1:00:00\n"
        "srun python t.py\n"
    )
    assert [f for f in lint_path(path).findings if f.code == "JC809"] == []


def test_a_word_cut_at_a_hash_is_a_warning_at_the_hash_and_the_import_leaves_it_out(tmp_path: Path) -> None:
    from jobc.lint.imported import imported

    path = tmp_path / "job.sh"
    path.write_text(
        "#!/bin/bash\n#SBATCH --nodes=2 # two nodes\n#SBATCH --job-name=run#3\n"
        '#SBATCH --comment="a#b"\nsrun python t.py\n#SBATCH --job-name=late#x\n'
    )
    found = [(f.code, f.span.line, f.span.col) for f in lint_path(path).findings if f.code == "JC816"]
    # a `#` after a blank, inside quotes, or on a line sbatch no longer reads is no cut
    assert found == [("JC816", 3, 23)]
    derived = imported(read_bytes(path.read_bytes(), "job.sh"))
    assert derived.data["name"] == "job"  # the file's name, not `run`
    assert [u.line for u in derived.unmapped if "JC816" in u.why] == [3]


def test_a_vertical_tab_or_form_feed_is_a_blank_to_sbatch() -> None:
    # found by the import fuzz target: sbatch splits an #SBATCH line at what C's isspace() calls
    # a blank (`_get_argument`), so `#SBATCH<FF>--nodes=4` asks for 4 nodes; jobc read no
    # directive there and imported sbatch's default of one node
    assert _directives("#SBATCH\f--nodes=4") == [("nodes", "4")]
    assert _directives("#SBATCH --nodes=4\v--time=1:00:00") == [("nodes", "4"), ("time", "1:00:00")]
    assert _directives('#SBATCH "--job-name=a\fb"') == [("job-name", "a\fb")]  # quoted, a character
    # near miss: a character that is no blank to C glues the prefix to a word sbatch does not read
    assert _directives("#SBATCH\x1c--nodes=4") == []


def test_a_carriage_return_inside_the_line_is_a_blank_to_sbatch() -> None:
    # found by the import fuzz target (seed 3601, input 7,692): `#SBATCH\r\r --nodes=2`, with no
    # CRLF line end for sbatch to refuse, asks for 2 nodes (isspace() skips the \r after the prefix);
    # jobc read no directive there and imported sbatch's default of one node
    assert _directives("#SBATCH\r\r\r --nodes=2") == [("nodes", "2")]
    assert _directives("#SBATCH\r--nodes=2") == [("nodes", "2")]
    # near miss: a character that is no blank to C still glues the prefix to a word
    assert _directives("#SBATCH\x85--nodes=2") == []


def test_tasks_per_node_is_sbatchs_other_spelling_of_ntasks_per_node(tmp_path: Path) -> None:
    # source: the form of TU Eindhoven's Snellius Lightning example (shortened)
    head = "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gpus-per-node=4\n#SBATCH --time=1:00:00\n"
    script = tmp_path / "job.sh"
    for written in ("--tasks-per-node=4", "--tasks-per=4", "--ntasks-per-node=4"):
        script.write_text(f"{head}#SBATCH {written}\nsrun python train.py\n", encoding="utf-8")
        codes = [f.code for f in lint_path(script).findings]
        assert "JC101" not in codes, (written, codes)
        assert "JC809" not in codes, (written, codes)
        facts = read_bytes(script.read_bytes(), "job.sh")
        assert facts.honoured()["ntasks-per-node"].value == "4", written
    # near miss: no task count at all, one task a node for four GPUs
    script.write_text(f"{head}srun python train.py\n", encoding="utf-8")
    assert "JC101" in [f.code for f in lint_path(script).findings]


def test_no_kill_takes_its_value_in_the_same_word_and_refuses_any_other(tmp_path: Path) -> None:
    # sbatch's `-k` has an optional value (getopt's `k::`): `-k=40` gives it `=40` and sbatch
    # refuses the script ("Invalid --no-kill specification", tried with sbatch 22.05); found by the
    # fix-script fuzz target (seed 3801, input 2,052), where JC801 moved a late `#SBATCH -k=40` up
    assert _directives("#SBATCH -k=40") == [("no-kill", "=40")]
    assert _directives("#SBATCH -koff -N 2") == [("no-kill", "off"), ("nodes", "2")]
    path = tmp_path / "job.sh"
    head = "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --time=1:00:00\n"
    for written in ("-k=40", "--no-kill=40", "-kx"):
        path.write_text(f"{head}#SBATCH {written}\nsrun python t.py\n")
        found = [(f.code, f.span.line) for f in lint_path(path).findings if f.code == "JC809"]
        assert found == [("JC809", 4)], written
    # near miss: a bare -k, and the values it takes
    for written in ("-k", "-koff", "--no-kill=set", "-k -N 1"):
        path.write_text(f"{head}#SBATCH {written}\nsrun python t.py\n")
        assert "JC809" not in [f.code for f in lint_path(path).findings], written
