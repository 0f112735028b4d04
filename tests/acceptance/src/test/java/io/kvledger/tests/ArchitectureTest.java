package io.kvledger.tests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Layering: the domain is plain Java (plus persistent collections) and knows nothing of Axon, Jackson,
 * picocli or the outer modules; the application layer does not reach into infrastructure.
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
                        "io.kvledger.application..", "io.kvledger.infrastructure..")
                .allowEmptyShould(false);
        rule.check(production);
    }

    @Test
    void applicationDoesNotDependOnInfrastructure() {
        ArchRule rule = noClasses().that().resideInAPackage("io.kvledger.application..")
                .should().dependOnClassesThat().resideInAPackage("io.kvledger.infrastructure..")
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
