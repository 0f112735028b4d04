"""The events of the log format (contract section 3) as dataclasses, and the step's result.

Field names are the log's, in snake case (``requestId`` -> ``request_id``). Every event keeps ``seq``
and ``type``; :func:`event_from_json` turns one decoded log object into its dataclass, and
:meth:`Event.to_json` gives the object back as the log writes it.
"""

import re
from dataclasses import dataclass, field, fields
from typing import Any, Dict, List, Optional

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def _snake(name):
    return _CAMEL.sub("_", name).lower()


@dataclass
class Event:
    seq: int

    @property
    def type(self):
        return type(self).__name__

    def to_json(self):
        """The event as a log object: ``seq``, ``type``, then the log's (camel case) field names."""
        out = {"seq": self.seq, "type": self.type}
        for f in fields(self)[1:]:
            value = getattr(self, f.name)
            if f.metadata.get("omit_none") and value is None:
                continue
            out[f.metadata.get("json", f.name)] = value
        return out


def _f(json_name, **kw):
    return field(metadata={"json": json_name, **kw.pop("metadata", {})}, **kw)


@dataclass
class EngineConfigured(Event):
    gpu_block_size: int = _f("gpuBlockSize", default=16)
    blocks_per_chunk: int = _f("blocksPerChunk", default=1)
    workers: int = _f("workers", default=1)
    cpu_capacity_chunks: int = _f("cpuCapacityChunks", default=1024)
    release_policy: str = _f("releasePolicy", default="FENCE")
    max_offload_tokens: Optional[int] = _f("maxOffloadTokens", default=None)
    offload_prompt_only: bool = _f("offloadPromptOnly", default=False)
    # KV cache groups (contract 7.1): written only when the config gives them, so a log without them reads as before.
    groups: Optional[List[Dict[str, Any]]] = _f("groups", default=None, metadata={"omit_none": True})
    # What wrote the log (contract 9.3), last, only when that producer knows it; no rule depends on it.
    producer: Optional[str] = _f("producer", default=None, metadata={"omit_none": True})

    def config(self):
        """The config as a scenario's config line (and a hello) gives it."""
        out = self.to_json()
        del out["seq"], out["type"]
        out.pop("producer", None)
        return out


@dataclass
class RequestRegistered(Event):
    request_id: str = _f("requestId", default="")
    prompt_length: int = _f("promptLength", default=0)
    prompt_tokens: List[int] = _f("promptTokens", default_factory=list)
    # The per-request controls of contract 9.1, each only when the command gave it.
    max_offload_tokens: Optional[int] = _f("maxOffloadTokens", default=None, metadata={"omit_none": True})
    max_load_tokens: Optional[int] = _f("maxLoadTokens", default=None, metadata={"omit_none": True})
    skip_reading_prefix_cache: Optional[bool] = _f("skipReadingPrefixCache", default=None, metadata={"omit_none": True})


@dataclass
class PrefixMatched(Event):
    request_id: str = _f("requestId", default="")
    gpu_hit_tokens: int = _f("gpuHitTokens", default=0)
    external_tokens: int = _f("externalTokens", default=0)
    hit_chunks: List[int] = _f("hitChunks", default_factory=list)


@dataclass
class PrefixMatchDeferred(Event):
    request_id: str = _f("requestId", default="")
    gpu_hit_tokens: int = _f("gpuHitTokens", default=0)
    reason: str = _f("reason", default="")


@dataclass
class BlocksAllocated(Event):
    request_id: str = _f("requestId", default="")
    block_ids: List[int] = _f("blockIds", default_factory=list)
    external_tokens: int = _f("externalTokens", default=0)


@dataclass
class LoadJobScheduled(Event):
    """Copy ``keys`` (chunks ``chunk_indices``) from the CPU tier into GPU blocks ``block_ids``."""
    job_id: int = _f("jobId", default=0)
    request_id: str = _f("requestId", default="")
    chunk_indices: List[int] = _f("chunkIndices", default_factory=list)
    keys: List[str] = _f("keys", default_factory=list)
    block_ids: List[int] = _f("blockIds", default_factory=list)


