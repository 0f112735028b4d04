"""The client of ``kvledger serve``: one engine, one step per scheduler step (docs/serve-protocol.md)."""

import json
import os
import select
import shutil
import socket
import subprocess
import tempfile
import time

from .errors import ConnectionClosedError, KvLedgerError, ServerStartError, error_from_answer
from .events import Hello, StepResult

PROTOCOL = 1

# Off by default: on a busy machine polling cost more than it saved (docs/python.md, "Waiting for answers").
DEFAULT_SPIN = 0.0

# No cycle check: a request is plain data the client built (a fifth less time encoding a 256-request step).
_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False).encode
_json_decode = json.JSONDecoder().decode


def _decode(line):
    return _json_decode(line.decode("utf-8"))


class Ledger:
    """A connection to one ``kvledger serve``, greeted and ready for steps.

    Use :meth:`connect` for a server on a Unix domain socket, or :meth:`spawn` for a child server on
    standard streams. A ``Ledger`` is a context manager; :meth:`close` ends the connection (and stops a
    spawned server, which flushes its store). Not thread-safe: one scheduler thread drives it.
    """

    def __init__(self, reader, write, closer, config=None, client="kvledger-python"):
        self._reader = reader
        self._write = write
        self._closer = closer
        self._closed = False
        try:
            hello = {"protocol": PROTOCOL, "client": client}
            if config is not None:
                hello["config"] = config
            self.hello = Hello.from_json(self._request({"hello": hello})["hello"])
        except BaseException:
            self.close()
            raise

    @classmethod
    def connect(cls, path, config=None, timeout=None, wait=0.0, client="kvledger-python", spin=DEFAULT_SPIN):
        """Connects to ``kvledger serve --socket PATH``.

        ``config`` (a dict as a scenario's config line gives it) opens the server's engine with it if the
        server has none yet, and must otherwise equal the engine's (:class:`ConfigMismatchError`).
        ``wait`` is how many seconds to keep trying while the socket is missing or refuses (a server still
        starting); ``timeout`` bounds each read and write. ``spin`` is how many seconds to poll for an
        answer before sleeping until it comes (default 0: sleep at once); see :class:`SocketLines`.
        """
        deadline = time.monotonic() + wait
        while True:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                sock.settimeout(timeout)
                sock.connect(os.fspath(path))
                break
            except (FileNotFoundError, ConnectionRefusedError) as e:
                sock.close()
                if time.monotonic() >= deadline:
                    raise ConnectionClosedError("cannot connect to %s: %s" % (path, e)) from e
                time.sleep(0.02)
            except OSError as e:
                sock.close()
                raise ConnectionClosedError("cannot connect to %s: %s" % (path, e)) from e
        reader = SocketLines(sock, spin)

        def closer():
            sock.close()

        return cls(reader, sock.sendall, closer, config, client)

    @classmethod
    def spawn(cls, config=None, store=None, jar=None, java=None, args=(), command=None, client="kvledger-python"):
        """Starts ``kvledger serve --stdio`` as a child process and connects to it.

        The server is ``java -jar JAR serve --stdio`` with ``jar`` or the ``KVLEDGER_JAR`` environment
        variable, or the ``kvledger`` launcher found on ``PATH``; ``command`` replaces the whole command
        (``--stdio`` and ``args`` are appended). ``store`` keeps the events in a store file.
        """
        argv = list(command) if command is not None else server_command(jar, java)
        argv += ["serve", "--stdio"] if command is None else ["--stdio"]
        if store is not None:
            argv += ["--store", os.fspath(store)]
        argv += list(args)
        stderr = tempfile.TemporaryFile()
        try:
            process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                                       bufsize=0)
        except OSError as e:
            stderr.close()
            raise ServerStartError("cannot start %s: %s" % (argv[0], e)) from e

        def write(data):
            process.stdin.write(data)
            process.stdin.flush()

        def closer():
            try:
                process.stdin.close()
            except OSError:
                pass
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.terminate()
                process.wait(timeout=30)
            finally:
                process.stdout.close()
                stderr.close()

        reader = _ProcessReader(process, stderr)
        ledger = cls(reader, write, closer, config, client)
        ledger.process = process
        return ledger

    def step(self, commands, lines=None, timing=False, events="all"):
        """Executes one scheduler step: ``commands`` are dicts in the scenario format (see :mod:`kvledger.commands`),
        or arrays in the compact form (:mod:`kvledger.compact`, cheaper to build and encode).

        ``lines`` optionally numbers the commands for their rejections (e.g. a scenario's line numbers).
        ``events="grouped"`` asks for only the events a host acts on (jobs, flushes, releases, rejections),
        which is cheaper to encode and decode; ``result.events`` then holds only those. ``timing=True`` asks the server for its own times (``result.timing``: ``parseNanos``, ``stepNanos``,
        ``encodeNanos``). Returns a :class:`StepResult`; raises :class:`ProtocolError` when the server
        refuses the step as a whole (it then changed nothing).
        """
        request = {"step": commands}
        if lines is not None:
            request["lines"] = lines
        if timing:
            request["timing"] = True
        if events != "all":
            request["events"] = events
        return StepResult(self._request(request))

    def _request(self, request):
        if self._closed:
            raise KvLedgerError("the ledger is closed")
        data = _encode(request).encode("utf-8") + b"\n"
        try:
            self._write(data)
        except OSError as e:
            # A server that refused the connection (another client is connected) or is stopping said why first.
            line = self._readline_quietly()
            if line.endswith(b"\n"):
                self._raise_if_error(self._decode_answer(line))
            raise ConnectionClosedError("the server closed the connection before the request was sent whole (%s);"
                                        " it did not run" % e) from e
        try:
            line = self._reader.readline()
        except OSError as e:
            raise ConnectionClosedError("the connection failed while waiting for the answer (%s); the request may"
                                        " have run" % e, answer_cut=True) from e
        if not line:
            raise ConnectionClosedError("the server closed the connection without answering; the request may have"
                                        " run" + _stderr_of(self._reader), answer_cut=True)
        if not line.endswith(b"\n"):
            raise ConnectionClosedError("the server closed the connection in the middle of its answer (%d bytes"
                                        " arrived); the request may have run" % len(line) + _stderr_of(self._reader),
                                        answer_cut=True)
        answer = self._decode_answer(line)
        self._raise_if_error(answer)
        return answer

    @staticmethod
    def _decode_answer(line):
        try:
            answer = _decode(line)
        except ValueError as e:  # JSONDecodeError and UnicodeDecodeError are both ValueErrors
            raise KvLedgerError("the server's answer is not JSON (%s): %r" % (e, line[:200])) from e
        if not isinstance(answer, dict):
            raise KvLedgerError("the server's answer is not a JSON object: %r" % line[:200])
        return answer

    @staticmethod
    def _raise_if_error(answer):
        error = answer.get("error")
        if error is not None:
            raise error_from_answer(error)

    def _readline_quietly(self):
        try:
            return self._reader.readline()
        except OSError:
            return b""

    def close(self):
        """Ends the session; a spawned server then stops after flushing its store. Idempotent."""
        if not self._closed:
            self._closed = True
            self._closer()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def server_command(jar=None, java=None):
    """The command that starts the command line.

    ``java -jar JAR`` with ``jar`` or ``KVLEDGER_JAR``; else ``java -cp KVLEDGER_CLASSPATH`` (a build's
    classpath, as the project's tests use); else the ``kvledger`` launcher on ``PATH``.
    ``KVLEDGER_JAVA_OPTS`` is passed to the JVM.
    """
    java_cmd = [java or os.environ.get("KVLEDGER_JAVA", "java")] + os.environ.get("KVLEDGER_JAVA_OPTS", "").split()
    jar = jar or os.environ.get("KVLEDGER_JAR")
    if jar:
        return java_cmd + ["-jar", os.fspath(jar)]
    classpath = os.environ.get("KVLEDGER_CLASSPATH")
    if classpath:
        return java_cmd + ["-cp", classpath, "io.kvledger.infrastructure.cli.KvLedgerCli"]
    launcher = shutil.which("kvledger")
    if launcher:
        return [launcher]
    raise ServerStartError("no server to start: pass jar=, set KVLEDGER_JAR, or put the kvledger launcher on PATH")


