"""Double red: a red tile scores twice what the variant would give it.

It builds on the answer of the plugins listed before it: listed after
``middle_column.py``, a red tile in the middle column scores (points + 1) x 2.
"""

from azul_core import hookimpl
from azul_core.colours import RED

AZUL_API = 1
__version__ = "1.0"


@hookimpl
def azul_placement_score(wall, row, column, answer):
    if wall[row][column] == RED:
        return answer * 2
    return answer
