package io.kvledger.simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * New requests: prompts that mostly open with one of a few shared system prompts (so chunks are hit in
 * the CPU tier and blocks in the GPU prefix cache), sometimes repeat an earlier prompt whole, and
 * otherwise are fresh; outputs of various lengths; some with draft tokens; some aborted later.
 */
final class Arrivals {

    private static final int FAMILIES = 6;
    private static final int VOCABULARY = 50_000;

    private final SplittableRandom random;
    /** Draws the per-request controls ({@code null}: none), apart from {@link #random} so a log without them is unchanged. */
    private final SplittableRandom controls;
    private final SimulationOptions options;
    private final List<List<Integer>> systemPrompts = new ArrayList<>();
    private final List<List<Integer>> recentPrompts = new ArrayList<>();
    private int arrived;

    Arrivals(SplittableRandom random, SimulationOptions options) {
        this.random = random;
        this.options = options;
        this.controls = options.requestControls() > 0 ? options.controlsRandom() : null;
        for (int f = 0; f < FAMILIES; f++) {
            systemPrompts.add(tokens(options.scaled(16 + random.nextInt(144))));
        }
    }

    int arrived() {
        return arrived;
    }

    boolean done() {
        return arrived >= options.requests();
    }

    /** How many arrive at this step: about one every other step. */
    int count() {
        int count = 0;
        while (count < 3 && random.nextDouble() < 0.4) {
            count++;
        }
        return Math.min(count, options.requests() - arrived);
    }

    SimRequest next(long now) {
        String id = "req-" + arrived++;
        List<Integer> prompt = prompt();
        int output = options.scaled(1 + Math.min(127, (int) (-24 * Math.log(1 - random.nextDouble()))));
        int drafts = random.nextDouble() < 0.3 ? 1 + random.nextInt(3) : 0;
        boolean reportsLast = random.nextBoolean();
        long abortAt = random.nextDouble() < options.abortRate() ? now + random.nextInt(30) : -1;
        SimRequest request = new SimRequest(id, prompt, output, drafts, reportsLast, abortAt, options.model().groupCount());
        if (controls != null && controls.nextDouble() < options.requestControls()) {
            withControls(request, prompt.size());
        }
        return request;
    }

    /**
     * One to three of the controls of contract 9.1, as a router sets them: an offload cap around the prompt's
     * length (0 included), a load cap from 0 to the prompt's length, mostly {@code skipReadingPrefixCache: true}.
     */
    private void withControls(SimRequest request, int promptLength) {
        int which = 1 + controls.nextInt(7);
        if ((which & 1) != 0) {
            request.maxOffloadTokens = controls.nextInt(promptLength + options.scaled(64) + 1);
        }
        if ((which & 2) != 0) {
            request.maxLoadTokens = controls.nextInt(promptLength + 1);
        }
        if ((which & 4) != 0) {
            request.skipReadingPrefixCache = controls.nextInt(4) != 0;
        }
    }

    private List<Integer> prompt() {
        double kind = random.nextDouble();
        List<Integer> prompt;
        if (kind < 0.1 && !recentPrompts.isEmpty()) {
            prompt = new ArrayList<>(recentPrompts.get(random.nextInt(recentPrompts.size())));
        } else {
            prompt = new ArrayList<>(kind < 0.75 ? systemPrompts.get(random.nextInt(FAMILIES)) : List.of());
            prompt.addAll(tokens(options.scaled(1 + random.nextInt(160))));
        }
        if (recentPrompts.size() < 32) {
            recentPrompts.add(prompt);
        } else {
            recentPrompts.set(random.nextInt(32), prompt);
        }
        return prompt;
    }

    private List<Integer> tokens(int count) {
        List<Integer> tokens = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            tokens.add(random.nextInt(VOCABULARY));
        }
        return tokens;
    }
}
