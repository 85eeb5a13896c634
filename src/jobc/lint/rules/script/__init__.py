"""JC8 — sbatch scripts: what only a hand-written batch script can get wrong."""

from jobc.lint.rules.script import (
    jc800_script_unreadable,
    jc801_directive_after_command,
    jc802_trap_while_foreground,
    jc803_exec_skips_cleanup,
    jc804_launcher_size_mismatch,
    jc805_launcher_without_srun,
    jc806_localhost_rendezvous,
    jc807_trap_without_batch_signal,
    jc808_batch_signal_untrapped,
    jc809_value_refused,
    jc810_dos_line_breaks,
    jc811_bom_before_shebang,
    jc812_missing_shebang,
    jc813_misspelled_directive,
    jc814_typographic_dash,
    jc815_signal_without_step,
)

MODULES = [
    jc800_script_unreadable,
    jc801_directive_after_command,
    jc802_trap_while_foreground,
    jc803_exec_skips_cleanup,
    jc804_launcher_size_mismatch,
    jc805_launcher_without_srun,
    jc806_localhost_rendezvous,
    jc807_trap_without_batch_signal,
    jc808_batch_signal_untrapped,
    jc809_value_refused,
    jc810_dos_line_breaks,
    jc811_bom_before_shebang,
    jc812_missing_shebang,
    jc813_misspelled_directive,
    jc814_typographic_dash,
    jc815_signal_without_step,
]
