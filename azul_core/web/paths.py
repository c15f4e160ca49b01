"""The number in a path (a seat, a replay's step): ``{seat:index}`` in a route.

Starlette's ``int`` takes any run of digits and converts it, and Python refuses to read an
integer of more than 4,300 digits (``ValueError``): a path of 5,000 digits was a 500 with
its traceback in the log. An index has at most nine digits; a longer one matches no route
(404).
"""

from __future__ import annotations

from starlette.convertors import Convertor, register_url_convertor


class IndexConvertor(Convertor[int]):
    regex = "[0-9]{1,9}"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        return str(value)


register_url_convertor("index", IndexConvertor())

__all__ = ["IndexConvertor"]
