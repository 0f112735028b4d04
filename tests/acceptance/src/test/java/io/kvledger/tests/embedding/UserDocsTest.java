package io.kvledger.tests.embedding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README is a front page (at most 8 KB, what kvledger is and for whom first, then the two
 * commands), and the user docs read the same in any clone: every relative link resolves inside the
 * repository, none leaves it, and no page speaks of the project's issue numbers. The README's command
 * line example prints what it shows.
 */
class UserDocsTest {

    private static final Path ROOT = Path.of("../..");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)]*)?\\)");
    private static final Pattern ISSUE = Pattern.compile("\\b[Ii]ssues? #?\\d+");

    @Test
    void theReadmeIsAFrontPage() throws Exception {
        byte[] bytes = Files.readAllBytes(ROOT.resolve("README.md"));
        String readme = new String(bytes, StandardCharsets.UTF_8);
        assertTrue(bytes.length <= 8 * 1024, "README.md is " + bytes.length + " bytes");
        String first = readme.substring(readme.indexOf("\n\n") + 2);
        first = first.substring(0, first.indexOf("\n\n"));
        assertTrue(first.contains("event-sourced") && first.contains("engineers"), "what it is and who it is for: " + first);
        int commands = readme.indexOf("```sh\n./kvledger run tests/acceptance/src/test/resources/examples/05_abort_mid_prefill.jsonl"
                + " --store target/kvledger-store.jsonl\n./test\n```");
        assertTrue(commands > readme.indexOf(first) && commands < 2_000, "the two commands follow the first paragraph");
        assertTrue(Files.exists(ROOT.resolve("tests/acceptance/src/test/resources/examples/05_abort_mid_prefill.jsonl")));
        assertTrue(Files.isExecutable(ROOT.resolve("test")), "the test command is a script (TestScriptTest runs it)");
    }

    @Test
    void theReadmesCommandLineExamplePrintsWhatItShows() throws Exception {
        String readme = Files.readString(ROOT.resolve("README.md"));
        String example = readme.substring(readme.indexOf("$ ./kvledger audit "));
        example = example.substring(0, example.indexOf("```"));
        List<String> lines = example.lines().toList();
        String log = lines.get(0).substring("$ ./kvledger audit ".length(), lines.get(0).indexOf("   #")).strip();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int exit = io.kvledger.infrastructure.cli.KvLedgerCli.execute(out,
                new java.io.PrintStream(new java.io.ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                "audit", ROOT.resolve(log).toString());

        assertEquals(1, exit, "the README says exit 1");
        assertEquals(lines.subList(1, lines.size()), out.toString(StandardCharsets.UTF_8).lines().toList());
    }

    @Test
    void everyLinkOfTheUserDocsResolvesInsideTheRepository() throws Exception {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            Matcher link = LINK.matcher(Files.readString(page));
            while (link.find()) {
                String target = link.group(1);
                if (target.startsWith("http://") || target.startsWith("https://")) {
                    continue;
                }
                Path resolved = page.getParent().resolve(target).normalize();
                if (!resolved.startsWith(ROOT.normalize()) || target.contains("../shared") || !Files.exists(resolved)) {
                    broken.add(ROOT.relativize(page) + ": " + target);
                }
            }
        }
        assertEquals(List.of(), broken, "links that do not resolve in a clone");
    }

    @Test
    void noUserDocSpeaksOfIssueNumbers() throws Exception {
        List<String> found = new ArrayList<>();
        for (Path page : pages()) {
            List<String> lines = Files.readAllLines(page);
            for (int i = 0; i < lines.size(); i++) {
                if (ISSUE.matcher(lines.get(i)).find() || lines.get(i).contains("../shared")) {
                    found.add(ROOT.relativize(page) + ":" + (i + 1) + ": " + lines.get(i).strip());
                }
            }
        }
        assertEquals(List.of(), found);
    }

    private static List<Path> pages() throws Exception {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        assertTrue(pages.size() > 10, pages.toString());
        return pages;
    }
}
