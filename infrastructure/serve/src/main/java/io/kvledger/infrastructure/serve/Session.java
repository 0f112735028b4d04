package io.kvledger.infrastructure.serve;

import io.kvledger.infrastructure.serve.ProtocolError.Code;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

/**
 * One client's conversation: a hello, then steps, each answered by one line, until the client closes
 * its end. A refused request is answered with an error and changes nothing; the session goes on.
 *
 * <p>A request is a turn: from its whole line read to its answer written and flushed. {@link #stop}
 * waits for the turn in progress, so a step that ran is always answered whole before the connection is
 * closed; a request read after the stop began is answered {@code SHUTTING_DOWN} and not run.
 */
final class Session {

    private final ServedEngine engine;
    private final ServeMetrics metrics;
    private final PrintStream log;
    private final String server;
    private final Object turn = new Object();
    private boolean inTurn;
    private boolean stopping;
    private boolean noticeSent;
    private boolean noticeWriting;
    private boolean stopped;
    private boolean stopDone;
    private OutputStream out;
    private Closeable connection;

    Session(ServedEngine engine, ServeMetrics metrics, PrintStream log, String server) {
        this.engine = engine;
        this.metrics = metrics;
        this.log = log;
        this.server = server;
    }

    /**
     * Serves until the input ends or {@link #stop} ends the session; an IOException means the client went
     * away (its last step, if whole, ran).
     *
     * @param connection closed by {@link #stop} once the turn in progress is over
     */
    void serve(InputStream in, OutputStream out, Closeable connection) throws IOException {
        boolean notify;
        synchronized (turn) {
            this.out = out;
            this.connection = connection;
            notify = stopping && claimNotice(); // a client accepted while the server was stopping
        }
        if (notify) {
            writeNotice();
            return;
        }
        LineInput lines = new LineInput(in);
        AnswerWriter answers = new AnswerWriter();
        boolean greeted = false;
        while (true) {
            boolean whole;
            try {
                whole = lines.next(ServeProtocol.MAX_LINE_BYTES);
            } catch (LineInput.LineTooLongException e) {
                if (!beginTurn()) {
                    return;
                }
                try {
                    refuse(answers, out, new ProtocolError(Code.LINE_TOO_LONG, "a request line may hold at most "
                            + ServeProtocol.MAX_LINE_BYTES + " bytes (64 MiB); this one was longer and was skipped"));
                } finally {
                    endTurn();
                }
                continue;
            } catch (IOException e) {
                if (stopped()) {
                    return; // stop() closed the connection between two requests
                }
                throw e;
            }
            if (!whole || !beginTurn()) {
                return;
            }
            try {
                greeted = answer(lines, answers, out, greeted);
            } finally {
                endTurn();
            }
        }
    }

    /** Answers the line read; returns whether the session has been greeted. */
    private boolean answer(LineInput lines, AnswerWriter answers, OutputStream out, boolean greeted) throws IOException {
        if (lines.isBlank()) {
            // A client that sent nothing waits for an answer as for any other line.
            refuse(answers, out, new ProtocolError(Code.BAD_REQUEST,
                    "an empty line is not a request: send one JSON object, a hello or a step, per line"));
            return greeted;
        }
        long start = System.nanoTime();
        try {
            Request request = RequestReader.read(lines.bytes(), lines.length(), engine.config());
            if (request instanceof Request.Hello hello) {
                answerHello(hello, answers);
                greeted = true;
            } else if (!greeted) {
                throw new ProtocolException(Code.HELLO_REQUIRED, "the first request of a session must be a hello");
            } else {
                Request.Step step = (Request.Step) request;
                long parsed = System.nanoTime();
                long[] encodeStart = new long[1];
                engine.step(step, (number, firstSeq, result, stepNanos) -> {
                    encodeStart[0] = System.nanoTime();
                    AnswerWriter.Timing timing = step.timing()
                            ? new AnswerWriter.Timing(parsed - start, stepNanos, encodeStart[0]) : null;
                    answers.step(number, firstSeq, result.events(), step.grouped(), timing);
                });
                metrics.request(start, encodeStart[0], System.nanoTime());
            }
        } catch (ProtocolException e) {
            refuse(answers, out, e.error());
            return greeted;
        }
        answers.sendTo(out);
        return greeted;
    }

