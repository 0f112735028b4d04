package io.kvledger.infrastructure.serve;

import io.kvledger.infrastructure.serve.ProtocolError.Code;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * One client's conversation: a hello, then steps, each answered by one line, until the client closes
 * its end. A refused request is answered with an error and changes nothing; the session goes on.
 */
final class Session {

    private final ServedEngine engine;
    private final ServeMetrics metrics;
    private final PrintStream log;
    private final String server;

    Session(ServedEngine engine, ServeMetrics metrics, PrintStream log, String server) {
        this.engine = engine;
        this.metrics = metrics;
        this.log = log;
        this.server = server;
    }

    /** Serves until the input ends; an IOException means the client went away (its last step, if whole, ran). */
    void serve(InputStream in, OutputStream out) throws IOException {
        LineInput lines = new LineInput(in);
        AnswerWriter answers = new AnswerWriter();
        boolean greeted = false;
        while (true) {
            try {
                if (!lines.next(ServeProtocol.MAX_LINE_BYTES)) {
                    return;
                }
            } catch (LineInput.LineTooLongException e) {
                refuse(answers, out, new ProtocolError(Code.LINE_TOO_LONG, "a request line may hold at most "
                        + ServeProtocol.MAX_LINE_BYTES + " bytes; the line was skipped"));
                continue;
            }
            if (lines.isBlank()) {
                // A client that sent nothing waits for an answer as for any other line.
                refuse(answers, out, new ProtocolError(Code.BAD_REQUEST,
                        "an empty line is not a request: send one JSON object, a hello or a step, per line"));
                continue;
            }
            long start = System.nanoTime();
            try {
                Request request = RequestReader.read(lines.bytes(), lines.length());
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
                continue;
            }
            answers.sendTo(out);
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
        answers.error(error);
        answers.sendTo(out);
    }
}