def start_socket_server(path, jar=None, java=None, args=(), timeout=60.0):
    """Starts ``kvledger serve --socket PATH`` as a child process and waits until it listens.

    Returns the ``subprocess.Popen``; stop it with ``terminate()`` (SIGTERM: it flushes its store).
    """
    argv = server_command(jar, java) + ["serve", "--socket", os.fspath(path)] + list(args)
    stderr = tempfile.TemporaryFile()
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr)
    deadline = time.monotonic() + timeout
    while not os.path.exists(path):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            process.wait()
            stderr.seek(0)
            raise ServerStartError("kvledger serve did not start: " + stderr.read().decode("utf-8", "replace"))
        time.sleep(0.02)
    process.stderr_file = stderr
    return process


class SocketLines:
    """The server's answers on a socket, a line at a time.

    With ``spin`` > 0 a read first polls the socket for up to that many seconds, then sleeps in a blocking
    receive: the answer to a step comes within a few milliseconds, and a thread that sleeps for it leaves
    its CPU idle, which a virtual machine may be slow to wake. On a busy machine the polling only takes
    CPU from others, so it is off by default. The socket's timeout, if any, bounds the blocking receive.
    """

    def __init__(self, sock, spin=DEFAULT_SPIN):
        self._sock = sock
        self._spin_ns = int(spin * 1e9)
        self._buffer = bytearray()
        self._poller = select.poll()
        self._poller.register(sock, select.POLLIN)  # readable, closed or reset: recv then says which
        self.polled = 0      # receives that found the answer while polling
        self.slept = 0       # receives that slept for it

    def readline(self):
        """The next line with its newline; at the end of the stream what is left (``b""`` when nothing)."""
        buffer, scanned = self._buffer, 0
        while True:
            end = buffer.find(b"\n", scanned)
            if end >= 0:
                line = bytes(buffer[:end + 1])
                del buffer[:end + 1]
                return line
            scanned = len(buffer)
            chunk = self._receive()
            if not chunk:
                line = bytes(buffer)
                buffer.clear()
                return line
            buffer += chunk

    def _receive(self):
        if self._spin_ns > 0:
            poll, deadline = self._poller.poll, time.perf_counter_ns() + self._spin_ns
            while not poll(0):
                if time.perf_counter_ns() >= deadline:
                    self.slept += 1
                    return self._sock.recv(1 << 16)
            self.polled += 1
        else:
            self.slept += 1
        return self._sock.recv(1 << 16)


class _ProcessReader:
    """Reads a child server's answers; at its end, says what the server printed on stderr."""

    def __init__(self, process, stderr):
        self.process = process
        self.stderr = stderr

    def readline(self):
        return self.process.stdout.readline()

    def stderr_text(self):
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", "replace")


def _stderr_of(reader):
    if isinstance(reader, _ProcessReader):
        text = reader.stderr_text().strip()
        if text:
            return " (exit %s): %s" % (reader.process.returncode, text)
    return ""
