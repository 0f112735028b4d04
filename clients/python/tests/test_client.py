"""The client against a real server: typed results, refusals as exceptions, one client at a time,
a server that goes away, and the context manager."""

import os
import select
import signal
import socket
import threading
import subprocess
import tempfile
import time
import unittest
from pathlib import Path

import kvledger
from kvledger import (BlocksReleased, CommandRejected, ConfigMismatchError, ConnectionClosedError, FlushRequired,
                      KvLedgerError, Ledger, ProtocolError, ServerBusyError, ServerStoppingError, StoreJobScheduled,
                      commands as c)
from kvledger.client import SocketLines

from . import support


def start_socket_server(path, *args):
    command = support.serve_command() + ["--socket", str(path)] + list(args)
    stderr = tempfile.TemporaryFile()
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr)
    deadline = time.monotonic() + 120
    while not os.path.exists(path):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            stderr.seek(0)
            raise AssertionError("the server did not start: %s" % stderr.read().decode())
        time.sleep(0.02)
    process.stderr_file = stderr
    Ledger.connect(path, wait=60).close()  # listening, not only bound
    return process


class SocketClientTest(unittest.TestCase):
    """One server on a Unix domain socket, shared by these tests (each uses its own request ids)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.socket = Path(cls.tmp.name) / "kvledger.sock"
        cls.store = Path(cls.tmp.name) / "engine.jsonl"
        cls.server = start_socket_server(cls.socket, "--store", cls.store, "--config", '{"gpuBlockSize": 4}')

    @classmethod
    def tearDownClass(cls):
        cls.server.send_signal(signal.SIGTERM)
        cls.server.wait(timeout=60)
        cls.server.stderr_file.close()
        cls.tmp.cleanup()

    def test_compact_commands_run_as_their_dicts_do(self):
        def step(builders, rid, first):
            return [builders.register(rid, range(first, first + 8)), builders.match_prefix(rid), builders.allocate(rid, [first, first + 1]),
                    builders.compute(rid, 8), builders.append(rid, [9]), builders.reject(rid, 1),
                    builders.complete(10 ** 6), builders.preempt(rid), builders.finish(rid, "LENGTH"),
                    builders.abort(rid)]
        names = [name for name in dir(c) if not name.startswith("_") and callable(getattr(c, name))]
        self.assertEqual(names, [name for name in dir(kvledger.compact) if not name.startswith("_")
                                 and callable(getattr(kvledger.compact, name))], "the same builders")
        with Ledger.connect(self.socket) as ledger:
            as_dicts = ledger.step(step(c, "k1", 1000), events="grouped")
            as_arrays = ledger.step(step(kvledger.compact, "k2", 2000), events="grouped")
        def shape(result):
            return [(e.type, getattr(e, "code", None)) for e in result.events]
        self.assertEqual(shape(as_dicts), shape(as_arrays))
        self.assertEqual([[1000, 1001], [2000, 2001]], [as_dicts.store_jobs[0].block_ids, as_arrays.store_jobs[0].block_ids])
        self.assertEqual(["INVALID_ARGUMENT", "UNKNOWN_JOB", "REQUEST_TERMINATED"], [e.code for e in as_arrays.rejections])

    def test_a_step_returns_typed_events_and_the_groups_a_host_acts_on(self):
        with Ledger.connect(self.socket) as ledger:
            self.assertEqual(4, ledger.hello.config.gpu_block_size)
            self.assertEqual("FENCE", ledger.hello.config.release_policy)
            result = ledger.step([c.register("t1", range(8)), c.allocate("t1", [7, 8]), c.compute("t1", 8),
                                  c.preempt("t1"), c.abort("nobody")])
            self.assertEqual([StoreJobScheduled], [type(e) for e in result.store_jobs])
            self.assertEqual([7, 8], result.store_jobs[0].block_ids)
            self.assertEqual([0, 1], result.store_jobs[0].chunk_indices)
            self.assertEqual(2, len(result.store_jobs[0].keys))
            self.assertIsInstance(result.flushes[0], FlushRequired)
            self.assertEqual([result.store_jobs[0].job_id], result.flushes[0].job_ids)
            self.assertIsInstance(result.releases[0], BlocksReleased)
            self.assertEqual([7, 8], result.releases[0].block_ids)
            rejection = result.rejections[0]
            self.assertIsInstance(rejection, CommandRejected)
            self.assertEqual(("UNKNOWN_REQUEST", "nobody"), (rejection.code, rejection.request_id))
            self.assertEqual(result.last_seq, result.events[-1].seq)
            self.assertEqual(list(range(result.events[0].seq, result.last_seq + 1)), [e.seq for e in result.events])
            again = ledger.step([c.complete(result.store_jobs[0].job_id)])
            self.assertEqual(result.last_seq + 1, again.events[0].seq, "seq continues the log")

    def test_a_grouped_answer_holds_the_events_a_host_acts_on(self):
        with Ledger.connect(self.socket) as ledger:
            result = ledger.step([c.register("g1", range(100, 108)), c.allocate("g1", [3, 4]), c.compute("g1", 8),
                                  c.abort("g1")], events="grouped")
            self.assertEqual(["StoreJobScheduled", "BlocksReleased"], [e.type for e in result.events])
            self.assertEqual([3, 4], result.store_jobs[0].block_ids)
            self.assertEqual([3, 4], result.releases[0].block_ids)
            self.assertEqual(result.last_seq, result.releases[0].seq + 0)
            timed = ledger.step([], timing=True)
            self.assertEqual({"parseNanos", "stepNanos", "encodeNanos"}, set(timed.timing))

    def test_a_refused_step_raises_and_changes_nothing(self):
        with Ledger.connect(self.socket) as ledger:
            with self.assertRaises(ProtocolError) as refused:
                ledger.step([c.register("t2", [1, 2, 3]), {"cmd": "Launch"}])
            self.assertEqual("MALFORMED_COMMAND", refused.exception.code)
            self.assertEqual(1, refused.exception.index)
            self.assertIn("Launch", str(refused.exception))
            result = ledger.step([c.match_prefix("t2")])
            self.assertEqual("UNKNOWN_REQUEST", result.rejections[0].code, "t2 was never registered")

    def test_a_hello_with_another_config_is_refused(self):
        with self.assertRaises(ConfigMismatchError) as refused:
            Ledger.connect(self.socket, config={"gpuBlockSize": 16})
        self.assertIn("one engine per server", refused.exception.message)
        with Ledger.connect(self.socket, config={"gpuBlockSize": 4}) as ledger:
            self.assertEqual(4, ledger.hello.config.gpu_block_size)

    def test_a_second_client_is_refused_while_one_is_connected(self):
        with Ledger.connect(self.socket) as first:
            with self.assertRaises(ServerBusyError) as refused:
                Ledger.connect(self.socket)
            self.assertEqual("BUSY", refused.exception.code)
            first.step([c.register("t3", [1])])
        deadline = time.monotonic() + 30
        while True:  # the server notices the first client's close
            try:
                with Ledger.connect(self.socket) as later:
                    self.assertGreater(later.hello.last_seq, 1)
                break
            except ServerBusyError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)


class SpawnedServerTest(unittest.TestCase):

    def test_the_context_manager_stops_the_spawned_server_which_flushes_its_store(self):
        with tempfile.TemporaryDirectory() as tmp:
            store = Path(tmp) / "engine.jsonl"
            with Ledger.spawn(store=store, command=support.serve_command()) as ledger:
                result = ledger.step([c.register("s1", range(16))])
                process = ledger.process
            self.assertEqual(0, process.returncode)
            lines = store.read_text(encoding="utf-8").splitlines()
            self.assertEqual(result.last_seq, len(lines))
            with Ledger.spawn(store=store, command=support.serve_command()) as resumed:
                self.assertTrue(resumed.hello.resumed)
                self.assertEqual(result.last_seq, resumed.hello.last_seq)
                self.assertEqual("DUPLICATE_REQUEST", resumed.step([c.register("s1", [1])]).rejections[0].code)

    def test_a_server_that_dies_raises_connection_closed(self):
        ledger = Ledger.spawn(command=support.serve_command())
        try:
            ledger.process.kill()
            ledger.process.wait()
            with self.assertRaises(ConnectionClosedError):
                ledger.step([c.register("d1", [1])])
        finally:
            ledger.close()
        with self.assertRaises(kvledger.KvLedgerError):
            ledger.step([])

    def test_a_server_that_cannot_start_says_why(self):
        with self.assertRaises(ConnectionClosedError) as failed:
            Ledger.spawn(command=support.serve_command(), args=["--config", "{\"gpuBlockSize\": 0}"])
        self.assertIn("gpuBlockSize", str(failed.exception))


def big_step(requests=4000, tokens=299):
    """A step whose answer (about 5 MB) is far larger than a socket's buffer."""
    return [kvledger.compact.register("q%d" % r, [(r * 7919 + t) % 50000 for t in range(tokens)])
            for r in range(requests)]


