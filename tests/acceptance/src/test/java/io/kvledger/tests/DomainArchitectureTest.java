package io.kvledger.tests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import io.kvledger.containers.StateMap;
import io.kvledger.domain.state.CpuTier;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.JobIds;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RetiredRequests;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The domain's dependencies and who changes its state: the domain is plain Java (plus the generic containers of
 * {@code io.kvledger.containers}, which depend on Java alone) and knows nothing of Axon, Jackson, picocli, Vavr or
 * the outer modules; only the fold ({@code io.kvledger.domain.*Fold}) calls the state's changing methods (the
 * state is changed in place, so a {@code decide} that called one would change the live state). Each rule has a
 * test that it fails where it should. {@link DomainSharedStateArchitectureTest} holds the domain to no static
 * mutable state and no locks.
 *
 * <p>The production classes are those of {@link ProductionClasses}. Every rule refuses to pass over zero classes.
 */
class DomainArchitectureTest {

    private final JavaClasses production = ProductionClasses.all();

    /** What the domain may depend on: Java, its own packages and the generic containers. */
    private static final String[] DOMAIN_DEPENDENCIES = {"java..", "io.kvledger.domain..", "io.kvledger.containers.."};

    @Test
    void domainDependsOnlyOnJavaTheContainersAndItself() {
        ArchRule rule = classes().that().resideInAPackage("io.kvledger.domain..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage(DOMAIN_DEPENDENCIES)
                .because("the domain is plain Java: decide reads the state, and the fold alone changes it")
                .allowEmptyShould(false);
        rule.check(production);
    }

    @Test
    void theContainersDependOnlyOnJava() {
        containersRule("io.kvledger.containers..").check(production);
    }

    @Test
    void theContainersRuleBitesWhenBroken() {
        // The same rule over the domain, which depends on its own packages and the containers, must fail.
        AssertionError error = assertThrows(AssertionError.class, () -> containersRule("io.kvledger.domain..").check(production));
        assertTrue(error.getMessage().contains("io.kvledger.domain.state.EngineState"), error.getMessage());
    }

    /** The classes in {@code packages} depend on nothing but Java (and one another). */
    private static ArchRule containersRule(String packages) {
        return classes().that().resideInAPackage(packages)
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.kvledger.containers..")
                .because("the generic containers hold no rule and no domain vocabulary: they know only Java")
                .allowEmptyShould(false);
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
    void theDomainRuleBitesWhenBroken() {
        // The same rule applied to the application layer, which uses Axon, must fail: the rule is not vacuous.
        ArchRule rule = classes().that().resideInAPackage("io.kvledger.application..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage(DOMAIN_DEPENDENCIES)
                .allowEmptyShould(false);
        AssertionError error = assertThrows(AssertionError.class, () -> rule.check(production));
        assertTrue(error.getMessage().contains("org.axonframework"), error.getMessage());
    }

    /** A fold class: {@code EngineFold} and the folds it splits into, the only code that changes the state. */
    private static final String FOLD_CLASS = "io\\.kvledger\\.domain\\.[A-Za-z]+Fold(\\$.*)?";

    @Test
    void onlyTheFoldChangesTheState() {
        onlyTheFoldChangesTheState("io.kvledger.domain..").check(production);
    }

    @Test
    void theFoldRuleBitesWhenBroken() {
        JavaClasses decidingByChanging = new ClassFileImporter().importClasses(DecidesByChanging.class);
        AssertionError error = assertThrows(AssertionError.class,
                () -> onlyTheFoldChangesTheState("io.kvledger.tests..").check(decidingByChanging));
        for (String call : List.of("EngineState.withRequest", "CpuTier.touch", "StateHashMap.put",
                "RequestState.setComputed", "RequestState.setCursor")) {
            assertTrue(error.getMessage().contains(call), call + " in " + error.getMessage());
        }
    }

    @Test
    void onlyTheFoldChangesARequestAnywhere() {
        // The log tools, views and the simulator read requests of a state they do not fold: none may change one.
        onlyTheFoldChangesARequest().check(production);
    }

    @Test
    void theRequestRuleBitesWhenBroken() {
        JavaClasses decidingByChanging = new ClassFileImporter().importClasses(DecidesByChanging.class);
        AssertionError error = assertThrows(AssertionError.class, () -> onlyTheFoldChangesARequest().check(decidingByChanging));
        assertTrue(error.getMessage().contains("RequestState.setComputed"), error.getMessage());
    }

    /** No class but a fold and the state's own calls a request's {@code set*}, whatever its module. */
    private static ArchRule onlyTheFoldChangesARequest() {
        return noClasses().that().resideOutsideOfPackage("io.kvledger.domain.state")
                .and().haveNameNotMatching(FOLD_CLASS)
                .should().callMethodWhere(new DescribedPredicate<JavaMethodCall>("a request's set method") {
                    @Override
                    public boolean test(JavaMethodCall call) {
                        return call.getTarget().getOwner().isAssignableTo(RequestState.class)
                                && call.getTarget().getName().startsWith("set");
                    }
                })
                .because("a request is changed in place by the fold alone: a reader that changed one would change the"
                        + " state it reads")
                .allowEmptyShould(false);
    }

    /** What the fold rule refuses: a decision that changes the state it reads. */
    static final class DecidesByChanging {
        static EngineState decide(EngineState state, RequestState request) {
            state.tier().touch(List.of("k"));
            state.fences().put(1, JobIds.EMPTY);
            // A "what if" made by changing the held request instead of a copy of it (request.withComputed).
            request.setComputed(request.computed() + 1);
            request.setCursor(1, 0);
            return state.withRequest(request);
        }
    }

    /**
     * No class in {@code packages} but a fold and the state's own classes (whose changing methods call each
     * other's) calls a method that changes the state: {@code EngineState.with*} and {@code retire}, a state map's
     * {@code put} and {@code remove}, the tier's changes, {@code RetiredRequests.retire}, a held request's
     * {@code set*} (its {@code with*} copies are a rule's to use).
     */
    private static ArchRule onlyTheFoldChangesTheState(String packages) {
        return noClasses().that().resideInAPackage(packages)
                .and().resideOutsideOfPackage("io.kvledger.domain.state")
                .and().haveNameNotMatching(FOLD_CLASS)
                .should().callMethodWhere(new DescribedPredicate<JavaMethodCall>("a method that changes the state") {
                    @Override
                    public boolean test(JavaMethodCall call) {
                        return changesTheState(call.getTarget().getOwner(), call.getTarget().getName());
                    }
                })
                .because("the state is changed in place by its one owner, the fold: decide reads it and changes nothing")
                .allowEmptyShould(false);
    }

    private static boolean changesTheState(JavaClass owner, String method) {
        if (owner.isAssignableTo(EngineState.class)) {
            return method.startsWith("with") || method.equals("retire");
        }
        if (owner.isAssignableTo(StateMap.class)) {
            return method.equals("put") || method.equals("remove");
        }
        if (owner.isAssignableTo(CpuTier.class)) {
            return Set.of("writing", "touch", "writingThenTouching", "ready", "remove", "pin", "unpin", "cleared")
                    .contains(method);
        }
        if (owner.isAssignableTo(RequestState.class)) {
            return method.startsWith("set");
        }
        return owner.isAssignableTo(RetiredRequests.class) && method.equals("retire");
    }
}
