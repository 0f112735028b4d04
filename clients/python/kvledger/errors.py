"""Exceptions of the kvledger client."""


class KvLedgerError(Exception):
    """Base of every error this package raises."""


class ProtocolError(KvLedgerError):
    """The server refused a request with an error answer; the request changed nothing.

    ``code`` is the server's stable code (``NOT_JSON``, ``BAD_REQUEST``, ``MALFORMED_COMMAND``, ...),
    ``index`` the position of the offending command in the step, or ``None``.
    """

    def __init__(self, code, message, index=None):
        where = "" if index is None else " (command %d)" % index
        super().__init__("%s: %s%s" % (code, message, where))
        self.code = code
        self.message = message
        self.index = index


class ServerBusyError(ProtocolError):
    """Another client is connected to the server (one client at a time)."""


class ConfigMismatchError(ProtocolError):
    """The server's engine has another config than the one this client asked for."""


class ServerStoppingError(ProtocolError):
    """The server is stopping (``SHUTTING_DOWN``): the request did not run. Connect to the next server."""


class ConnectionClosedError(KvLedgerError):
    """The server closed the connection (it stopped, or was killed).

    ``answer_cut`` is true when it closed in the middle of an answer: a step may then have run (its
    events are in the server's store, ``kvledger export`` reads them back) without its answer arriving.
    """

    def __init__(self, message, answer_cut=False):
        super().__init__(message)
        self.answer_cut = answer_cut


class ServerStartError(KvLedgerError):
    """A spawned ``kvledger serve`` did not start; the message holds what it printed."""


_BY_CODE = {"BUSY": ServerBusyError, "CONFIG_MISMATCH": ConfigMismatchError, "SHUTTING_DOWN": ServerStoppingError}


def error_from_answer(error):
    """The exception for an ``{"error": {...}}`` answer."""
    code = error.get("code", "UNKNOWN")
    return _BY_CODE.get(code, ProtocolError)(code, error.get("message", ""), error.get("index"))
