"""Game records (``azul-record/1``): reading, writing, replaying and validating them."""

from azul_core.records.game_record import (
                                           FORMAT,
                                           GameRecord,
                                           Recorder,
                                           RecordError,
                                           ReplayError,
                                           check_record,
                                           read_record,
                                           replay_state,
                                           validate_record,
                                           write_record,
)

__all__ = ["FORMAT", "GameRecord", "Recorder", "RecordError", "ReplayError", "check_record", "read_record",
           "replay_state", "validate_record", "write_record"]
