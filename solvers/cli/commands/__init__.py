"""The commands of ``sudoku``, one module each, named as its command: each declares its parser
(``add_to``) and its ``run(args, run)``, which builds a plan, calls the library and prints.
The parser finds them here by name, and imports only the one a command line runs."""
