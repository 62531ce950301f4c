"""One module per ``baccarat`` subcommand: ``add_parser(parser)`` and ``run(args)``."""
