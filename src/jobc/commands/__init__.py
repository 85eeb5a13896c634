"""The command line's verbs: parsed arguments in, an exit code and printed output out.

One module per command: `register(subparsers)` adds its options, `args.run(args)` runs it. A
command only wires the stages together (read and lint, compile, plan, report) and turns their
results and errors into text, exit codes 0/1/2 and one-line usage messages.
"""
