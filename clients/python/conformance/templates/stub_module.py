"""Stand-in for a package vLLM imports at start-up but its scheduler never calls.

Every attribute is a fresh placeholder class, so `from <module> import Name` works;
calling into one fails loudly instead of doing anything.
"""


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    placeholder = type(name, (), {"__module__": __name__})
    globals()[name] = placeholder
    return placeholder