@dataclass
class StoreJobScheduled(Event):
    """Copy GPU blocks ``block_ids`` (F per chunk) into the CPU tier under ``keys``."""
    job_id: int = _f("jobId", default=0)
    request_id: str = _f("requestId", default="")
    chunk_indices: List[int] = _f("chunkIndices", default_factory=list)
    keys: List[str] = _f("keys", default_factory=list)
    block_ids: List[int] = _f("blockIds", default_factory=list)


@dataclass
class TokensComputed(Event):
    request_id: str = _f("requestId", default="")
    num_computed_tokens: int = _f("numComputedTokens", default=0)


@dataclass
class TokensRejected(Event):
    request_id: str = _f("requestId", default="")
    num_computed_tokens: int = _f("numComputedTokens", default=0)


@dataclass
class TokensAppended(Event):
    request_id: str = _f("requestId", default="")
    num_tokens: int = _f("numTokens", default=0)
    tokens: List[int] = _f("tokens", default_factory=list)


@dataclass
class StoreDeferred(Event):
    request_id: str = _f("requestId", default="")
    chunk_indices: List[int] = _f("chunkIndices", default_factory=list)
    reason: str = _f("reason", default="")


@dataclass
class StoreJobCompleted(Event):
    job_id: int = _f("jobId", default=0)
    request_id: str = _f("requestId", default="")
    success: bool = _f("success", default=True)


@dataclass
class LoadJobCompleted(Event):
    job_id: int = _f("jobId", default=0)
    request_id: str = _f("requestId", default="")
    success: bool = _f("success", default=True)


@dataclass
class TransferAcknowledged(Event):
    job_id: int = _f("jobId", default=0)
    request_id: str = _f("requestId", default="")
    success: bool = _f("success", default=True)


@dataclass
class ChunksStored(Event):
    keys: List[str] = _f("keys", default_factory=list)


@dataclass
class ChunksEvicted(Event):
    keys: List[str] = _f("keys", default_factory=list)


@dataclass
class FlushRequired(Event):
    """Wait for ``job_ids`` before reusing ``block_ids``."""
    job_ids: List[int] = _f("jobIds", default_factory=list)
    block_ids: List[int] = _f("blockIds", default_factory=list)


@dataclass
class RequestPreempted(Event):
    request_id: str = _f("requestId", default="")


@dataclass
class RequestAborted(Event):
    request_id: str = _f("requestId", default="")


@dataclass
class RequestFinished(Event):
    request_id: str = _f("requestId", default="")
    reason: str = _f("reason", default="")


@dataclass
class WindowBlocksFreed(Event):
    """Sliding-window blocks the host freed (contract 7.3): their entries are null from now on."""
    request_id: str = _f("requestId", default="")
    block_ids: List[Any] = _f("blockIds", default_factory=list)


@dataclass
class BlocksReleased(Event):
    """The host may free ``block_ids`` now."""
    request_id: str = _f("requestId", default="")
    block_ids: List[int] = _f("blockIds", default_factory=list)


@dataclass
class CacheReset(Event):
    stale_below_job_id: int = _f("staleBelowJobId", default=0)


@dataclass
class CommandRejected(Event):
    """A refused command; it changed nothing. ``line`` is the number the step gave it."""
    line: int = _f("line", default=0)
    cmd: str = _f("cmd", default="")
    code: str = _f("code", default="")
    message: str = _f("message", default="")
    request_id: Any = _f("requestId", default=None, metadata={"omit_none": True})
    job_id: Any = _f("jobId", default=None, metadata={"omit_none": True})


