"""Tools for working on jobc itself (not part of the package): `tools/regen.py` regenerates
every generated file of the repository, or checks that each is current."""
