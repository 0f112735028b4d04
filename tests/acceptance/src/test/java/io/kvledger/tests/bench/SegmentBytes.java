package io.kvledger.tests.bench;

import io.kvledger.application.KvLedger;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.infrastructure.log.CompressedLogs;
import io.kvledger.infrastructure.store.SegmentedStores;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.SegmentPolicy;
import io.kvledger.infrastructure.store.SegmentedEventStorageEngine;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Bytes per event of a closed segment of the 256-request decode workload, as the store directory
 * writes it: plain (decompressed), gzip-compressed by the store, and the segment's base.
 *
 * <pre>java -Xmx2g -cp "$CP" io.kvledger.tests.bench.SegmentBytes DIR [SEGMENT_BYTES] [REQUESTS]</pre>
 */
public final class SegmentBytes {

    private SegmentBytes() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        long segmentBytes = args.length > 1 ? Long.parseLong(args[1]) : SegmentPolicy.DEFAULTS.segmentBytes();
        int requests = args.length > 2 ? Integer.parseInt(args[2]) : 256;
        SegmentPolicy policy = SegmentPolicy.DEFAULTS.withSegmentBytes(segmentBytes);
        try (SegmentedEventStorageEngine store = SegmentedEventStorageEngine.open(dir, FsyncPolicy.NEVER, policy);
                KvLedger ledger = SegmentedStores.builder(store).config(EngineConfig.DEFAULTS).build()) {
            DecodeWorkload workload = new DecodeWorkload(requests);
            workload.observe(ledger.step(workload.warmUp()).events());
            while (store.rolls() < 2) {
                workload.observe(ledger.step(workload.nextStep()).events());
            }
            store.awaitBackground();
            Path segment = store.closedSegments().get(1); // the second: a segment that begins with a base
            long plain = 0;
            long lines = 0;
            try (InputStream in = CompressedLogs.decompressed(Files.newInputStream(segment))) {
                byte[] buffer = new byte[1 << 16];
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    plain += n;
                    for (int i = 0; i < n; i++) {
                        lines += buffer[i] == '\n' ? 1 : 0;
                    }
                }
            }
            long compressed = Files.size(segment);
            Path base = segment.resolveSibling(segment.getFileName().toString().replace(".gz", "") + ".base");
            System.out.printf("segment %s: %d events, %d bytes plain (%.1f bytes/event), %d bytes gzip (%.1f bytes/event, %.1fx),"
                    + " base %d bytes%n", segment.getFileName(), lines, plain, (double) plain / lines, compressed,
                    (double) compressed / lines, (double) plain / compressed, Files.size(base));
        }
    }
}
