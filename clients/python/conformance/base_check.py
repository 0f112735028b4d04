"""Compares the tests' stand-in of vLLM's connector base (``tests/vllm_api.py``) with vLLM's real one.

For ``KVConnectorBase_V1``, ``SupportsHMA`` and ``KVConnectorRole``: every member the real class defines
(its own and inherited, ``object``'s left out), its kind (method, property, class method, static method,
abstract or not) and its signature (parameter names, kinds and defaults; annotations are left out, the
stand-in has none). Run by the conformance harness, so drift of vLLM's base is caught where vLLM is there.

    python -m conformance.base_check        # prints the differences, exit 1 when there are some
"""

import importlib.util
import inspect
import os
import sys

STANDIN = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "vllm_api.py")
CLASSES = ("KVConnectorBase_V1", "SupportsHMA", "KVConnectorRole")


def _load_standin():
    spec = importlib.util.spec_from_file_location("kvledger_tests_vllm_api", STANDIN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _kind(cls, name):
    raw = inspect.getattr_static(cls, name)
    kind = type(raw).__name__  # function, property, classmethod, staticmethod, member, ...
    target = raw.fget if isinstance(raw, property) else getattr(raw, "__func__", raw)
    if getattr(target, "__isabstractmethod__", False):
        kind = "abstract " + kind
    return kind, target


def _signature(target):
    try:
        sig = inspect.signature(target)
    except (TypeError, ValueError):
        return None
    return "(%s)" % ", ".join(
        p.name if p.default is inspect.Parameter.empty and p.kind is p.POSITIONAL_OR_KEYWORD else
        ("*" if p.kind is p.VAR_POSITIONAL else "**" if p.kind is p.VAR_KEYWORD else "") + p.name +
        ("" if p.default is inspect.Parameter.empty else "=%r" % (p.default,))
        for p in sig.parameters.values())


def members(cls):
    """name -> (kind, signature) of every member a class has beyond ``object``'s (enum members by value)."""
    out = {}
    if isinstance(cls, type) and issubclass(cls, __import__("enum").Enum):
        return {m.name: ("enum member", repr(m.value)) for m in cls}
    for name in dir(cls):
        if name in dir(object) or name in ("__abstractmethods__", "_abc_impl", "__dict__", "__weakref__",
                                           "__module__", "__annotations__", "__orig_bases__", "__parameters__"):
            continue
        if name.startswith("__") and name != "__init__":
            continue
        kind, target = _kind(cls, name)
        out[name] = (kind, _signature(target) if callable(target) else None)
    return out


def compare(real_module=None, standin_module=None):
    """The differences between the stand-in's classes and vLLM's, as sentences; empty when they agree."""
    if real_module is None:
        import vllm.distributed.kv_transfer.kv_connector.v1.base as real_module
    standin_module = standin_module or _load_standin()
    drift = []
    for cls_name in CLASSES:
        real, standin = members(getattr(real_module, cls_name)), members(getattr(standin_module, cls_name))
        for name in sorted(set(real) - set(standin)):
            drift.append("%s.%s is vLLM's (%s%s) but not the stand-in's" % (cls_name, name, real[name][0],
                                                                            real[name][1] or ""))
        for name in sorted(set(standin) - set(real)):
            drift.append("%s.%s is the stand-in's but not vLLM's" % (cls_name, name))
        for name in sorted(set(real) & set(standin)):
            if real[name] != standin[name]:
                drift.append("%s.%s: vLLM's is %s %s, the stand-in's %s %s" % (
                    cls_name, name, real[name][0], real[name][1], standin[name][0], standin[name][1]))
    return drift


if __name__ == "__main__":
    differences = compare()
    print("\n".join(differences) if differences else "the stand-in base has vLLM's members and signatures")
    sys.exit(1 if differences else 0)
