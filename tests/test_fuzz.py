"""Whatever a user feeds the command: no traceback, an exit status from the table, and for each
bad puzzle one line on stderr naming its line."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

LINE = "1.3...5.9..21.94.....7.4...3..5.2..6.6.....5.7..8.3..4...4.1.....92.58..8.4...1.7"
SPACED = "\n".join(" ".join(LINE[r * 9 : r * 9 + 9].replace(".", "0")) for r in range(9))
COMMANDS = [
    ["solve", "--backend", "native", "--timeout", "2"],
    ["count", "--backend", "native", "--timeout", "2"],
    ["check", "--backends", "native,sat", "--timeout", "2"],
    ["candidates", "--backend", "native", "--timeout", "2"],
]
# Messages about a puzzle that are not about its text: they need no line when the input is
# one board (a grid) rather than a file of lines.
OUTCOMES = re.compile(r"sudoku: (no solution|timeout after \S+ s)$")


def near_valid() -> st.SearchStrategy[str]:
    """The example boards with a few characters changed, inserted or dropped."""

    def mutate(text: str, edits: list[tuple[int, str, int]]) -> str:
        chars = list(text)
        for position, new, kind in edits:
            at = position % (len(chars) + 1)
            if kind == 0 and chars:
                chars[min(at, len(chars) - 1)] = new
            elif kind == 1:
                chars.insert(at, new)
            elif chars:
                del chars[min(at, len(chars) - 1)]
        return "".join(chars)

    edit = st.tuples(st.integers(0, 400), st.characters(), st.integers(0, 2))
    base = st.sampled_from([LINE, f"{LINE}\n{LINE}\n", SPACED, LINE.replace(".", "0")])
    return st.builds(mutate, base, st.lists(edit, max_size=4))


def inputs() -> st.SearchStrategy[str]:
    raw = st.binary(max_size=300).map(lambda b: b.decode("utf-8", errors="replace"))
    return st.one_of(raw, st.text(max_size=300), near_valid())


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.sampled_from(COMMANDS), inputs())
def test_any_input_gives_a_status_and_one_line_per_bad_puzzle(cli, command, text):
    run = cli(*command, stdin=text)  # an exception here is the traceback a user would see
    assert run.code in (0, 1, 2, 3, 4), (run.code, run.err)
    lines = run.err.strip().splitlines()
    content = [x for x in text.splitlines() if x.strip() and not x.strip().startswith("#")]
    assert len(lines) <= max(1, len(content)), run.err
    for line in lines:
        assert line.startswith("sudoku: "), line
        assert "Traceback" not in line
        assert (
            line.startswith("sudoku: line ")
            or OUTCOMES.match(line)
            or line in ("sudoku: empty input",)
        ), line
