package io.kvledger.tests.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The trace is a log tool: it folds with the domain's fold through the log tools' code, and never starts Axon. */
class TraceArchitectureTest {

    @Test
    void theTraceUsesNoAxonAndNoEngineFacade() {
        noClasses().that().resideInAPackage("io.kvledger.infrastructure.trace..")
                .should().dependOnClassesThat().resideInAnyPackage("org.axonframework..",
                        "io.kvledger.application.engine..", "io.kvledger.application.axon..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("io.kvledger.application.KvLedger")
                .allowEmptyShould(false)
                .check(new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("io.kvledger.infrastructure.trace"));
    }
}
