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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The log tools and the formats: the log tools never touch Axon or the engine; the vocabulary of findings
 * depends on no code's package; the trace reads logs without the engine; the JSON formats know no engine.
 *
 * <p>The production classes are those of {@link ProductionClasses}. Every rule refuses to pass over zero classes.
 */
class LogToolsArchitectureTest {

    private final JavaClasses production = ProductionClasses.all();

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
    void theFormatsKnowNoEngineNoStoreAndNoFramework() {
        ArchRule rule = noClasses().that().resideInAnyPackage(FORMATS)
                .should().dependOnClassesThat().resideInAnyPackage(concat(concat(ENGINE, LOG_TOOLS),
                        concat(SIMULATION, new String[] {STORE, METRICS, TESTKIT, "org.axonframework..", "picocli.."})))
                .because("a tool that reads or writes the contract's JSON needs the domain and Jackson, nothing more")
                .allowEmptyShould(false);
        rule.check(production);
    }
}
