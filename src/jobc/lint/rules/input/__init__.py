"""JC0 — input: the file itself, its structure, its profiles and its suppressions."""

from jobc.lint.rules.input import (
    jc001_yaml_syntax,
    jc002_duplicate_key,
    jc003_schema,
    jc004_ambiguous_scalar,
    jc005_unsupported_version,
    jc006_extends_error,
    jc007_unused_suppression,
    jc008_interpolation,
)

MODULES = [
    jc001_yaml_syntax,
    jc002_duplicate_key,
    jc003_schema,
    jc004_ambiguous_scalar,
    jc005_unsupported_version,
    jc006_extends_error,
    jc007_unused_suppression,
    jc008_interpolation,
]
