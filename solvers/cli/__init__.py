"""The ``sudoku`` command: each command parses its arguments, calls the library and prints
what comes back. Only this package turns the library's exceptions into one-line messages and
exit statuses, and Ctrl-C (130), SIGTERM (143) and SIGHUP (129) into an orderly stop: the run
unwinds, killing its worker processes on the way out.
"""
