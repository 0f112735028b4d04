package io.kvledger.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.ClassReader;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.ClassVisitor;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.MethodVisitor;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.Opcodes;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.state.EngineState;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The engine's state belongs to the thread that steps it, and only while its step lasts (issue 32: the fold will
 * change it in place): what the edges of a step (step listeners, stores, meters, the sidecar, the simulator's host)
 * keep of it must be copied out on the stepping thread. Two ways of keeping it are caught here: a field holding an
 * {@link EngineState} or a {@link StepResult} (a gauge read at scrape time), and a lambda that captures a state (a
 * task run later, on a store's writer thread). Both are judged from the bytecode of the production classes outside
 * the domain and the log tools, which own folds of their own.
 *
 * <p>The classes that may keep one, each for its reason.
 */
class StateOwnershipTest {

    private static final String STATE = "Lio/kvledger/domain/state/EngineState;";

    /** Owners of a state, and the one place a state is handed over whole. */
    private static final Set<String> OWNERS = Set.of(
            // the aggregate: the one owner, folding each step's events
            "io.kvledger.application.engine.EngineAggregate",
            // the facade: KvLedger.state(), the newest state, a view valid until the next step (on the host's thread)
            "io.kvledger.application.AxonLedger",
            // what a step hands its caller and its listeners: the view itself
            "io.kvledger.application.engine.StepResult",
            // a decoded snapshot's state, handed to its first reader only (never a live state)
            "io.kvledger.infrastructure.store.SnapshotFile$Snapshot",
            // the state a log's first segment follows, decoded for the log tools' own fold
            "io.kvledger.infrastructure.store.StoreLog",
            // the simulator's stepping side lends the state to its checking side and waits until it is given back
            "io.kvledger.simulation.Stepped$Live",
            // the state after the simulation's last step, once the engine has stopped stepping
            "io.kvledger.simulation.Stepped$End");

    /** Types that hold what their type arguments name (a consumer or a function of a state holds none). */
    private static final List<Class<?>> CONTAINERS = List.of(java.util.Collection.class, java.util.Map.class,
            java.util.Optional.class, java.util.concurrent.atomic.AtomicReference.class);

    private static JavaClasses edges;

    @BeforeAll
    static void importClasses() {
        // The log tools and the command line's views of a state render a fold of their own, on its thread.
        edges = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("io.kvledger.application", "io.kvledger.infrastructure", "io.kvledger.simulation")
                .that(new com.tngtech.archunit.base.DescribedPredicate<JavaClass>("outside the log tools and views") {
                    @Override
                    public boolean test(JavaClass type) {
                        return !type.getPackageName().matches(
                                "io\\.kvledger\\.(application\\.(audit|check|explain|replay|finding)|infrastructure\\.view)(\\..*)?");
                    }
                });
    }

    @Test
    void noEdgeOfAStepKeepsTheStateInAField() {
        assertEquals(List.of(), keptInFields(edges), "fields keeping a state past its step: copy out what is needed on "
                + "the stepping thread (docs/architecture.md, one step)");
    }

    @Test
    void noEdgeOfAStepCapturesTheStateInALambda() {
        assertEquals(List.of(), capturedInLambdas(edges), "lambdas capturing a state, to be run later or on another "
                + "thread: hand them what was copied or encoded on the stepping thread");
    }

    /** The import sees the edges, and the rules see a state kept where one is (the owners themselves). */
    @Test
    void theRulesSeeAStateWhereOneIsKept() {
        assertTrue(edges.contain("io.kvledger.infrastructure.metrics.MicrometerStepListener"));
        assertTrue(edges.contain("io.kvledger.infrastructure.store.StoreSnapshots"));
        assertTrue(edges.contain("io.kvledger.infrastructure.serve.ServedEngine"));
        List<String> owners = fieldsOf(edges.get("io.kvledger.application.AxonLedger"));
        assertEquals(List.of("io.kvledger.application.AxonLedger.state"), owners);
        assertTrue(lambdasOf(StateOwnershipTest.class.getName(), Fixture.class).contains("lambda$later$0"),
                "a lambda capturing a state is seen");
    }

    /** A class keeping a state in a lambda, as the rule must see it. */
    static final class Fixture {
        static Runnable later(EngineState state) {
            return () -> state.config();
        }
    }

    private static List<String> keptInFields(JavaClasses classes) {
        Set<String> found = new TreeSet<>();
        for (JavaClass type : classes) {
            if (!OWNERS.contains(type.getName())) {
                found.addAll(fieldsOf(type));
            }
        }
        return List.copyOf(found);
    }

    private static List<String> fieldsOf(JavaClass type) {
        Set<String> found = new TreeSet<>();
        for (JavaField field : type.getFields()) {
            JavaClass raw = field.getRawType();
            boolean holder = raw.isArray() || CONTAINERS.stream().anyMatch(raw::isAssignableTo);
            for (JavaClass involved : holder ? field.getType().getAllInvolvedRawTypes() : Set.of(raw)) {
                if (involved.isEquivalentTo(EngineState.class) || involved.isEquivalentTo(StepResult.class)) {
                    found.add(field.getFullName());
                }
            }
        }
        return List.copyOf(found);
    }

    private static List<String> capturedInLambdas(JavaClasses classes) {
        Set<String> found = new TreeSet<>();
        for (JavaClass type : classes) {
            if (!OWNERS.contains(type.getName())) {
                for (String lambda : lambdasOf(type.getName(), type.reflect())) {
                    found.add(type.getName() + "." + lambda);
                }
            }
        }
        return List.copyOf(found);
    }

    /**
     * The synthetic methods of {@code type}'s lambdas that take a state as a parameter: a captured one, or one the
     * lambda is called with (a gauge's function of the state, read at scrape time, is as bad).
     */
    private static List<String> lambdasOf(String name, Class<?> type) {
        String resource = type.getName().replace('.', '/') + ".class";
        try (InputStream in = type.getClassLoader().getResourceAsStream(resource)) {
            assertTrue(in != null, "no bytecode for " + name);
            List<String> found = new java.util.ArrayList<>();
            new ClassReader(in).accept(new ClassVisitor(Opcodes.ASM9) {
                @Override
                public MethodVisitor visitMethod(int access, String method, String descriptor, String signature,
                                                 String[] exceptions) {
                    if ((access & Opcodes.ACC_SYNTHETIC) != 0 && method.startsWith("lambda$")
                            && descriptor.substring(0, descriptor.indexOf(')')).contains(STATE)) {
                        found.add(method);
                    }
                    return null;
                }
            }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
            return found;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
