package io.kvledger.infrastructure.fleet;

import io.kvledger.application.audit.Auditor;
import io.kvledger.application.finding.Finding;
import io.kvledger.application.engine.StepEvents;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.store.jdbc.PostgresStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.SequenceNumber;
import org.axonframework.messaging.annotation.SourceId;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;

/**
 * The fleet's projections, fed one engine's step at a time, in order (the processor's segments split by
 * engine id). A processor batch is applied in memory ({@link ProjectionBatch}) and written when it
 * commits, in the processor's transaction, the one that also moves its token: a node killed mid-batch
 * leaves neither, and the node that takes the segment over redoes the batch. Each engine's last applied
 * message is kept with the projections, so a message delivered again is recognised and only counted
 * ({@code redelivered}), and one arriving after a hole fails its batch instead of being skipped. The
 * audit ({@link EngineAudits}) judges each event as it is applied; a view may run without it, to
 * measure what the audit costs.
 */
final class FleetProjections {

    private final PostgresStore store;
    private final FleetSchema schema;
    private final EngineAudits audits;
    private final String batchResource;

    /** {@code audit}: whether the view runs the continuous audit (its violations table stays empty without). */
    FleetProjections(PostgresStore store, FleetSchema schema, boolean audit) {
        this.store = store;
        this.schema = schema;
        this.audits = audit ? new EngineAudits(store) : null;
        this.batchResource = ProjectionBatch.class.getName() + "/" + schema.view();
    }

    @EventHandler
    void on(StepEvents step, @SourceId String engineId, @SequenceNumber long sequenceNumber) throws SQLException {
        apply(engineId, sequenceNumber, step.events());
    }

    @EventHandler
    void on(EngineEvent event, @SourceId String engineId, @SequenceNumber long sequenceNumber) throws SQLException {
        apply(engineId, sequenceNumber, List.of(event));
    }

    private void apply(String engineId, long sequenceNumber, List<EngineEvent> events) throws SQLException {
        ProjectionBatch batch = currentBatch();
        ProjectionBatch.EngineProgress engine;
        try (Connection c = store.transactions().getConnection()) {
            engine = batch.engine(c, engineId);
        }
        if (sequenceNumber <= engine.lastMessage) {
            // Delivered again (a segment changed hands around this batch): applied already, counted only.
            engine.redelivered++;
            return;
        }
        if (sequenceNumber != engine.lastMessage + 1) {
            // Never skip: the batch fails, rolls back and is retried, and the stall is visible.
            throw new IllegalStateException("engine " + engineId + ": message " + sequenceNumber
                    + " arrived after message " + engine.lastMessage + "; the ones between are missing");
        }
        long seq = engine.lastSeq;
        Auditor auditor = audits == null ? null : audits.before(engineId, sequenceNumber, seq);
        for (EngineEvent event : events) {
            seq++;
            if (auditor != null) {
                for (Finding violation : auditor.check(seq, event)) {
                    batch.violation(engineId, violation);
                }
            }
            engine.tier.apply(event);
        }
        engine.applied(sequenceNumber, seq, events.size());
        if (auditor != null) {
            audits.advanced(engineId, auditor, sequenceNumber, seq);
        }
    }

    /** The batch of the processor's unit of work, written when it commits and dropped when it rolls back. */
    private ProjectionBatch currentBatch() {
        UnitOfWork<?> unitOfWork = CurrentUnitOfWork.get();
        return unitOfWork.getOrComputeResource(batchResource, key -> {
            ProjectionBatch batch = new ProjectionBatch(schema);
            unitOfWork.onPrepareCommit(u -> {
                try (Connection c = store.transactions().getConnection()) {
                    batch.write(c);
                } catch (SQLException e) {
                    throw new IllegalStateException("cannot write the batch of view " + schema.view() + ": " + e.getMessage(), e);
                }
            });
            if (audits != null) {
                // The folds went past what is committed: the engines' next messages fold them again.
                unitOfWork.onRollback(u -> batch.engineIds().forEach(audits::forget));
            }
            return batch;
        });
    }
}
