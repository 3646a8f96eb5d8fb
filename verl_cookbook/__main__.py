from verl_cookbook.cli import main

raise SystemExit(main())
