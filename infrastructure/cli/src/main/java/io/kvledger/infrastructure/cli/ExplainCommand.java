package io.kvledger.infrastructure.cli;

import io.kvledger.application.explain.JobExplainer;
import io.kvledger.application.explain.JobExplanation;
import io.kvledger.application.explain.LoadExplanation;
import io.kvledger.application.explain.StoreExplanation;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.view.ExplainText;
import io.kvledger.infrastructure.view.ViewJson;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "explain", mixinStandardHelpOptions = true,
        description = {"Explains why a job holds exactly its chunks, from the state just before it was scheduled.",
                "For a store: the token bound O, the clamps of S, the cursor and the tier's answer;",
                "for a load: the match (L, a, h, externalTokens) and the destination blocks."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the job was explained", "1:no job of that id is scheduled in the log",
                "2:malformed input (named on stderr, with its line) or a missing file"})
final class ExplainCommand implements Callable<Integer> {

    @Mixin
    LogInput input;

    @Option(names = "--job", paramLabel = "ID", required = true, description = "The job id.")
    long jobId;

    @Option(names = "--json", description = "JSON instead of text (schema in docs/log-tools.md).")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        if (jobId < 0) {
            // A bad option, as every other: exit 2 (exit 1 is only "no such job in the log").
            throw new ParameterException(spec.commandLine(), "--job must be a job id, 0 or more, was " + jobId);
        }
        PrintWriter out = Cli.stdoutWriter();
        try {
            return input.scan("explain", LogScan.Preparation.NONE, scan -> {
                JobExplainer explainer = new JobExplainer(jobId, scan.base());
                Optional<JobExplanation> found = Optional.empty();
                for (LogEntry entry = scan.next(); entry != null; entry = scan.next()) {
                    if (found.isEmpty()) {
                        found = explainer.next(entry.seq(), entry.event());
                    }
                }
                // The whole log is read first: a log that audit, replay and trace refuse (a torn last
                // line, say) is refused here too, whatever line the job is on.
                if (found.isPresent()) {
                    print(found.get(), out);
                    return 0;
                }
                Cli.stderr().println("kvledger: job " + jobId + " is never scheduled in " + input.file);
                return Cli.EXIT_FAILURE;
            });
        } finally {
            out.flush();
        }
    }

    private void print(JobExplanation explanation, PrintWriter out) {
        if (json) {
            out.println(ViewJson.write(explanation));
        } else if (explanation instanceof StoreExplanation store) {
            ExplainText.print(store, out);
        } else {
            ExplainText.print((LoadExplanation) explanation, out);
        }
    }
}
