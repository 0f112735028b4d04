package io.kvledger.tests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Layering: the domain is plain Java (plus persistent collections) and knows nothing of Axon, Jackson,
 * picocli or the outer modules; the application layer does not reach into infrastructure or the simulation; the log
 * tools never touch Axon or the engine; nothing imports the command line; the simulation module knows
 * no edge but the formats; the JSON formats know no engine; the testkit and every library module stay
 * below the command line; no package imports itself through others
 * (the engine's own packages aside), so the audit and the log checks share the finding vocabulary
 * without importing each other in a circle.
 *
 * <p>The production classes come from the module jars (or class directories) on the test class path;
 * test classes are left out. Every rule refuses to pass over zero classes.
 */
class ArchitectureTest {

    private static JavaClasses production;

    @BeforeAll
    static void importClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.kvledger");
    }

    @Test
    void theImportSeesEveryModule() {
        long domain = count("io.kvledger.domain.");
        long application = count("io.kvledger.application.");
        assertTrue(domain > 20, "domain classes imported: " + domain);
        assertTrue(application > 0, "application classes imported: " + application);
        assertTrue(production.stream().anyMatch(c -> c.getName().equals("io.kvledger.domain.decision.Decider")),
                "the Decider is among the imported classes");
        assertTrue(production.stream().anyMatch(c -> c.getName().equals("io.kvledger.application.KvLedger")),
                "the KvLedger facade is among the imported classes");
        assertTrue(production.stream().noneMatch(c -> c.getName().equals(ArchitectureTest.class.getName())),
                "test classes are not imported");
        for (String module : List.of(LOG_TOOLS[0], LOG_TOOLS[1], LOG_TOOLS[2], LOG_TOOLS[3], FORMATS[0], FORMATS[1], FORMATS[2],
                STORE, METRICS, CLI[0], CLI[1], SIMULATION[0], SIMULATION[1], SIMULATION[2], TRACE, TESTKIT, ENGINE[1], ENGINE[2])) {
            String prefix = module.replace("..", ".");
            assertTrue(count(prefix) > 0, "classes of " + module + " are imported");
        }
    }

    /** The packages of each module (the poms say which module holds which). */
    private static final String[] ENGINE = {"io.kvledger.application", "io.kvledger.application.engine..",
            "io.kvledger.application.axon..", "io.kvledger.application.spi.."};
    private static final String[] LOG_TOOLS = {"io.kvledger.application.audit..", "io.kvledger.application.check..",
            "io.kvledger.application.explain..", "io.kvledger.application.replay..", "io.kvledger.application.finding.."};
    private static final String[] FORMATS = {"io.kvledger.infrastructure.json..", "io.kvledger.infrastructure.log..",
            "io.kvledger.infrastructure.scenario.."};
    private static final String STORE = "io.kvledger.infrastructure.store..";
    private static final String METRICS = "io.kvledger.infrastructure.metrics..";
    private static final String[] CLI = {"io.kvledger.infrastructure.cli..", "io.kvledger.infrastructure.view.."};
    private static final String[] SIMULATION = {"io.kvledger.simulation", "io.kvledger.simulation.shrink..",
            "io.kvledger.simulation.host.."};
    private static final String TRACE = "io.kvledger.infrastructure.trace..";
    private static final String TESTKIT = "io.kvledger.testkit..";

    @Test
    void logToolsImportNothingFromAxonNorFromTheEngine() {
        ArchRule rule = noClasses().that().resideInAnyPackage(LOG_TOOLS)
                .should().dependOnClassesThat().resideInAnyPackage(concat(concat(new String[] {"org.axonframework..",
                        "io.kvledger.infrastructure.."}, ENGINE), SIMULATION))
                .because("replay, audit and explain run over any captured log, near the speed of parsing it, without the engine")
                .allowEmptyShould(false);
        rule.check(production);
    }

    @Test
    void theLogToolRuleBitesWhenBroken() {
        ArchRule rule = noClasses().that().resideInAnyPackage(ENGINE)
                .should().dependOnClassesThat().resideInAnyPackage("org.axonframework..")
                .allowEmptyShould(false);
        AssertionError error = assertThrows(AssertionError.class, () -> rule.check(production));
        assertTrue(error.getMessage().contains("org.axonframework"), error.getMessage());
    }

    @Test
    void nothingImportsTheCommandLine() {
        ArchRule rule = noClasses().that().resideOutsideOfPackages(CLI)
                .should().dependOnClassesThat().resideInAnyPackage(CLI)
                .because("the command line is the outermost module: only its commands and their views are its own")
                .allowEmptyShould(false);
        rule.check(production);
    }

    @Test
    void theSimulationKnowsNoCommandLineNoStoreAndNoOtherEdge() {
        ArchRule rule = noClasses().that().resideInAnyPackage(SIMULATION)
                .should().dependOnClassesThat().resideInAnyPackage(concat(CLI, new String[] {STORE, METRICS, TESTKIT, TRACE,
                        "io.kvledger.infrastructure.serve..", "io.kvledger.infrastructure.kvevents..",
                        "io.kvledger.infrastructure.fleet..", "picocli.."}))
                .because("the simulator, the shrinker and the scripted host run over the embedding API alone")
                .allowEmptyShould(false);
        rule.check(production);
    }

    @Test
    void onlyTheCommandLineAndTheTestkitUseTheSimulation() {
        ArchRule rule = noClasses().that().resideOutsideOfPackages(concat(concat(SIMULATION, CLI), new String[] {TESTKIT}))
                .should().dependOnClassesThat().resideInAnyPackage(SIMULATION)
                .allowEmptyShould(false);
        rule.check(production);
    }

    @Test
    void noPackageImportsItselfThroughOthers() {
        // The engine's packages are left out on purpose: its store SPI names the facade's types, which
        // open the built-in stores through it (one module, one reason to change).
        JavaClasses outsideTheEngine = production.that(com.tngtech.archunit.core.domain.JavaClass.Predicates
                .resideOutsideOfPackages(ENGINE));
        ArchRule rule = com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices()
                .matching("io.kvledger.(**)").should().beFreeOfCycles();
        rule.check(outsideTheEngine);
        assertTrue(outsideTheEngine.stream().anyMatch(c -> c.getName().equals("io.kvledger.application.audit.AuditCode")));
    }

    @Test
    void findingCodesAndTheirRegistryAreApart() {
        ArchRule rule = noClasses().that().resideInAPackage("io.kvledger.application.finding..")
                .should().dependOnClassesThat().resideInAnyPackage("io.kvledger.application.audit..", "io.kvledger.application.check..")
                .because("the vocabulary of findings depends on no code's package; FindingCodes in check lists them all")
                .allowEmptyShould(false);
        rule.check(production);
    }

    @Test
    void theTraceReadsLogsWithoutTheEngine() {
        ArchRule rule = noClasses().that().resideInAPackage(TRACE)
                .should().dependOnClassesThat().resideInAnyPackage(concat(concat(ENGINE, CLI), new String[] {STORE, "org.axonframework..", "picocli.."}))
                .allowEmptyShould(false);
        rule.check(production);
    }


    @Test
    void theEngineDependsOnNoOtherKvledgerModuleButTheDomain() {
        ArchRule rule = noClasses().that().resideInAnyPackage(ENGINE)
                .should().dependOnClassesThat().resideInAnyPackage(concat(concat(LOG_TOOLS, FORMATS),
                        concat(SIMULATION, new String[] {STORE, METRICS, TESTKIT, "io.kvledger.infrastructure.."})))
                .because("store modules plug in through the LedgerStoreProvider SPI; the engine depends on none of them")
                .allowEmptyShould(false);
        rule.check(production);
    }

    @Test
    void theFormatsKnowNoEngineNoStoreAndNoFramework() {
        ArchRule rule = noClasses().that().resideInAnyPackage(FORMATS)
                .should().dependOnClassesThat().resideInAnyPackage(concat(concat(ENGINE, LOG_TOOLS),
                        concat(SIMULATION, new String[] {STORE, METRICS, TESTKIT, "org.axonframework..", "picocli.."})))
                .because("a tool that reads or writes the contract's JSON needs the domain and Jackson, nothing more")
                .allowEmptyShould(false);
        rule.check(production);
    }

    @Test
    void storeAndMetricsStayOutOfEachOtherAndOfTheLogTools() {
        ArchRule store = noClasses().that().resideInAPackage(STORE)
                .should().dependOnClassesThat().resideInAnyPackage(concat(LOG_TOOLS, new String[] {METRICS, TESTKIT, "picocli.."}))
                .allowEmptyShould(false);
        ArchRule metrics = noClasses().that().resideInAPackage(METRICS)
                .should().dependOnClassesThat().resideInAnyPackage(concat(LOG_TOOLS, new String[] {STORE, TESTKIT, "picocli.."}))
                .allowEmptyShould(false);
        store.check(production);
        metrics.check(production);
    }

    @Test
    void theTestkitUsesThePublicApiAndNotTheStoreModulesOrTheAggregate() {
        ArchRule rule = noClasses().that().resideInAPackage(TESTKIT)
                .should().dependOnClassesThat().resideInAnyPackage(STORE, METRICS, "io.kvledger.application.axon..", "picocli..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("io.kvledger.application.engine.EngineAggregate")
                .because("a user's test sees what a host sees")
                .allowEmptyShould(false);
        rule.check(production);
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    @Test
    void domainDependsOnlyOnJavaPcollectionsAndItself() {
        ArchRule rule = classes().that().resideInAPackage("io.kvledger.domain..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "io.vavr..", "io.kvledger.domain..")
                .because("the domain is pure: decide and evolve are plain functions over immutable state")
                .allowEmptyShould(false);
        rule.check(production);
    }

    @Test
    void domainDependsOnNoFrameworkAndNoOuterModule() {
        ArchRule rule = noClasses().that().resideInAPackage("io.kvledger.domain..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("org.axonframework..", "com.fasterxml.jackson..", "picocli..",
                        "io.kvledger.application..", "io.kvledger.infrastructure..", "io.kvledger.simulation..")
                .allowEmptyShould(false);
        rule.check(production);
    }

    @Test
    void applicationDoesNotDependOnInfrastructure() {
        ArchRule rule = noClasses().that().resideInAPackage("io.kvledger.application..")
                .should().dependOnClassesThat().resideInAnyPackage("io.kvledger.infrastructure..", "io.kvledger.simulation..")
                .allowEmptyShould(false);
        rule.check(production);
    }

    @Test
    void theDomainRuleBitesWhenBroken() {
        // The same rule applied to the application layer, which uses Axon, must fail: the rule is not vacuous.
        ArchRule rule = classes().that().resideInAPackage("io.kvledger.application..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "io.vavr..", "io.kvledger.domain..")
                .allowEmptyShould(false);
        AssertionError error = assertThrows(AssertionError.class, () -> rule.check(production));
        assertTrue(error.getMessage().contains("org.axonframework"), error.getMessage());
    }

    private static long count(String packagePrefix) {
        return production.stream().filter(c -> c.getName().startsWith(packagePrefix)).count();
    }
}
