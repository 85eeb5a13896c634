"""One module per CLI command: `register(subparsers)` adds it, `args.run(args)` runs it."""
