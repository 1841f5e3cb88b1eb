"""What every layer leans on: the package's errors (``errors``), deadlines kept by ticking
searches (``deadline``), and the holding of Ctrl-C, SIGTERM and SIGHUP around the moments a
process must not be cut in half (``signals``). Nothing here imports another folder."""
