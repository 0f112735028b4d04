"""Drive kvledger from Python: a client of ``kvledger serve`` (standard library only, Python 3.9+).

>>> from kvledger import Ledger, commands as c
>>> with Ledger.spawn(config={"gpuBlockSize": 4}) as ledger:
...     step = ledger.step([c.register("r1", range(8)), c.allocate("r1", [1, 2]), c.compute("r1", 8)])
...     step.store_jobs[0].block_ids
[1, 2]
"""

from . import commands, compact
from .client import Ledger, server_command, start_socket_server
from .errors import (ConfigMismatchError, ConnectionClosedError, KvLedgerError, ProtocolError, ServerBusyError,
                     ServerStartError, ServerStoppingError)
from .events import EVENT_TYPES, Event, Hello, StepResult, event_from_json
from .events import *  # noqa: F401,F403  (the event dataclasses)

__version__ = "0.1.0"