    /** A whole line was read: its turn begins, unless the server is stopping (then it is answered so and not run). */
    private boolean beginTurn() {
        boolean notify;
        synchronized (turn) {
            if (!stopping) {
                inTurn = true;
                return true;
            }
            notify = claimNotice();
        }
        if (notify) {
            writeNotice();
        } else {
            awaitStopDone(); // the stop is telling the client; the connection is not ours to close before it has
        }
        return false;
    }

    private void awaitStopDone() {
        synchronized (turn) {
            while (stopped && !stopDone) {
                try {
                    turn.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void endTurn() {
        synchronized (turn) {
            inTurn = false;
            turn.notifyAll();
        }
    }

    private boolean stopped() {
        synchronized (turn) {
            return stopped;
        }
    }

    /**
     * Stops the session: waits up to {@code graceNanos} for the turn in progress (a step and the whole of its
     * answer, which a client that does not read holds up), then sends {@code SHUTTING_DOWN} once, for the
     * client's next request, and closes the connection.
     *
     * @return whether the turn in progress, if any, ended in time; if not, its answer was cut
     */
    boolean stop(long graceNanos) {
        long deadline = System.nanoTime() + graceNanos;
        boolean inTime;
        boolean notify;
        synchronized (turn) {
            stopping = true;
            awaitWhile(() -> inTurn, deadline);
            inTime = !inTurn;
            if (inTime) {
                awaitWhile(() -> noticeWriting, deadline); // the session thread's own notice, if it began one
            }
            notify = inTime && claimNotice();
            stopped = true;
        }
        if (notify) {
            // Written on a thread of its own: a client that has not read its last answer yet holds the write up,
            // for the rest of the grace period at most.
            Thread writer = new Thread(this::writeNotice, "kvledger-serve-notice");
            writer.setDaemon(true);
            writer.start();
            try {
                writer.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (connection != null) {
            try {
                connection.close(); // after a late answer: unblocks its write, which fails
            } catch (IOException e) {
                log.println("kvledger serve: cannot close the client's connection (" + e.getMessage() + ")");
            }
        }
        synchronized (turn) {
            stopDone = true;
            turn.notifyAll();
        }
        return inTime;
    }

    /** Whether this caller is the one to send the session's one {@code SHUTTING_DOWN} line; the caller holds {@code turn}. */
    private boolean claimNotice() {
        if (noticeSent || out == null) {
            return false;
        }
        noticeSent = true;
        noticeWriting = true;
        return true;
    }

    /** Waits on {@code turn} (held by the caller) while {@code condition} holds, until {@code deadline} at most. */
    private void awaitWhile(java.util.function.BooleanSupplier condition, long deadline) {
        while (condition.getAsBoolean()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            try {
                TimeUnit.NANOSECONDS.timedWait(turn, left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** A stopping session's one {@code SHUTTING_DOWN} line, for the client's next request (or the one it read). */
    private void writeNotice() {
        metrics.error(Code.SHUTTING_DOWN);
        try {
            AnswerWriter notice = new AnswerWriter();
            notice.error(new ProtocolError(Code.SHUTTING_DOWN, "the server is stopping: this request did not run"));
            notice.sendTo(out);
        } catch (IOException e) {
            // the client left already
        } finally {
            synchronized (turn) {
                noticeWriting = false; // the stop may close the connection now
                turn.notifyAll();
            }
        }
    }

    private void answerHello(Request.Hello hello, AnswerWriter answers) throws ProtocolException, IOException {
        if (hello.protocol() != ServeProtocol.VERSION) {
            throw new ProtocolException(Code.UNSUPPORTED_PROTOCOL, "this server speaks protocol " + ServeProtocol.VERSION
                    + ", the client asked for " + hello.protocol());
        }
        AnswerWriter.HelloAnswer answer = engine.hello(hello.config(), server);
        log.println("kvledger serve: client " + (hello.client().isEmpty() ? "(unnamed)" : hello.client())
                + " connected at seq " + answer.lastSeq());
        answers.hello(answer);
    }

    private void refuse(AnswerWriter answers, OutputStream out, ProtocolError error) throws IOException {
        metrics.error(error.code());
        if (error.code() == Code.SHUTTING_DOWN) {
            synchronized (turn) {
                noticeSent = true; // this answer says it; no second line
            }
        }
        answers.error(error);
        answers.sendTo(out);
    }
}
