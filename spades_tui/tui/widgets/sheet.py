"""A view model's sheet (a hand's summary, the game's scores) as a Rich table, its cells plain text."""

from __future__ import annotations

from rich.table import Table

from ..gameview import Sheet
from .plain import plain, plain_cells


def sheet_table(sheet: Sheet) -> Table:
    # Every cell as plain Text: a str would be read as markup, and the names are in these cells.
    table = Table(title=plain(sheet.title, "table.title"), expand=False)  # (a Text title takes no title_style)
    for i, column in enumerate(sheet.columns):
        table.add_column(plain(column), justify="left" if i == 0 and sheet.first_column_left else "right")
    for row in sheet.rows:
        table.add_row(*plain_cells(row))
    return table