@dataclass
class UnknownEvent(Event):
    """An event of a type this client does not know (a newer server); its fields as given."""
    event_type: str = ""
    data: Dict[str, Any] = field(default_factory=dict)

    @property
    def type(self):
        return self.event_type

    def to_json(self):
        return dict(self.data)


def _decoder(cls):
    names = [(f.metadata.get("json", f.name), f.name) for f in fields(cls)[1:]]
    defaults = cls(0).__dict__
    new = object.__new__

    def decode(obj):
        # A step answer holds hundreds of events: fill the instance's dict directly, not through __init__.
        event = new(cls)
        state = event.__dict__
        state["seq"] = obj["seq"]
        for json_name, attr in names:
            if json_name in obj:
                state[attr] = obj[json_name]
            else:
                default = defaults[attr]
                state[attr] = list(default) if isinstance(default, list) else default
        return event

    return decode


EVENT_TYPES = {cls.__name__: cls for cls in (
    EngineConfigured, RequestRegistered, PrefixMatched, PrefixMatchDeferred, BlocksAllocated, LoadJobScheduled,
    TokensComputed, TokensRejected, TokensAppended, StoreJobScheduled, StoreDeferred, StoreJobCompleted,
    LoadJobCompleted, TransferAcknowledged, ChunksStored, ChunksEvicted, FlushRequired, RequestPreempted,
    RequestAborted, RequestFinished, BlocksReleased, WindowBlocksFreed, CacheReset, CommandRejected)}
_DECODERS = {name: _decoder(cls) for name, cls in EVENT_TYPES.items()}


def event_from_json(obj):
    """The dataclass of one decoded log object (an :class:`UnknownEvent` for a type this client lacks)."""
    decode = _DECODERS.get(obj.get("type"))
    if decode is None:
        return UnknownEvent(obj.get("seq", 0), obj.get("type", ""), dict(obj))
    return decode(obj)


class StepResult:
    """What one step produced: its events in order, and the groups a host acts on.

    ``flushes`` (wait for these jobs before reusing these blocks), ``store_jobs`` and ``load_jobs``
    (submit them), ``releases`` (the host may free these blocks), ``rejections`` (refused commands,
    which changed nothing). ``events`` is every event, decoded when first read.
    """

    __slots__ = ("step", "last_seq", "raw_events", "timing", "_answer", "_events")

    def __init__(self, answer):
        self._answer = answer
        self.step = answer["step"]
        self.last_seq = answer["lastSeq"]
        self.raw_events = answer["events"]
        self.timing = answer.get("timing")
        self._events = None

    @property
    def events(self) -> List[Event]:
        if self._events is None:
            self._events = [event_from_json(e) for e in self.raw_events]
        return self._events

    def _group(self, name):
        raw = self.raw_events
        if self._events is not None:
            return [self._events[i] for i in self._answer[name]]
        return [event_from_json(raw[i]) for i in self._answer[name]]

    @property
    def store_jobs(self) -> List[StoreJobScheduled]:
        return self._group("storeJobs")

    @property
    def load_jobs(self) -> List[LoadJobScheduled]:
        return self._group("loadJobs")

    @property
    def flushes(self) -> List[FlushRequired]:
        return self._group("flushes")

    @property
    def releases(self) -> List[BlocksReleased]:
        return self._group("releases")

    @property
    def rejections(self) -> List[CommandRejected]:
        return self._group("rejections")

    def __repr__(self):
        return "StepResult(step=%d, events=%d, last_seq=%d)" % (self.step, len(self.raw_events), self.last_seq)


@dataclass
class Hello:
    """The server's answer to the session's hello."""
    protocol: int
    server: str
    engine_id: str
    resumed: bool
    last_seq: int
    steps: int
    config: EngineConfigured

    @classmethod
    def from_json(cls, obj):
        return cls(obj["protocol"], obj["server"], obj["engineId"], obj["resumed"], obj["lastSeq"], obj["steps"],
                   event_from_json(obj["config"]))
