package io.kvledger.tests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static io.kvledger.tests.ModulePackages.CLI;
import static io.kvledger.tests.ModulePackages.ENGINE;
import static io.kvledger.tests.ModulePackages.FORMATS;
import static io.kvledger.tests.ModulePackages.LOG_TOOLS;
import static io.kvledger.tests.ModulePackages.METRICS;
import static io.kvledger.tests.ModulePackages.SIMULATION;
import static io.kvledger.tests.ModulePackages.STORE;
import static io.kvledger.tests.ModulePackages.TESTKIT;
import static io.kvledger.tests.ModulePackages.TRACE;
import static io.kvledger.tests.ModulePackages.concat;
import static io.kvledger.tests.ProductionClasses.count;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The edges between modules: the application layer does not reach into infrastructure or the simulation; the
 * engine depends on no other kvledger module but the domain; nothing imports the command line; the simulation
 * module knows no edge but the formats; the testkit and every library module stay below the command line; no
 * package imports itself through others (the engine's own packages aside), so the audit and the log checks share
 * the finding vocabulary without importing each other in a circle.
 *
 * <p>The production classes are those of {@link ProductionClasses}. Every rule refuses to pass over zero classes.
 */
class ModuleEdgesArchitectureTest {

    private final JavaClasses production = ProductionClasses.all();

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
        assertTrue(production.stream().noneMatch(c -> c.getName().equals(ModuleEdgesArchitectureTest.class.getName())),
                "test classes are not imported");
        for (String module : List.of(LOG_TOOLS[0], LOG_TOOLS[1], LOG_TOOLS[2], LOG_TOOLS[3], FORMATS[0], FORMATS[1], FORMATS[2],
                STORE, METRICS, CLI[0], CLI[1], SIMULATION[0], SIMULATION[1], SIMULATION[2], TRACE, TESTKIT, ENGINE[1], ENGINE[2])) {
            String prefix = module.replace("..", ".");
            assertTrue(count(prefix) > 0, "classes of " + module + " are imported");
        }
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
    void theEngineDependsOnNoOtherKvledgerModuleButTheDomain() {
        ArchRule rule = noClasses().that().resideInAnyPackage(ENGINE)
                .should().dependOnClassesThat().resideInAnyPackage(concat(concat(LOG_TOOLS, FORMATS),
                        concat(SIMULATION, new String[] {STORE, METRICS, TESTKIT, "io.kvledger.infrastructure.."})))
                .because("store modules plug in through the LedgerStoreProvider SPI; the engine depends on none of them")
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
}
