package io.kvledger.tests.audit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.infrastructure.log.LogEntry;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

/**
 * Rewrites a kvledger log as another implementation could have written it: other keys (a different
 * hash, still one per token prefix) and other job ids (from 1000, every seventh), nothing else.
 */
final class ForeignRewrite {

    private static final com.fasterxml.jackson.databind.ObjectMapper MAPPER = new com.fasterxml.jackson.databind.ObjectMapper();

    private ForeignRewrite() {
    }

    static String rewrite(List<LogEntry> entries) throws Exception {
        StringBuilder text = new StringBuilder();
        for (LogEntry entry : entries) {
            ObjectNode line = entry.raw().deepCopy();
            if (line.get("keys") instanceof ArrayNode keys) {
                rewriteKeys(line, keys);
            }
            if (line.path("jobId").isIntegralNumber()) {
                line.put("jobId", foreignJob(line.get("jobId").longValue()));
            }
            if (line.get("jobIds") instanceof ArrayNode jobs) {
                for (int i = 0; i < jobs.size(); i++) {
                    jobs.set(i, line.numberNode(foreignJob(jobs.get(i).longValue())));
                }
            }
            if (line.path("staleBelowJobId").isIntegralNumber()) {
                line.put("staleBelowJobId", foreignJob(line.get("staleBelowJobId").longValue()));
            }
            text.append(line).append('\n');
        }
        return text.toString();
    }

    /** A per-group {@code keys} field (contract 7.2) holds one list per group: each key is rewritten where it stands. */
    private static void rewriteKeys(ObjectNode line, ArrayNode keys) throws Exception {
        for (int i = 0; i < keys.size(); i++) {
            if (keys.get(i) instanceof ArrayNode groupKeys) {
                rewriteKeys(line, groupKeys);
            } else {
                keys.set(i, line.textNode(foreignKey(keys.get(i).textValue())));
            }
        }
    }

    /**
     * As {@link #rewrite}, and the way another producer's capture adds to a log: fields of its own on every
     * line and an event type kvledger does not know after seq {@code unknownAfter}, the seqs after it moved on by one.
     */
    static String rewriteAsProducer(List<LogEntry> entries, long unknownAfter) throws Exception {
        StringBuilder text = new StringBuilder();
        long seq = 0;
        for (String line : rewrite(entries).split("\n")) {
            ObjectNode node = (ObjectNode) MAPPER.readTree(line);
            node.put("seq", ++seq);
            node.put("producer", "capture-connector/0.3");
            node.putObject("trace").put("step", seq * 3).put("rank", 0);
            text.append(node).append('\n');
            if (node.get("seq").longValue() == unknownAfter) {
                text.append("{\"seq\": ").append(++seq).append(", \"type\": \"KvCacheUsage\", \"usedBlocks\": 17}\n");
            }
        }
        return text.toString();
    }

    static long foreignJob(long jobId) {
        return 1000 + 7 * jobId;
    }

    static String foreignKey(String key) throws Exception {
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        return HexFormat.of().formatHex(md5.digest(("foreign/" + key).getBytes(StandardCharsets.UTF_8)), 0, 8);
    }
}
