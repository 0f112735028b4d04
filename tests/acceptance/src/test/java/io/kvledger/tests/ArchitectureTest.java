package io.kvledger.tests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.ClassReader;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.ClassVisitor;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.MethodVisitor;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.Opcodes;
import io.kvledger.containers.StateMap;
import io.kvledger.domain.state.CpuTier;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.JobIds;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RetiredRequests;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Layering: the domain is plain Java (plus the generic containers of {@code io.kvledger.containers}, which depend
 * on Java alone) and knows nothing of Axon, Jackson, picocli, Vavr or the outer modules; it holds no static
 * mutable state and takes no locks, and only the fold ({@code io.kvledger.domain.*Fold}) calls the state's
 * changing methods (the state is changed in place, so a {@code decide} that called one would change the live
 * state); the application layer does not reach into infrastructure or the simulation; the log tools never
 * touch Axon or the engine; nothing imports the command line; the simulation module knows no edge but the
 * formats; the JSON formats know no engine; the testkit and every library module stay below the command line;
 * no package imports itself through others (the engine's own packages aside), so the audit and the log checks
 * share the finding vocabulary without importing each other in a circle.
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
                .resideInAnyPackage(DOMAIN_DEPENDENCIES)
                .allowEmptyShould(false);
        AssertionError error = assertThrows(AssertionError.class, () -> rule.check(production));
        assertTrue(error.getMessage().contains("org.axonframework"), error.getMessage());
    }

    @Test
    void domainHoldsNoStaticMutableState() {
        staticStateRule("io.kvledger.domain..").check(production);
    }

    @Test
    void theStaticStateRuleBitesWhenBroken() {
        // The simulator keeps its named models in a static map: the same rule over its package must fail.
        AssertionError error = assertThrows(AssertionError.class,
                () -> staticStateRule("io.kvledger.simulation..").check(production));
        assertTrue(error.getMessage().contains("SimulationModel.NAMED"), error.getMessage());
    }

    /** No static field in {@code packages} that is not final, or final of a mutable type. */
    private static ArchRule staticStateRule(String packages) {
        return fields().that().areDeclaredInClassesThat().resideInAPackage(packages)
                .and().areStatic().and().doNotHaveModifier(JavaModifier.SYNTHETIC)
                .should(new ArchCondition<JavaField>("be final and of an immutable type") {
                    @Override
                    public void check(JavaField field, ConditionEvents events) {
                        String mutable = mutableStatic(field);
                        if (mutable != null) {
                            events.add(SimpleConditionEvent.violated(field, field.getFullName() + " is " + mutable));
                        }
                    }
                })
                .because("a fold owns everything it changes: state shared by every thread and every fold makes one"
                        + " fold's result depend on another's")
                .allowEmptyShould(false);
    }

    /** Why a static field is mutable state (not final; an array, a JDK collection or map, a thread local, an atomic, a lock), or null. */
    private static String mutableStatic(JavaField field) {
        if (!field.getModifiers().contains(JavaModifier.FINAL)) {
            return "not final";
        }
        JavaClass type = field.getRawType();
        if (type.isArray()) {
            return "an array";
        }
        // The JDK's collections and maps may be changed by whoever holds them; the domain's own collections
        // (a block table, a tail of tokens) are immutable values.
        for (Class<?> mutable : List.of(Collection.class, Map.class, ThreadLocal.class, java.util.concurrent.locks.Lock.class)) {
            if (type.getPackageName().startsWith("java.") && type.isAssignableTo(mutable)) {
                return "a " + mutable.getSimpleName();
            }
        }
        if (type.getPackageName().equals("java.util.concurrent.atomic")) {
            return "an atomic";
        }
        return null;
    }

    @Test
    void domainTakesNoLocks() {
        assertEquals(Map.of(), locking("io.kvledger.domain."),
                "the state has one owner, the thread that folds it: nothing in the domain locks");
    }

    @Test
    void theLockRuleBitesWhenBroken() {
        // The file store hands appends to its writer thread under a lock: the same scan of its package finds it.
        assertTrue(locking("io.kvledger.infrastructure.store.").containsKey("io.kvledger.infrastructure.store.StoreWriter"),
                "the scan finds the store's locks");
    }

    /** The classes under {@code packagePrefix} that lock, each with how: synchronized methods and blocks, java.util.concurrent.locks. */
    private static Map<String, List<String>> locking(String packagePrefix) {
        Map<String, List<String>> locking = new TreeMap<>();
        long classes = 0;
        for (JavaClass type : production) {
            if (!type.getName().startsWith(packagePrefix)) {
                continue;
            }
            classes++;
            String owner = type.getName().split("\\$")[0];
            for (JavaMethod method : type.getMethods()) {
                if (method.getModifiers().contains(JavaModifier.SYNCHRONIZED)) {
                    locking.computeIfAbsent(owner, o -> new ArrayList<>()).add("synchronized " + method.getName());
                }
            }
            for (JavaAccess<?> access : type.getAccessesFromSelf()) {
                if (access.getTargetOwner().getPackageName().equals("java.util.concurrent.locks")) {
                    locking.computeIfAbsent(owner, o -> new ArrayList<>()).add(access.getTarget().getFullName());
                }
            }
            int blocks = synchronizedBlocks(type);
            if (blocks > 0) {
                locking.computeIfAbsent(owner, o -> new ArrayList<>()).add(blocks + " synchronized block(s)");
            }
        }
        assertTrue(classes > 5, "classes under " + packagePrefix + ": " + classes);
        return locking;
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
        for (String call : List.of("EngineState.withRequest", "CpuTier.touch", "StateHashMap.put")) {
            assertTrue(error.getMessage().contains(call), call + " in " + error.getMessage());
        }
    }

    /** What the fold rule refuses: a decision that changes the state it reads. */
    static final class DecidesByChanging {
        static EngineState decide(EngineState state, RequestState request) {
            state.tier().touch(List.of("k"));
            state.fences().put(1, JobIds.EMPTY);
            return state.withRequest(request);
        }
    }

    /**
     * No class in {@code packages} but a fold and the state's own classes (whose changing methods call each
     * other's) calls a method that changes the state: {@code EngineState.with*} and {@code retire}, a state map's
     * {@code put} and {@code remove}, the tier's changes, {@code RetiredRequests.retire}.
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
        return owner.isAssignableTo(RetiredRequests.class) && method.equals("retire");
    }

    /**
     * The {@code synchronized} blocks of a class (its {@code monitorenter} instructions), read from its bytecode
     * with ArchUnit's own copy of ASM: ArchUnit's model of a class has no monitors.
     */
    private static int synchronizedBlocks(JavaClass type) {
        String resource = type.getName().replace('.', '/') + ".class";
        try (InputStream in = ArchitectureTest.class.getClassLoader().getResourceAsStream(resource)) {
            assertTrue(in != null, "no bytecode for " + type.getName());
            int[] found = {0};
            new ClassReader(in).accept(new ClassVisitor(Opcodes.ASM9) {
                @Override
                public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                                 String[] exceptions) {
                    return new MethodVisitor(Opcodes.ASM9) {
                        @Override
                        public void visitInsn(int opcode) {
                            found[0] += opcode == Opcodes.MONITORENTER ? 1 : 0;
                        }
                    };
                }
            }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
            return found[0];
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long count(String packagePrefix) {
        return production.stream().filter(c -> c.getName().startsWith(packagePrefix)).count();
    }
}
