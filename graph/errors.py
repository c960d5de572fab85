"""The one error hierarchy graph/ raises; the API edge and the CLI translate it once."""


class WeftError(Exception):
    """Base class: an expected failure with a message fit for users."""

    code = "INTERNAL"


class NotFound(WeftError):
    """No node answers to the given id."""

    code = "NOT_FOUND"


class InvalidInput(WeftError):
    """An argument or input record is malformed; `argument` names what was wrong."""

    code = "BAD_USER_INPUT"

    def __init__(self, message: str, argument: str | None = None) -> None:
        super().__init__(message)
        self.argument = argument


class Unavailable(WeftError):
    """Neo4j cannot be reached or did not answer in time."""

    code = "UNAVAILABLE"


class WriterBusy(Unavailable):
    """Another command holds the writer lock (graph/writer_lock.py); the message names it."""

    code = "WRITER_BUSY"


class WriterLockLost(Unavailable):
    """This command's writer lock was taken over (its lease ran out): it must stop writing."""

    code = "WRITER_LOCK_LOST"
