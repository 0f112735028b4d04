"""The client's line reader on a real socket pair: whole lines however they arrive, the end of the stream,
and an answer that is there already found by polling, without sleeping."""

import socket
import threading
import unittest

from kvledger.client import DEFAULT_SPIN, SocketLines


class SocketLinesTest(unittest.TestCase):

    def setUp(self):
        self.ours, self.theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)

    def tearDown(self):
        self.ours.close()
        self.theirs.close()

    def test_a_line_in_pieces_and_two_lines_in_one_piece_read_as_lines(self):
        lines = SocketLines(self.ours)
        sender = threading.Thread(target=lambda: [self.theirs.sendall(part) for part in
                                                  (b'{"step":', b'1,"events"', b':[]}\n{"step":2}\n{"st')])
        sender.start()
        self.assertEqual(b'{"step":1,"events":[]}\n', lines.readline())
        self.assertEqual(b'{"step":2}\n', lines.readline())
        sender.join()
        self.theirs.sendall(b'ep":3}\n')
        self.assertEqual(b'{"step":3}\n', lines.readline())

    def test_the_end_of_the_stream_gives_what_is_left_then_nothing(self):
        lines = SocketLines(self.ours)
        self.theirs.sendall(b'{"step":1}\n{"cut')
        self.theirs.close()
        self.assertEqual(b'{"step":1}\n', lines.readline())
        self.assertEqual(b'{"cut', lines.readline())
        self.assertEqual(b"", lines.readline())

    def test_an_answer_already_there_is_found_by_polling(self):
        lines = SocketLines(self.ours, spin=0.003)
        self.theirs.sendall(b'{"step":1}\n')
        self.assertEqual(b'{"step":1}\n', lines.readline())
        self.assertEqual((1, 0), (lines.polled, lines.slept))

    def test_without_spin_it_sleeps_in_the_receive(self):
        self.assertEqual(0, DEFAULT_SPIN, "off unless asked for")
        lines = SocketLines(self.ours)
        self.theirs.sendall(b'{"step":1}\n')
        self.assertEqual(b'{"step":1}\n', lines.readline())
        self.assertEqual((0, 1), (lines.polled, lines.slept))

    def test_a_socket_with_a_timeout_still_times_out_after_polling(self):
        self.ours.settimeout(0.05)
        lines = SocketLines(self.ours, spin=0.001)
        with self.assertRaises(socket.timeout):
            lines.readline()
        self.assertEqual(1, lines.slept)


if __name__ == "__main__":
    unittest.main()
