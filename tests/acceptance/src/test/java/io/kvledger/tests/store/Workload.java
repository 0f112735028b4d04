package io.kvledger.tests.store;

/**
 * Scenario lines of a steady workload for the lock tests: request {@code i} registers an 8-token
 * prompt, matches, takes two of 128 blocks (reused every 64 requests), computes and finishes: five
 * lines a request, every one decided (accepted or rejected) whatever the state.
 */
final class Workload {

    private Workload() {
    }

    /** The lines of requests {@code first} to {@code first + count - 1}, after a config line when {@code config}. */
    static String lines(int first, int count, boolean config) {
        StringBuilder lines = new StringBuilder();
        if (config) {
            lines.append("{\"config\": {\"gpuBlockSize\": 4}}\n");
        }
        for (int i = first; i < first + count; i++) {
            String id = "\"req-" + i + "\"";
            lines.append("{\"cmd\": \"RegisterRequest\", \"requestId\": ").append(id).append(", \"promptTokens\": [");
            for (int t = 0; t < 8; t++) {
                lines.append(t == 0 ? "" : ", ").append(i * 8 + t + 1);
            }
            lines.append("]}\n");
            lines.append("{\"cmd\": \"MatchPrefix\", \"requestId\": ").append(id).append("}\n");
            int block = (i % 64) * 2;
            lines.append("{\"cmd\": \"AllocateBlocks\", \"requestId\": ").append(id).append(", \"blockIds\": [")
                    .append(block).append(", ").append(block + 1).append("]}\n");
            lines.append("{\"cmd\": \"ComputeTokens\", \"requestId\": ").append(id).append(", \"tokens\": 8}\n");
            lines.append("{\"cmd\": \"FinishRequest\", \"requestId\": ").append(id).append(", \"reason\": \"STOPPED\"}\n");
        }
        return lines.toString();
    }
}
