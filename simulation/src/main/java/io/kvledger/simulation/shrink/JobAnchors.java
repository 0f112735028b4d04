package io.kvledger.simulation.shrink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.domain.EngineFold;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.decision.Decider;
import io.kvledger.domain.decision.Decision;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.scenario.ScenarioReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps a completion pointing at its job while lines are removed. Job ids are positional (the n-th job
 * scheduled), so without this, removing one store shifts every later {@code CompleteTransfer} onto
 * another job. Each line is tagged with its original position ({@code _line}) and each completion with
 * the line that scheduled its job ({@code _jobOf}); before a candidate is run, its completions get the
 * ids their jobs have in it, and the anchors of a candidate the shrinker keeps are derived anew from it.
 * Unknown fields are ignored when a scenario is read, and {@link #strip} removes them from the result.
 * Job ids are found with the domain's decider, which is what the engine runs.
 */
final class JobAnchors {

    static final String LINE = "_line";
    static final String JOB_OF = "_jobOf";

    private JobAnchors() {
    }

    static Scenario anchor(Scenario scenario) {
        List<ObjectNode> tagged = new ArrayList<>(scenario.size());
        for (int i = 0; i < scenario.size(); i++) {
            tagged.add(scenario.lines().get(i).deepCopy().put(LINE, i));
        }
        return reanchor(scenario.withLines(tagged));
    }

    /**
     * The scenario with each completion anchored to the line that schedules the job it names in this scenario
     * (no anchor when no line does). The shrinker re-derives the anchors of every candidate it keeps: an anchor
     * worked out on the original goes stale once its line is gone or schedules nothing, and the completion would
     * then keep a job id that names another job, or none, as soon as an earlier job is removed.
     */
    static Scenario reanchor(Scenario scenario) {
        Long[] scheduled = jobsScheduled(scenario);
        Map<Long, Integer> schedulers = new HashMap<>();
        for (int i = 0; i < scheduled.length; i++) {
            JsonNode line = scenario.lines().get(i).get(LINE);
            if (scheduled[i] != null && line != null) {
                schedulers.put(scheduled[i], line.intValue());
            }
        }
        List<ObjectNode> lines = new ArrayList<>(scenario.size());
        boolean changed = false;
        for (ObjectNode line : scenario.lines()) {
            JsonNode jobId = line.get("jobId");
            Integer scheduler = jobId != null && jobId.canConvertToLong() ? schedulers.get(jobId.longValue()) : null;
            JsonNode anchor = line.get(JOB_OF);
            if (scheduler == null ? anchor == null : anchor != null && anchor.intValue() == scheduler) {
                lines.add(line);
                continue;
            }
            ObjectNode copy = line.deepCopy();
            if (scheduler == null) {
                copy.remove(JOB_OF);
            } else {
                copy.put(JOB_OF, scheduler);
            }
            lines.add(copy);
            changed = true;
        }
        return changed ? scenario.withLines(lines) : scenario;
    }

    /** The candidate with each anchored completion naming the id its job gets in this candidate. */
    static Scenario renumber(Scenario candidate) {
        Long[] scheduled = jobsScheduled(candidate);
        Map<Integer, Long> jobOfLine = new HashMap<>();
        for (int i = 0; i < scheduled.length; i++) {
            JsonNode line = candidate.lines().get(i).get(LINE);
            if (scheduled[i] != null && line != null) {
                jobOfLine.put(line.intValue(), scheduled[i]);
            }
        }
        List<ObjectNode> lines = new ArrayList<>(candidate.size());
        boolean changed = false;
        for (ObjectNode line : candidate.lines()) {
            JsonNode anchor = line.get(JOB_OF);
            Long jobId = anchor == null ? null : jobOfLine.get(anchor.intValue());
            if (jobId != null && line.get("jobId").longValue() != jobId) {
                lines.add(line.deepCopy().put("jobId", jobId));
                changed = true;
            } else {
                lines.add(line);
            }
        }
        return changed ? candidate.withLines(lines) : candidate;
    }

    static Scenario strip(Scenario scenario) {
        List<ObjectNode> lines = new ArrayList<>(scenario.size());
        for (ObjectNode line : scenario.lines()) {
            ObjectNode copy = line.deepCopy();
            copy.remove(List.of(LINE, JOB_OF));
            lines.add(copy);
        }
        return scenario.withLines(lines);
    }

    /**
     * The job each line schedules (null when none), renumbering anchored completions on the way so that
     * a completion ends the job it is anchored to; stops at a decision that throws.
     */
    private static Long[] jobsScheduled(Scenario scenario) {
        Long[] scheduled = new Long[scenario.size()];
        Map<Integer, Long> jobOfLine = new HashMap<>();
        EngineState state = EngineFold.evolve(null, Decider.configure(scenario.config()));
        for (int i = 0; i < scenario.size(); i++) {
            ObjectNode line = scenario.lines().get(i);
            JsonNode anchor = line.get(JOB_OF);
            if (anchor != null && jobOfLine.containsKey(anchor.intValue())) {
                line = line.deepCopy().put("jobId", jobOfLine.get(anchor.intValue()));
            }
            Decision decision;
            try {
                EngineCommand command = ScenarioReader.command(line);
                decision = Decider.decide(state, command);
            } catch (RuntimeException e) {
                break;
            }
            if (decision instanceof Decision.Accepted accepted) {
                for (EngineEvent event : accepted.events()) {
                    if (event instanceof StoreJobScheduled s) {
                        scheduled[i] = s.jobId();
                    } else if (event instanceof LoadJobScheduled l) {
                        scheduled[i] = l.jobId();
                    }
                    state = EngineFold.evolve(state, event);
                }
            }
            JsonNode original = line.get(LINE);
            if (scheduled[i] != null && original != null) {
                jobOfLine.put(original.intValue(), scheduled[i]);
            }
        }
        return scheduled;
    }
}
