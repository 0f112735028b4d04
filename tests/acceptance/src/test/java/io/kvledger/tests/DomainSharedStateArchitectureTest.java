package io.kvledger.tests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.ClassReader;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.ClassVisitor;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.MethodVisitor;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.Opcodes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The domain shares nothing between folds: it holds no static mutable state and takes no locks (a state has one
 * owner, the thread that folds it). Each rule has a test that it fails where it should.
 *
 * <p>The production classes are those of {@link ProductionClasses}. Every rule refuses to pass over zero classes.
 */
class DomainSharedStateArchitectureTest {

    private final JavaClasses production = ProductionClasses.all();

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
    private Map<String, List<String>> locking(String packagePrefix) {
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

    /**
     * The {@code synchronized} blocks of a class (its {@code monitorenter} instructions), read from its bytecode
     * with ArchUnit's own copy of ASM: ArchUnit's model of a class has no monitors.
     */
    private static int synchronizedBlocks(JavaClass type) {
        String resource = type.getName().replace('.', '/') + ".class";
        try (InputStream in = DomainSharedStateArchitectureTest.class.getClassLoader().getResourceAsStream(resource)) {
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
}
