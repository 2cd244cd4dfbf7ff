"""What's My Number?: what a turn report showed when it was handed out, and what changed since.

A snapshot is plain JSON data (``kit report`` keeps one per published turn in the report
folder): every cell of the turn report by row and column, the allowances for the next turn,
who sent no orders and who won. Two snapshots of one turn compare cell by cell
(``kit.published.diff_snapshots``), so a correction of an earlier turn that changes a report
already handed out is caught, cell by cell.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules.model import GameResult, GuessRow, Row, TurnReport

NEXT_TURN = "Next turn"  # the row of allowances for the next turn
RESULT = "Result"  # the row of the turn's outcome


def row_key(row: Row) -> str:
    """A row's name in a snapshot, as the report labels it: "Ann 1", "Fay List"."""
    if isinstance(row, GuessRow):
        return f"{row.player} {row.index}"
    return f"{row.player} List"


def snapshot_turn(report: TurnReport, players: Sequence[str]) -> dict[str, object]:
    """Every cell and allowance of one turn report, as handed out (JSON-able)."""
    rows: dict[str, dict[str, object]] = {}
    for row in report.rows:
        if isinstance(row, GuessRow):
            cells: dict[str, object] = dict(zip(players, row.cells, strict=True))
            if row.status != "ok":
                cells["status"] = row.status
        else:
            cells = {"correct": row.correct}
            if row.partial:
                cells["status"] = "partial"
        rows[row_key(row)] = cells
    rows[NEXT_TURN] = {label: report.next_allowance.get(label, 0) for label in players}
    rows[RESULT] = {"no orders": ", ".join(report.no_orders),
                    "winners": ", ".join(report.winners)}
    return {"turn": report.number, "rows": rows}


def snapshots(result: GameResult) -> dict[int, dict[str, object]]:
    """A snapshot of every turn of a played game, by turn number."""
    return {report.number: snapshot_turn(report, result.players) for report in result.turns}
