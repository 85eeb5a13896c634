"""Shared fact tables: the facts more than one stage needs, each kept in one place.

Takes nothing from the rest of jobc but `jobc.core`. Gives plain tables and the small functions
built from them: what the compiled script prints and the exit codes it uses (`contract`), read by
the compiler that writes those lines and by triage that reads them back. A stage imports the table
instead of keeping its own copy, so the writer and the reader of a fact cannot drift apart.
"""
