"""The lint pipeline: files in, findings out.

Takes paths (specs and cluster profiles), reads them (`jobc.reader`), merges profiles and
`--set` overrides, checks the result (`jobc.spec`), runs every enabled rule (`rules/`, one module
a rule), positions each hit with the one locator, applies inline suppressions (`suppress`) and
the `[tool.jobc]` configuration (`config`), and gives findings; `report/` writes them as text,
JSON, SARIF or GitHub annotations. `pipeline` is the entry point: `lint_file`.
"""
