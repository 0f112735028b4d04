package io.kvledger.tests;

/** The packages of each module, as the architecture tests name them (the poms say which module holds which). */
final class ModulePackages {

    private ModulePackages() {
    }

    static final String[] ENGINE = {"io.kvledger.application", "io.kvledger.application.engine..",
            "io.kvledger.application.axon..", "io.kvledger.application.spi.."};
    static final String[] LOG_TOOLS = {"io.kvledger.application.audit..", "io.kvledger.application.check..",
            "io.kvledger.application.explain..", "io.kvledger.application.replay..", "io.kvledger.application.finding.."};
    static final String[] FORMATS = {"io.kvledger.infrastructure.json..", "io.kvledger.infrastructure.log..",
            "io.kvledger.infrastructure.scenario.."};
    static final String STORE = "io.kvledger.infrastructure.store..";
    static final String METRICS = "io.kvledger.infrastructure.metrics..";
    static final String[] CLI = {"io.kvledger.infrastructure.cli..", "io.kvledger.infrastructure.view.."};
    static final String[] SIMULATION = {"io.kvledger.simulation", "io.kvledger.simulation.shrink..",
            "io.kvledger.simulation.host.."};
    static final String TRACE = "io.kvledger.infrastructure.trace..";
    static final String TESTKIT = "io.kvledger.testkit..";

    static String[] concat(String[] a, String[] b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