def stored_last_seq(store):
    exported = support.cli("export", "--store", store, check=False)
    if exported.returncode != 0:
        raise AssertionError("export exited %d: %s" % (exported.returncode, exported.stderr.decode()))
    return len(exported.stdout.splitlines())


class ServerStoppingTest(unittest.TestCase):
    """A real server stopped, or killed, while it runs or answers a large step: the client gets the whole
    answer, a ServerStoppingError, or a ConnectionClosedError, always a kvledger error, never a JSON decoding
    or raw socket error."""

    def test_sigterm_during_a_step_gives_its_whole_answer_or_a_refusal(self):
        step = big_step()
        outcomes = []
        for delay in (0.0, 1.0, 2.0):
            with tempfile.TemporaryDirectory() as tmp:
                sock, store = Path(tmp) / "kvledger.sock", Path(tmp) / "engine.jsonl"
                server = start_socket_server(sock, "--store", store)
                try:
                    with Ledger.connect(sock, config={"gpuBlockSize": 16}) as ledger:
                        timer = threading.Timer(delay, server.send_signal, (signal.SIGTERM,))
                        timer.start()
                        try:
                            result = ledger.step(step, events="grouped")
                        except ServerStoppingError:
                            result = None
                        finally:
                            timer.join()
                    self.assertEqual(0, server.wait(timeout=60), "a clean stop")
                finally:
                    server.kill()
                    server.wait()
                    server.stderr_file.close()
                if result is None:
                    self.assertEqual(1, stored_last_seq(store), "a refused step is not stored")
                    outcomes.append("refused")
                else:
                    self.assertEqual(1 + 4000, result.last_seq)
                    self.assertEqual(result.last_seq, stored_last_seq(store), "the answered step is stored")
                    outcomes.append("answered")
        self.assertEqual(3, len(outcomes))

    def test_an_answer_cut_by_a_killed_server_is_a_kvledger_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            sock = Path(tmp) / "kvledger.sock"
            server = start_socket_server(sock)
            connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            connection.connect(str(sock))
            sending_step = []

            def write(data):
                connection.sendall(data)
                if sending_step:
                    # The answer has begun to arrive and fills the socket's buffer: SIGKILL the server in the middle of it.
                    poller = select.poll()
                    poller.register(connection, select.POLLIN)
                    self.assertTrue(poller.poll(120000), "the answer began")
                    server.kill()
                    server.wait()

            try:
                ledger = Ledger(SocketLines(connection), write, connection.close)
                sending_step.append(True)
                with self.assertRaises(ConnectionClosedError) as cut:
                    ledger.step(big_step())
                self.assertTrue(cut.exception.answer_cut, str(cut.exception))
                self.assertIn("middle of its answer", str(cut.exception))
                ledger.close()
            finally:
                server.kill()
                server.wait()
                server.stderr_file.close()


if __name__ == "__main__":
    unittest.main()
