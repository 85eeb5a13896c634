from jobc.cli import main

raise SystemExit(main())
